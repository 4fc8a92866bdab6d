"""One flick of the pymunk table rendered as a ``gametable-strike/1`` recording (CAM-4, CAM-5)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sensors.camera.recording import CoinInfo, StrikeRecording
from virtual.camera.rig import CameraRig
from virtual.physics import StrikeTruth, TablePhysics

STRIKE_T = 0.15  # seconds of table at rest (and the hand coming in) before the flick
REST_TAIL_S = 0.1  # seconds of every coin at rest after the strike


def record_strike(physics: TablePhysics, coin: str, vx: float, vy: float, rig: CameraRig,
                  coins: Mapping[str, CoinInfo]) -> tuple[StrikeRecording, list[Any], StrikeTruth]:
    """Flick ``coin`` at (vx, vy) mm/s on ``physics`` and render the strike at ``rig.fps``:
    (the recording's meta, its frames as BGR arrays, the physics' truth). ``coins`` gives each coin's
    seat, colour and mark (its ``at`` is taken from the physics)."""
    raise NotImplementedError
