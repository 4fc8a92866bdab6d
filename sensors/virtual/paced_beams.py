"""The virtual beams following the physics on the injected clock, as the coins move.

Why a module of its own: this is the virtual hardware between the physics and the beam receivers,
not the simulator's wiring (``gametable/sim_table.py``). Each physics step either drives the beam
levels (``drive``: MockFactory pins read by the Pi's own debounced ``BeamBank``) or, without pins,
hands the geometry to :class:`~sensors.virtual.virtual_beams.VirtualBeams`, whose edges go to an observer.
"""

from __future__ import annotations

from collections.abc import Callable

from gametable_core.clock import Clock
from sensors.virtual.physics import Point
from sensors.virtual.virtual_beams import VirtualBeams

Drive = Callable[[frozenset[str]], None]


class PacedBeams:
    """Beam levels from coin geometry, each lasting its real (``speed``-scaled) time on the clock."""

    def __init__(self, vbeams: VirtualBeams, clock: Clock, speed: float) -> None:
        self.vbeams = vbeams
        self.clock = clock
        self.speed = speed
        self._owed = 0.0  # physics time not yet slept

    def step(self, t: float, dt: float, positions: dict[str, Point], drive: Drive | None) -> None:
        """One physics step of ``dt`` seconds (at ``t`` into the strike) has put the coins at ``positions``."""
        new = self.vbeams.reading(positions.values()) if drive else None
        changed = new is not None and new != self.vbeams.state
        if t > 0:
            # pace the physics on the injected clock: a fake clock advances at once, a real one sleeps
            # in slices of >= 10 ms (per-step sleeps of 4 ms would be dominated by overhead) -- but
            # before a pin changes it catches up, so every beam level lasts its real (scaled) time
            # and a short pulse is not squeezed below the bank's debounce
            self._owed += dt / self.speed
            if self._owed >= 0.01 or changed or hasattr(self.clock, "advance"):
                self.clock.sleep(self._owed)
                self._owed = 0.0
        if new is not None and drive is not None:
            if changed:
                self.vbeams.state = new
                drive(new)
        else:
            self.vbeams.update(self.clock.now(), positions)

    def moved(self, positions: dict[str, Point], drive: Drive | None) -> None:
        """Coins moved by hand (outside a strike): the beams show them at once."""
        if drive:
            self.vbeams.state = self.vbeams.reading(positions.values())
            drive(self.vbeams.state)
        else:
            self.vbeams.update(self.clock.now(), positions)
