"""Coup on the table (docs/rules/coup.md, CP-1 … CP-7): a pure rules engine implementing the game contract
(:class:`controller.games.base.Game`). Hidden hands live on the phones; this module referees."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.games.base import Bot, GameError, State, TableView, View
from controller.games.coup import setup
from controller.games.coup import words as coup_words
from controller.games.coup.engine import MOVES, apply, apply_in_place
from controller.games.coup.legal import inputs_for, legal
from controller.games.coup.setup import MODES, PLAYERS, new
from controller.games.coup.view import view
from controller.games.kit import WindowClock, lobby_description, winner
from controller.games.words import mode_titles, narrate


def describe() -> dict[str, Any]:
    """The lobby's description: the modes of :func:`setup.describe` plus the common fields."""
    return lobby_description(setup.describe(), PLAYERS, free_seating=True,
                             skip=["pass"])  # a turn is always an action (CP-3.1): only a window is passed


_TITLES = mode_titles(setup.describe())


def public_input(inp: dict[str, Any]) -> dict[str, Any]:
    """An input as everyone may see it (for the public events topic): an ``exchange_return``
    names the cards going back into the deck, so only their number is kept (CP-6)."""
    if not isinstance(inp, dict) or inp.get("move") != "exchange_return":
        return inp
    args = inp.get("args")
    cards = args.get("cards") if isinstance(args, dict) else None
    count = len(cards) if isinstance(cards, list) else 0
    return {**inp, "args": {"count": count}}


def bots() -> dict[str, Callable[[int], Bot]]:
    """Coup's bots: a heuristic player (default) and a random one."""
    from controller.games.coup.bot import HeuristicBot, RandomBot

    return {"heuristic": HeuristicBot, "random": RandomBot}


# CP-6: an open reaction window closes by a ``timeout`` input after its ``timeout_s`` seconds; the
# phones count it down from ``window.deadline``. ``winner`` is the kit's: ``[seat]`` once one
# player is left with influence (CP-5.4), else None.
_CLOCK = WindowClock("window", lambda state, window: window.get("timeout_s") or 8)
deadlines = _CLOCK.deadlines
with_timers = _CLOCK.with_timers


def words(inp: dict[str, Any] | None, effects: list[dict[str, Any]], state: View | None) -> list[str]:
    """The log lines of one input (:mod:`controller.games.coup.words`)."""
    return narrate(inp, effects, state, coup_words.line, _TITLES)


def table_view(state: State) -> TableView:
    """Whose turn; who may answer the open window, until its deadline (CP-6); the winner."""
    return {
        "phase": state["phase"],
        "players": [{"seat": p["seat"], "alive": bool(p["hand"])} for p in state["players"]],
        "turn": None if state["turn"] is None else {"seat": state["turn"]},
        "answer": _CLOCK.answer(state),
        "until": _CLOCK.until(state),
        "winner": winner(state),
    }


__all__ = [
    "MODES",
    "MOVES",
    "PLAYERS",
    "GameError",
    "apply",
    "apply_in_place",
    "bots",
    "deadlines",
    "describe",
    "inputs_for",
    "legal",
    "new",
    "public_input",
    "table_view",
    "view",
    "winner",
    "with_timers",
    "words",
]
