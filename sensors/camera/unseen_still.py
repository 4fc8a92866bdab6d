"""Coins the camera cannot see that provably lay still (docs/camera.md "Seating the coins").

Why: a coin coloured like the table is no coin to the camera's colour model, so it is *unseated*
(seating.py) and everything about it used to be asked: where it rests, whether it died or flew,
and every pair with it. Yet the physics needs no sight of it to say it did not move: a coin at rest
moves only when something reaches it, and anything the camera can see that comes within a coin's
width of its spot changes the picture there. So when the struck coin is seen (an unseen struck
coin could push an unseen coin without changing a pixel) and nothing changed in a 2.2-radius
circle around any unseen coin's spot in any frame, every unseen coin lay where the table knew it,
touched nothing and is flat where it was. One change anywhere around any unseen coin and none of
them is vouched for (an unseen coin set moving can reach another without a visible trace).
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

from sensors.camera.shapes import foreground

WATCH_RADII = 2.2  # a coin touching the unseen one has its centre 2 radii away: its disc crosses this
CHANGED_SHARE = 0.02  # of the watched circle: fewer changed pixels than this is sensor noise


class SpotWatch:
    """Fed every frame of a strike: did anything change around the unseen coins' spots?"""

    def __init__(self, first: Any = None, spots: dict[str, tuple[float, float]] | None = None,
                 radius_px: dict[str, float] | None = None, *, struck_seen: bool = True) -> None:
        """``spots``: the unseen coins' spots in ``first`` (px); without a seen struck coin (or
        without ``first``) nothing is vouched for."""
        # per coin: the box around its spot, the watched circle in it, and the first frame there
        self._boxes: dict[str, tuple[int, int, int, int, Any, Any]] = {}
        self.disturbed = not struck_seen
        if first is None or not spots or radius_px is None:
            return
        h, w = first.shape[:2]
        for c, (u, v) in spots.items():
            reach = WATCH_RADII * radius_px[c]
            x0, y0 = max(int(math.floor(u - reach)), 0), max(int(math.floor(v - reach)), 0)
            x1, y1 = min(int(math.ceil(u + reach)) + 1, w), min(int(math.ceil(v + reach)) + 1, h)
            mask = np.zeros((max(y1 - y0, 0), max(x1 - x0, 0)), np.uint8)
            cv2.circle(mask, (int(round(u - x0)), int(round(v - y0))), int(round(reach)), 1, -1)
            self._boxes[c] = (x0, y0, x1, y1, mask, first[y0:y1, x0:x1].copy())

    def feed(self, image: Any) -> None:
        if self.disturbed or not self._boxes:
            return
        for x0, y0, x1, y1, mask, before in self._boxes.values():
            if x1 <= x0 or y1 <= y0:
                self.disturbed = True  # out of view: nothing is known of it
                return
            rows, cols = foreground(image[y0:y1, x0:x1], before)  # changed since the first frame
            if mask[rows, cols].sum() > CHANGED_SHARE * mask.sum():
                self.disturbed = True
                return

    def still(self) -> set[str]:
        """The unseen coins that provably lay still all strike (all of them, or none)."""
        return set() if self.disturbed else set(self._boxes)
