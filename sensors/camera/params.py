"""The tracker's tuning (docs/camera.md), shared by the strike tracker and the game-start binding."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TrackParams:
    """Tuning of the tracker; defaults suit the default table at ≥ 16 px per coin and ≥ 100 fps."""

    coin_diameter_mm: float = 30.0
    table: tuple[float, float] = (425.0, 625.0)
    min_visible: float = 0.6  # fraction of a coin's disc that must be seen to locate it
    contact_band_mm: float = 1.5  # closest approach this close to touching is not decided by distance (docs/camera.md)
    rest_speed_mm_s: float = 8.0
