"""Finding the struck coin again after the palm hid its launch (docs/camera.md, "Tracking").

The tracker looks for each coin where its motion says it should be. At the flick the palm and pen
cover the struck coin; a hard flick carries it out from under them far from where it lay, with no
speed the tracker knows, and it was then never located again until it rested (its path unseen,
every pair with it undecided). While it is lost, its look's pixels that no other coin owns are
searched in the whole frame for one lone disc: a connected patch the size of a coin (a moving coin's
blurred rim does not match its look, so it shows no more pixels than a disc). Two such patches, or
none, and it stays lost: it is never guessed.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

MOST_SHARE = 1.3  # a patch with more pixels than this share of a disc is not one coin
LONGEST_DIAMETERS = 2.5  # ... nor one longer than this many diameters (a blurred disc is shorter)
JOIN_PX = 2  # pixels of one coin this far apart (noise, the sticker dots) are one patch


def find_lone_disc(free: Any, r_px: float, size: tuple[int, int], need: float, fallback: Any) -> tuple[float, Any]:
    """(pixels found, centre) of the one coin-sized patch among ``free`` (N×2 image points of the
    coin's look that no other coin owns); (0, ``fallback``) when there is none, or more than one."""
    if len(free) < need:
        return 0.0, fallback
    w, h = size
    pts = np.asarray(free, dtype=np.int32)
    ok = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
    pts = pts[ok]
    mask = np.zeros((h, w), np.uint8)
    mask[pts[:, 1], pts[:, 0]] = 255
    joined = cv2.dilate(mask, np.ones((2 * JOIN_PX + 1, 2 * JOIN_PX + 1), np.uint8))
    n, labels = cv2.connectedComponents(joined, connectivity=8)
    owner = labels[pts[:, 1], pts[:, 0]]
    area = math.pi * r_px * r_px
    found: list[Any] = []
    for label in range(1, n):
        mine = pts[owner == label].astype(np.float64)
        if not need <= len(mine) <= MOST_SHARE * area:
            continue
        span = mine.max(axis=0) - mine.min(axis=0)
        if float(span.max()) > LONGEST_DIAMETERS * 2 * r_px:
            continue
        found.append(mine)
    if len(found) != 1:
        return 0.0, fallback
    mine = found[0]
    centre = mine.mean(axis=0)
    for _ in range(3):  # a few mean-shift steps: stray pixels at the patch's edge do not pull it
        inside = mine[((mine - centre) ** 2).sum(axis=1) < (r_px * 1.15) ** 2]
        if not len(inside):
            return 0.0, fallback
        centre = inside.mean(axis=0)
    return float(len(inside)), centre
