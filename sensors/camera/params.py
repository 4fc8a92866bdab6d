"""The tracker's tuning (docs/camera.md), shared by the strike tracker and the game-start binding."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TrackParams:
    """Tuning of the tracker; defaults suit the default table at ≥ 16 px per coin and ≥ 100 fps."""

    coin_diameter_mm: float = 30.0
    table: tuple[float, float] = (425.0, 625.0)
    min_visible: float = 0.6  # fraction of a coin's disc that must be seen to locate it
    contact_band_mm: float = 1.5  # closest approach this close to touching is not decided by distance (docs/camera.md)
    rest_speed_mm_s: float = 8.0
    # the lens's height above the surface (mm; None: not known, coins taken as flat): a coin's top,
    # coin_thickness_mm up, is seen outward of its centre by thickness / height of its distance
    # from below the lens (1.3 mm at a corner at the 0.62 m mount): calibration.py ``at_height``
    camera_height_mm: float | None = None
    coin_thickness_mm: float = 2.0


def coin_plane(calibration: Any, params: TrackParams) -> Any:
    """The calibration for coins' top faces (``Calibration.at_height``) when the lens's height is
    known; else the surface's own (coins taken as flat)."""
    if params.camera_height_mm is None:
        return calibration
    return calibration.at_height(params.coin_thickness_mm, params.camera_height_mm)
