"""(Frozen oracle, see narration_oracle.py.) Coup's effects in words for the table log ("Bo challenges Ann's Duke (K)") — docs/rules/coup.md CP-2..CP-5.

Only public facts: effects are what the daemon publishes on ``events`` (hidden cards never appear
in them), so a line can name a card only when the rules turn it face up or show it (CP-3.2, CP-5.1).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.games.coup.cards import POKER_RANK

MOVES = {"income": "takes income", "foreign_aid": "takes foreign aid", "tax": "takes tax",
         "assassinate": "assassinates", "steal": "steals from", "exchange": "exchanges", "coup": "launches a coup"}
WINDOWS = {"challenge_action": "challenge", "block": "block", "challenge_block": "challenge the block"}


def card(name: Any) -> str:
    """``Captain (10)``: the role and its poker rank (CP-1)."""
    return f"{str(name).capitalize()} ({POKER_RANK.get(str(name), '?')})"


def coup_line(eff: dict[str, Any], who: Callable[[Any], str]) -> str | None:  # noqa: C901 (frozen oracle: kept as it was)
    """One sentence for a Coup effect, or None when the kind is not Coup's own."""
    kind, seat = eff.get("kind"), eff.get("seat")
    if kind == "declare":
        target = f" {who(eff['target'])}" if eff.get("target") is not None else ""
        claim = f", claiming {card(eff['claim'])}" if eff.get("claim") else ""
        paid = f" (pays {eff['paid']})" if eff.get("paid") else ""
        return f"{who(seat)} {MOVES.get(str(eff.get('move')), eff.get('move'))}{target}{claim}{paid}"
    if kind == "window":
        listed = eff.get("seats")
        seats = ", ".join(who(s) for s in listed) if isinstance(listed, list) and listed else "others"
        return f"{seats} may {WINDOWS.get(str(eff.get('window')), eff.get('window'))}"
    if kind == "pass":
        return f"{who(seat)} passes"
    if kind == "timeout":
        return "Time is up: nobody reacted"
    if kind == "challenge":
        return f"{who(seat)} challenges {who(eff.get('claimant'))}'s {card(eff.get('claim'))}"
    if kind == "show":
        return f"{who(seat)} shows {card(eff.get('card'))} and draws a new card (CP-3.2)"
    if kind == "bluff":
        return f"{who(seat)} had no {card(eff.get('claim'))}: the claim fails (CP-3.3)"
    if kind == "block":
        return f"{who(seat)} blocks, claiming {card(eff.get('claim'))}"
    if kind == "blocked":
        return f"{who(seat)}'s block with {card(eff.get('claim'))} stands: the action is stopped"
    if kind == "choose":
        return (f"{who(seat)} must turn a card face up" if eff.get("choice") == "lose_influence"
                else f"{who(seat)} chooses cards to return")
    if kind == "reveal":
        return f"{who(seat)} turns {card(eff.get('card'))} face up"
    if kind == "lose_influence":
        return f"{who(seat)} loses an influence"
    if kind == "coins":
        return f"{who(seat)} gets {eff.get('coins')} coin{'' if eff.get('coins') == 1 else 's'}"
    if kind == "steal":
        return f"{who(seat)} steals {eff.get('coins')} from {who(eff.get('target'))}"
    if kind == "assassinate":
        return f"{who(seat)} assassinates one of {who(eff.get('target'))}'s cards"
    if kind == "coup":
        return f"{who(seat)} pays {eff.get('coins')} for a coup against {who(eff.get('target'))}"
    if kind == "refund":
        return f"{who(seat)} gets the {eff.get('coins')} coins back (CP-2.3)"
    if kind == "exchange_draw":
        return f"{who(seat)} draws {eff.get('count')} cards to exchange"
    if kind == "exchange_return":
        return f"{who(seat)} returns {eff.get('count')} cards to the deck"
    return None
