"""Coin War's effects in words for the table log ("Ann knocked Bo's coin into the goal").

Only public facts: the effects as ``events`` carries them and the public view (docs/rules/coinwar.md CW-4 …
CW-8). Effects without a line here get the shared or generic line of :mod:`controller.games.words`.
Each line is said with :func:`~gametable_core.said.say`, so phones show it in their language.
"""

from __future__ import annotations

from typing import Any

from controller.games import words as shared
from gametable_core.said import N_, listing, say, say_n

QUESTIONS = {"dead": N_("which coins ended in the goal"), "flown": N_("which coins flew"),
             "contacts": N_("which coins were touched")}
# effects that are one seat doing one thing
PLAIN = {"strike": N_("{who} strikes"), "end_turn": N_("{who} ended the turn"),
         "withdraw": N_("{who} withdrew a strike the table did not see")}  # CW-5.6
CAUSES = {"goal": N_("into the goal"), "execution": N_("off by execution (CW-6.4)")}


def line(eff: dict[str, Any], speak: shared.Speaker) -> str | None:
    """One sentence for a Coin War effect, "" for none, or None when the shared words say it."""
    kind, seat, who = eff["kind"], eff.get("seat"), speak.who
    rule = f" ({eff['rule']})" if isinstance(eff.get("rule"), str) else ""
    if kind in PLAIN:
        return say(PLAIN[kind], who=who(seat))
    if kind == "shot":
        speak.notes["shooter"] = seat
        if not eff.get("dead") and not eff.get("flown"):
            own = speak.coin_owner.get(str(eff.get("coin"))) == seat
            if own:
                return say("{who} flicked their coin", who=who(seat))
            return say("{who} flicked {coin}", who=who(seat), coin=speak.coin(eff.get("coin")))
        return ""  # the goal / foul lines that follow say what the shot did
    tk = _three_kingdoms(eff, speak)
    if tk is not None:
        return tk
    if kind == "out" and eff.get("cause") is not None:
        return _out(eff, speak)
    if kind == "attack":
        return say("{who} hit an enemy coin{rule}", who=who(seat), rule=rule)
    if kind == "foul":
        flown = listing(speak.coin(c) for c in eff.get("flown") or [])
        if eff.get("extra_turn") is not None:
            return say("Foul by {who}: {flown} flew{rule}; {extra} gets an extra turn", who=who(seat), flown=flown,
                       rule=rule, extra=who(eff["extra_turn"]))
        return say("Foul by {who}: {flown} flew{rule}", who=who(seat), flown=flown, rule=rule)
    if kind == "placed":
        return say("{coin} is back on the table", coin=speak.coin(eff.get("coin")))
    if kind == "question":
        about = str(eff.get("about"))
        return say("{who} must answer: {question}?", who=who(seat),
                   question=say(QUESTIONS[about]) if about in QUESTIONS else about)
    return None


TK_IDENTITIES = {"lord": N_("the Lord"), "loyalist": N_("a Loyalist"), "rebel": N_("a Rebel"), "traitor": N_("the Traitor")}
TK_CAUSES = {"goal": "", "execution": N_(" (executed)"), "burning_camps": N_(" to the fire")}


def _identity(value: Any) -> str:
    return say(TK_IDENTITIES[str(value)]) if str(value) in TK_IDENTITIES else str(value)


def _cause(value: Any) -> str:
    cause = TK_CAUSES.get(str(value), "")
    return say(cause) if cause else ""


def _three_kingdoms(eff: dict[str, Any], speak: shared.Speaker) -> str | None:
    """Three Kingdoms' effects (CW-7.5) as players say them; None for any other effect."""
    kind, seat, who = eff["kind"], eff.get("seat"), speak.who
    raw = eff.get("card")
    card: dict[str, Any] = raw if isinstance(raw, dict) else {}
    points = f" ({card['points']})" if card.get("points") is not None else ""
    w = who(seat)
    lines = {
        "draw": lambda: say_n("{who} draws {n} card", "{who} draws {n} cards", eff.get("count"), who=w),
        "damage": lambda: say("{who} loses 1 health{cause}: {health} left", who=w, cause=_cause(eff.get("cause")),
                              health=eff.get("health")),
        "elixir": lambda: say("{who} drinks an Elixir{points}: back to {health} health", who=w, points=points,
                              health=eff.get("health")),
        "stays_hidden": lambda: say("{who} stays hidden", who=w),
        "revealed": lambda: say("{who} is revealed: {identity}", who=w, identity=_identity(eff.get("identity"))),
        "damage_pending": lambda: say("{who} is about to lose health: Elixir or not?", who=w),
        "fire_out": lambda: say("The fire in {who}'s camp goes out{points}", who=w, points=points),
        "burning": lambda: say("{who}'s camp burns{points}", who=w, points=points),
        "discard_due": lambda: say("{who} holds too many cards: discards {count}", who=w, count=eff.get("count")),
        "discard": lambda: say("{who} discards {count} card(s)", who=w, count=len(eff.get("cards") or [])),
        "combo": lambda: say("{who} plays Combo{points}: {strikes} strikes this turn", who=w, points=points,
                             strikes=eff.get("strikes_allowed")),
        "burning_camps": lambda: say("{who} sets {target}'s camp on fire (Burning Camps{points})", who=w,
                                     target=who(eff.get("target")), points=points),
    }
    if kind == "out" and eff.get("identity"):
        return say("{who} is out{cause}: {identity}", who=w, cause=_cause(eff.get("cause")),
                   identity=_identity(eff["identity"]))
    make = lines.get(kind)
    return make() if make else None


def _out(eff: dict[str, Any], speak: shared.Speaker) -> str:
    seat, who, shooter = eff.get("seat"), speak.who, speak.notes.get("shooter")
    cause = str(eff.get("cause"))
    how = say(CAUSES[cause]) if cause in CAUSES else say("out ({cause})", cause=cause)
    if eff.get("cause") == "goal" and shooter is not None and shooter != seat:
        return say("{shooter} knocked {who}'s coin {how}", shooter=who(shooter), who=who(seat), how=how)
    if eff.get("cause") == "goal" and shooter == seat:
        return say("{who} knocked their own coin {how}", who=who(seat), how=how)
    return say("{who} is out: {how}", who=who(seat), how=how)


def words(inp: dict[str, Any] | None, effects: list[dict[str, Any]], state: dict[str, Any] | None,
          titles: dict[str, str] | None = None) -> list[str]:
    """The log lines of one input (the game contract's ``words``)."""
    return shared.narrate(inp, effects, state, line, titles)
