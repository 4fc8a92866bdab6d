"""Pixel-level helpers of the camera analysis (docs/camera.md): the empty table's light, what differs
from it, and a resting coin's blob (tilt, sticker dots). OpenCV/numpy on whole arrays."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

FG_LEVEL = 38  # 8-bit difference from the empty table that marks a pixel as "something there"


SHAPE_LEVEL = 22  # 8-bit difference for the blob shape at rest (5 noise sigmas)


# one dot of 0.28 r covers (0.28 / 0.7)^2 = 16 % of the 0.7 r centre disc; its soft rim at 16-18 px
# per coin makes it ~27 % of the disc's pixels (measured on rendered coins)
DOT_SHARE = 0.27


STICKER_LOOK = 0.7  # log-ratio distance from the coin's look that marks a sticker pixel


def illumination(bg: Any, surface: Any = None) -> Any:
    """The light on the table: the empty table with its thin marks (goal line) filtered out, so a
    coin's look is the same over the line as beside it (a median at quarter size, scaled back).
    ``surface`` (uint8, 255 where the empty playing surface is seen) keeps the darker rails, and
    the coins' filled-in spots beside them, out of it: there the light is the surface's own,
    carried on from around, not a blend of rail and surface (that blend made a coin against a
    rail look unlike itself at its rail side, and its centre read 1–3 mm inwards)."""
    h, w = bg.shape[:2]
    small = cv2.resize(bg, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    if surface is not None:
        inside = cv2.resize(surface, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_AREA) >= 250
        if inside.any() and not inside.all():
            small = cv2.inpaint(small, np.where(inside, 0, 255).astype(np.uint8), 3, cv2.INPAINT_TELEA)
    return cv2.resize(cv2.medianBlur(small, 5), (w, h), interpolation=cv2.INTER_LINEAR)


def surface_mask(calibration: Any, table: tuple[float, float], size: tuple[int, int]) -> Any:
    """uint8 (h, w) image of ``size`` (w, h): 255 where the playing surface (table mm 0 … ``table``)
    is seen; its edges are traced point by point (the lens bends them)."""
    w_mm, l_mm = table
    s = np.linspace(0.0, 1.0, 24)
    edge = np.concatenate([np.column_stack([s * w_mm, np.zeros_like(s)]), np.column_stack([np.full_like(s, w_mm), s * l_mm]),
                           np.column_stack([(1 - s) * w_mm, np.full_like(s, l_mm)]), np.column_stack([np.zeros_like(s), (1 - s) * l_mm])])
    px = np.round(calibration.to_image(edge)).astype(np.int32)
    mask = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillPoly(mask, [px.reshape(-1, 1, 2)], 255)
    return mask


def foreground(image: Any, bg: Any) -> tuple[Any, Any]:
    """(rows, cols) of pixels whose largest channel differs from the empty table by > FG_LEVEL
    (OpenCV per channel: a numpy max over the colour axis costs several ms a frame)."""
    b, g, r = cv2.split(cv2.absdiff(image, bg))
    most = cv2.max(cv2.max(b, g), r)
    _, mask = cv2.threshold(most, FG_LEVEL, 255, cv2.THRESH_BINARY)
    pts = cv2.findNonZero(mask)
    if pts is None:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    pts = pts.reshape(-1, 2)
    return pts[:, 1], pts[:, 0]


def blob_shape(img: Any, bg: Any, illum: Any, at: tuple[float, float], r: float, look: Any,
               beside: Sequence[tuple[Any, float]] = ()) -> tuple[float, Any]:
    """(minor/major axis ratio of the coin's blob, (sticker pixels, pixels) of its centre disc):
    sticker pixels are those unlike the coin's own look (white dots on dark coins, black on light).
    ``beside``: flat coins lying beside it (centre, radius in px): pixels beyond the midway line to
    one are that coin's, not its blob (a neighbour's edge inside the blob's circle made a flat
    coin read 0.85–0.9, "not flat")."""
    h, w = img.shape[:2]
    x0, y0 = int(max(at[0] - 2 * r, 0)), int(max(at[1] - 2 * r, 0))
    x1, y1 = int(min(at[0] + 2 * r + 1, w)), int(min(at[1] + 2 * r + 1, h))
    patch, bpatch, lpatch = img[y0:y1, x0:x1], bg[y0:y1, x0:x1], illum[y0:y1, x0:x1]
    b, g, rr = cv2.split(cv2.absdiff(patch, bpatch))
    fg = (cv2.max(cv2.max(b, g), rr) > SHAPE_LEVEL).astype(np.uint8)  # lower than FG_LEVEL: the whole soft rim
    disc = np.zeros_like(fg)
    cv2.circle(disc, (int(round(at[0] - x0)), int(round(at[1] - y0))), int(round(r * 1.2)), 1, -1)
    if len(beside):  # a pixel nearer a flat neighbour than the midway line between them is the neighbour's
        ys, xs = np.mgrid[y0:y1, x0:x1]
        for centre, _r_other in beside:
            half = (np.asarray(centre, dtype=float) - np.asarray(at, dtype=float)) / 2
            if float(np.hypot(*half)) < 1.2 * r:
                beyond = (xs - at[0] - half[0]) * half[0] + (ys - at[1] - half[1]) * half[1] > 0
                disc[beyond] = 0
    m = cv2.moments(fg * disc, binaryImage=True)
    if m["m00"] < 4:
        return 1.0, None
    mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
    common = math.sqrt(max(((mu20 - mu02) / 2) ** 2 + mu11**2, 0.0))
    major, minor = (mu20 + mu02) / 2 + common, (mu20 + mu02) / 2 - common
    ratio = math.sqrt(max(minor, 0.0) / major) if major > 0 else 1.0
    inner = np.zeros_like(fg)
    cv2.circle(inner, (int(round(at[0] - x0)), int(round(at[1] - y0))), max(1, int(round(r * 0.7))), 1, -1)
    rel = np.log((patch.astype(np.float32) + 1.0) / (lpatch.astype(np.float32) + 1.0)) - look.astype(np.float32)
    unlike = (np.sqrt((rel * rel).sum(axis=2)) > STICKER_LOOK) & (inner > 0)
    return ratio, (int(unlike.sum()), int(inner.sum()))


def dot_count(dots: Any) -> int:
    """Sticker dots from the sticker share of a coin's centre (each dot ~16 % of it)."""
    if dots is None or dots[1] == 0:
        return -1
    share = dots[0] / dots[1]
    return int(round(share / DOT_SHARE))
