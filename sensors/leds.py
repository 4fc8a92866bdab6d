"""Seat turn LEDs and the status LED, driven from an LED plan (:mod:`gametable_core.led_patterns`).

:class:`gametable_core.platform.SeatLights` is the small output interface the daemon uses, so an addressable strip can
replace the GPIO LEDs later. :class:`GpioSeatLights` is the gpiozero implementation: one
``PWMLED`` per seat and an optional status ``RGBLED``.

Animation runs on the injected clock, never on gpiozero's background blink threads: each frame
sets the LED values from pure functions of elapsed time, so a ``FakeClock`` test can say exactly
which LED is lit when. Frames are clock timers while an animated pattern is shown; a static plan
needs none. A seat's pattern keeps its phase while it is re-shown unchanged (every state publish
re-shows the plan) and restarts when it changes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import PWMLED, RGBLED

from gametable_core.clock import Clock
from gametable_core.config import LedConfig
from gametable_core.led_patterns import ANIMATED, check_plan, seat_level, status_colour

FRAME_S = 0.04  # 25 frames/s: smooth enough for a pulse, cheap on a Pi


class GpioSeatLights:
    """One PWM LED per seat plus an optional RGB status LED, all on gpiozero."""

    def __init__(
        self,
        seat_pins: Mapping[int, int],
        status_pins: tuple[int, int, int] | None,
        clock: Clock,
        *,
        pin_factory: Any = None,
        animate: bool = True,
    ) -> None:
        used = list(seat_pins.values()) + list(status_pins or ())
        dup = sorted({p for p in used if used.count(p) > 1})
        if dup:
            raise ValueError(f"leds: GPIO{dup[0]} is used by more than one LED")
        self._clock = clock
        self._animate = animate
        self._lock = threading.RLock()
        self._plan: dict[str, Any] | None = None
        self._starts: dict[str, float] = {}
        self._cancel: Callable[[], None] | None = None
        self._closed = False
        self._seats: dict[str, PWMLED] = {}
        self._status: RGBLED | None = None
        try:
            for seat, pin in sorted(seat_pins.items()):
                self._seats[str(seat)] = PWMLED(pin, pin_factory=pin_factory)
            if status_pins is not None:
                self._status = RGBLED(*status_pins, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    @classmethod
    def from_config(cls, leds: LedConfig, clock: Clock, *, pin_factory: Any = None) -> GpioSeatLights:
        """Build from the ``[leds]`` config section."""
        return cls(leds.seats, leds.status, clock, pin_factory=pin_factory)

    @property
    def plan(self) -> dict[str, Any] | None:
        return self._plan

    def show(self, plan: dict[str, Any]) -> None:
        check_plan(plan)
        now = self._clock.now()
        with self._lock:
            if self._closed:
                raise RuntimeError("seat lights are closed")
            old = self._plan["seats"] if self._plan else {}
            new = plan["seats"]
            for seat, pattern in new.items():
                if old.get(seat) != pattern:
                    self._starts[seat] = now
            # A chase is one animation across all winners: give them one common start.
            chasers = [s for s, p in new.items() if p == "chase"]
            if chasers:
                first = min(self._starts[s] for s in chasers)
                for s in chasers:
                    self._starts[s] = first
            self._plan = {**plan, "seats": dict(new)}
            self.tick(now)
            self._schedule()

    def tick(self, now: float | None = None) -> None:
        with self._lock:
            if self._closed:
                return
            now = self._clock.now() if now is None else now
            seats = self._plan["seats"] if self._plan else {}
            chasers = sorted((s for s, p in seats.items() if p == "chase"), key=int)
            for seat, led in self._seats.items():
                pattern = seats.get(seat, "off")
                elapsed = now - self._starts.get(seat, now)
                index = chasers.index(seat) if seat in chasers else 0
                led.value = seat_level(pattern, elapsed, index, len(chasers))
            if self._status is not None:
                self._status.value = status_colour(self._plan)

    def levels(self) -> dict[str, float]:
        """Current brightness of each seat LED (what a person sees)."""
        with self._lock:
            return {seat: float(led.value) for seat, led in self._seats.items()}

    def status(self) -> tuple[float, float, float] | None:
        with self._lock:
            return None if self._status is None else tuple(self._status.value)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._cancel is not None:
                self._cancel()
                self._cancel = None
            for led in self._seats.values():
                led.close()
            if self._status is not None:
                self._status.close()

    def __enter__(self) -> GpioSeatLights:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _schedule(self) -> None:
        """Keep one frame timer alive while anything animates."""
        if not self._animate or self._cancel is not None or self._closed or self._plan is None:
            return
        if any(p in ANIMATED for p in self._plan["seats"].values()):
            self._cancel = self._clock.call_later(FRAME_S, self._frame)

    def _frame(self) -> None:
        with self._lock:
            self._cancel = None
            self.tick()
            self._schedule()
