"""Binding coins to seats at game start (docs/camera.md, CAM-2 "Identity"): each seat's coin found by
its named colour and, for two seats in one colour, its sticker dots."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import cv2
import numpy as np

from sensors.camera.calibration import Calibration
from sensors.camera.params import TrackParams
from sensors.camera.recording import hex_bgr
from sensors.camera.shapes import FG_LEVEL, blob_shape, dot_count

Point = tuple[float, float]


def bind_coins(image: Any, calibration: Calibration, seat_colours: Mapping[int, str], *,
               seat_marks: Mapping[int, int] | None = None,
               params: TrackParams | None = None) -> dict[int, Point]:
    """Game start (CAM-2): each seat's coin found on the surface by its colour ``#rrggbb`` (and its
    sticker dots when two seats share a colour, docs/camera.md "Identity") -> its position in mm.
    A seat whose coin is not found, or is found twice, is left out.

    No empty table is known yet: the light is the frame with its coin-sized blobs filtered out,
    and a blob's colour, brought to the table's median light, is matched to the named colours."""
    p = params or TrackParams()
    marks = dict(seat_marks or {})
    h, w = image.shape[:2]
    illum = _light_without_coins(image)
    surface = np.array([(0.0, 0.0), (p.table[0], 0.0), (p.table[0], p.table[1]), (0.0, p.table[1])])
    poly = calibration.to_image(surface).astype(np.int32)
    inside = np.zeros((h, w), np.uint8)
    cv2.fillPoly(inside, [poly], 255)
    b, g, r = cv2.split(cv2.absdiff(image, illum))
    fg = ((cv2.max(cv2.max(b, g), r) > FG_LEVEL) & (inside > 0)).astype(np.uint8)
    n, _labels, stats, centroids = cv2.connectedComponentsWithStats(fg)
    centre_mm = ((p.table[0] / 2, p.table[1] / 2))
    coin_r = calibration.coin_px(centre_mm, p.coin_diameter_mm) / 2
    area = math.pi * coin_r**2
    table_light = np.median(illum[inside > 0], axis=0).astype(np.float32) + 1.0
    want = {seat: np.log(np.array(hex_bgr(c), dtype=np.float32) + 1.0) for seat, c in seat_colours.items()}
    found: dict[int, list[Point]] = {}
    for i in range(1, n):
        if not 0.5 * area <= stats[i, cv2.CC_STAT_AREA] <= 1.6 * area:
            continue
        u, v = centroids[i]
        look = _ring_colour(image, illum, (u, v), coin_r, table_light)
        if look is None:
            continue
        dist = {seat: float(np.abs(look - c).max()) for seat, c in want.items()}
        best = min(dist.values())
        if best > BIND_MATCH:
            continue
        same = [seat for seat, d in dist.items() if d - best < 0.15]  # seats of one colour
        if len(same) > 1:
            _ratio, dots = blob_shape(image, illum, illum, (u, v), coin_r, look - np.log(table_light))
            count = dot_count(dots)
            same = [seat for seat in same if marks.get(seat, 0) == count]
        mm = calibration.to_table(np.array([(u, v)]))[0]
        for seat in same[:1] if len(same) == 1 else []:
            found.setdefault(seat, []).append((float(mm[0]), float(mm[1])))
    return {seat: spots[0] for seat, spots in sorted(found.items()) if len(spots) == 1}


BIND_MATCH = 0.45  # log-colour distance (table light) within which a blob is a named colour


def _light_without_coins(image: Any) -> Any:
    """The light on the table from a frame with coins on it: a median over ~2 coin sizes."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.medianBlur(small, 11), (w, h), interpolation=cv2.INTER_LINEAR)


def _ring_colour(image: Any, illum: Any, at: tuple[float, float], r: float, table_light: Any) -> Any:
    """The log colour of a coin's ring (not its sticker dots) brought to the table's median light."""
    h, w = image.shape[:2]
    ring = np.zeros((h, w), np.uint8)
    c = (int(round(at[0])), int(round(at[1])))
    cv2.circle(ring, c, max(1, int(r * 0.85)), 255, -1)
    cv2.circle(ring, c, max(1, int(r * 0.55)), 0, -1)
    sel = ring > 0
    if not sel.any():
        return None
    px = image[sel].astype(np.float32) + 1.0
    light = illum[sel].astype(np.float32) + 1.0
    return np.median(np.log(px) - np.log(light), axis=0) + np.log(table_light)
