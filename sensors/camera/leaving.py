"""Whether a coin that is gone from view was seen leaving (docs/camera.md, flown, CW-6.1).

A coin at rest near a rail that the hand's arm comes over is gone from view too, and its last
sighting, a disc half under the arm, is pulled a few millimetres off: one such step reads as
"heading out". A coin that really goes over a rail is moving fast when it is last seen, so it must
be seen moving towards the rail in each of its last sightings, not in one jump from rest; and
something must have set it moving: the pen (the struck coin) or a coin that came within reach."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from sensors.camera.paths import could_meet_unseen, fill, towards_rail

Point = tuple[float, float]

LEAVING_STEPS = 2  # the last sightings' steps that must all head out
LEAVING_STEP_MM = 1.0  # each at least this long: beyond the positions' error (σ 0.65 mm)


def seen_leaving(path: list[tuple[float, Point]], table: tuple[float, float]) -> bool:
    """``path`` ((t, table mm) of the frames the coin was located in, in order): its last
    ``LEAVING_STEPS`` steps each head towards the nearest rail by at least ``LEAVING_STEP_MM``."""
    if len(path) < LEAVING_STEPS + 1:
        return False
    last = [p for _, p in path[-(LEAVING_STEPS + 1):]]
    return all(math.dist(a, b) >= LEAVING_STEP_MM and towards_rail(a, b, table)
               for a, b in zip(last, last[1:], strict=False))




HIT_REACH_MM = 36.0  # centres this close can touch: a diameter, the contact band, the positions' error


def could_be_hit(coin: str, struck: str, tracks: Mapping[str, Any], times: Any, v_max: float) -> bool:
    """Could anything have set ``coin`` moving? The pen moves the struck coin; any other moves only
    when a coin comes within touching reach of it (``tracks``: (frames, 2) table mm, NaN where not
    located). A coin not located in some frames may have come near then, at up to ``v_max`` mm/s."""
    if coin == struck:
        return True
    mine = fill(tracks[coin])
    if mine is None:
        return True
    for other, track in tracks.items():
        theirs = fill(track)
        if other == coin or theirs is None:
            continue  # (a coin never seen cannot be placed: the caller's contacts are undecided then)
        if float(np.hypot(*(theirs - mine).T).min()) < HIT_REACH_MM:
            return True
        if could_meet_unseen(track, mine, times, HIT_REACH_MM, v_max):
            return True
    return False


__all__ = ["HIT_REACH_MM", "LEAVING_STEPS", "LEAVING_STEP_MM", "could_be_hit", "seen_leaving"]
