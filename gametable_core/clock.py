"""One injected clock per process.

Everything that needs the time asks a :class:`Clock` handed to it, never ``time`` directly, so
tests can run a whole game on a :class:`FakeClock` that advances instantly.
"""

from __future__ import annotations

import heapq
import threading
import time
from collections.abc import Callable
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic scale (only differences mean anything)."""

    def wall(self) -> float:
        """Seconds since the epoch, for journal timestamps shown to people."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> Callable[[], None]:
        """Run ``callback`` after ``delay`` seconds; returns a function that cancels it."""

    def sleep(self, seconds: float) -> None:
        """Wait (really, or by advancing the fake time)."""


class SystemClock:
    """The real clock: monotonic time, timers on threads."""

    def now(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Callable[[], None]:
        timer = threading.Timer(max(0.0, delay), callback)
        timer.daemon = True
        timer.start()
        return timer.cancel

    def sleep(self, seconds: float) -> None:
        time.sleep(max(0.0, seconds))


class FakeClock:
    """A clock that only moves when told to; timers fire in order as it advances."""

    def __init__(self, start: float = 1000.0, wall_start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._wall_offset = wall_start - start
        self._timers: list[tuple[float, int, Callable[[], None]]] = []
        self._cancelled: set[int] = set()
        self._counter = 0
        self._lock = threading.Lock()

    def now(self) -> float:
        return self._now

    def wall(self) -> float:
        return self._now + self._wall_offset

    def call_later(self, delay: float, callback: Callable[[], None]) -> Callable[[], None]:
        with self._lock:
            self._counter += 1
            key = self._counter
            heapq.heappush(self._timers, (self._now + max(0.0, delay), key, callback))

        def cancel() -> None:
            self._cancelled.add(key)

        return cancel

    def advance(self, seconds: float) -> None:
        """Move time forward, firing every timer that falls due on the way."""
        target = self._now + seconds
        while True:
            with self._lock:
                if not self._timers or self._timers[0][0] > target:
                    break
                due, key, callback = heapq.heappop(self._timers)
            self._now = max(self._now, due)
            if key not in self._cancelled:
                callback()
        self._now = target

    def sleep(self, seconds: float) -> None:
        self.advance(seconds)
