"""The table's sensors as the Pi's own code meets them, without the table: a pty and mock pins.

Why a module of its own: this is virtual hardware (no game, no referee); the simulator's wiring
(``gametable/sim_rig.py``) builds the Pi's real ``Hardware`` glue on it. :class:`VirtualSensors` is

- a :class:`~sensors.virtual.virtual_base.VirtualBaseStation` pty to use as ``[striker] port``: a seat's
  strike is a protocol 1 ``strike`` frame from that seat's striker;
- one gpiozero ``MockFactory(pin_class=MockPWMPin)`` for beams and LEDs: blocked beam ids become
  receiver pin levels with :func:`gametable_core.beam_geometry.drive`, read like real receivers.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from gametable_core.clock import Clock
from gametable_core.config import BeamConfig
from sensors.virtual.virtual_base import VirtualBaseStation

log = logging.getLogger("gametable.sim")

DEFAULT_STRIKERS = {f"s{n}": n for n in range(1, 7)}  # striker id -> seat, when the config maps none


class SimHardwareError(RuntimeError):
    """The virtual sensors cannot be set up or did not respond; one line saying why."""


class VirtualSensors:
    """A pty base station for ``strikers`` (id -> seat) and, once :meth:`open_pins` ran, mock pins."""

    def __init__(self, clock: Clock, strikers: Mapping[str, int], *, hb_interval_s: float = 0.5) -> None:
        self.base = VirtualBaseStation(clock, sorted(strikers), hb_interval_s=hb_interval_s)
        self.striker_of: dict[int, str] = {}
        for sid, seat in sorted(strikers.items()):
            self.striker_of.setdefault(seat, sid)  # a seat with two strikers uses its first
        self.factory: Any = None

    @property
    def port(self) -> str:
        """The pty the striker link opens."""
        return self.base.path

    def open_pins(self) -> Any:
        """The mock pin factory the beams and LEDs are built on (gpiozero is imported only now)."""
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        self.factory = MockFactory(pin_class=MockPWMPin)
        return self.factory

    def drive(self, beams: Iterable[BeamConfig], blocked_ids: Iterable[str]) -> None:
        """Blocked beam ids -> receiver pin levels (nothing before :meth:`open_pins`)."""
        from gametable_core.beam_geometry import drive

        if self.factory is not None:
            drive(self.factory, beams, blocked_ids)

    def strike(self, seat: int, g: float = 6.0) -> dict[str, Any]:
        """The seat's striker hits: a ``strike`` frame goes down the pty; returns its payload."""
        sid = self.striker_of.get(seat)
        if sid is None:
            raise SimHardwareError(f"no striker belongs to seat {seat} (config [strikers])")
        return self.base.strike(sid, g)

    def close(self) -> None:
        """Remove the pty and release the pins; idempotent."""
        self.base.close()
        if self.factory is not None:
            try:
                self.factory.close()
            except Exception:  # pins may already be released by the parts that held them
                log.debug("mock pin factory close failed", exc_info=True)
