"""Which beams the coins block, and the edges that follow as they move (the virtual table's eyes).

The blocking rule itself (docs/architecture.md: a segment beam is blocked by a coin whose centre is
closer than the coin radius to the segment; a point beam by a coin covering the point) is
``gametable_core/beam_geometry.py``'s, shared with the hardware path that drives MockFactory pins.

:class:`VirtualBeams` turns a stream of coin positions (the physics step hook) into beam edges
``(beam_id, blocked, t)``. A coarse spatial index keeps it cheap enough to run at 240 Hz.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

from gametable_core import table_geometry as geo
from gametable_core.beam_geometry import beam_distance, blocked_beams
from gametable_core.config import BeamConfig
from gametable_core.platform import BeamEdge

Point = tuple[float, float]
_CELL = 20.0


def blocked_by(beam: BeamConfig, p: Point, r: float = geo.COIN_RADIUS_MM) -> bool:
    """True if a flat coin centred at ``p`` blocks ``beam`` (strictly closer than ``r``)."""
    return beam_distance(beam, p) < r


def blocked_set(beams: Iterable[BeamConfig], centres: Iterable[Point], r: float = geo.COIN_RADIUS_MM) -> frozenset[str]:
    """The ids of the beams blocked by coins at ``centres`` (``beam_geometry.blocked_beams``)."""
    return blocked_beams(beams, list(centres), r)


class VirtualBeams:
    """Follows coin positions and reports every beam edge through ``on_edge``."""

    def __init__(
        self, beams: Sequence[BeamConfig], on_edge: Callable[[BeamEdge], None] | None = None, r: float = geo.COIN_RADIUS_MM
    ) -> None:
        self.beams = tuple(beams)
        self.r = r
        self.on_edge = on_edge
        self.state: frozenset[str] = frozenset()
        # reference points see their fixed foil while the goal sensors work; ``fail_goal_sensors``
        # stops that (a stopped carrier: every goal point and reference reads clear)
        self.references = frozenset(b.id for b in self.beams if b.reference)
        self.goal_sensors_failed = False
        self._points = frozenset(b.id for b in self.beams if b.kind == "point")
        self._index: dict[tuple[int, int], tuple[BeamConfig, ...]] = {}
        for beam in self.beams:
            if beam.reference:
                continue
            x0, y0, x1, y1 = _bbox(beam)
            for i in range(math.floor((x0 - r) / _CELL), math.floor((x1 + r) / _CELL) + 1):
                for j in range(math.floor((y0 - r) / _CELL), math.floor((y1 + r) / _CELL) + 1):
                    self._index[(i, j)] = self._index.get((i, j), ()) + (beam,)

    @property
    def beam_ids(self) -> tuple[str, ...]:
        return tuple(b.id for b in self.beams)

    def blocked_ids(self) -> frozenset[str]:
        return self.state

    def close(self) -> None:
        self.on_edge = None  # nothing to release: no pins, only stop reporting

    def compute(self, centres: Iterable[Point]) -> frozenset[str]:
        """The set of beam ids blocked by coins at these centres."""
        out: set[str] = set()
        r = self.r
        for p in centres:
            for beam in self._index.get((math.floor(p[0] / _CELL), math.floor(p[1] / _CELL)), ()):
                if beam.id not in out and beam_distance(beam, p) < r:
                    out.add(beam.id)
        return frozenset(out)

    def reading(self, centres: Iterable[Point]) -> frozenset[str]:
        """What the receivers read: the coins' beams, the reference points (their fixed foil) --
        or, with the goal sensors failed, no goal point and no reference at all."""
        out = self.compute(centres)
        return out - self._points if self.goal_sensors_failed else out | self.references

    def reset(self, positions: dict[str, Point]) -> None:
        """Set the current state without reporting edges (e.g. a table set up before the sensors start)."""
        self.state = self.reading(positions.values())

    def update(self, t: float, positions: dict[str, Point]) -> list[BeamEdge]:
        """New positions at time ``t``; reports and returns the edges since the last update."""
        new = self.reading(positions.values())
        if new == self.state:
            return []
        edges = [BeamEdge(b, True, t) for b in sorted(new - self.state)] + [
            BeamEdge(b, False, t) for b in sorted(self.state - new)
        ]
        self.state = new
        if self.on_edge:
            for e in edges:
                self.on_edge(e)
        return edges


def _bbox(beam: BeamConfig) -> tuple[float, float, float, float]:
    if beam.kind == "point":
        assert beam.at is not None
        return (beam.at[0], beam.at[1], beam.at[0], beam.at[1])
    assert beam.a is not None and beam.b is not None
    return (min(beam.a[0], beam.b[0]), min(beam.a[1], beam.b[1]), max(beam.a[0], beam.b[0]), max(beam.a[1], beam.b[1]))


__all__ = ["VirtualBeams", "beam_distance", "blocked_by", "blocked_set"]
