"""Bang!'s log lines: one sentence per effect, from public facts only (a draw says how many, never
which card; a stolen hand card is "a card")."""

from __future__ import annotations

from typing import Any

from controller.games.bang import cards as C
from controller.games.words import Speaker

ROLE = {"sheriff": "the Sheriff", "deputy": "a Deputy", "outlaw": "an Outlaw", "renegade": "the Renegade"}
CHECK = {"dynamite": "Dynamite", "jail": "Jail", "barrel": "Barrel"}
WINDOW = {"shot": "Missed! or take it", "indians": "a BANG! or take it", "duel": "a BANG! or take it",
          "dying": "a Beer or die", "store": "pick a card", "draw_choice": "choose how to draw"}


def _t(card: Any) -> str:
    return C.title(card) if isinstance(card, str) and card in C.CARD else "a card"


def _ts(cards: Any) -> str:
    return ", ".join(_t(c) for c in cards or [])


def line(eff: dict[str, Any], speak: Speaker) -> str | None:  # noqa: C901 - one case per effect
    kind, who = eff["kind"], speak.who
    s = who(eff.get("seat"))
    if kind == "draw":
        return f"{s} draws {eff['count']}"
    if kind == "check":
        return f"draw! for {CHECK.get(eff['for'], eff['for'])} ({s}): {_ts(eff['cards'])} — " + (
            "good" if eff["ok"] else "bad")
    if kind == "dynamite_passes":
        return f"The Dynamite passes from {s} to {who(eff['to'])}"
    if kind == "dynamite_explodes":
        return f"The Dynamite explodes on {s}!"
    if kind == "jail":
        return f"{s} breaks out of Jail" if eff["free"] else f"{s} stays in Jail: turn skipped"
    if kind == "shows":
        return f"{s} shows {_t(eff['card'])}" + (": draws one more" if eff["extra"] else "")
    if kind == "returns":
        return f"{s} puts one card back on the deck"
    if kind == "takes_discard":
        return f"{s} takes {_t(eff['card'])} from the discard pile"
    if kind == "steals":
        return f"{s} takes {_t(eff.get('card')) if eff.get('card') else 'a card'} from {who(eff['target'])}"
    if kind == "play":
        as_ = f" as {C.TITLES[eff['as']]}" if eff.get("as") else ""
        at = f" at {who(eff['target'])}" if "target" in eff else ""
        return f"{s} plays {_t(eff['card'])}{as_}{at}"
    if kind == "respond":
        return f"{s} answers with {_ts(eff['cards'])}"
    if kind == "missed":
        return f"{s}'s Barrel: missed!" if eff["by"] == "barrel" else ""
    if kind == "pass":
        return f"{s} takes it"
    if kind == "timeout":
        return f"Time is up for {s}"
    if kind == "window":
        src = f" (from {who(eff['source'])})" if eff.get("source") is not None and eff["window"] != "draw_choice" else ""
        return f"{s}: {WINDOW.get(eff['window'], 'answer')}{src}"
    if kind == "hit":
        return f"{s} loses {eff['amount']} life ({eff['life']} left)"
    if kind == "heal":
        return f"{s} regains {eff['amount']} life ({eff['life']})"
    if kind == "dies":
        return f"{s} is out — was {ROLE[eff['role']]}"
    if kind == "vulture":
        return f"{s} takes {who(eff['target'])}'s {eff['count']} cards"
    if kind == "penalty":
        return f"{s} killed a Deputy and discards every card"
    if kind == "discards":
        return f"{s} discards {_ts(eff['cards'])}"
    if kind == "store":
        return f"General Store: {_ts(eff['cards'])}"
    if kind == "picks":
        return f"{s} picks {_t(eff['card'])}"
    if kind == "reshuffle":
        return "The discard pile is shuffled into a new deck"
    if kind == "must_discard":
        return f"{s} must discard {eff['count']}"
    if kind == "ability":
        return f"{s} discards {_ts(eff['cards'])} to regain 1 life"
    if kind == "end_turn":
        return ""
    return None
