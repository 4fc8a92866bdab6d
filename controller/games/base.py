"""The contract every game implements (docs/architecture.md, "Games"): :class:`Game`.

A game is a module (or any object) with pure functions over plain JSON-able state
(boardgame.io style). The daemon, table, LEDs, bot runner, simulator and panel know a game only
through :class:`Game` and the small common :class:`TableView` it provides; mypy checks every
registered game against it (``controller/games/__init__.py``). The members most games write
alike come ready-made in :mod:`controller.games.kit` (a seat's record, the seat rotation, a
reaction window's timer glue, the default ``winner`` and ``public_input``).

No I/O, no wall clock, no global random: the only randomness is :mod:`controller.games.rng`,
whose state lives inside the game state, so a replay is exact. Time enters only as inputs: the
game lists its timers in ``deadlines(state)`` and the daemon sends each one's input when it
expires (:mod:`controller.deadlines`).
"""

from __future__ import annotations

import marshal
import pickle
from collections.abc import Callable, Iterable
from typing import Any, NotRequired, Protocol, TypedDict

State = dict[str, Any]
Input = dict[str, Any]
View = dict[str, Any]
# ``(id, seconds, input)``: when a deadline id first appears in ``deadlines(state)`` the daemon
# arms it for ``seconds``; if it is still listed when they have passed, the daemon submits
# ``input`` (a journalled input like any other, so replays stay exact). An id that disappears is
# cancelled. On a restart a deadline the game has had since its ``new_game`` counts from the
# game's start (a game clock); any other starts again in full (a reaction window).
Deadline = tuple[str, float, Input]


class Turn(TypedDict):
    seat: int
    extra: NotRequired[bool]  # an extra turn (CW-3.4): the LED blinks


class TablePlayer(TypedDict):
    seat: int
    alive: bool


class TableView(TypedDict):
    """The small view every game provides, so LEDs, bots, the simulator and the daemon need no
    game keys: the phase, who is in, whose turn, who must answer (and the deadline id that closes
    their answer, or None), and the winner (None, a sorted seat list or ``{"draw": [...]}``)."""

    phase: str
    players: list[TablePlayer]
    turn: Turn | None
    answer: list[int]
    until: str | None
    winner: Any


class Timer(TypedDict):
    """A running deadline as the daemon shows it: its wall-clock end, or paused with what is left."""

    deadline: float | None
    paused: bool
    remaining_s: float


class Bot(Protocol):
    """A seat played by the computer, seeing only that seat's view (never a hidden card)."""

    def observe(self, view: View) -> None:
        """Learn from a view (e.g. a bluff caught), whether or not it is the bot's move."""
        ...

    def choose(self, view: View, legal: dict[str, Any]) -> Input | None:
        """One input among ``legal``'s moves, or None to wait."""
        ...


class Game(Protocol):
    """What every game offers. A module satisfies it with module-level functions."""

    def describe(self) -> dict[str, Any]:
        """The lobby: ``game``, ``name``, ``title``, ``modes`` (each with ``mode``, ``title``,
        ``players``, ``options``), ``players`` ``{min, max}``, ``options``, ``free_seating``."""
        ...

    def new(self, options: dict[str, Any] | None, seed: int, *, players: Any, mode: str | None = ...,
            order: list[int] | None = ...) -> State:
        """A fresh state from a ``new_game`` input; GameError for anything invalid."""
        ...

    def apply(self, state: State, inp: Input) -> State:
        """A *new* state after ``inp``; raises GameError (``state`` unchanged) if it is illegal."""
        ...

    def apply_in_place(self, state: State, inp: Input) -> State:
        """Like ``apply`` but may modify ``state`` (journal replay, where an error ends the replay)."""
        ...

    def legal(self, state: State, seat: int) -> dict[str, Any]:
        """What ``seat`` may do now: ``{"seat": seat, "moves": [...]}``."""
        ...

    def view(self, state: State, seat: int | None = ...) -> View:
        """What ``seat`` may see; ``None`` is the public view. No hidden card ever leaks."""
        ...

    def winner(self, state: State) -> Any:
        """None, a sorted seat list, or ``{"draw": [...]}``."""
        ...

    def public_input(self, inp: Input) -> Input:
        """An input as ``events`` may show it (the daemon already strips ``new_game``'s secrets)."""
        ...

    def deadlines(self, state: State) -> list[Deadline]:
        """The game's timers now; the only source of timeouts (see :data:`Deadline`)."""
        ...

    def words(self, inp: Input | None, effects: list[dict[str, Any]], state: View | None) -> list[str]:
        """The log lines of one input: ``inp`` as ``public_input`` shows it, ``effects`` as on
        ``events``, ``state`` the public view after it, so words cannot leak a secret."""
        ...

    def table_view(self, state: State) -> TableView:
        """The common view (see :class:`TableView`)."""
        ...

    def with_timers(self, view: View, timers: dict[str, Timer]) -> View:
        """``view`` with the running deadlines shown where the game's phones expect them (Coup's
        ``window.deadline``); ``timers`` maps the deadline ids of ``deadlines(state)``."""
        ...

    def bots(self) -> dict[str, Callable[[int], Bot]]:
        """The game's bots by name (the first is the default): ``make(seed) -> Bot``. Empty when
        the bot runner's generic play (questions, placements, ending a turn) is all it needs."""
        ...


