"""Finding coins by their seats' colours on a frame with no strike to learn from (docs/camera.md,
CAM-2 "Identity", "Between strikes"): each coin-sized patch of a named colour, with its sticker
dots. ``bind_coins`` turns them into seats at game start; ``sensors/camera/finding.py`` uses the
same search between strikes and refines the positions with the tracker's sub-pixel location."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from sensors.camera.calibration import Calibration
from sensors.camera.params import TrackParams, coin_plane
from sensors.camera.recording import hex_bgr
from sensors.camera.shapes import FG_LEVEL, blob_shape, dot_count

Point = tuple[float, float]

BIND_MATCH = 0.45  # log-colour distance (table light) within which a coin's ring is a named colour
PIXEL_MATCH = 0.5  # ... and within which one (slightly blurred) pixel is
SAME_COLOUR = 0.15  # named colours closer than this are one colour: only sticker dots tell them apart
# a whole coin's patch of its colour, sticker dots filled in, is ~0.94 of its disc (0.76-1.1 on
# rendered frames: its soft rim does not match); a patch under 0.7 of a coin per coin is partly
# hidden (the hand's edge): its centre would be off, so it is no coin yet
COIN_AREA, WHOLE = 0.94, 0.7
# ... and its pixels' centre within this many radii of its circle's centre (_bitten): whole coins
# on rendered frames stay within 0.063 r (254 in tests/test_camera_finding.py); a rim bitten by a
# palm moved one 2.5 mm (0.33 r) while its ring still passed RING_COVER
BITE_SHIFT = 0.12
RING_COVER = 0.97  # ... and a whole coin's ring around its patch's centre is all of its colour


@dataclass(frozen=True)
class Blob:
    """One coin-sized patch of a named colour: its centre (image px), its colour, its dots (-1: none
    could be counted)."""

    at: Point
    colour: str
    dots: int


def colour_blobs(image: Any, calibration: Calibration, colours: Iterable[str], *,
                 params: TrackParams | None = None) -> list[Blob]:
    """Every coin of the named colours (``#rrggbb``) on the playing surface.

    No empty table is known: the light is the frame with its coin-sized things filtered out, and
    each pixel's colour is brought to the table's median light and matched to the nearest named
    colour. Matching colours, not "anything that differs from the table", keeps the goal line,
    the hand and the pen out of a coin's patch (a coin half on the line is found like any other),
    and two touching coins of one colour are split by their area."""
    p = params or TrackParams()
    named = sorted(set(colours))
    if not named:
        return []
    h, w = image.shape[:2]
    coin_r = calibration.coin_px((p.table[0] / 2, p.table[1] / 2), p.coin_diameter_mm) / 2
    area = math.pi * coin_r**2
    inside = surface_mask(calibration, (w, h), p.table, margin_mm=p.coin_diameter_mm / 4)
    # the light from the table alone: a few mm inside its edges, clear of the rails' darker wood
    illum = light_without_coins(image, coin_r, surface_mask(calibration, (w, h), p.table, margin_mm=-3.0))
    sub = (slice(None, None, 4), slice(None, None, 4))  # a sample is enough for the median light
    table_light = np.median(illum[sub][inside[sub] > 0], axis=0).astype(np.float32) + 1.0
    want = np.log(np.array([hex_bgr(c) for c in named], dtype=np.float32) + 1.0)
    labels, us, vs, nearest = _pixel_colours(image, illum, inside, table_light, want)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    out: list[Blob] = []
    for i, colour in enumerate(named):
        mine = nearest == i
        if mine.sum() < WHOLE * 0.7 * area:  # not even one coin of this colour (at the table's far corner)
            continue
        # only the box around this colour's pixels is labelled (a whole frame per colour costs ms)
        pad = int(coin_r) + 2
        x0, y0 = max(int(us[mine].min()) - pad, 0), max(int(vs[mine].min()) - pad, 0)
        x1, y1 = min(int(us[mine].max()) + pad + 1, w), min(int(vs[mine].max()) + pad + 1, h)
        mask = _filled(cv2.morphologyEx((labels[y0:y1, x0:x1] == i + 1).astype(np.uint8), cv2.MORPH_OPEN, kernel))
        n, comp, stats, centroids = cv2.connectedComponentsWithStats(mask)
        for j in range(1, n):
            # a coin's size where this patch lies (a corner is farther from the lens than the centre)
            here = calibration.to_table(np.array([centroids[j] + (x0, y0)]))[0]
            r_here = calibration.coin_px((float(here[0]), float(here[1])), p.coin_diameter_mm) / 2
            disc = math.pi * r_here**2
            k = max(1, int(round(stats[j, cv2.CC_STAT_AREA] / (COIN_AREA * disc))))
            if stats[j, cv2.CC_STAT_AREA] < WHOLE * k * disc or k > 4:
                continue  # partly hidden (the hand's edge) or no coin (a sleeve of that colour)
            parts = [tuple(centroids[j])] if k <= 1 else _split(comp == j, k)
            centres = [(float(u) + x0, float(v) + y0) for u, v in parts]
            for at in centres:
                if _ring_cover(comp == j, (at[0] - x0, at[1] - y0), r_here) < RING_COVER:
                    continue  # a disc cut by the hand's edge: its patch's centre is off the coin's
                if k == 1 and _bitten(comp == j, (at[0] - x0, at[1] - y0)) > BITE_SHIFT * r_here:
                    continue  # ... or bitten at its rim: the patch's centre has moved off its circle's
                look = _ring_colour(image, illum, at, r_here, table_light)
                if look is None or float(np.abs(look - want[i]).max()) > BIND_MATCH:
                    continue
                _ratio, dots = blob_shape(image, illum, illum, at, r_here, look - np.log(table_light))
                out.append(Blob((float(at[0]), float(at[1])), colour, dot_count(dots)))
    return out


def _pixel_colours(image: Any, illum: Any, inside: Any, table_light: Any, want: Any) -> tuple[Any, Any, Any, Any]:
    """Each pixel on the surface that differs from the table's light, given to the nearest named
    colour (log colours ``want``) when within PIXEL_MATCH of it: (a label image, 1 + the colour's
    index or 0; the labelled pixels' columns, rows and colour indices)."""
    h, w = image.shape[:2]
    smooth = cv2.GaussianBlur(image, (3, 3), 0)  # a 3 x 3 blur: a pixel's noise well under the match
    b, g, r = cv2.split(cv2.absdiff(smooth, illum))
    vs, us = np.nonzero((cv2.max(cv2.max(b, g), r) > FG_LEVEL) & (inside > 0))
    rel = (np.log(smooth[vs, us].astype(np.float32) + 1.0) - np.log(illum[vs, us].astype(np.float32) + 1.0)
           + np.log(table_light))
    dist = np.abs(rel[:, None, :] - want[None, :, :]).max(axis=2)  # (pixels, colours)
    nearest = dist.argmin(axis=1) if len(us) else np.zeros(0, dtype=np.intp)
    ok = dist[np.arange(len(nearest)), nearest] < PIXEL_MATCH
    labels = np.zeros((h, w), np.uint8)
    labels[vs[ok], us[ok]] = nearest[ok] + 1
    return labels, us[ok], vs[ok], nearest[ok]


def bind_coins(image: Any, calibration: Calibration, seat_colours: Mapping[int, str], *,
               seat_marks: Mapping[int, int] | None = None,
               params: TrackParams | None = None) -> dict[int, Point]:
    """Game start (CAM-2): each seat's coin found on the surface by its colour ``#rrggbb`` (and its
    sticker dots when two seats share a colour, docs/camera.md "Identity") -> its position in mm
    (the centre of its patch: ~0.5 mm rms on rendered frames, as good as the strike tracker's).
    A seat whose coin is not found, or is found twice, is left out: never another seat's coin."""
    marks = dict(seat_marks or {})
    calibration = coin_plane(calibration, params or TrackParams())  # the coins' top faces
    found: dict[int, list[Point]] = {}
    for blob in colour_blobs(image, calibration, seat_colours.values(), params=params):
        seats = seats_of(blob, seat_colours, marks)
        if len(seats) == 1:
            mm = calibration.to_table(np.array([blob.at]))[0]
            found.setdefault(seats[0], []).append((float(mm[0]), float(mm[1])))
    return {seat: spots[0] for seat, spots in sorted(found.items()) if len(spots) == 1}


def seats_of(blob: Blob, seat_colours: Mapping[int, str], marks: Mapping[int, int]) -> list[int]:
    """The seats whose coin ``blob`` may be: its colour's seats, told apart by sticker dots when
    several seats share the colour (a coin whose dots do not match any of them is none of them)."""
    same = [s for s, c in seat_colours.items() if _same_colour(c, blob.colour)]
    if len(same) > 1:
        same = [s for s in same if marks.get(s, 0) == blob.dots]
    return same


def _same_colour(a: str, b: str) -> bool:
    la, lb = (np.log(np.array(hex_bgr(c), dtype=np.float32) + 1.0) for c in (a, b))
    return bool(np.abs(la - lb).max() < SAME_COLOUR)


def light_without_coins(image: Any, coin_r: float, surface: Any) -> Any:
    """The light on the table from a frame with coins on it: a median over ~2.5 coin sizes (at a
    size where a coin is ~4 px across, so it costs the same at any resolution), which also drops
    thin marks such as the goal line. Beyond the ``surface`` mask, and under whatever differs from
    a first median (coins), the table's light is carried on from the table around (inpainting): a
    coin by a rail or in a corner is measured against the table, not the rail or itself."""
    h, w = image.shape[:2]
    f = max(1, int(round(coin_r / 2)))
    size = (max(1, w // f), max(1, h // f))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    unknown = (cv2.resize(surface, size, interpolation=cv2.INTER_AREA) < 250).astype(np.uint8)
    # a first guess that no coin can colour: beyond the edges the surface's median colour (carried
    # on from the edge, a coin in a corner would paint the whole corner in its colour)
    guess = small.copy()
    guess[unknown > 0] = np.median(small[unknown == 0], axis=0) if (unknown == 0).any() else 0
    first = cv2.medianBlur(guess, 11)
    b, g, r = cv2.split(cv2.absdiff(small, first))
    things = (cv2.max(cv2.max(b, g), r) > FG_LEVEL).astype(np.uint8)
    unknown |= cv2.dilate(things, np.ones((3, 3), np.uint8))
    light = cv2.medianBlur(cv2.inpaint(small, unknown, 2, cv2.INPAINT_TELEA), 11)
    return cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR)


def surface_mask(calibration: Calibration, size: tuple[int, int], table: tuple[float, float], *,
                 margin_mm: float = 0.0) -> Any:
    """255 on the playing surface and ``margin_mm`` beyond its edges (inside them when negative), as
    the lens draws it: its edges are sampled every 10 mm, since a barrel lens bows them."""
    width, length = table
    m = margin_mm
    xs, ys = np.linspace(-m, width + m, int(width / 10) + 2), np.linspace(-m, length + m, int(length / 10) + 2)
    edge = np.concatenate([np.column_stack([xs, np.full_like(xs, -m)]),
                           np.column_stack([np.full_like(ys, width + m), ys]),
                           np.column_stack([xs[::-1], np.full_like(xs, length + m)]),
                           np.column_stack([np.full_like(ys, -m), ys[::-1]])])
    mask = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillPoly(mask, [np.round(calibration.to_image(edge)).astype(np.int32)], 255)
    return mask


def _split(mask: Any, k: int) -> list[Point]:
    """The centres of ``k`` touching coins in one patch (k-means on its pixels)."""
    vs, us = np.nonzero(mask)
    pts = np.column_stack([us, vs]).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.1)
    _c, _labels, centres = cv2.kmeans(pts, k, None, criteria, 3, cv2.KMEANS_PP_CENTERS)  # type: ignore[call-overload]
    return [(float(u), float(v)) for u, v in centres]


def _filled(mask: Any) -> Any:
    """``mask`` (0/1, its border clear) with its holes filled: a coin's sticker dots are part of it."""
    outside = mask.copy()
    cv2.floodFill(outside, None, (0, 0), 1)  # everything reachable from the border
    return mask | (1 - outside)


def _bitten(patch: Any, at: Point) -> float:
    """How far (px) a patch's centre ``at`` lies from the centre of the circle around it: ~0 for a
    whole disc; a disc with part of its rim hidden keeps its circle (the rest of the rim) while its
    pixels' centre moves away from the hidden part."""
    vs, us = np.nonzero(patch)
    if len(us) < 5:
        return math.inf
    (cu, cv), _radius = cv2.minEnclosingCircle(np.column_stack([us, vs]).astype(np.float32))
    return float(math.hypot(cu - at[0], cv - at[1]))


def _ring_cover(patch: Any, at: Point, r: float) -> float:
    """The share of a coin's ring (0.55-0.85 r around ``at``, clear of its sticker dots) in ``patch``."""
    ring = np.zeros(patch.shape, np.uint8)
    c = (int(round(at[0])), int(round(at[1])))
    cv2.circle(ring, c, max(1, int(r * 0.85)), 1, -1)
    cv2.circle(ring, c, max(1, int(r * 0.55)), 0, -1)
    sel = ring > 0
    return float(patch[sel].mean()) if sel.any() else 0.0


def _ring_colour(image: Any, illum: Any, at: Point, r: float, table_light: Any) -> Any:
    """The log colour of a coin's ring (not its sticker dots) brought to the table's median light."""
    h, w = image.shape[:2]
    x0, y0 = max(int(at[0] - r) - 1, 0), max(int(at[1] - r) - 1, 0)
    x1, y1 = min(int(at[0] + r) + 2, w), min(int(at[1] + r) + 2, h)
    if x1 <= x0 or y1 <= y0:
        return None
    ring = np.zeros((y1 - y0, x1 - x0), np.uint8)
    c = (int(round(at[0])) - x0, int(round(at[1])) - y0)
    cv2.circle(ring, c, max(1, int(r * 0.85)), 255, -1)
    cv2.circle(ring, c, max(1, int(r * 0.55)), 0, -1)
    sel = ring > 0
    if not sel.any():
        return None
    px = image[y0:y1, x0:x1][sel].astype(np.float32) + 1.0
    light = illum[y0:y1, x0:x1][sel].astype(np.float32) + 1.0
    return np.median(np.log(px) - np.log(light), axis=0) + np.log(table_light)
