"""Calibration from the four ArUco markers (docs/camera.md, CAM-1): image pixels ↔ table mm.

The markers (``DICT_4X4_50``, ids 0–3) sit outside the playing surface at config positions. Their
centres give the homography; their corners (four squares of one size) also give the lens's barrel
distortion (a one-parameter division model), which a homography alone cannot undo. ``Recalibrator``
re-does it when the markers move in the image (the camera was knocked).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

Point = tuple[float, float]
MARKER_IDS = (0, 1, 2, 3)


class CalibrationError(ValueError):
    """The markers cannot be found or give no usable homography; one line saying which."""


def _detector(fine: bool = False) -> Any:
    import cv2

    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX  # sub-pixel corners: the distortion fit needs them
    # a marker whose black square ends a pixel or two from the frame's edge (its white margin cut off:
    # a mount within docs/camera.md's tolerance puts a corner marker there) is still whole: found
    params.minDistanceToBorder = 1
    if fine:  # small markers (~25 px) under noise: more threshold windows, looser polygon fit
        params.adaptiveThreshWinSizeMin, params.adaptiveThreshWinSizeMax, params.adaptiveThreshWinSizeStep = 3, 33, 4
        params.polygonalApproxAccuracyRate = 0.05
        # a marker's 6 cells are ~4 px each there: read each cell's middle only (its blurred edges
        # are grey) at a finer grid, and a higher threshold so the white margin stays white by the dark rail
        params.perspectiveRemovePixelPerCell = 8
        params.perspectiveRemoveIgnoredMarginPerCell = 0.3
        params.adaptiveThreshConstant = 12
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)


def detect_marker_corners(image: Any) -> dict[int, Any]:
    """The four corners (4x2 pixels, ArUco order) of each of the markers 0–3 seen once in ``image``."""
    import cv2

    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    out = _detect(grey, fine=False)
    if len(out) < len(MARKER_IDS):
        out = _detect(grey, fine=True) | out
    return out


def _detect(grey: Any, *, fine: bool) -> dict[int, Any]:
    import numpy as np

    corners, ids, _rejected = _detector(fine).detectMarkers(grey)
    found: dict[int, list[Any]] = {}
    for quad, i in zip(corners, [] if ids is None else [int(i) for i in ids.ravel()], strict=True):
        if i in MARKER_IDS:
            found.setdefault(i, []).append(np.asarray(quad, dtype=np.float64).reshape(4, 2))
    out: dict[int, Any] = {}
    for i, quads in found.items():
        centres = np.array([q.mean(axis=0) for q in quads])
        if np.ptp(centres, axis=0).max() <= 3.0:  # one marker found twice: the same place; else no position
            out[i] = np.mean(quads, axis=0)
    return out


def detect_markers(image: Any) -> dict[int, Point]:
    """Centres (u, v) in pixels of the ArUco markers 0–3 visible in a BGR or grey image."""
    return {i: (float(q[:, 0].mean()), float(q[:, 1].mean())) for i, q in detect_marker_corners(image).items()}


K1_RANGE = (-0.25, 0.25)  # barrel (negative) to pincushion over half the image diagonal


@dataclass(frozen=True)
class Calibration:
    """Image ↔ table mapping: ``to_table``/``to_image`` for points, ``coin_px`` for a coin's size.

    Lens model (division model, one parameter): an undistorted point is
    ``c + (p - c) / (1 + k1 * (|p - c| / norm)**2)``; the homography maps undistorted pixels to mm."""

    homography: Any  # 3x3 numpy array: undistorted pixel -> table mm
    k1: float = 0.0  # division-model distortion over the normalised radius (0 = none)
    centre: Point = (0.0, 0.0)  # distortion centre in pixels (the image centre)
    norm: float = 1.0  # pixels of normalised radius 1 (half the image diagonal)
    # points seen at a height above the surface (a coin's top): (x, y) of the point below the lens
    # and (camera height - height) / camera height; None: points on the surface (``at_height``)
    lift: tuple[float, float, float] | None = None

    def at_height(self, height_mm: float, camera_height_mm: float) -> Calibration:
        """The same mapping for points ``height_mm`` above the surface (a coin's top face), seen by a
        lens ``camera_height_mm`` above it. The markers fix the surface's plane; a point above it
        lies on the ray to the lens, so it is mapped where that ray meets its own height: towards
        the point below the lens by height / camera height of its distance (the lens is taken
        straight above the image centre: within the mount's ±2° that moves the result < 0.1 mm)."""
        if not (math.isfinite(camera_height_mm) and camera_height_mm > height_mm >= 0.0):
            raise ValueError(f"camera height must be above the point's {height_mm} mm, got {camera_height_mm!r}")
        if height_mm == 0.0:
            return replace(self, lift=None)
        below = replace(self, lift=None).to_table([self.centre])[0]
        return replace(self, lift=(float(below[0]), float(below[1]), (camera_height_mm - height_mm) / camera_height_mm))

    @classmethod
    def from_markers(cls, px: Mapping[int, Point], mm: Mapping[int, Point], *, corners: Any = None,
                     image_size: tuple[int, int] | None = None) -> Calibration:
        """The homography from marker centres ``px`` (pixels) to ``mm`` (table mm), ids 0–3. With
        ``corners`` (id -> 4x2 pixel corners) and ``image_size`` (w, h) it also fits the distortion."""
        import numpy as np

        missing = [i for i in MARKER_IDS if i not in px or i not in mm]
        if missing:
            raise CalibrationError(f"markers {', '.join(map(str, missing))} not seen (all four of 0-3 are needed)")
        if image_size is not None:
            centre = (image_size[0] / 2.0, image_size[1] / 2.0)
            norm = math.hypot(*centre)
        else:
            pts = np.array([px[i] for i in MARKER_IDS])
            centre = (float(pts[:, 0].mean()), float(pts[:, 1].mean()))
            norm = float(np.hypot(*(pts - centre).T).max())
        base = cls(np.eye(3), 0.0, centre, norm)
        if corners is not None and all(i in corners for i in MARKER_IDS):
            quads = {i: np.asarray(corners[i], dtype=np.float64) for i in MARKER_IDS}
            k1 = _fit_k1(base, quads, mm)
            return base._with_k1(k1, {i: q.mean(axis=0) for i, q in quads.items()}, mm, quads)
        return base._with_k1(0.0, {i: np.asarray(px[i], dtype=np.float64) for i in MARKER_IDS}, mm, None)

    def _with_k1(self, k1: float, centres_px: Mapping[int, Any], mm: Mapping[int, Point], quads: Any) -> Calibration:
        import cv2
        import numpy as np

        probe = Calibration(np.eye(3), k1, self.centre, self.norm)
        if quads is not None:  # the marker centre is the centre of its undistorted corners
            src = np.array([probe.undistort(quads[i]).mean(axis=0) for i in MARKER_IDS], dtype=np.float32)
        else:
            src = probe.undistort(np.array([centres_px[i] for i in MARKER_IDS])).astype(np.float32)
        dst = np.array([mm[i] for i in MARKER_IDS], dtype=np.float32)
        if abs(cv2.contourArea(src)) < 100.0:
            raise CalibrationError("the four markers are (nearly) in one line in the image: no homography")
        h = cv2.getPerspectiveTransform(src, dst)
        if not np.all(np.isfinite(h)) or abs(np.linalg.det(h)) < 1e-12:
            raise CalibrationError("the marker positions give no usable homography")
        return Calibration(h, k1, self.centre, self.norm)

    def undistort(self, points: Any) -> Any:
        """Distorted pixel points (N, 2) -> undistorted pixel points (N, 2)."""
        import numpy as np

        p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        if self.k1 == 0.0:
            return p
        d = p - self.centre
        r2 = (d * d).sum(axis=1, keepdims=True) / (self.norm * self.norm)
        return self.centre + d / (1.0 + self.k1 * r2)

    def distort(self, points: Any) -> Any:
        """Undistorted pixel points (N, 2) -> distorted pixels (the inverse of :meth:`undistort`)."""
        import numpy as np

        p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        if self.k1 == 0.0:
            return p
        d = (p - self.centre) / self.norm
        ru = np.hypot(d[:, 0], d[:, 1])[:, None]
        k = self.k1
        disc = np.maximum(1.0 - 4.0 * k * ru * ru, 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            rd = np.where(ru > 1e-12, (1.0 - np.sqrt(disc)) / (2.0 * k * np.maximum(ru, 1e-12)), 0.0)
            scale = np.where(ru > 1e-12, rd / np.maximum(ru, 1e-12), 1.0)
        return self.centre + d * scale * self.norm

    def to_table(self, points: Any) -> Any:
        """Pixel points (N, 2) -> table mm (N, 2)."""
        import cv2
        import numpy as np

        u = self.undistort(points).reshape(-1, 1, 2)
        ground = cv2.perspectiveTransform(u, np.asarray(self.homography, dtype=np.float64)).reshape(-1, 2)
        if self.lift is None:
            return ground
        cx, cy, k = self.lift
        return np.array([cx, cy]) + (ground - np.array([cx, cy])) * k

    def to_image(self, points: Any) -> Any:
        """Table mm points (N, 2) -> pixel points (N, 2)."""
        import cv2
        import numpy as np

        p = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
        if self.lift is not None:  # where the ray through the raised point meets the surface
            cx, cy, k = self.lift
            p = (np.array([cx, cy]) + (p.reshape(-1, 2) - np.array([cx, cy])) / k).reshape(-1, 1, 2)
        inv = np.linalg.inv(np.asarray(self.homography, dtype=np.float64))
        return self.distort(cv2.perspectiveTransform(p, inv).reshape(-1, 2))

    def coin_px(self, at: Point, diameter_mm: float) -> float:
        """A coin's diameter in pixels at table point ``at``."""
        import numpy as np

        r = diameter_mm / 2.0
        pts = self.to_image([(at[0] - r, at[1]), (at[0] + r, at[1]), (at[0], at[1] - r), (at[0], at[1] + r)])
        return float((np.linalg.norm(pts[1] - pts[0]) + np.linalg.norm(pts[3] - pts[2])) / 2.0)


def _square_error(cal: Calibration, quads: Mapping[int, Any], mm: Mapping[int, Point]) -> float:
    """How far the four markers, mapped to mm with ``cal``'s k1, are from four equal squares."""
    import numpy as np

    try:
        full = cal._with_k1(cal.k1, {}, mm, quads)
    except CalibrationError:
        return math.inf
    err = 0.0
    sides_all = []
    for q in quads.values():
        t = full.to_table(q)
        sides = np.linalg.norm(t - np.roll(t, -1, axis=0), axis=1)
        diags = (np.linalg.norm(t[2] - t[0]), np.linalg.norm(t[3] - t[1]))
        mean = sides.mean()
        err += float(((sides - mean) ** 2).sum() / mean**2 + ((diags[0] - diags[1]) / mean) ** 2)
        sides_all.append(mean)
    spread = np.array(sides_all)
    return err + float(((spread - spread.mean()) ** 2).sum() / spread.mean() ** 2)


def _fit_k1(base: Calibration, quads: Mapping[int, Any], mm: Mapping[int, Point]) -> float:
    """The k1 that makes the markers most square (a grid, then a golden-section refinement)."""
    import numpy as np

    def err(k: float) -> float:
        return _square_error(Calibration(base.homography, k, base.centre, base.norm), quads, mm)

    grid = np.linspace(*K1_RANGE, 26)
    errs = [err(float(k)) for k in grid]
    i = int(np.argmin(errs))
    lo, hi = float(grid[max(i - 1, 0)]), float(grid[min(i + 1, len(grid) - 1)])
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = err(a), err(b)
    for _ in range(25):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = err(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = err(b)
    return (lo + hi) / 2


class Recalibrator:
    """Keeps a :class:`Calibration` current: re-detects the markers on a frame and re-fits when one
    moved more than ``move_px`` (CAM-1: the camera re-calibrates whenever the markers move)."""

    def __init__(self, markers_mm: Mapping[int, Point], *, move_px: float = 1.5) -> None:
        self.markers_mm = dict(markers_mm)
        self.move_px = move_px
        self.calibration: Calibration | None = None
        self.recalibrations = 0
        self._seen: dict[int, Point] = {}

    def update(self, image: Any) -> Calibration:
        """The calibration for this frame (re-fitted if the markers moved); raises
        :class:`CalibrationError` when no calibration is known and the markers are not all seen."""
        quads = detect_marker_corners(image)
        centres = {i: (float(q[:, 0].mean()), float(q[:, 1].mean())) for i, q in quads.items()}
        if len(centres) < 4:
            if self.calibration is None:
                missing = ", ".join(str(i) for i in MARKER_IDS if i not in centres)
                raise CalibrationError(f"markers {missing} not seen (all four of 0-3 are needed)")
            return self.calibration  # a hand over a marker: keep the last calibration
        moved = any(math.dist(centres[i], self._seen[i]) > self.move_px for i in MARKER_IDS) if self._seen else True
        if moved or self.calibration is None:
            h, w = image.shape[:2]
            self.calibration = Calibration.from_markers(centres, self.markers_mm, corners=quads, image_size=(w, h))
            self._seen = centres
            self.recalibrations += 1
        return self.calibration
