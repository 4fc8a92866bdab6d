"""Which beams a set of coins blocks, and driving mock beam pins from that.

Pure geometry (table millimetres) so the virtual table produces *the same observations as the
hardware*: it computes the blocked set from coin centres and drives the real :class:`BeamBank`
through gpiozero ``MockFactory`` pins with :func:`drive`. This is the one place the blocking rule
lives: the virtual table's edge tracker (``sensors/virtual/virtual_beams.py``) and a game's goal
proof (its sensing module) call :func:`beam_distance` from here.

A ``segment`` beam is blocked when the distance from a coin's centre to the segment is less than
the coin radius; a ``point`` beam when the distance to the point is less than the radius (strict:
a coin that only touches the beam's edge does not block it).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from gametable_core.config import BeamConfig
from gametable_core.table_geometry import COIN_RADIUS_MM

Point = tuple[float, float]


def distance_to_segment(p: Point, a: Point, b: Point) -> float:
    """Euclidean distance from ``p`` to the closed segment a–b (a point when a == b)."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    px, py = p[0] - ax, p[1] - ay
    length2 = dx * dx + dy * dy
    if length2 == 0.0:
        return math.hypot(px, py)
    u = max(0.0, min(1.0, (px * dx + py * dy) / length2))
    return math.hypot(px - u * dx, py - u * dy)


def beam_distance(beam: BeamConfig, p: Point) -> float:
    """Distance from a coin centre to the beam's geometry."""
    if beam.kind == "segment":
        if beam.a is None or beam.b is None:
            raise ValueError(f"beam {beam.id!r}: a segment beam needs both ends a and b")
        return distance_to_segment(p, beam.a, beam.b)
    if beam.kind == "point":
        if beam.at is None:
            raise ValueError(f"beam {beam.id!r}: a point beam needs its position at")
        return math.hypot(p[0] - beam.at[0], p[1] - beam.at[1])
    raise ValueError(f"beam {beam.id!r}: unknown kind {beam.kind!r} (expected 'segment' or 'point')")


def _centres(coins: Iterable[Point] | Mapping[str, Point]) -> list[Point]:
    values = coins.values() if isinstance(coins, Mapping) else coins
    out: list[Point] = []
    for c in values:
        if (
            not isinstance(c, tuple | list)
            or len(c) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in c)
        ):
            raise ValueError(f"coin centre must be a finite (x_mm, y_mm) pair, got {c!r}")
        out.append((float(c[0]), float(c[1])))
    return out


def blocking_coins(
    beams: Iterable[BeamConfig], coins: Mapping[str, Point], radius: float = COIN_RADIUS_MM
) -> dict[str, list[str]]:
    """For each beam id, the (sorted) ids of the coins blocking it — the ground truth for tests."""
    _centres(coins)
    return {
        b.id: sorted(cid for cid, c in coins.items() if beam_distance(b, (float(c[0]), float(c[1]))) < radius)
        for b in beams
    }


def blocked_beams(
    beams: Iterable[BeamConfig], coins: Iterable[Point] | Mapping[str, Point], radius: float = COIN_RADIUS_MM
) -> frozenset[str]:
    """The ids of the beams blocked by at least one coin centred at ``coins``."""
    if not radius > 0:
        raise ValueError(f"coin radius must be > 0 mm, got {radius!r}")
    centres = _centres(coins)
    return frozenset(b.id for b in beams if any(beam_distance(b, c) < radius for c in centres))


def drive(pin_factory: Any, beams: Iterable[BeamConfig], blocked_ids: Iterable[str]) -> None:
    """Set each beam's mock pin to the electrical level of blocked / clear (honouring active_high).

    Only pins whose level changes produce an edge, so calling this every physics step is cheap.
    Call it once the :class:`BeamBank` exists: opening an input with its pull-up resets a mock pin
    to high (which an ``active_high`` beam reads as blocked).
    An unknown id raises before any pin is touched.
    """
    beams = tuple(beams)
    wanted = set(blocked_ids)
    unknown = wanted - {b.id for b in beams}
    if unknown:
        raise ValueError(f"drive: unknown beam id(s) {', '.join(sorted(unknown))}")
    for b in beams:
        pin = pin_factory.pin(b.pin)
        high = (b.id in wanted) == b.active_high
        if high:
            pin.drive_high()
        else:
            pin.drive_low()
