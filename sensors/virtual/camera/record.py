"""One flick of the pymunk table rendered as a ``gametable-strike/1`` recording (CAM-4, CAM-5)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from gametable_core import table_geometry as geo
from sensors.camera.recording import CoinInfo, StrikeRecording, frame_names
from sensors.virtual.camera.render import Renderer
from sensors.virtual.camera.rig import CameraRig
from sensors.virtual.camera.scene import (
    HAND_GONE_S,
    REST_TAIL_S,
    STRIKE_T,
    History,
    hand_at,
    heights_off_surface,
    positions_at,
)
from sensors.virtual.physics import Point, StepHook, StrikeTruth, TablePhysics


def record_strike(physics: TablePhysics, coin: str, vx: float, vy: float, rig: CameraRig,
                  coins: Mapping[str, CoinInfo], *, renderer: Renderer | None = None,
                  hand: bool = True, also: StepHook | None = None) -> tuple[StrikeRecording, list[Any], StrikeTruth]:
    """Flick ``coin`` at (vx, vy) mm/s on ``physics`` and render the strike at ``rig.fps``:
    (the recording's meta, its frames as BGR arrays, the physics' truth). ``coins`` gives each coin's
    seat, colour and mark (its ``at`` is taken from the physics). A ``renderer`` for the same rig and
    coins may be passed in to reuse its static table (benchmarks)."""
    start = physics.positions()
    infos = {c: CoinInfo(coins[c].seat, coins[c].colour, start[c], coins[c].mark) for c in start}
    draw = renderer or Renderer(rig, infos)
    period = 1.0 / rig.fps
    speed = math.hypot(vx, vy) or 1.0
    aim = (vx / speed, vy / speed)
    frames: list[Any] = []
    times: list[float] = []
    n_before = int(round(STRIKE_T / period))
    for i in range(n_before):
        t = i * period
        frames.append(draw.render(start, hand=hand_at(start[coin], aim, t - STRIKE_T) if hand else None, t=t))
        times.append(t)
    history: History = []
    next_frame = [n_before * period - STRIKE_T]  # strike-time of the next frame to draw

    def on_step(ts: float, positions: dict[str, Point]) -> None:
        if also is not None:
            also(ts, positions)
        heights = heights_off_surface(physics, ts)
        history.append((ts, dict(positions), heights))
        while ts + 1e-9 >= next_frame[0]:
            tf = next_frame[0]
            before = positions_at(history, tf - rig.exposure_s)
            frames.append(draw.render(positions, flying=heights, previous=before,
                                      hand=hand_at(start[coin], aim, tf) if hand else None, t=tf + STRIKE_T))
            times.append(tf + STRIKE_T)
            next_frame[0] += period
            if len(history) > 8:
                del history[:-8]

    truth = physics.flick(coin, vx, vy, on_step=on_step)
    last_t, last, heights = history[-1]
    tail = max(int(round(REST_TAIL_S / period)), int(math.ceil((HAND_GONE_S + REST_TAIL_S - next_frame[0]) / period)))
    for _ in range(tail):
        tf = next_frame[0]
        frames.append(draw.render(last, flying={c: h for c, h in heights.items() if c in last},
                                  hand=hand_at(start[coin], aim, tf) if hand else None, t=tf + STRIKE_T))
        times.append(tf + STRIKE_T)
        next_frame[0] += period
    names = frame_names(len(frames))
    rec = StrikeRecording(
        table=(geo.WIDTH_MM, geo.LENGTH_MM),
        markers=dict(draw.markers),
        coin_diameter_mm=2 * geo.COIN_RADIUS_MM,
        coins=infos,
        struck=coin,
        strike_t=round(STRIKE_T, 6),
        frames=[(n, round(t, 6)) for n, t in zip(names, times, strict=True)],
    )
    return rec, frames, truth
