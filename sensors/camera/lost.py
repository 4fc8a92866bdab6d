"""A coin the tracker lost under the hand, found again at rest in the strike's last frame.

The tracker follows each coin from where its motion says it should be; a coin that slid on under the
palm can come out of it far from where it was last seen, and is then never located again — its rest
is unknown, so ``dead`` and ``flown`` are asked. At the end of a strike every coin is at rest and the
hand has gone, so the between-strikes search (``finding.find_coins``: by colour and sticker dots,
anywhere on the surface, ~0.5 mm) can name where it lies. Only a coin that no other coin could be is
taken: its look is its own (no same-coloured coin with the same dots), the spot is a coin's width
from every coin the tracker still holds, and it lies clearly in or out of the goal (the search's error,
up to ~1.5 mm, is larger than the tracker's σ that ``dead`` is reckoned with: docs/camera.md CAM-2).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from gametable_core import table_geometry as geo
from sensors.camera.calibration import Calibration
from sensors.camera.finding import find_coins
from sensors.camera.params import TrackParams
from sensors.camera.recording import CoinInfo

Point = tuple[float, float]
GOAL_CLEAR_MM = 4.0  # a found coin's disc this far from the goal's dead line, either side (CW-4.1)
RAIL_ERROR_MM = 1.5  # the search's error: a centre found this little over a rail's line is a coin against it


def refind_lost(image: Any, calibration: Calibration, coins: Mapping[str, CoinInfo], lost: list[str],
                held: Mapping[str, Point], *, params: TrackParams | None = None) -> dict[str, Point]:
    """Rest positions (table mm) for the ``lost`` coins that the last frame shows unambiguously;
    ``held`` are the rest positions of the coins the tracker still follows."""
    p = params or TrackParams()
    mine = [c for c in lost if not any(o != c and coins[o].colour == coins[c].colour
                                        and coins[o].mark == coins[c].mark for o in coins)]
    if not mine:
        return {}
    found = find_coins(image, calibration, coins, hints=dict(held), params=p)
    out: dict[str, Point] = {}
    width, length = p.table
    r = p.coin_diameter_mm / 2
    for c in mine:
        if c not in found:
            continue
        (x, y), _conf = found[c]
        if not (r - RAIL_ERROR_MM <= x <= width - r + RAIL_ERROR_MM and r - RAIL_ERROR_MM <= y <= length - r + RAIL_ERROR_MM):
            continue  # on or over a rail: the tracker's flight rules decide that, not this search
        x, y = min(max(x, r), width - r), min(max(y, r), length - r)  # against a rail: the disc cannot overlap it
        if any(math.dist((x, y), q) < p.coin_diameter_mm for o, q in held.items() if o != c):
            continue  # where another coin lies (or on it): not proof of this one
        if abs(geo.GOAL.disc_margin((x, y), geo.COIN_RADIUS_MM)) < GOAL_CLEAR_MM:
            continue
        out[c] = (x, y)
    return out

