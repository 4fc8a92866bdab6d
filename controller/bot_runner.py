"""Bots for every decision on the table that is not a physical shot.

:class:`BotRunner` plays bot seats through the daemon's public API only: for each bot seat it reads
``daemon.seat_view(seat)`` (what that seat may see, with its ``legal`` moves) and submits one input
that ``legal`` offers, chosen by a bot the view's game provides (``Game.bots()``, one per seat and
game), the one named ``kind`` where a game offers several, else its first. Flicks stay with the
platform (``VirtualTable.play_bots``).

Why a poll instead of acting inside the daemon listener: a listener runs under the daemon's lock in
the middle of an accepted input, so it only notes that something changed; :meth:`poll` (called by
the sim loops, or by the runner's own thread after :meth:`start`) does the submitting. With a
virtual table, poll from the table's own loop (``table.act = runner.poll``), not from the thread: the
table answers its strike's questions from the physics right after the shot, and a runner thread
could answer them first with "nothing seen".
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Iterable
from typing import Any

from controller.command_ids import CommandIds
from controller.games import GameError, get_game, registry
from controller.games.base import Bot
from controller.referee_api import SeatReferee

log = logging.getLogger("gametable.bots")

Input = dict[str, Any]


class BotRunnerError(ValueError):
    """A bot runner set up wrongly (one readable line)."""


class BotRunner:
    """Makes bot ``seats`` of ``daemon`` act on everything except a physical shot.

    ``kind`` names the bot where a game offers several (its ``bots()`` keys, e.g. "random"; a game
    without that one plays its first); ``confirm_placements`` is False on a
    platform that puts coins back itself (the virtual table places and confirms them from its
    physics, CW-6.2). Seeded: the same game, seats and seed give the same decisions.
    """

    def __init__(self, daemon: SeatReferee, seats: Iterable[int], seed: int = 0, *, kind: str | None = None,
                 confirm_placements: bool = True) -> None:
        if kind is not None:
            offered = sorted({name for game in registry().values() for name in game.bots()})
            if kind not in offered:
                raise BotRunnerError(f"bot kind {kind!r}: one the games offer ({', '.join(offered)})")
        self.daemon = daemon
        self.seats: set[int] = set()
        for s in seats:
            if isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= 6:
                raise BotRunnerError(f"bot seats are numbers from 1 to 6, got {s!r}")
            self.seats.add(s)
        self.seed = seed
        self.kind = kind
        self.confirm_placements = confirm_placements
        self._race = random.Random(f"race|{seed}")  # who answers a reaction window first (CP-3.4)
        self.log: list[dict[str, Any]] = []  # every input submitted and its result, for diagnostics
        self._bots: dict[tuple[str, int], Bot] = {}  # (game, seat) -> its bot, for one game
        self._ids = CommandIds("bot")  # never repeats across runs: a restart reuses the journal
        self.changed = threading.Event()
        self.changed.set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        daemon.add_listener(self._on_input)

    # --- listening -------------------------------------------------------------------------------
    def _on_input(self, cmd: dict[str, Any], state: dict[str, Any] | None) -> None:
        """Daemon listener: note the change only (no submits under the daemon's lock)."""
        if cmd.get("type") == "new_game":
            self._bots = {}  # a bot's memory (bluffs it caught) belongs to one game
        self.changed.set()

    def start(self) -> None:
        """Act in a thread of its own whenever the state changes (e.g. phones play over MQTT)."""
        if self._thread is not None:
            return
        self._stop.clear()

        def loop() -> None:
            while not self._stop.is_set():
                if self.changed.wait(0.5):
                    self.poll()

        self._thread = threading.Thread(target=loop, name="gametable-bots", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    # --- acting ----------------------------------------------------------------------------------
    def poll(self, max_inputs: int = 200) -> int:
        """Act until no bot seat has anything (non-shot) to do; returns how many inputs were accepted."""
        done = 0
        with self._lock:
            self.changed.clear()
            for _ in range(max_inputs):
                if not self._step():
                    break
                done += 1
        return done

    def _step(self) -> bool:
        """One accepted input from some bot seat, or False when none has one."""
        state = self.daemon.public_state()
        if not state or state.get("phase") != "playing":
            return False
        game = state.get("game")
        for (name, _seat), bot in self._bots.items():
            if name == game:
                bot.observe(state)  # every bot sees each public state, not only when it must act
        views = {seat: self.daemon.seat_view(seat) for seat in sorted(self.seats)}
        acting = [seat for seat, view in views.items() if view and view.get("legal")]
        if len(acting) > 1:  # phones race to answer a window: not always the lowest seat first
            self._race.shuffle(acting)
        for seat in acting:
            view = views[seat]
            assert view is not None
            inp = self.decide(seat, view)
            if inp is None:
                continue
            result = self.submit(inp)
            if result.get("ok"):
                return True
        return False

    def submit(self, inp: Input) -> dict[str, Any]:
        cmd = {**inp, "id": self._ids()}
        result = self.daemon.submit(cmd, source="bot")
        self.log.append({"cmd": cmd, "result": result})
        if not result.get("ok"):
            log.warning("bot: %s rejected: %s", inp.get("move") or inp.get("type"), result.get("error"))
        return result

    # --- decisions -------------------------------------------------------------------------------
    def decide(self, seat: int, view: dict[str, Any]) -> Input | None:
        """The input bot ``seat`` makes now from its own view, or None (nothing, or only a shot).

        The bot comes from the game of the view (its ``bots()``); a game without bots gets none."""
        bot = self._bot(seat, view.get("game"))
        if bot is None:
            return None
        inp = bot.choose(view, {"seat": seat, "moves": view["legal"]})
        if inp is not None and inp.get("type") == "placed" and not self.confirm_placements:
            return None  # the platform puts coins back and confirms them itself (CW-6.2)
        return inp

    def _bot(self, seat: int, name: Any) -> Bot | None:
        try:
            game = get_game(name)
        except GameError:
            return None
        key = (str(name), seat)
        bot = self._bots.get(key)
        if bot is None:
            makers = game.bots()
            if not makers:
                return None
            make = (makers.get(self.kind) if self.kind else None) or next(iter(makers.values()))
            bot = self._bots[key] = make(self.seed * 7 + seat)
        return bot


def coin_choices(view: dict[str, Any] | None) -> list[str] | None:
    """The coins a seat may strike now, from its ``legal`` (CW-5.1, CW-7.2 mothers, CW-7.3 team coins)."""
    if not view:
        return None
    for m in view.get("legal") or []:
        if m.get("type") == "shot":
            return list(m.get("coins") or [])
    return None

__all__ = ["BotRunner", "BotRunnerError", "coin_choices"]
