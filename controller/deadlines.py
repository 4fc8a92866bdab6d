"""The daemon's one timer: runs a game's ``deadlines(state)`` on the injected clock.

A game never sees time; it lists its timers as ``(id, seconds, input)`` (a reaction window,
a mode's time limit, any new game's). After every accepted input the daemon calls
:meth:`Deadlines.sync` with the current list: a new id is armed, a vanished id is cancelled, an
id still listed keeps running. When one expires its input is handed to ``on_expire`` (the daemon
submits it, journalled like any other input, so a replay needs no clock).

The host may pause and resume every running deadline (``pause`` / ``resume`` commands); a
deadline that appears while others are paused runs (a new window starts its own countdown).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from controller.games.base import Deadline, Input, Timer
from gametable_core.clock import Clock

Expire = Callable[[str, Input], None]


class PauseError(ValueError):
    """A pause or resume with nothing to pause or resume (one readable line)."""


@dataclass(eq=False)
class _Armed:
    input: Input
    end: float  # wall time
    cancel: Callable[[], None]
    paused: bool = False
    remaining_s: float = 0.0


class Deadlines:
    """The running deadlines of one table. ``lock`` is the daemon's: expiry runs under it."""

    def __init__(self, clock: Clock, lock: threading.RLock, on_expire: Expire) -> None:
        self.clock = clock
        self._lock = lock
        self._on_expire = on_expire
        self._armed: dict[str, _Armed] = {}

    def sync(self, deadlines: Iterable[Deadline], since: Mapping[str, float] | None = None) -> None:
        """Arm the new ids, cancel the vanished ones. ``since`` anchors ids (wall time) that began
        before now (a game clock after a restart); any other id counts from now."""
        with self._lock:
            listed: dict[str, Deadline] = {d[0]: d for d in deadlines}
            for gone in [i for i in self._armed if i not in listed]:
                self._armed.pop(gone).cancel()
            now = self.clock.wall()
            for ident, (_, seconds, inp) in listed.items():
                if ident not in self._armed:
                    start = (since or {}).get(ident, now)
                    self._arm(ident, inp, start + float(seconds), now)

    def _arm(self, ident: str, inp: Input, end: float, now: float) -> None:
        entry = _Armed(dict(inp), end, lambda: None)

        def fire() -> None:
            with self._lock:
                if self._armed.get(ident) is not entry or entry.paused:
                    return  # cancelled, replaced or paused meanwhile
                del self._armed[ident]
                self._on_expire(ident, entry.input)

        entry.cancel = self.clock.call_later(max(0.0, end - now), fire)
        self._armed[ident] = entry

    def cancel_all(self) -> None:
        with self._lock:
            for entry in self._armed.values():
                entry.cancel()
            self._armed.clear()

    def timers(self) -> dict[str, Timer]:
        """The running deadlines as phones see them: their end, or paused with what is left."""
        with self._lock:
            return {ident: {"deadline": None if e.paused else e.end, "paused": e.paused,
                            "remaining_s": e.remaining_s if e.paused else max(0.0, e.end - self.clock.wall())}
                    for ident, e in self._armed.items()}

    def pause(self) -> None:
        """Stop every running countdown; PauseError when there is none or all are paused."""
        with self._lock:
            if not self._armed:
                raise PauseError("no reaction window is open to pause")
            running = [e for e in self._armed.values() if not e.paused]
            if not running:
                raise PauseError("the window is already paused")
            now = self.clock.wall()
            for e in running:
                e.cancel()
                e.paused, e.remaining_s = True, max(0.0, e.end - now)

    def resume(self) -> None:
        """Continue every paused countdown with the time it had left."""
        with self._lock:
            if not self._armed:
                raise PauseError("no reaction window is open to resume")
            paused = [(i, e) for i, e in self._armed.items() if e.paused]
            if not paused:
                raise PauseError("the window is not paused")
            now = self.clock.wall()
            for ident, e in paused:
                self._arm(ident, e.input, now + e.remaining_s, now)
