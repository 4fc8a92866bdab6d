"""The virtual camera's mount and sensor: pinhole model, tilt/yaw, lens distortion, light, noise."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class CameraRig:
    """A camera above the default table. Angles in degrees (within the docs' mount tolerance),
    distances in mm, ``k1`` the division-model barrel distortion, ``exposure_s`` the shutter time."""

    height_mm: float = 900.0
    tilt_deg: float = 0.0  # about the table's x axis
    roll_deg: float = 0.0  # about the table's y axis
    yaw_deg: float = 0.0  # about the vertical
    offset_mm: tuple[float, float] = (0.0, 0.0)  # camera off the table centre
    focal_px: float = 0.0  # 0: chosen so the table and markers fill the frame
    resolution: tuple[int, int] = (352, 480)  # (w, h); ≥ 16 px per 30 mm coin
    fps: float = 120.0
    exposure_s: float = 0.003
    k1: float = -0.04
    light: float = 1.0  # overall brightness
    light_falloff: float = 0.25  # vignetting / lamp hotspot strength
    light_centre: tuple[float, float] = (0.5, 0.45)  # hotspot in image fractions
    noise: float = 3.0  # sensor noise sigma (8-bit levels)
    seed: int = 0

    @classmethod
    def random(cls, rng: random.Random) -> CameraRig:
        """A believable rig: mount angle, height, light and noise vary within the docs' tolerances."""
        raise NotImplementedError
