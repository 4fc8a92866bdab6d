"""Bang! on the table (docs/rules/bang.md, BG-1 … BG-8): a pure rules engine implementing the game contract
(:class:`controller.games.base.Game`). Roles and hands live on the phones; this module referees.

The engine is a resolution stack (:mod:`.flow`): every response (Missed!, Beer, a Duel's BANG!, a
General Store pick) is a window for one seat that times out through :func:`deadlines`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.games.bang import engine, setup
from controller.games.bang import words as bang_words
from controller.games.bang.engine import MOVES
from controller.games.bang.legal import inputs_for, legal
from controller.games.bang.setup import PLAYERS
from controller.games.bang.view import view
from controller.games.base import Bot, GameError, Input, State, TableView, View
from controller.games.kit import WindowClock, lobby_description, winner
from controller.games.words import mode_titles, narrate

LOG_KEPT = 40


def describe() -> dict[str, Any]:
    """The lobby: 4-6 players (BG-8.1), seated in the table's ring, never shuffled (BG-8.2)."""
    return lobby_description(setup.describe(), PLAYERS, free_seating=False,
                             skip=["pass", "end_turn"])  # the host passes for a seat nobody plays (controller/table.py)


_TITLES = mode_titles(setup.describe())


def _logged(state: State) -> State:
    """Keep the recent effects for the table's log (the view says them in words, :mod:`.words`)."""
    if state["last"]:
        state["log"] = (state["log"] + state["last"])[-LOG_KEPT:]
    return state


def new(options: dict[str, Any] | None, seed: int, *, players: Any, mode: str | None = None,
        order: list[int] | None = None) -> State:
    return _logged(setup.new(options, seed, players=players, mode=mode, order=order))


def apply(state: State, inp: Input) -> State:
    return _logged(engine.apply(state, inp))


def apply_in_place(state: State, inp: Input) -> State:
    return _logged(engine.apply_in_place(state, inp))


def public_input(inp: dict[str, Any]) -> dict[str, Any]:
    """Kit Carlson's returned card stays his secret (BG-8.13); every other card named in an input is
    played face up."""
    if not isinstance(inp, dict) or inp.get("move") != "draw_choice":
        return inp
    args = inp.get("args")
    if isinstance(args, dict) and "return" in args:
        return {**inp, "args": {"return": "hidden"}}
    return inp


def phone_terms() -> list[str]:
    """Texts the phones show that describe() does not carry: the cards' titles (the panel's
    catalogue, gametable/i18n_catalogue.py)."""
    from controller.games.bang.cards import TITLES

    return list(TITLES.values())


def bots() -> dict[str, Callable[[int], Bot]]:
    from controller.games.bang.bot import HeuristicBot, RandomBot

    return {"heuristic": HeuristicBot, "random": RandomBot}


# BG-7 / BG-8.7: an open window closes by a ``timeout`` input after ``options.timeout_s``; the
# phones count it down from ``window.deadline``.
_CLOCK = WindowClock("bang-window", lambda state, window: state["options"]["timeout_s"])
deadlines = _CLOCK.deadlines
with_timers = _CLOCK.with_timers


def words(inp: dict[str, Any] | None, effects: list[dict[str, Any]], state: View | None) -> list[str]:
    return narrate(inp, effects, state, bang_words.line, _TITLES)


def table_view(state: State) -> TableView:
    turn = state["turn"]
    return {
        "phase": state["phase"],
        "players": [{"seat": p["seat"], "alive": p["alive"]} for p in state["players"]],
        "turn": None if turn is None or state["phase"] != "playing" else {"seat": turn["seat"]},
        "answer": _CLOCK.answer(state),
        "until": _CLOCK.until(state),
        "winner": winner(state),
    }


__all__ = [
    "MOVES", "PLAYERS", "GameError", "apply", "apply_in_place", "bots", "deadlines", "describe",
    "inputs_for", "legal", "new", "public_input", "table_view", "view", "winner", "with_timers", "words",
]
