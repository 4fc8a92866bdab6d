"""Frames of the virtual table as the camera would see them (CAM-5), drawn with OpenCV.

The static table (surface, rails, goal line, ArUco markers, uneven light, lens distortion) is
computed once per rig through a per-pixel map; each frame copies it and draws the coins (seat
colours, sticker dots, motion blur over the exposure, riders on coins and coins leaving the table
drawn nearer the lens), the striking hand and pen, and sensor noise.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sensors.camera.recording import CoinInfo
from virtual.camera.rig import CameraRig

Point = tuple[float, float]

# ArUco centres in table mm: just outside the surface's corners, on the rails' outer band
DEFAULT_MARKERS: dict[int, Point] = {0: (-40.0, -40.0), 1: (465.0, -40.0), 2: (465.0, 665.0), 3: (-40.0, 665.0)}
MARKER_MM = 40.0


@dataclass(frozen=True)
class Hand:
    """The striking hand and pen at time t: the pen tip at ``tip`` (mm), the hand ``reach`` mm
    behind it along ``direction``; ``None`` in :meth:`Renderer.render` means no hand in view."""

    tip: Point
    direction: Point  # unit vector from the tip towards the player's wrist


class Renderer:
    """Draws frames for one rig and one set of coins."""

    def __init__(self, rig: CameraRig, coins: Mapping[str, CoinInfo], *,
                 markers: Mapping[int, Point] | None = None) -> None:
        self.rig = rig
        self.coins = dict(coins)
        self.markers = dict(markers or DEFAULT_MARKERS)

    def render(self, positions: Mapping[str, Point], *, flying: Mapping[str, float] | None = None,
               hand: Hand | None = None, t: float = 0.0, previous: Mapping[str, Point] | None = None) -> Any:
        """One BGR uint8 frame: coins at ``positions`` (mm); ``flying`` coin -> height above the
        surface in mm (a rider on a coin, a coin hopping a rail); ``previous`` the positions one
        exposure earlier (motion blur)."""
        raise NotImplementedError


def render(positions: Mapping[str, Point], *, flying: Mapping[str, float] | None = None, hand: Hand | None = None,
           t: float = 0.0, renderer: Renderer) -> Any:
    """One frame through ``renderer`` (the functional form of :meth:`Renderer.render`)."""
    return renderer.render(positions, flying=flying, hand=hand, t=t)
