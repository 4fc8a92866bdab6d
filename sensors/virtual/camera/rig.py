"""The virtual camera's mount and sensor: pinhole model, tilt/yaw, lens distortion, light, noise."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from gametable_core import table_geometry as geo


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
    resolution: tuple[int, int] = (384, 512)  # (w, h); ≥ 16 px per 30 mm coin
    fps: float = 120.0
    exposure_s: float = 0.003
    k1: float = -0.04
    light: float = 1.0  # overall brightness
    light_falloff: float = 0.25  # vignetting / lamp hotspot strength
    light_centre: tuple[float, float] = (0.5, 0.45)  # hotspot in image fractions
    noise: float = 3.0  # sensor noise sigma (8-bit levels)
    seed: int = 0
    # the condition matrix's extras (conditions.py); the defaults draw exactly what they drew before
    noise_model: str = "gaussian"  # or "banded": row banding and hot pixels (a held-out variant)
    gradient: tuple[float, float] = (0.0, 0.0)  # a light gradient: strength across the frame, direction (rad)
    glare: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # a glare spot: u, v, radius (frame fractions), gain

    @classmethod
    def random(cls, rng: random.Random) -> CameraRig:
        """A believable rig: mount angle (±2° tilt/roll, ±3° yaw, docs/camera.md "Mount"), height,
        centring, lens, exposure, light and noise vary, so the analysis is not tuned to one picture."""
        return cls(
            height_mm=rng.uniform(850.0, 950.0),
            tilt_deg=rng.uniform(-2.0, 2.0),
            roll_deg=rng.uniform(-2.0, 2.0),
            yaw_deg=rng.uniform(-3.0, 3.0),
            offset_mm=(rng.uniform(-8.0, 8.0), rng.uniform(-8.0, 8.0)),
            k1=rng.uniform(-0.08, 0.0),
            exposure_s=rng.uniform(0.0015, 0.004),
            light=rng.uniform(0.8, 1.15),
            light_falloff=rng.uniform(0.1, 0.35),
            light_centre=(rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7)),
            noise=rng.uniform(1.5, 4.0),
            seed=rng.randrange(2**31),
        )

    def projection(self) -> Projection:
        """The pinhole model of this rig (table mm + height -> pixels)."""
        return Projection(self)


VIEW_MM = (625.0, 875.0)  # what the default focal length fits: the table, its rails and the markers


class Projection:
    """Table points (x, y, z above the surface) -> distorted pixels, and pixels -> surface points."""

    def __init__(self, rig: CameraRig) -> None:
        w, h = rig.resolution
        self.size = (w, h)
        self.f = rig.focal_px or min(w / VIEW_MM[0], h / VIEW_MM[1]) * rig.height_mm
        self.c = np.array([w / 2.0, h / 2.0])
        self.norm = float(np.hypot(w / 2.0, h / 2.0))
        self.k1 = rig.k1
        # camera looking straight down: camera x = table x, camera y = -table y, camera z = -table z (a
        # proper rotation, so the markers are not mirrored), then the mount's small rotations
        base = np.array([[1.0, 0, 0], [0, -1.0, 0], [0, 0, -1.0]])
        self.rot = _rotation(rig.tilt_deg, rig.roll_deg, rig.yaw_deg) @ base  # world -> camera
        self.eye = np.array([geo.WIDTH_MM / 2 + rig.offset_mm[0], geo.LENGTH_MM / 2 + rig.offset_mm[1],
                             rig.height_mm])

    def to_image(self, pts: np.ndarray, z: np.ndarray | float = 0.0) -> np.ndarray:
        """(N, 2) table mm at heights ``z`` mm -> (N, 2) distorted pixels."""
        p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        world = np.column_stack([p, np.broadcast_to(np.asarray(z, dtype=np.float64), (len(p),))])
        cam = (world - self.eye) @ self.rot.T
        und = self.f * cam[:, :2] / cam[:, 2:3] + self.c
        return self._distort(und)

    def to_surface(self, px: np.ndarray) -> np.ndarray:
        """(N, 2) distorted pixels -> (N, 2) points on the table plane z = 0 (mm)."""
        d = np.asarray(px, dtype=np.float64).reshape(-1, 2) - self.c
        r2 = (d * d).sum(axis=1, keepdims=True) / self.norm**2
        und = d / (1.0 + self.k1 * r2)
        rays = np.column_stack([und / self.f, np.ones(len(und))]) @ self.rot  # camera -> world directions
        s = -self.eye[2] / rays[:, 2]
        return self.eye[:2] + rays[:, :2] * s[:, None]

    def _distort(self, und: np.ndarray) -> np.ndarray:
        if self.k1 == 0.0:
            return und
        d = (und - self.c) / self.norm
        ru = np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-12)[:, None]
        rd = (1.0 - np.sqrt(np.maximum(1.0 - 4.0 * self.k1 * ru * ru, 0.0))) / (2.0 * self.k1 * ru)
        return self.c + d * (rd / ru) * self.norm


def _rotation(tilt: float, roll: float, yaw: float) -> np.ndarray:
    a, b, c = (math.radians(v) for v in (tilt, roll, yaw))
    rx = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    ry = np.array([[math.cos(b), 0, math.sin(b)], [0, 1, 0], [-math.sin(b), 0, math.cos(b)]])
    rz = np.array([[math.cos(c), -math.sin(c), 0], [math.sin(c), math.cos(c), 0], [0, 0, 1]])
    return rx @ ry @ rz
