"""What the virtual camera sees of a strike besides the coins on the surface (CAM-5): the striking
hand and pen over time, the coins off the surface, and where the coins were one exposure ago.

Why one module: the recorder (``record.py``, one strike into a ``gametable-strike/1`` recording)
and the live feed (``sensors/virtual/camera_feed.py``, frames into the table's frame door) must
draw the same strike the same way, so the analysis is tested on what ``gametable sim --camera``
plays.
"""

from __future__ import annotations

import math

from gametable_core import table_geometry as geo
from sensors.virtual.camera.render import Hand
from sensors.virtual.physics import Point, TablePhysics

STRIKE_T = 0.15  # seconds of table at rest (and the hand coming in) before the flick
REST_TAIL_S = 0.1  # seconds of every coin at rest after the strike
HAND_GONE_S = 0.36  # the hand and pen are out of view this long after the flick: the table is seen after it
RIDER_MM = 3.0  # a coin resting tilted on another coin: its centre this far above the surface
HOP_MM = 25.0  # peak height of a coin hopping over a rail

# recent physics steps: (strike time, coin -> table mm, coin -> height above the surface in mm)
History = list[tuple[float, dict[str, Point], dict[str, float]]]


def heights_off_surface(physics: TablePhysics, t: float) -> dict[str, float]:
    """Coins off the surface at strike time ``t`` (mm above it): riders tilted on a coin, and coins
    hopping a rail along a half sine (the renderer draws them nearer the lens)."""
    log = getattr(physics, "_strike", None)  # the physics' own strike log: where flown coins are
    if log is None:
        return {}
    out = {c: RIDER_MM for c in log.riders}
    for c, (_start, _vel, t0, end) in log.airborne.items():
        if t < end:
            out[c] = HOP_MM * math.sin(math.pi * min(1.0, (t - t0) / max(end - t0, 1e-9)))
    return out


def positions_at(history: History, t: float) -> dict[str, Point]:
    """Coin positions at strike time ``t`` from the recent physics steps (the nearest step at or
    before it): where each coin was when the exposure began, for the motion blur."""
    best = history[0][1]
    for ts, pos, _h in history:
        if ts <= t + 1e-9:
            best = pos
    return best


def hand_at(coin_at: Point, aim: Point, t: float) -> Hand | None:
    """The hand and pen at strike time ``t`` (negative before the flick), None while out of view:
    the pen comes in behind the coin at ``coin_at``, flicks it along ``aim`` (a unit vector),
    follows through 30 mm past its back edge and is pulled back out of view."""
    r = geo.COIN_RADIUS_MM
    if t < -STRIKE_T + 0.02 or t > HAND_GONE_S - 0.01:
        return None
    if t <= 0:
        back = r + 70.0 * (-t / STRIKE_T)  # approaching the coin's back edge
    elif t <= 0.05:
        back = r - 600.0 * t  # follow-through: 30 mm past the edge
    else:
        back = r - 30.0 + 900.0 * (t - 0.05)  # pulled back
    tip = (coin_at[0] - aim[0] * back, coin_at[1] - aim[1] * back)
    return Hand(tip=tip, direction=aim)
