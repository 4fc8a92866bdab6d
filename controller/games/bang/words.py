"""Bang!'s log lines: one sentence per effect, from public facts only (a draw says how many, never
which card; a stolen hand card is "a card"). Each line is said with
:func:`~gametable_core.said.say`, so phones show it in their language (card titles are terms of
the catalogue: ``BANG! 8♦`` is the title ``BANG!`` and its rank and suit)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from controller.games.bang import cards as C
from controller.games.words import Speaker
from gametable_core.said import N_, listing, say, term

ROLE = {"sheriff": N_("the Sheriff"), "deputy": N_("a Deputy"), "outlaw": N_("an Outlaw"), "renegade": N_("the Renegade")}
CHECK = {"dynamite": "Dynamite", "jail": "Jail", "barrel": "Barrel"}  # card titles (terms)
WINDOW = {"shot": N_("Missed! or take it"), "indians": N_("a BANG! or take it"), "duel": N_("a BANG! or take it"),
          "dying": N_("a Beer or die"), "store": N_("pick a card"), "draw_choice": N_("choose how to draw")}
SUITS = "♠♥♦♣"


def _t(card: Any) -> str:
    if not (isinstance(card, str) and card in C.CARD):
        return say("a card")
    return _card_title(card)


@lru_cache(maxsize=len(C.CARD))
def _card_title(card: str) -> str:
    """``BANG! 8♦`` (a Said is immutable: each card's is made once; a view says its log every call)."""
    c = C.CARD[card]
    suit = SUITS[["spades", "hearts", "diamonds", "clubs"].index(c["suit"])]
    return say("{card} {rank}{suit}", card=term(C.TITLES[c["name"]]), rank=c["rank"], suit=suit)


def _ts(cards: Any) -> Any:
    return listing(_t(c) for c in cards or [])


def line(eff: dict[str, Any], speak: Speaker) -> str | None:  # noqa: C901 - one case per effect
    kind, who = eff["kind"], speak.who
    s = who(eff.get("seat"))
    if kind == "draw":
        return say("{who} draws {count}", who=s, count=eff["count"])
    if kind == "check":
        check = term(CHECK[eff["for"]]) if eff["for"] in CHECK else eff["for"]
        if eff["ok"]:
            return say("draw! for {check} ({who}): {cards} — good", check=check, who=s, cards=_ts(eff["cards"]))
        return say("draw! for {check} ({who}): {cards} — bad", check=check, who=s, cards=_ts(eff["cards"]))
    if kind == "dynamite_passes":
        return say("The Dynamite passes from {who} to {to}", who=s, to=who(eff["to"]))
    if kind == "dynamite_explodes":
        return say("The Dynamite explodes on {who}!", who=s)
    if kind == "jail":
        return say("{who} breaks out of Jail", who=s) if eff["free"] else say("{who} stays in Jail: turn skipped", who=s)
    if kind == "shows":
        if eff["extra"]:
            return say("{who} shows {card}: draws one more", who=s, card=_t(eff["card"]))
        return say("{who} shows {card}", who=s, card=_t(eff["card"]))
    if kind == "returns":
        return say("{who} puts one card back on the deck", who=s)
    if kind == "takes_discard":
        return say("{who} takes {card} from the discard pile", who=s, card=_t(eff["card"]))
    if kind == "steals":
        return say("{who} takes {card} from {target}", who=s, card=_t(eff.get("card")) if eff.get("card") else say("a card"),
                   target=who(eff["target"]))
    if kind == "play":
        as_ = say(" as {card}", card=term(C.TITLES[eff["as"]])) if eff.get("as") else ""
        at = say(" at {target}", target=who(eff["target"])) if "target" in eff else ""
        return say("{who} plays {card}{as_}{at}", who=s, card=_t(eff["card"]), as_=as_, at=at)
    if kind == "respond":
        return say("{who} answers with {cards}", who=s, cards=_ts(eff["cards"]))
    if kind == "missed":
        return say("{who}'s Barrel: missed!", who=s) if eff["by"] == "barrel" else ""
    if kind == "pass":
        return say("{who} takes it", who=s)
    if kind == "timeout":
        return say("Time is up for {who}", who=s)
    if kind == "window":
        ask = say(WINDOW[eff["window"]]) if eff["window"] in WINDOW else say("answer")
        if eff.get("source") is not None and eff["window"] != "draw_choice":
            return say("{who}: {ask} (from {source})", who=s, ask=ask, source=who(eff["source"]))
        return say("{who}: {ask}", who=s, ask=ask)
    if kind == "hit":
        return say("{who} loses {amount} life ({life} left)", who=s, amount=eff["amount"], life=eff["life"])
    if kind == "heal":
        return say("{who} regains {amount} life ({life})", who=s, amount=eff["amount"], life=eff["life"])
    if kind == "dies":
        return say("{who} is out — was {role}", who=s, role=say(ROLE[eff["role"]]))
    if kind == "vulture":
        return say("{who} takes {target}'s {count} cards", who=s, target=who(eff["target"]), count=eff["count"])
    if kind == "penalty":
        return say("{who} killed a Deputy and discards every card", who=s)
    if kind == "discards":
        return say("{who} discards {cards}", who=s, cards=_ts(eff["cards"]))
    if kind == "store":
        return say("General Store: {cards}", cards=_ts(eff["cards"]))
    if kind == "picks":
        return say("{who} picks {card}", who=s, card=_t(eff["card"]))
    if kind == "reshuffle":
        return say("The discard pile is shuffled into a new deck")
    if kind == "must_discard":
        return say("{who} must discard {count}", who=s, count=eff["count"])
    if kind == "ability":
        return say("{who} discards {cards} to regain 1 life", who=s, cards=_ts(eff["cards"]))
    if kind == "end_turn":
        return ""
    return None
