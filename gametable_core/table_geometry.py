"""Table geometry of CW-1 in table millimetres, shared by the physics, the observer and the bots.

Coordinates: origin at one corner of the playing surface, ``x`` along the short side (0…425),
``y`` along the long side (0…625). The goal (CW-1.4) is centred. Pure functions, no pymunk,
so the observer can use them on the Pi without the simulator. Which beams a coin blocks is
``gametable_core/beam_geometry.py`` (one rule for the physics, the observer and the hardware tests).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

WIDTH_MM = 425.0  # CW-1.3: short side
LENGTH_MM = 625.0  # CW-1.3: long side
COIN_RADIUS_MM = 15.0  # CW-1.1: 30 mm coin
GOAL_W_MM = 60.0  # CW-1.4: measured at the outer edge of the line
GOAL_L_MM = 160.0
CENTRE = (WIDTH_MM / 2, LENGTH_MM / 2)
MOUTH_W_MM = 100.0  # CW-7.3: default goal-mouth width in each short rail

Point = tuple[float, float]


@dataclass(frozen=True)
class Rect:
    x0: float
    y0: float
    x1: float
    y1: float

    def contains_point(self, p: Point) -> bool:
        return self.x0 <= p[0] <= self.x1 and self.y0 <= p[1] <= self.y1

    def contains_disc(self, c: Point, r: float) -> bool:
        """Disc ⊆ rectangle, boundary included (CW-4.1: the line belongs to the goal)."""
        return self.x0 + r <= c[0] <= self.x1 - r and self.y0 + r <= c[1] <= self.y1 - r

    def disc_margin(self, c: Point, r: float) -> float:
        """How far (mm) the disc lies inside the rectangle (> 0) or how far from lying wholly inside
        it (< 0): the distance to :meth:`contains_disc` changing its answer along the nearest side."""
        return min(c[0] - (self.x0 + r), (self.x1 - r) - c[0], c[1] - (self.y0 + r), (self.y1 - r) - c[1])

    def overlaps_disc(self, c: Point, r: float) -> bool:
        dx = max(self.x0 - c[0], 0.0, c[0] - self.x1)
        dy = max(self.y0 - c[1], 0.0, c[1] - self.y1)
        return dx * dx + dy * dy < r * r


GOAL = Rect(
    CENTRE[0] - GOAL_W_MM / 2, CENTRE[1] - GOAL_L_MM / 2, CENTRE[0] + GOAL_W_MM / 2, CENTRE[1] + GOAL_L_MM / 2
)
SURFACE = Rect(0.0, 0.0, WIDTH_MM, LENGTH_MM)


def is_dead_position(c: Point, r: float = COIN_RADIUS_MM) -> bool:
    """CW-4.1: a coin at rest is dead iff its disc lies entirely inside the goal rectangle."""
    return GOAL.contains_disc(c, r)


def is_normal_position(c: Point, r: float = COIN_RADIUS_MM) -> bool:
    """CW-1.5: flat on the surface and not touching the goal or its line."""
    on_surface = SURFACE.contains_disc(c, r)
    return on_surface and not GOAL.overlaps_disc(c, r) and not _touches_rect(c, r)


def _touches_rect(c: Point, r: float) -> bool:
    dx = max(GOAL.x0 - c[0], 0.0, c[0] - GOAL.x1)
    dy = max(GOAL.y0 - c[1], 0.0, c[1] - GOAL.y1)
    return math.hypot(dx, dy) <= r


def mouth_span(width: float = MOUTH_W_MM) -> tuple[float, float]:
    """x-range of a goal mouth (CW-7.3), centred in a short rail."""
    return (CENTRE[0] - width / 2, CENTRE[0] + width / 2)


# The built table (hardware_docs/table_drawing.svg): what CW-1 leaves to the builder.
COIN_THICKNESS_MM = 2.0  # CW-1.1
RAIL_HEIGHT_MM = 20.0  # rail top above the playing surface (CW-1.3 "raised rails")
RAIL_WIDTH_MM = 30.0  # rail top width; the rail beams run along its middle
