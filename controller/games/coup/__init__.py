"""Coup on the table (docs/rules/coup.md, CP-1 … CP-7): a pure rules engine with the interface of
:mod:`controller.games.base`. Hidden hands live on the phones; this module referees."""

from __future__ import annotations

from typing import Any

from controller.games.base import GameError, State
from controller.games.coup.engine import MOVES, apply, apply_in_place
from controller.games.coup.legal import inputs_for, legal
from controller.games.coup.setup import MODES, PLAYERS, describe, new
from controller.games.coup.view import view


def public_input(inp: dict[str, Any]) -> dict[str, Any]:
    """An input as everyone may see it (for the public events topic): an ``exchange_return``
    names the cards going back into the deck, so only their number is kept (CP-6)."""
    if not isinstance(inp, dict) or inp.get("move") != "exchange_return":
        return inp
    args = inp.get("args")
    cards = args.get("cards") if isinstance(args, dict) else None
    count = len(cards) if isinstance(cards, list) else 0
    return {**inp, "args": {"count": count}}


def winner(state: State) -> list[int] | None:
    """``[seat]`` once one player is left with influence (CP-5.4), else None."""
    w: Any = state.get("winner")
    return None if w is None else list(w)


__all__ = [
    "MODES",
    "MOVES",
    "PLAYERS",
    "GameError",
    "apply",
    "apply_in_place",
    "describe",
    "inputs_for",
    "legal",
    "new",
    "public_input",
    "view",
    "winner",
]
