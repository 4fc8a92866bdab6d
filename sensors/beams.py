"""IR break-beams on GPIO, debounced in our code with the injected clock.

Why our own debounce: gpiozero's ``bounce_time`` is unreliable on real pins and does nothing on
``MockFactory``, and a 30 mm coin at 2 m/s blocks a beam for only ~15 ms, so no pulse of 3 ms or
more may ever be lost, while contact chatter shorter than 1 ms must never become an edge.

How: every raw edge is a *burst* member. A burst starts at the first raw edge after the line has
been quiet for the debounce time and ends once the raw level has been stable for ``debounce_s``
(1 ms, checked by one clock timer for the bank; bursts are judged from the recorded raw edge times, so
a timer that fires late loses nothing). If the level at the end of the burst differs from the
accepted level, one :class:`BeamEdge` is delivered, stamped with the clock time of the burst's
*first* raw edge. Hence:

- a pulse of ≥ 1 ms (so every pulse of ≥ 3 ms) gives exactly its two edges, at their true times;
- toggles that return to the accepted level within 1 ms give nothing;
- chatter at the start of a real change is folded into that one change.

Edge times: with lgpio, gpiozero gets each edge with the kernel's timestamp (CLOCK_MONOTONIC,
the clock ``SystemClock`` uses) and keeps it as the device's last change. The bank then stamps an
edge with that time (``clock.now()`` minus the device's ``active_time``/``inactive_time``) rather
than with the moment Python got round to the callback, which on a busy Pi can be milliseconds
later. Other factories (mock, tests on a FakeClock) use the clock time at the callback.

Wiring: each beam is a ``DigitalInputDevice`` with the Pi's pull-up on (the receivers are
open-collector). gpiozero forbids ``active_state`` together with ``pull_up``, so the beam's
``active_high`` (config) is applied here: ``active_high = true`` means a *high* level is "blocked".
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from gpiozero import DigitalInputDevice

from gametable_core.clock import Clock
from gametable_core.config import BeamConfig
from gametable_core.platform import BeamEdge

log = logging.getLogger(__name__)

DEBOUNCE_S = 0.001
STUCK_AFTER_S = 5.0
_EPS = 1e-7  # float slack when comparing clock times (100 ns, far below any real edge spacing)


class _BeamState:
    """Per-beam debounce state (guarded by the bank's lock)."""

    __slots__ = ("config", "device", "stable", "since", "raw", "bursts", "stuck_cancel")

    def __init__(self, config: BeamConfig, device: DigitalInputDevice, blocked: bool, now: float) -> None:
        self.config = config
        self.device = device
        self.stable = blocked  # the accepted (debounced) level
        self.since = now  # clock time the accepted level began
        self.raw = blocked  # last raw level seen
        # Unsettled raw history as bursts [first_t, last_t, final level]; kept (not just the
        # last level) so a late timer — GIL, a busy Pi — still sees every pulse that happened.
        self.bursts: deque[list[Any]] = deque()
        self.stuck_cancel: Callable[[], None] | None = None


class BeamBank:
    """All beams of the table; delivers debounced :class:`BeamEdge` s to ``on_edge``.

    ``on_edge`` is called with the bank's (re-entrant) lock held, so edges arrive one at a time
    and in order; it may call :meth:`blocked` but should return quickly. An exception from it is
    logged and does not stop the bank. ``on_stuck(beam_id, since)`` (optional) is called once when
    a beam has stayed blocked for ``stuck_after_s``; :meth:`stuck` gives the same on demand.
    """

    def __init__(
        self,
        beams: Iterable[BeamConfig],
        clock: Clock,
        on_edge: Callable[[BeamEdge], None],
        *,
        pin_factory: Any = None,
        debounce_s: float = DEBOUNCE_S,
        stuck_after_s: float = STUCK_AFTER_S,
        on_stuck: Callable[[str, float], None] | None = None,
        kernel_timestamps: bool | None = None,
    ) -> None:
        beams = tuple(beams)
        ids = [b.id for b in beams]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"beam bank: duplicate beam id {dup[0]!r}")
        pins = [b.pin for b in beams]
        dup_pins = sorted({p for p in pins if pins.count(p) > 1})
        if dup_pins:
            raise ValueError(f"beam bank: GPIO{dup_pins[0]} is used by more than one beam")
        if not debounce_s > 0:
            raise ValueError(f"beam bank: debounce_s must be > 0, got {debounce_s!r}")
        if not stuck_after_s > 0:
            raise ValueError(f"beam bank: stuck_after_s must be > 0, got {stuck_after_s!r}")
        self._clock = clock
        self._on_edge = on_edge
        self._debounce = debounce_s
        self._stuck_after = stuck_after_s
        self._on_stuck = on_stuck
        # None: use the edge's own timestamp where the factory has kernel ones (lgpio)
        self._kernel_ts = kernel_timestamps
        self._lock = threading.RLock()
        self._closed = False
        self._cancel: Callable[[], None] | None = None
        self._beams: dict[str, _BeamState] = {}
        try:
            for cfg in beams:
                device = DigitalInputDevice(cfg.pin, pull_up=True, pin_factory=pin_factory)
                if self._kernel_ts is None:
                    self._kernel_ts = type(device.pin_factory).__name__.startswith("LGPIO")
                state = _BeamState(cfg, device, self._level_blocked(cfg, device.is_active), clock.now())
                self._beams[cfg.id] = state
                device.when_activated = self._raw_handler(state, True)
                device.when_deactivated = self._raw_handler(state, False)
                self._watch_stuck(state)
        except Exception:
            self.close()
            raise

    # --- public -----------------------------------------------------------------------------

    @property
    def beam_ids(self) -> tuple[str, ...]:
        return tuple(self._beams)

    def blocked(self, beam_id: str) -> bool:
        """The debounced level of one beam."""
        with self._lock:
            return self._state(beam_id).stable

    def blocked_ids(self) -> frozenset[str]:
        """Every beam whose debounced level is blocked."""
        with self._lock:
            return frozenset(i for i, s in self._beams.items() if s.stable)

    def stuck(self) -> list[str]:
        """Beams blocked for at least ``stuck_after_s`` (a coin parked on them, a dead receiver)."""
        now = self._clock.now()
        with self._lock:
            return sorted(
                i for i, s in self._beams.items()
                if s.stable and not s.config.reference and now - s.since >= self._stuck_after - _EPS
            )  # (a reference point is blocked for good: that is it working)

    def diagnostics(self) -> list[str]:
        """One line per problem, for ``gametable/T/sensors/…`` and the status LED."""
        now = self._clock.now()
        with self._lock:
            return [
                f"beam {i} (GPIO{self._beams[i].config.pin}) stuck blocked for "
                f"{now - self._beams[i].since:.1f} s"
                for i in self.stuck()
            ]

    def close(self) -> None:
        """Stop timers and release the pins; idempotent."""
        with self._lock:
            self._closed = True
            if self._cancel is not None:
                self._cancel()
                self._cancel = None
            for s in self._beams.values():
                if s.stuck_cancel is not None:
                    s.stuck_cancel()
                    s.stuck_cancel = None
                s.device.close()

    def __enter__(self) -> BeamBank:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- internals --------------------------------------------------------------------------

    def _state(self, beam_id: str) -> _BeamState:
        if self._closed:
            raise RuntimeError("beam bank is closed")
        try:
            return self._beams[beam_id]
        except KeyError:
            known = ", ".join(self._beams) or "none"
            raise KeyError(f"unknown beam {beam_id!r} (known: {known})") from None

    @staticmethod
    def _level_blocked(cfg: BeamConfig, active: bool) -> bool:
        # With pull_up=True gpiozero calls a *low* pin "active".
        return (not active) if cfg.active_high else active

    def _raw_handler(self, state: _BeamState, active: bool) -> Callable[[], None]:
        blocked = self._level_blocked(state.config, active)

        def handler() -> None:
            age = None
            if self._kernel_ts:  # how long ago the kernel saw this edge (gpiozero keeps its tick)
                device = state.device
                age = device.active_time if active else device.inactive_time
            self._raw_edge(state, blocked, age)

        return handler

    def _raw_edge(self, s: _BeamState, blocked: bool, age: float | None = None) -> None:
        now = self._clock.now()
        if age is not None and 0.0 <= age < 1.0:  # a sane kernel timestamp: the edge's own time
            now -= age
        with self._lock:
            if self._closed or blocked == s.raw:
                return
            s.raw = blocked
            if s.bursts:  # the time was read before the lock: keep one beam's edges in order
                now = max(now, s.bursts[-1][1])
            if s.bursts and now - s.bursts[-1][1] < self._debounce - _EPS:
                s.bursts[-1][1:] = [now, blocked]  # chatter: same burst, keep its first time
            else:
                s.bursts.append([now, now, blocked])
            if self._cancel is None:
                # One timer for the whole bank (a Pi should not start a thread per beam). Any
                # armed timer is due no later than now + debounce, so it never needs moving.
                self._cancel = self._clock.call_later(self._debounce, self._on_timer)

    def _on_timer(self) -> None:
        with self._lock:
            self._cancel = None
            if self._closed:
                return
            now = self._clock.now()
            next_due: float | None = None
            for s in self._beams.values():
                if s.bursts:
                    self._settle(s, now)
                if s.bursts:
                    due = s.bursts[-1][1] + self._debounce
                    next_due = due if next_due is None else min(next_due, due)
            if next_due is not None:
                self._cancel = self._clock.call_later(next_due - now, self._on_timer)

    def _settle(self, s: _BeamState, now: float) -> None:
        """Turn every finished burst of one beam into at most one edge each."""
        while s.bursts:
            first, last, level = s.bursts[0]
            # Every burst but the newest is followed by >= debounce of quiet by construction.
            if len(s.bursts) == 1 and now - last < self._debounce - _EPS:
                return
            s.bursts.popleft()
            if level != s.stable:  # a burst that came back to the old level was chatter
                s.stable, s.since = level, first
                self._deliver(BeamEdge(s.config.id, level, first))
                self._watch_stuck(s)

    def _watch_stuck(self, s: _BeamState) -> None:
        """Arm (blocked) or disarm (clear) the one-shot ``on_stuck`` report for this beam."""
        if s.stuck_cancel is not None:
            s.stuck_cancel()
            s.stuck_cancel = None
        report = self._on_stuck
        if report is None or not s.stable or s.config.reference:
            return
        since = s.since

        def fire() -> None:
            with self._lock:
                if self._closed or not s.stable or s.since != since:
                    return
                s.stuck_cancel = None
                try:
                    report(s.config.id, since)
                except Exception:
                    log.exception("beam bank: on_stuck failed for %s", s.config.id)

        delay = since + self._stuck_after - self._clock.now()
        s.stuck_cancel = self._clock.call_later(delay, fire)

    def _deliver(self, edge: BeamEdge) -> None:
        # A bug downstream must not stall the beams: log it and keep settling the others.
        try:
            self._on_edge(edge)
        except Exception:
            log.exception("beam bank: on_edge failed for %s", edge)
