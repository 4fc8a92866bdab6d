"""One flick of the pymunk table rendered as a ``gametable-strike/1`` recording (CAM-4, CAM-5)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from gametable_core import table_geometry as geo
from sensors.camera.recording import CoinInfo, StrikeRecording, frame_names
from sensors.virtual.camera.render import Hand, Renderer
from sensors.virtual.camera.rig import CameraRig
from sensors.virtual.physics import Point, StepHook, StrikeTruth, TablePhysics

STRIKE_T = 0.15  # seconds of table at rest (and the hand coming in) before the flick
REST_TAIL_S = 0.1  # seconds of every coin at rest after the strike
HAND_GONE_S = 0.36  # the hand and pen are out of view this long after the flick: the table is seen after it


RIDER_MM = 3.0  # a coin resting tilted on another coin: its centre this far above the surface
HOP_MM = 25.0  # peak height of a coin hopping over a rail


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
        frames.append(draw.render(start, hand=_hand_at(start[coin], aim, t - STRIKE_T) if hand else None, t=t))
        times.append(t)
    history: list[tuple[float, dict[str, Point], dict[str, float]]] = []
    next_frame = [n_before * period - STRIKE_T]  # strike-time of the next frame to draw

    def on_step(ts: float, positions: dict[str, Point]) -> None:
        if also is not None:
            also(ts, positions)
        heights = _heights(physics, ts)
        history.append((ts, dict(positions), heights))
        while ts + 1e-9 >= next_frame[0]:
            tf = next_frame[0]
            before = _at(history, tf - rig.exposure_s)
            frames.append(draw.render(positions, flying=heights, previous=before,
                                      hand=_hand_at(start[coin], aim, tf) if hand else None, t=tf + STRIKE_T))
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
                                  hand=_hand_at(start[coin], aim, tf) if hand else None, t=tf + STRIKE_T))
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


def _heights(physics: TablePhysics, t: float) -> dict[str, float]:
    """Coins off the surface during the strike: riders (tilted on a coin) and coins hopping a rail."""
    log = getattr(physics, "_strike", None)  # the physics' own strike log: where flown coins are
    if log is None:
        return {}
    out = {c: RIDER_MM for c in log.riders}
    for c, (_start, _vel, t0, end) in log.airborne.items():
        if t < end:
            out[c] = HOP_MM * math.sin(math.pi * min(1.0, (t - t0) / max(end - t0, 1e-9)))
    return out


def _at(history: list[tuple[float, dict[str, Point], dict[str, float]]], t: float) -> dict[str, Point]:
    """Coin positions at strike time ``t`` from the recent physics steps (the nearest step before)."""
    best = history[0][1]
    for ts, pos, _h in history:
        if ts <= t + 1e-9:
            best = pos
    return best


def _hand_at(coin_at: Point, aim: Point, t: float) -> Hand | None:
    """The hand and pen at strike time ``t`` (negative before the flick): the pen comes in behind the
    coin, flicks it, follows through and is pulled back out of view."""
    r = geo.COIN_RADIUS_MM
    if t < -STRIKE_T + 0.02 or t > HAND_GONE_S - 0.01:
        return None
    if t <= 0:
        back = r + 70.0 * (-t / STRIKE_T)  # approaching the coin's back edge
    elif t <= 0.05:
        back = r - 600.0 * t  # follow-through: 30 mm past the edge
    else:
        back = r - 30.0 + 900.0 * (t - 0.05)  # pulled back
    tip = (coin_at[0] - aim[0] * back, coin_at[1] - aim[1] * back)
    return Hand(tip=tip, direction=aim)
