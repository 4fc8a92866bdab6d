"""Calibration from the four ArUco markers (docs/camera.md, CAM-1): image pixels ↔ table mm.

The markers (``DICT_4X4_50``, ids 0–3) sit outside the playing surface at config positions. Their
centres give the homography; their corners (four squares of one size) also give the lens's barrel
distortion (a one-parameter division model), which a homography alone cannot undo. ``Recalibrator``
re-does it when the markers move in the image (the camera was knocked).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

Point = tuple[float, float]
MARKER_IDS = (0, 1, 2, 3)


class CalibrationError(ValueError):
    """The markers cannot be found or give no usable homography; one line saying which."""


def detect_markers(image: Any) -> dict[int, Point]:
    """Centres (u, v) in pixels of the ArUco markers 0–3 visible in a BGR or grey image."""
    raise NotImplementedError


@dataclass(frozen=True)
class Calibration:
    """Image ↔ table mapping: ``to_table``/``to_image`` for points, ``coin_px`` for a coin's size."""

    homography: Any  # 3x3 numpy array: undistorted pixel -> table mm
    k1: float = 0.0  # division-model distortion over the normalised radius (0 = none)
    centre: Point = (0.0, 0.0)  # distortion centre in pixels (the image centre)
    norm: float = 1.0  # pixels of normalised radius 1 (half the image diagonal)

    @classmethod
    def from_markers(cls, px: Mapping[int, Point], mm: Mapping[int, Point], *, corners: Any = None,
                     image_size: tuple[int, int] | None = None) -> Calibration:
        """The homography from marker centres ``px`` (pixels) to ``mm`` (table mm), ids 0–3. With
        ``corners`` (id -> 4x2 pixel corners) and ``image_size`` (w, h) it also fits the distortion."""
        raise NotImplementedError

    def to_table(self, points: Any) -> Any:
        """Pixel points (N, 2) -> table mm (N, 2)."""
        raise NotImplementedError

    def to_image(self, points: Any) -> Any:
        """Table mm points (N, 2) -> pixel points (N, 2)."""
        raise NotImplementedError

    def coin_px(self, at: Point, diameter_mm: float) -> float:
        """A coin's diameter in pixels at table point ``at``."""
        raise NotImplementedError


class Recalibrator:
    """Keeps a :class:`Calibration` current: re-detects the markers on a frame and re-fits when one
    moved more than ``move_px`` (CAM-1: the camera re-calibrates whenever the markers move)."""

    def __init__(self, markers_mm: Mapping[int, Point], *, move_px: float = 1.5) -> None:
        self.markers_mm = dict(markers_mm)
        self.move_px = move_px
        self.calibration: Calibration | None = None
        self.recalibrations = 0

    def update(self, image: Any) -> Calibration:
        """The calibration for this frame (re-fitted if the markers moved); raises
        :class:`CalibrationError` when no calibration is known and the markers are not all seen."""
        raise NotImplementedError
