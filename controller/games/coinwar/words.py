"""Coin War's effects in words for the table log ("Ann knocked Bo's coin into the goal").

Only public facts: the effects as ``events`` carries them and the public view (docs/rules/coinwar.md CW-4 …
CW-8). Effects without a line here get the shared or generic line of :mod:`controller.games.words`.
"""

from __future__ import annotations

from typing import Any

from controller.games import words as shared

QUESTIONS = {"dead": "which coins ended in the goal", "flown": "which coins flew",
             "contacts": "which coins were touched"}
# effects that are one seat doing one thing: "<who> <words>"
PLAIN = {"strike": "strikes", "end_turn": "ended the turn",
         "withdraw": "withdrew a strike the table did not see"}  # CW-5.6
CAUSES = {"goal": "into the goal", "execution": "off by execution (CW-6.4)"}


def line(eff: dict[str, Any], speak: shared.Speaker) -> str | None:
    """One sentence for a Coin War effect, "" for none, or None when the shared words say it."""
    kind, seat, who = eff["kind"], eff.get("seat"), speak.who
    rule = f" ({eff['rule']})" if isinstance(eff.get("rule"), str) else ""
    if kind in PLAIN:
        return f"{who(seat)} {PLAIN[kind]}"
    if kind == "shot":
        speak.notes["shooter"] = seat
        if not eff.get("dead") and not eff.get("flown"):
            own = speak.coin_owner.get(str(eff.get("coin"))) == seat
            return f"{who(seat)} flicked {'their coin' if own else speak.coin(eff.get('coin'))}"
        return ""  # the goal / foul lines that follow say what the shot did
    tk = _three_kingdoms(eff, speak)
    if tk is not None:
        return tk
    if kind == "out" and eff.get("cause") is not None:
        return _out(eff, speak)
    if kind == "attack":
        return f"{who(seat)} hit an enemy coin{rule}"
    if kind == "foul":
        flown = ", ".join(speak.coin(c) for c in eff.get("flown") or [])
        text = f"Foul by {who(seat)}: {flown} flew{rule}"
        if eff.get("extra_turn") is not None:
            text += f"; {who(eff['extra_turn'])} gets an extra turn"
        return text
    if kind == "placed":
        return f"{speak.coin(eff.get('coin'))} is back on the table"
    if kind == "question":
        about = str(eff.get("about"))
        return f"{who(seat)} must answer: {QUESTIONS.get(about, about)}?"
    return None


TK_CARDS = {"elixir": "Elixir", "burning_camps": "Burning Camps", "combo": "Combo"}
TK_IDENTITIES = {"lord": "the Lord", "loyalist": "a Loyalist", "rebel": "a Rebel", "traitor": "the Traitor"}
TK_CAUSES = {"goal": "", "execution": " (executed)", "burning_camps": " to the fire"}


def _three_kingdoms(eff: dict[str, Any], speak: shared.Speaker) -> str | None:
    """Three Kingdoms' effects (CW-7.5) as players say them; None for any other effect."""
    kind, seat, who = eff["kind"], eff.get("seat"), speak.who
    raw = eff.get("card")
    card: dict[str, Any] = raw if isinstance(raw, dict) else {}
    points = f" ({card['points']})" if card.get("points") is not None else ""
    plural = "s" if eff.get("count") != 1 else ""
    lines = {
        "draw": lambda: f"{who(seat)} draws {eff.get('count')} card{plural}",
        "damage": lambda: f"{who(seat)} loses 1 health{TK_CAUSES.get(str(eff.get('cause')), '')}: {eff.get('health')} left",
        "elixir": lambda: f"{who(seat)} drinks an Elixir{points}: back to {eff.get('health')} health",
        "stays_hidden": lambda: f"{who(seat)} stays hidden",
        "revealed": lambda: f"{who(seat)} is revealed: {TK_IDENTITIES.get(str(eff.get('identity')), eff.get('identity'))}",
        "damage_pending": lambda: f"{who(seat)} is about to lose health: Elixir or not?",
        "fire_out": lambda: f"The fire in {who(seat)}'s camp goes out{points}",
        "burning": lambda: f"{who(seat)}'s camp burns{points}",
        "discard_due": lambda: f"{who(seat)} holds too many cards: discards {eff.get('count')}",
        "discard": lambda: f"{who(seat)} discards {len(eff.get('cards') or [])} card(s)",
        "combo": lambda: f"{who(seat)} plays Combo{points}: {eff.get('strikes_allowed')} strikes this turn",
        "burning_camps": lambda: f"{who(seat)} sets {who(eff.get('target'))}'s camp on fire (Burning Camps{points})",
    }
    if kind == "out" and eff.get("identity"):
        return f"{who(seat)} is out{TK_CAUSES.get(str(eff.get('cause')), '')}: {TK_IDENTITIES.get(str(eff['identity']), eff['identity'])}"
    make = lines.get(kind)
    return make() if make else None


def _out(eff: dict[str, Any], speak: shared.Speaker) -> str:
    seat, who, shooter = eff.get("seat"), speak.who, speak.notes.get("shooter")
    cause = str(eff.get("cause"))
    how = CAUSES.get(cause, f"out ({cause})")
    if eff.get("cause") == "goal" and shooter is not None and shooter != seat:
        return f"{who(shooter)} knocked {who(seat)}'s coin {how}"
    if eff.get("cause") == "goal" and shooter == seat:
        return f"{who(seat)} knocked their own coin {how}"
    return f"{who(seat)} is out: {how}"


def words(inp: dict[str, Any] | None, effects: list[dict[str, Any]], state: dict[str, Any] | None,
          titles: dict[str, str] | None = None) -> list[str]:
    """The log lines of one input (the game contract's ``words``)."""
    return shared.narrate(inp, effects, state, line, titles)
