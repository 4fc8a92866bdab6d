"""Frames of the virtual table as the camera would see them (CAM-5), drawn with OpenCV.

The static table (surface, rails, goal line, ArUco markers, uneven light, lens distortion) is
computed once per rig through a per-pixel map; each frame copies it and draws the coins (seat
colours, sticker dots, motion blur over the exposure, riders on coins and coins leaving the table
drawn nearer the lens), the striking hand and pen, and sensor noise.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from gametable_core import table_geometry as geo
from sensors.camera.recording import CoinInfo, hex_bgr
from sensors.virtual.camera.conditions import Conditions, Cover, HandLook
from sensors.virtual.camera.rig import CameraRig

Point = tuple[float, float]

# ArUco centres in table mm: just outside the surface's corners, on the rails' outer band
DEFAULT_MARKERS: dict[int, Point] = {0: (-38.0, -38.0), 1: (463.0, -38.0), 2: (463.0, 663.0), 3: (-38.0, 663.0)}
MARKER_MM = 45.0
COIN_TOP_MM = 2.0  # a coin's top face above the surface (CW-1.1: 2 mm thick)


TABLE_BGR = (118, 160, 196)  # light laminated wood
RAIL_BGR = (62, 92, 128)  # darker wood
FLOOR_BGR = (52, 50, 48)
LINE_BGR = (40, 38, 70)  # the goal line (CW-1.4)
LINE_MM = 3.0  # goal line width, inside the goal rectangle (its outer edge is the measure)
RAIL_MM = 70.0  # rail width seen from above (the markers sit on it)
SKIN_BGR = (120, 150, 205)
PEN_BGR = (70, 40, 30)
MARK_BGR = (245, 245, 245)  # sticker dots on a dark coin (docs/camera.md "Identity")
DARK_MARK_BGR = (25, 25, 25)  # ... and on a light one
DOT_R = 0.28  # sticker dot radius as a fraction of the coin's


@dataclass(frozen=True)
class Hand:
    """The striking hand and pen: the pen tip at ``tip`` (mm), the pen pointing along ``direction``
    (unit vector from the hand towards the tip); ``None`` in :meth:`Renderer.render` = no hand."""

    tip: Point
    direction: Point


_STATIC: dict[Any, Any] = {}


class Renderer:
    """Draws frames for one rig and one set of coins; ``conditions`` (conditions.py) adds the coins'
    looks, the hand's shape and skin, and a covered marker (None: the plain virtual table)."""

    def __init__(self, rig: CameraRig, coins: Mapping[str, CoinInfo], *,
                 markers: Mapping[int, Point] | None = None, conditions: Conditions | None = None) -> None:
        self.rig = rig
        self.coins = dict(coins)
        self.markers = dict(markers or DEFAULT_MARKERS)
        self.proj = rig.projection()
        self.hand_look: HandLook | None = conditions.hand if conditions is not None else None
        self.cover: Cover | None = conditions.cover if conditions is not None else None
        self.looks = {c: k for c, k in zip(sorted(self.coins), conditions.looks, strict=False)
                      if k != "plain"} if conditions is not None else {}
        # fps and exposure do not change the static table: one drawing serves every frame rate
        key = (replace(rig, fps=0.0, exposure_s=0.0), tuple(sorted(self.markers.items())))
        if key not in _STATIC:  # the static table costs ~0.5 s: one per rig (the bench reuses rigs)
            if len(_STATIC) >= 16:
                _STATIC.pop(next(iter(_STATIC)))
            rng = np.random.default_rng(rig.seed)
            w, h = rig.resolution
            noise = [rng.normal(0.0, rig.noise, (h, w, 3)) for _ in range(6)]
            if rig.noise_model == "banded":  # rolling-shutter row banding and hot pixels (held out)
                for n in noise:
                    n += rng.normal(0.0, rig.noise * 0.8, (h, 1, 1))
                    hot = rng.random((h, w)) < 0.0005
                    n[hot] += 120.0
            _STATIC[key] = (*self._static(), [(np.clip(n, 0, 255).astype(np.uint8),
                                               np.clip(-n, 0, 255).astype(np.uint8)) for n in noise])
        self.background, self.shade, self._noise = _STATIC[key]
        self._frame_no = 0
        self._scene: np.ndarray = self.background
        self._scene_key: Any = None

    # --- the static table ------------------------------------------------------------------------

    def _static(self) -> tuple[np.ndarray, np.ndarray]:
        w0, h0 = self.rig.resolution
        w, h = 2 * w0, 2 * h0  # drawn at twice the size and averaged down: edges are anti-aliased
        # OpenCV: pixel i is centred on i, so fine pixel j sits at (j - 0.5) / 2
        u, v = np.meshgrid((np.arange(w) - 0.5) / 2, (np.arange(h) - 0.5) / 2)
        xy = self.proj.to_surface(np.column_stack([u.ravel(), v.ravel()]))
        x, y = xy[:, 0].reshape(h, w), xy[:, 1].reshape(h, w)
        W, L = geo.WIDTH_MM, geo.LENGTH_MM
        img = np.empty((h, w, 3), dtype=np.float32)
        img[:] = FLOOR_BGR
        rails = (x > -RAIL_MM) & (x < W + RAIL_MM) & (y > -RAIL_MM) & (y < L + RAIL_MM)
        img[rails] = RAIL_BGR
        surface = (x >= 0) & (x <= W) & (y >= 0) & (y <= L)
        grain = 1.0 + 0.03 * np.sin(x * 0.21 + 0.5 * np.sin(y * 0.03)) * np.sin(y * 0.011)
        img[surface] = np.array(TABLE_BGR, dtype=np.float32) * grain[surface][:, None]
        g = geo.GOAL
        inside = (x >= g.x0) & (x <= g.x1) & (y >= g.y0) & (y <= g.y1)
        border = inside & ~((x >= g.x0 + LINE_MM) & (x <= g.x1 - LINE_MM) & (y >= g.y0 + LINE_MM) & (y <= g.y1 - LINE_MM))
        img[border] = LINE_BGR
        for mid, centre in self.markers.items():
            self._marker(img, x, y, mid, centre)
        # uneven light: a lamp's hotspot plus a gentle gradient
        cx, cy = self.rig.light_centre
        d2 = ((u / w0 - cx) ** 2 + (v / h0 - cy) ** 2) / 0.5
        shade = (self.rig.light * (1.0 - self.rig.light_falloff * d2) * (1.0 + 0.06 * (u / w0 - 0.5))).astype(np.float32)
        strength, angle = self.rig.gradient
        if strength:  # a window on one side: brighter one way across the frame
            shade *= (1.0 + strength * ((u / w0 - 0.5) * math.cos(angle) + (v / h0 - 0.5) * math.sin(angle))).astype(
                np.float32)
        gu, gv, gr, gain = self.rig.glare
        if gain:  # a lamp's reflection in the varnish: near white at its middle
            shade += (gain * np.exp(-((u / w0 - gu) ** 2 + (v / h0 - gv) ** 2) / (2 * gr * gr))).astype(np.float32)
        img *= shade[:, :, None]
        small = cv2.resize(np.clip(img, 0, 255), (w0, h0), interpolation=cv2.INTER_AREA)
        return small.astype(np.uint8), cv2.resize(shade, (w0, h0), interpolation=cv2.INTER_AREA)

    def _marker(self, img: np.ndarray, x: np.ndarray, y: np.ndarray, mid: int, centre: Point) -> None:
        bits = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), mid, 6)
        half = MARKER_MM / 2
        quiet = half + MARKER_MM / 6  # one cell of white around the black border
        mx, my = x - centre[0], y - centre[1]
        img[(np.abs(mx) <= quiet) & (np.abs(my) <= quiet)] = (235, 235, 235)
        on = (np.abs(mx) < half) & (np.abs(my) < half)
        ci = np.clip(((half - my[on]) / MARKER_MM * 6).astype(int), 0, 5)  # image rows run against table y
        cj = np.clip(((mx[on] + half) / MARKER_MM * 6).astype(int), 0, 5)
        vals = bits[ci, cj].astype(np.float32)
        img[on] = np.where(vals[:, None] > 127, 235.0, 25.0)

    # --- a frame ---------------------------------------------------------------------------------

    def render(self, positions: Mapping[str, Point], *, flying: Mapping[str, float] | None = None,
               hand: Hand | None = None, t: float = 0.0, previous: Mapping[str, Point] | None = None) -> Any:
        """One BGR uint8 frame: coins at ``positions`` (mm); ``flying`` coin -> height above the
        surface in mm (a rider on a coin, a coin hopping a rail); ``previous`` the positions one
        exposure earlier (motion blur)."""
        flying = flying or {}
        prev = previous or {}
        drawn = [c for c in sorted(positions, key=lambda c: (flying.get(c, 0.0), c)) if c in self.coins]
        # one projection for every coin: where it was one exposure ago, where it is, its rim
        r_mm = geo.COIN_RADIUS_MM
        pts = np.array([p for c in drawn for p in (prev.get(c, positions[c]), positions[c],
                                                   (positions[c][0] + r_mm, positions[c][1]))]).reshape(-1, 2)
        z = np.repeat([COIN_TOP_MM + flying.get(c, 0.0) for c in drawn], 3)  # what the lens sees: the top face
        px = self.proj.to_image(pts, z).reshape(-1, 3, 2) if drawn else np.zeros((0, 3, 2))
        # coins lying still and flat are drawn once into a cached scene; only the others per frame
        still = [i for i, c in enumerate(drawn) if flying.get(c, 0.0) == 0.0 and np.allclose(px[i, 0], px[i, 1])]
        key = tuple((drawn[i], round(float(px[i, 1, 0]), 3), round(float(px[i, 1, 1]), 3)) for i in still)
        if self._scene_key != key:
            scene = self.background.copy()
            for i in still:
                self._coin(scene, drawn[i], px[i], 0.0)
            self._scene, self._scene_key = scene, key
        img = self._scene.copy()
        for i, c in enumerate(drawn):
            if i not in still:
                self._coin(img, c, px[i], flying.get(c, 0.0))
        if hand is not None:
            if self.hand_look is None:
                self._hand(img, hand)
            else:
                self._hand_look(img, hand, self.hand_look)
        if self.cover is not None and self.cover.t0 <= t <= self.cover.t1:
            self._cover(img, self.cover)
        pos, neg = self._noise[self._frame_no % len(self._noise)]
        self._frame_no += 1
        cv2.add(img, pos, dst=img)
        cv2.subtract(img, neg, dst=img)
        return img

    def _coin(self, img: np.ndarray, cid: str, px: np.ndarray, height: float) -> None:
        """Draw a coin from its projected points (one exposure ago, now, its rim), blurred along
        its travel in the exposure."""
        info = self.coins[cid]
        ends = px[:2]
        r_px = float(np.hypot(*(px[2] - px[1])))
        travel = float(np.hypot(*(ends[1] - ends[0])))
        n = int(min(8, max(1, math.ceil(travel / 1.5))))
        h, w = img.shape[:2]
        x0 = int(max(min(ends[:, 0]) - r_px - 3, 0))
        y0 = int(max(min(ends[:, 1]) - r_px - 3, 0))
        x1 = int(min(max(ends[:, 0]) + r_px + 3, w))
        y1 = int(min(max(ends[:, 1]) + r_px + 3, h))
        if x1 <= x0 or y1 <= y0:
            return  # out of view
        cx, cy = int(np.clip(ends[1, 0], 0, w - 1)), int(np.clip(ends[1, 1], 0, h - 1))
        light = float(self.shade[cy, cx])
        rgb = hex_bgr(info.colour)
        colour = tuple(min(255.0, c * light) for c in rgb)
        light_coin = 0.114 * rgb[0] + 0.587 * rgb[1] + 0.299 * rgb[2] > 150
        dot = tuple(min(255.0, c * light) for c in (DARK_MARK_BGR if light_coin else MARK_BGR))
        patch = img[y0:y1, x0:x1]
        tilt = 0.78 if height > 0.5 else 1.0  # a coin resting on another coin is tilted: an ellipse
        axes = (int(round(r_px * 16)), int(round(r_px * tilt * 16)))
        if n == 1:  # still: drawn straight into the frame
            c = ends[1] - (x0, y0)
            cv2.ellipse(patch, (int(round(c[0] * 16)), int(round(c[1] * 16))), axes, 0, 0, 360, colour, -1,
                        cv2.LINE_AA, 4)
            if info.mark:
                self._dots(patch, c, r_px, info.mark, dot)
            if cid in self.looks:
                self._look(patch, c, r_px, self.looks[cid], info.seat, light, rgb)
            return
        acc = np.zeros(patch.shape, dtype=np.float32)
        for k in range(n):
            f = (k + 1) / n
            c = ends[0] + (ends[1] - ends[0]) * f - (x0, y0)
            tmp = patch.copy()
            cv2.ellipse(tmp, (int(round(c[0] * 16)), int(round(c[1] * 16))), axes, 0, 0, 360, colour, -1,
                        cv2.LINE_AA, 4)
            if info.mark:
                self._dots(tmp, c, r_px, info.mark, dot)
            if cid in self.looks:
                self._look(tmp, c, r_px, self.looks[cid], info.seat, light, rgb)
            acc += tmp
        img[y0:y1, x0:x1] = (acc / n).astype(np.uint8)

    @staticmethod
    def _dots(tmp: np.ndarray, c: np.ndarray, r_px: float, mark: int, colour: tuple[float, ...]) -> None:
        """``mark`` sticker dots (docs/camera.md "Identity"): 1 in the centre, 2 or 3 around it."""
        offsets = {1: [(0.0, 0.0)], 2: [(-0.4, 0.0), (0.4, 0.0)], 3: [(-0.42, 0.25), (0.42, 0.25), (0.0, -0.45)]}
        for ox, oy in offsets.get(mark, []):
            centre = (int(round((c[0] + ox * r_px) * 16)), int(round((c[1] + oy * r_px) * 16)))
            cv2.circle(tmp, centre, int(round(DOT_R * r_px * 16)), colour, -1, cv2.LINE_AA, 4)

    def _hand(self, img: np.ndarray, hand: Hand) -> None:
        d = np.array(hand.direction, dtype=np.float64)
        tip = np.array(hand.tip, dtype=np.float64)
        grip = tip - d * 110.0  # a pen held 110 mm behind its tip
        palm = grip - d * 45.0
        side = np.array([-d[1], d[0]])
        pts_mm = np.array([tip, grip, palm, palm + side * 30, palm - side * 30, palm - d * 250])
        px = self.proj.to_image(pts_mm, 40.0)
        scale = float(np.linalg.norm(self.proj.to_image(np.array([palm + side * 10]), 40.0)[0] - px[2])) / 10.0
        cv2.line(img, _pt(px[0]), _pt(px[1]), PEN_BGR, max(2, int(round(7 * scale))), cv2.LINE_AA, 4)
        angle = math.degrees(math.atan2(px[5, 1] - px[2, 1], px[5, 0] - px[2, 0]))
        cv2.ellipse(img, _pt(px[2]), (int(50 * scale * 16), int(38 * scale * 16)), angle, 0, 360, SKIN_BGR, -1,
                    cv2.LINE_AA, 4)
        cv2.line(img, _pt(px[2]), _pt(px[5]), SKIN_BGR, max(3, int(round(60 * scale))), cv2.LINE_AA, 4)


    @staticmethod
    def _look(tmp: np.ndarray, c: np.ndarray, r_px: float, look: str, seat: int, light: float,
              rgb: tuple[int, int, int]) -> None:
        """A coin's look besides its colour (conditions.LOOKS): an off-centre decal, a printed
        number, or a two-tone coin (an inner disc of a darker shade)."""
        ink = tuple(min(255.0, v * light) for v in ((20, 20, 20) if sum(rgb) > 380 else (235, 235, 235)))
        if look == "sticker":
            centre = (int(round((c[0] + 0.35 * r_px) * 16)), int(round((c[1] - 0.3 * r_px) * 16)))
            cv2.circle(tmp, centre, int(round(0.3 * r_px * 16)), (40 * light, 200 * light, 230 * light), -1,
                       cv2.LINE_AA, 4)
        elif look == "number":
            scale = r_px / 22.0
            text = str(seat)
            (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, int(round(scale * 2))))
            cv2.putText(tmp, text, (int(c[0] - tw / 2), int(c[1] + th / 2)), cv2.FONT_HERSHEY_SIMPLEX, scale, ink,
                        max(1, int(round(scale * 2))), cv2.LINE_AA)
        elif look == "two_tone":
            inner = tuple(v * light * 0.55 for v in rgb)
            cv2.circle(tmp, (int(round(c[0] * 16)), int(round(c[1] * 16))), int(round(0.6 * r_px * 16)), inner, -1,
                       cv2.LINE_AA, 4)

    def _hand_look(self, img: np.ndarray, hand: Hand, look: HandLook) -> None:
        """The hand of ``look.shape`` (conditions.HELDOUT_HANDS): a pen held in a hand, a fist
        with a short pen, a hand in a sleeve, or an open hand flicking with a finger (no pen)."""
        d = np.array(hand.direction, dtype=np.float64)
        tip = np.array(hand.tip, dtype=np.float64)
        side = np.array([-d[1], d[0]])
        pen = {"pen": 110.0, "fist": 70.0, "sleeve": 110.0, "flat": 0.0}[look.shape]
        grip = tip - d * pen
        palm = grip - d * (45.0 if pen else 55.0)
        arm = palm - d * 250
        pts_mm = np.array([tip, grip, palm, palm + side * 10, palm - d * 70, arm])
        px = self.proj.to_image(pts_mm, 40.0)
        scale = float(np.linalg.norm(px[3] - px[2])) / 10.0
        skin = tuple(float(v) for v in look.skin_bgr)
        if pen:
            cv2.line(img, _pt(px[0]), _pt(px[1]), PEN_BGR, max(2, int(round(7 * scale))), cv2.LINE_AA, 4)
        else:  # fingers spread from the palm, the middle one at the tip
            for k, spread in enumerate((-0.5, -0.18, 0.0, 0.2, 0.55)):
                length = 55.0 if k != 2 else float(np.linalg.norm(tip - palm))
                end = palm + (d + side * spread) / math.hypot(1.0, spread) * length
                f_px = self.proj.to_image(np.array([end]), 30.0)[0]
                cv2.line(img, _pt(px[2]), _pt(f_px), skin, max(2, int(round(14 * scale))), cv2.LINE_AA, 4)
        angle = math.degrees(math.atan2(px[5, 1] - px[2, 1], px[5, 0] - px[2, 0]))
        palm_axes = (60, 50) if look.shape == "fist" else (50, 38)
        cv2.ellipse(img, _pt(px[2]), (int(palm_axes[0] * scale * 16), int(palm_axes[1] * scale * 16)), angle, 0,
                    360, skin, -1, cv2.LINE_AA, 4)
        if look.shape == "sleeve":
            cv2.line(img, _pt(px[2]), _pt(px[4]), skin, max(3, int(round(60 * scale))), cv2.LINE_AA, 4)
            cv2.line(img, _pt(px[4]), _pt(px[5]), tuple(float(v) for v in look.sleeve_bgr),
                     max(3, int(round(85 * scale))), cv2.LINE_AA, 4)
        else:
            cv2.line(img, _pt(px[2]), _pt(px[5]), skin, max(3, int(round(60 * scale))), cv2.LINE_AA, 4)

    def _cover(self, img: np.ndarray, cover: Cover) -> None:
        """Part of a marker covered (conditions.Cover): a skin-toned band over ``share`` of it from
        one side, reaching past its quiet zone so the detector loses the marker."""
        if cover.marker not in self.markers:
            return
        cx, cy = self.markers[cover.marker]
        half = MARKER_MM / 2 + MARKER_MM / 6
        depth = 2 * half * cover.share + MARKER_MM / 6
        x0, x1, y0, y1 = cx - half - 40, cx + half + 40, cy - half - 40, cy + half + 40
        if cover.side == 0:
            x1 = cx - half + depth
        elif cover.side == 1:
            x0 = cx + half - depth
        elif cover.side == 2:
            y1 = cy - half + depth
        else:
            y0 = cy + half - depth
        quad = self.proj.to_image(np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]), 20.0)
        colour = tuple(float(v) for v in (self.hand_look.skin_bgr if self.hand_look else SKIN_BGR))
        cv2.fillConvexPoly(img, np.round(quad * 16).astype(np.int32), colour, cv2.LINE_AA, 4)


def _pt(p: np.ndarray) -> tuple[int, int]:
    return (int(round(p[0] * 16)), int(round(p[1] * 16)))


def render(positions: Mapping[str, Point], *, flying: Mapping[str, float] | None = None, hand: Hand | None = None,
           t: float = 0.0, renderer: Renderer) -> Any:
    """One frame through ``renderer`` (the functional form of :meth:`Renderer.render`)."""
    return renderer.render(positions, flying=flying, hand=hand, t=t)