class OnTheTable(Protocol):
    """The optional members of a game played on the table itself (not in :class:`Game`: a game
    without them is played on the phones only). The hardware and the simulator look them up by
    name, so they know no game; mypy checks the built-in ones (``controller/games/__init__.py``)."""

    def table_adapter(self, parts: Any) -> Any:
        """How the table's sensors become the game's inputs (``controller/table_adapter.py``)."""
        ...

    def virtual_parts(self, state: State) -> Any:
        """The game on the virtual table, for the game in a public ``state``, or None
        (``controller/virtual_parts.py``)."""
        ...


class GameError(ValueError):
    """An illegal or malformed input. The message is one line a player can read."""


def clone(state: State) -> State:
    """A deep copy of plain JSON data. Every ``apply`` clones, so this is the engines' hottest
    path: a marshal round trip is ~25% faster than pickle's (which is several times faster than
    ``copy.deepcopy`` or a JSON round trip) and, like pickle, keeps key order, types and shared
    references. marshal refuses what it cannot hold exactly (subclasses, other objects); those
    still get pickle. (It would turn a bytearray into bytes, but JSON state never holds one.)"""
    try:
        return marshal.loads(marshal.dumps(state))
    except ValueError:
        return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


def copy_with_layout(state: State, layout: dict[str, Callable[[Any], Any]]) -> State:
    """A deep copy equal to ``clone(state)``, faster for a known layout: ``layout`` maps a key to
    a copier written out for its value (which must hold only str/int/bool/None below the level it
    copies); every other container goes through one ``clone`` together, keeping any references
    those share. Hand-copying keeps the immutable strings and numbers a marshal round trip would
    rebuild, so a game whose bulky parts are laid out copies about 2.5x faster."""
    new = dict(state)
    rest = {k: v for k, v in state.items() if k not in layout and type(v) in (dict, list)}
    if rest:
        new.update(clone(rest))
    for key, copy in layout.items():
        value = state.get(key)
        if value is not None:
            new[key] = copy(value)
    return new


def layout_copier(layout: dict[str, Callable[[Any], Any]], plain: Iterable[str]) -> Callable[[State], State]:
    """``copy_with_layout(state, layout)`` for a game that also names the keys holding only a plain
    value (``plain``). A state with no other key has nothing left over for a ``clone``: the copy is
    ``layout``'s copiers and one set comparison (the hottest path of every ``apply``); a state with
    any other key (from an older or newer engine) gets :func:`copy_with_layout`'s general walk."""
    known = frozenset(plain) | layout.keys()
    copiers = tuple(layout.items())

    def copy(state: State) -> State:
        if not state.keys() <= known:
            return copy_with_layout(state, layout)
        new = dict(state)
        for key, copier in copiers:
            value = state.get(key)
            if value is not None:
                new[key] = copier(value)
        return new

    return copy


def copy_flat(d: dict[str, Any]) -> dict[str, Any]:
    """A copy of a dict whose values are plain or lists of plain values (a window, a stack step)."""
    return {k: v[:] if type(v) is list else v for k, v in d.items()}


def require(condition: bool, message: str) -> None:
    if not condition:
        raise GameError(message)


def seat_of(inp: Input, key: str = "seat") -> int:
    value = inp.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameError(f"'{key}' must be a seat number, got {value!r}")
    return value


def window_with_timers(view: View, timers: dict[str, Timer], deadline_id: Callable[[dict[str, Any]], str]) -> View:
    """``with_timers`` for a game whose open reaction window is ``view["window"]`` and whose timer
    for it is named ``deadline_id(window)``: the phones count the window down from
    ``window.deadline``, or show it paused with ``remaining_s`` (Coup, Bang!, the battlefield)."""
    window = view.get("window")
    if not isinstance(window, dict):
        return view
    timer = timers.get(deadline_id(window))
    if timer is None:
        view["window"] = dict(window, deadline=None)
    elif timer["paused"]:
        view["window"] = dict(window, paused=True, deadline=None, remaining_s=timer["remaining_s"])
    else:
        view["window"] = dict(window, deadline=timer["deadline"])
    return view
