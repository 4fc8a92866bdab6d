"""Every coin at rest between strikes, wherever a hand put it (docs/camera.md, CAM-2 "Between
strikes"): a respawned coin placed by its owner, a coin nudged by accident, a coin on the goal line,
two same-coloured coins swapped by hand.

Why not only "near where it rested": a hand moves coins between strikes (CW-6.2, CW-7.4), and a
tracker that learns a coin's look at its old spot learns the table, or another coin. So every coin
is searched by its colour and sticker dots anywhere on the surface (``binding.colour_blobs``); the
last known positions only tell apart coins the frames cannot (one colour, no distinct stickers),
and only while none of them moved. A coin's position is the centre of its colour's patch, which
is as good as the strike tracker's (~0.5 mm rms on rendered frames): the tracker's own location
run on the found coins was measured no better (0.51 mm rms against 0.48) at twice the cost.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from sensors.camera.binding import Blob, colour_blobs, seats_of
from sensors.camera.calibration import Calibration
from sensors.camera.params import TrackParams, coin_plane
from sensors.camera.recording import CoinInfo

Point = tuple[float, float]

FOUND = 0.99  # confidence in a coin found by its own colour and stickers
STAYED_MM = 6.0  # look-alike coins keep their ids only when each is found this close to where it rested


def find_coins(image: Any, calibration: Calibration, coins: Mapping[str, CoinInfo],
               hints: Mapping[str, Point] | None = None, *,
               params: TrackParams | None = None) -> dict[str, tuple[Point, float]]:
    """Coins at rest: id -> (table mm, confidence). ``coins`` gives each coin's seat, colour and
    sticker dots (its ``at`` is not used); ``hints`` where some of them rested (the last strike's
    rest positions, or the initial spots at a game's start, CW-1.6). A coin not found, or one the
    frame cannot tell from another, is left out (the referee asks rather than guess, CAM-2)."""
    p = params or TrackParams()
    calibration = coin_plane(calibration, p)  # the coins' top faces
    hints = dict(hints or {})
    blobs = colour_blobs(image, calibration, {c.colour for c in coins.values()}, params=p)
    seat_colours = {info.seat: info.colour for info in coins.values()}
    marks = {info.seat: info.mark for info in coins.values()}
    by_seat: dict[int, list[str]] = {}
    for c, info in coins.items():
        by_seat.setdefault(info.seat, []).append(c)
    mm = calibration.to_table(np.array([b.at for b in blobs])) if blobs else np.zeros((0, 2))
    # the coins each blob may be: its seat's coins (teammates' coins share nothing: one seat, one coin)
    claims: dict[str, list[int]] = {c: [] for c in coins}
    for i, blob in enumerate(blobs):
        for seat in seats_of(blob, seat_colours, marks):
            for c in by_seat.get(seat, []):
                claims[c].append(i)
    found: dict[str, int] = {}
    for group in _look_alikes(coins, seat_colours, marks):
        found.update(_assign(group, claims, mm, hints))
    return {c: ((float(mm[i][0]), float(mm[i][1])), FOUND) for c, i in found.items()}


def _look_alikes(coins: Mapping[str, CoinInfo], seat_colours: Mapping[int, str],
                 marks: Mapping[int, int]) -> list[list[str]]:
    """Coins the frames cannot tell apart: one colour and one sticker count (usually one coin each)."""
    groups: dict[tuple[int, ...], list[str]] = {}
    for c in sorted(coins):
        probe = Blob((0.0, 0.0), coins[c].colour, marks.get(coins[c].seat, 0))
        groups.setdefault(tuple(sorted(seats_of(probe, seat_colours, marks))), []).append(c)
    return list(groups.values())


def _assign(group: list[str], claims: Mapping[str, list[int]], mm: Any, hints: Mapping[str, Point]) -> dict[str, int]:
    """The blob of each coin of one look: the only one of that look; for look-alikes (or a second
    patch of the colour), the one where each rested -- only when every one is found there."""
    spots = sorted({i for c in group for i in claims[c]})
    if len(group) == 1 and len(spots) == 1:
        return {group[0]: spots[0]}
    out: dict[str, int] = {}
    for c in group:
        if c not in hints:
            return {}
        near = [i for i in spots if math.dist(mm[i], hints[c]) < STAYED_MM]
        if len(near) != 1 or near[0] in out.values():
            return {}  # moved, hidden or swapped by hand: which is which the frame cannot prove
        out[c] = near[0]
    return out
