"""Which way the pen pushed the struck coin (docs/camera.md, CAM-2 contacts: "Flicked away").

Just before the flick the pen lies behind the struck coin, aimed through it: a thin dark line
ending at the coin's back edge. A struck coin seen moving away from a neighbour it lay against did
not touch it — unless it bounced back off that neighbour, held by a rail or a third coin. The pen
tells the two apart: pushed away from the neighbour, the coin never went into it; pushed into it,
it may have bounced. So the pen's direction, read in the frames before the flick, decides pairs
that the launch alone leaves open.

The pen is found as the pixels that differ from the empty table near the struck coin and belong
to no coin's disc, when they form one thin line whose axis passes through the coin's centre, all
on one side of the coin. A pen the frames do not show so (a pale pen on a pale table, a hand over
it, two lines) gives no direction: nothing is decided from it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from sensors.camera.shapes import foreground

REACH_RADII = 6.0  # the pen is looked for within this many coin radii of the struck coin's centre
CLEAR_PX = 2.0  # pixels this close outside a coin's disc belong to its rim, not the pen
MIN_PIXELS = 20  # fewer pixels than this: no pen seen
THIN = 4.0  # the pen's pixels spread this many times more along their axis than across it
THROUGH_RADII = 1.0  # the axis passes this close to the coin's centre (a pen aims through it; held above
# the table, its image is shifted outwards by up to ~5 mm at the table's edge)
BEHIND_RADII = 1.5  # the pixels' centre lies this far behind the coin's centre at least
OTHER_SIDE = 0.05  # at most this share of them lies ahead of the coin (a neighbour's rim, noise)
AGREE_DEG = 6.0  # frames' readings of the pen agree this closely, or none is used


def pen_direction(image: Any, bg: Any, centre: Any, r_px: float, discs: Sequence[tuple[Any, float]]) -> Any:
    """The unit vector (image px) the pen points along — from behind the coin at ``centre``
    towards it — or None when the frame does not show one pen. ``discs``: every coin's centre and
    radius (px) in this frame, whose pixels are not the pen's."""
    h, w = image.shape[:2]
    reach = REACH_RADII * r_px
    x0, y0 = int(max(centre[0] - reach, 0)), int(max(centre[1] - reach, 0))
    x1, y1 = int(min(centre[0] + reach + 1, w)), int(min(centre[1] + reach + 1, h))
    if x1 <= x0 or y1 <= y0:
        return None
    vs, us = foreground(image[y0:y1, x0:x1], bg[y0:y1, x0:x1])
    pts = np.column_stack([us + x0, vs + y0]).astype(np.float64)
    pts = pts[((pts - centre) ** 2).sum(axis=1) < reach * reach]
    for at, r in discs:
        pts = pts[((pts - at) ** 2).sum(axis=1) > (r + CLEAR_PX) ** 2]
    if len(pts) < MIN_PIXELS:
        return None
    mean = pts.mean(axis=0)
    values, vectors = np.linalg.eigh(np.cov((pts - mean).T))
    if values[0] <= 0 or math.sqrt(values[1] / values[0]) < THIN:
        return None
    axis = vectors[:, 1]
    off = mean - centre
    if abs(float(off[0] * axis[1] - off[1] * axis[0])) > THROUGH_RADII * r_px:
        return None  # its line misses the coin's centre: not a pen aimed at it
    behind = -float(off @ axis)
    if abs(behind) < BEHIND_RADII * r_px:
        return None
    along = (pts - centre) @ axis
    if min(int((along > 0).sum()), int((along < 0).sum())) > OTHER_SIDE * len(pts):
        return None  # pixels on both sides of the coin: not one pen behind it
    return axis if behind > 0 else -axis


def agreed_direction(readings: Sequence[Any]) -> Any:
    """The mean of two or more frames' pen directions that all agree within ``AGREE_DEG``; None
    otherwise (one reading alone may be anything dark and thin)."""
    if len(readings) < 2:
        return None
    mean = np.mean(np.asarray(readings, dtype=float), axis=0)
    size = float(np.hypot(*mean))
    if size < 1e-9:
        return None
    mean = mean / size
    if any(float(np.dot(r, mean)) < math.cos(math.radians(AGREE_DEG)) for r in readings):
        return None
    return mean


__all__ = ["agreed_direction", "pen_direction"]
