"""The turn kit: what the turn-based games share, so a game writes only what differs.

boardgame.io is the model: its ``ctx`` gives every game the players, the play order and the
current stage, and a game supplies only its moves. Here a game's state keeps ``players`` (dicts
with a ``seat``), an ``order`` of seats and at most one open reaction ``window`` (``id``,
``seats``); the kit reads those:

- :func:`player` finds a seat's record, with the one error every game gives;
- :func:`rotation` walks the seat order round from a seat;
- :class:`WindowClock` is the glue of a reaction window: its deadline id, the ``timeout``
  input that closes it (``deadlines``), who must answer until when (``table_view``'s ``answer``
  and ``until``) and the phones' countdown (``with_timers``);
- :func:`lobby_description` is ``describe()`` for a game whose setup describes one mode;
- :func:`winner` and :func:`public_input` are the defaults of :class:`controller.games.base.Game`
  members that many games do not change: a game module imports them instead of writing its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.games.base import Deadline, GameError, Input, State, Timer, View, window_with_timers


def player(state: State, seat: int) -> dict[str, Any]:
    """The record of ``seat`` in ``state["players"]``; GameError when the seat is not playing."""
    for p in state["players"]:
        if p["seat"] == seat:
            found: dict[str, Any] = p
            return found
    raise GameError(f"seat {seat} is not playing this game")


def rotation(order: list[int], seat: int) -> list[int]:
    """The seats of ``order`` after ``seat``, round the table, ending with ``seat`` itself."""
    i = order.index(seat)
    return order[i + 1:] + order[:i + 1]


class WindowClock:
    """The timer of a game's one reaction window ``state["window"]``, open while the game plays.

    ``prefix`` names its deadline ids (``f"{prefix}-{window id}"``); ``seconds(state, window)``
    is how long the window stays open. When it expires the daemon submits
    ``{"type": "timeout", "window": id}``, which the game's ``apply`` answers.
    """

    def __init__(self, prefix: str, seconds: Callable[[State, dict[str, Any]], float]) -> None:
        self.prefix = prefix
        self.seconds = seconds

    def deadline_id(self, window: dict[str, Any]) -> str:
        return f"{self.prefix}-{window['id']}"

    def window(self, state: State) -> dict[str, Any] | None:
        """The open window, None once the game is over or aborted (it keeps its last window)."""
        window: dict[str, Any] | None = state["window"]
        return window if state["phase"] == "playing" else None

    def deadlines(self, state: State) -> list[Deadline]:
        window = self.window(state)
        if window is None:
            return []
        return [(self.deadline_id(window), float(self.seconds(state, window)),
                 {"type": "timeout", "window": window["id"]})]

    def answer(self, state: State) -> list[int]:
        """``table_view``'s ``answer``: the seats the open window waits for."""
        window = self.window(state)
        return list(window["seats"]) if window else []

    def until(self, state: State) -> str | None:
        """``table_view``'s ``until``: the deadline id that closes the open window."""
        window = self.window(state)
        return self.deadline_id(window) if window else None

    def with_timers(self, view: View, timers: dict[str, Timer]) -> View:
        """The phones count the window down from ``window.deadline`` (or show it paused)."""
        return window_with_timers(view, timers, self.deadline_id)


def winner(state: State) -> Any:
    """The default ``winner``: a copy of ``state["winner"]`` (None, a seat list or ``{"draw": [...]}``)."""
    w = state.get("winner")
    if w is None:
        return None
    return dict(w) if isinstance(w, dict) else list(w)


def public_input(inp: Input) -> Input:
    """The default ``public_input``: an input hides nothing."""
    return inp



def lobby_description(described: dict[str, Any], players: tuple[int, int], *, free_seating: bool,
                      **extra: Any) -> dict[str, Any]:
    """``described`` (a setup's own description: title, modes) with the fields every lobby reads:
    name, player range, the first mode's options, whether seats are free, then ``extra``."""
    lo, hi = players
    described.update(name=described["title"], players={"min": lo, "max": hi},
                     options=described["modes"][0]["options"], free_seating=free_seating, **extra)
    return described
