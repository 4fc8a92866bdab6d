"""Coup on the table (coup.md, CP-1 … CP-7): a pure rules engine with the interface of
:mod:`controller.games.base`. Hidden hands live on the phones; this module referees."""

from __future__ import annotations

from typing import Any

from controller.games.base import GameError, State
from controller.games.coup.engine import MOVES, apply
from controller.games.coup.legal import inputs_for, legal
from controller.games.coup.setup import MODES, PLAYERS, describe, new
from controller.games.coup.view import view


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
    "describe",
    "inputs_for",
    "legal",
    "new",
    "view",
    "winner",
]
