"""One flick of the pymunk table rendered as a ``gametable-strike/1`` recording (CAM-4, CAM-5)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from gametable_core import table_geometry as geo
from sensors.camera.recording import CoinInfo, StrikeRecording, frame_names
from sensors.virtual.camera.conditions import Conditions
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
                  hand: bool = True, also: StepHook | None = None,
                  conditions: Conditions | None = None) -> tuple[StrikeRecording, list[Any], StrikeTruth]:
    """Flick ``coin`` at (vx, vy) mm/s on ``physics`` and render the strike at ``rig.fps``:
    (the recording's meta, its frames as BGR arrays, the physics' truth). ``coins`` gives each coin's
    seat, colour and mark (its ``at`` is taken from the physics). A ``renderer`` for the same rig and
    coins may be passed in to reuse its static table (benchmarks). ``conditions`` (conditions.py)
    adds looks, hand, a covered marker, and a re-aimed struck coin: its ``at`` in the meta is then
    its last known spot, ``conditions.reaim_mm`` from where it lies and is drawn."""
    start = physics.positions()
    infos = {c: CoinInfo(coins[c].seat, coins[c].colour, start[c], coins[c].mark) for c in start}
    if conditions is not None and conditions.reaim_mm > 0:
        old = known_spot(start, coin, conditions.reaim_mm, conditions.reaim_angle)
        infos[coin] = CoinInfo(coins[coin].seat, coins[coin].colour, old, coins[coin].mark)
    draw = renderer or Renderer(rig, infos, conditions=conditions)
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
        camera_height_mm=rig.height_mm,
    )
    return rec, frames, truth


def known_spot(start: Mapping[str, Point], coin: str, distance: float, angle: float) -> Point:
    """Where the table last knew ``coin`` before the pen re-aimed it ``distance`` mm to where it
    lies: along ``angle``, turned in 30° steps (then shortened) until the spot is on the surface
    and clear of every other coin (the coin came from there, so it was free)."""
    r = geo.COIN_RADIUS_MM
    x, y = start[coin]
    for d in (distance, distance * 0.66, distance * 0.33):
        for k in range(12):
            a = angle + k * math.pi / 6
            p = (x + d * math.cos(a), y + d * math.sin(a))
            if not (r <= p[0] <= geo.WIDTH_MM - r and r <= p[1] <= geo.LENGTH_MM - r):
                continue
            if all(math.hypot(p[0] - q[0], p[1] - q[1]) >= 2 * r for c, q in start.items() if c != coin):
                return p
    return (x, y)
