"""Coup's effects in words for the table log ("Bo challenges Ann's Duke (K)") — docs/rules/coup.md CP-2..CP-5.

Only public facts: effects are what the daemon publishes on ``events`` (hidden cards never appear
in them), so a line can name a card only when the rules turn it face up or show it (CP-3.2, CP-5.1).
Effects without a line here (new game, turn, out, game over) get the shared words of
:mod:`controller.games.words`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.games.coup.cards import POKER_RANK
from controller.games.words import Speaker, Who

MOVES = {"income": "takes income", "foreign_aid": "takes foreign aid", "tax": "takes tax",
         "assassinate": "assassinates", "steal": "steals from", "exchange": "exchanges", "coup": "launches a coup"}
WINDOWS = {"challenge_action": "challenge", "block": "block", "challenge_block": "challenge the block"}


def card(name: Any) -> str:
    """``Captain (10)``: the role and its poker rank (CP-1)."""
    return f"{str(name).capitalize()} ({POKER_RANK.get(str(name), '?')})"


def _declare(eff: dict[str, Any], who: Who) -> str:
    target = f" {who(eff['target'])}" if eff.get("target") is not None else ""
    claim = f", claiming {card(eff['claim'])}" if eff.get("claim") else ""
    paid = f" (pays {eff['paid']})" if eff.get("paid") else ""
    return f"{who(eff.get('seat'))} {MOVES.get(str(eff.get('move')), eff.get('move'))}{target}{claim}{paid}"


def _window(eff: dict[str, Any], who: Who) -> str:
    listed = eff.get("seats")
    seats = ", ".join(who(s) for s in listed) if isinstance(listed, list) and listed else "others"
    return f"{seats} may {WINDOWS.get(str(eff.get('window')), eff.get('window'))}"


def _choose(eff: dict[str, Any], who: Who) -> str:
    if eff.get("choice") == "lose_influence":
        return f"{who(eff.get('seat'))} must turn a card face up"
    return f"{who(eff.get('seat'))} chooses cards to return"


def _coins(eff: dict[str, Any], who: Who) -> str:
    return f"{who(eff.get('seat'))} gets {eff.get('coins')} coin{'' if eff.get('coins') == 1 else 's'}"


# One sentence per Coup effect kind: (effect, who) -> line.
SAY: dict[str, Callable[[dict[str, Any], Who], str]] = {
    "declare": _declare,
    "window": _window,
    "choose": _choose,
    "coins": _coins,
    "pass": lambda e, who: f"{who(e.get('seat'))} passes",
    "timeout": lambda e, who: "Time is up: nobody reacted",
    "challenge": lambda e, who: f"{who(e.get('seat'))} challenges {who(e.get('claimant'))}'s {card(e.get('claim'))}",
    "show": lambda e, who: f"{who(e.get('seat'))} shows {card(e.get('card'))} and draws a new card (CP-3.2)",
    "bluff": lambda e, who: f"{who(e.get('seat'))} had no {card(e.get('claim'))}: the claim fails (CP-3.3)",
    "block": lambda e, who: f"{who(e.get('seat'))} blocks, claiming {card(e.get('claim'))}",
    "blocked": lambda e, who: f"{who(e.get('seat'))}'s block with {card(e.get('claim'))} stands: the action is stopped",
    "reveal": lambda e, who: f"{who(e.get('seat'))} turns {card(e.get('card'))} face up",
    "lose_influence": lambda e, who: f"{who(e.get('seat'))} loses an influence",
    "steal": lambda e, who: f"{who(e.get('seat'))} steals {e.get('coins')} from {who(e.get('target'))}",
    "assassinate": lambda e, who: f"{who(e.get('seat'))} assassinates one of {who(e.get('target'))}'s cards",
    "coup": lambda e, who: f"{who(e.get('seat'))} pays {e.get('coins')} for a coup against {who(e.get('target'))}",
    "refund": lambda e, who: f"{who(e.get('seat'))} gets the {e.get('coins')} coins back (CP-2.3)",
    "exchange_draw": lambda e, who: f"{who(e.get('seat'))} draws {e.get('count')} cards to exchange",
    "exchange_return": lambda e, who: f"{who(e.get('seat'))} returns {e.get('count')} cards to the deck",
}


def line(eff: dict[str, Any], speak: Speaker) -> str | None:
    """One sentence for a Coup effect, or None when the kind is not Coup's own."""
    say = SAY.get(str(eff.get("kind")))
    return say(eff, speak.who) if say else None
