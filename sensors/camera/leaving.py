"""Whether a coin that is gone from view was seen leaving (docs/camera.md, flown, CW-6.1).

A coin at rest near a rail that the hand's arm comes over is gone from view too, and its last
sighting, a disc half under the arm, is pulled a few millimetres off: one such step reads as
"heading out". A coin that really goes over a rail is moving fast when it is last seen, so it must
be seen moving towards the rail in each of its last sightings, not in one jump from rest."""

from __future__ import annotations

import math

from sensors.camera.paths import towards_rail

Point = tuple[float, float]

LEAVING_STEPS = 2  # the last sightings' steps that must all head out
LEAVING_STEP_MM = 1.0  # each at least this long: beyond the positions' error (σ 0.65 mm)


def seen_leaving(path: list[tuple[float, Point]], table: tuple[float, float]) -> bool:
    """``path`` ((t, table mm) of the frames the coin was located in, in order): its last
    ``LEAVING_STEPS`` steps each head towards the nearest rail by at least ``LEAVING_STEP_MM``."""
    if len(path) < LEAVING_STEPS + 1:
        return False
    last = [p for _, p in path[-(LEAVING_STEPS + 1):]]
    return all(math.dist(a, b) >= LEAVING_STEP_MM and towards_rail(a, b, table)
               for a, b in zip(last, last[1:], strict=False))


__all__ = ["LEAVING_STEPS", "LEAVING_STEP_MM", "seen_leaving"]
