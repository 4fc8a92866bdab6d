"""The struck coin flicked away from a coin it lay against did not touch it at the flick
(docs/camera.md, "Flicked away").

At the flick the hand and pen hide part of the struck coin's neighbours, and a palm over part of a
disc pulls its centre by millimetres: a coin lying against the struck one seems to jump into it.
Physics decides instead. Struck towards a free neighbour (equal masses), the struck coin hands it
the push along their line of centres and keeps at most a little of it: it can then only slide
along the neighbour or follow it, never away from it. So a struck coin seen moving away from a
neighbour along their line of centres — farther than the gap and the positions' errors allow —
did not touch it at the flick. Two things could still have turned it away: a rail or a third coin
behind the neighbour (it bounces off a neighbour that cannot move; unless the pen, seen before the
flick, pushed it away from the neighbour: aiming.py), or a third coin along its way before it was
first seen (seen all along its launch, going ever farther, it never turned back). Where either
could, the pair is left to the other rules.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from sensors.camera.paths import spot_before_flick

LAUNCH_MM = 6.0  # the struck coin's first sighting used is at least this far from where it lay
LAUNCH_S = 0.12  # ... and no later than this after the flick (a short, straight chord)
AWAY_MM = 3.0  # moved away from the neighbour along their line of centres by at least this
AWAY_SIN = 0.105  # ... and at least 6° beyond sliding along it (the launch's direction is good to ~2°)
STRAIGHT_MM = 1.0  # sightings of the launch this close to one line: nothing turned it
BACKED_MM = 3.0  # a rail or a third coin this close behind the neighbour could have bounced it back
CLEAR_MM = 3.0  # a third coin this close to the chord could have turned the struck coin
AIM_AWAY_SIN = 0.17  # the pen pushed the coin at least 10° away from sliding along the neighbour ...
AIM_AGREE_DEG = 8.0  # ... and the launch went within this of the pen's way


def flicked_away(tracks: Mapping[str, Any], times: Any, struck: str, strike_t: float | None, *,
                 diameter_mm: float, reach_mm: float, table: tuple[float, float], aim: Any = None) -> dict[str, int]:
    """Neighbours (within ``reach_mm`` centre to centre at rest) that the struck coin left at once:
    coin -> the frame from which their pair is judged (the first sighting of the launch). ``aim``:
    the way the pen pushed it (table mm, unit vector; aiming.py), when the frames showed it."""
    if strike_t is None:
        return {}
    track = np.asarray(tracks[struck], dtype=float)
    start = spot_before_flick(track, times, strike_t)
    j1 = _first_launch_sighting(track, times, strike_t, start)
    if start is None or j1 is None:
        return {}
    chord = track[j1] - start
    length = float(np.hypot(*chord))
    rests = {c: spot_before_flick(np.asarray(tr, dtype=float), times, strike_t) for c, tr in tracks.items()}
    seen_along = _seen_all_along(track, times, strike_t, j1, start, chord)
    out: dict[str, int] = {}
    for c, spot in rests.items():
        if c == struck or spot is None:
            continue
        gap = float(np.hypot(*(start - spot)))
        if gap > reach_mm:
            continue
        normal = (start - spot) / gap  # from the neighbour to the struck coin
        along = float(chord @ normal)
        if along < AWAY_MM + (gap - diameter_mm) or along < AWAY_SIN * length:
            continue
        bounced = _backed(c, struck, spot, rests, diameter_mm, table) and not _pushed_away(aim, chord, normal)
        if bounced or (not seen_along and _third_on_chord(struck, c, start, track[j1], rests, reach_mm, aim)):
            continue
        out[c] = j1
    return out


def _seen_all_along(track: Any, times: Any, strike_t: float, j1: int, start: Any, chord: Any) -> bool:
    """The struck coin was seen in every frame from the flick to ``j1``, each sighting farther
    along the chord than the last: it never turned back (a third coin on its way could not have
    sent it back into the neighbour before ``j1``; after it, the other rules judge the pair)."""
    frames = [j for j in range(j1 + 1) if times[j] >= strike_t]
    if not frames or np.isnan(track[frames, 0]).any():
        return False
    along = (track[frames] - start) @ chord
    return bool((np.diff(along) >= 0).all())


def _pushed_away(aim: Any, chord: Any, normal: Any) -> bool:
    """The pen pushed the struck coin away from the neighbour (beyond sliding along it by
    ``AIM_AWAY_SIN``) and the coin went the way it was pushed (within ``AIM_AGREE_DEG``): it never
    went into the neighbour, so it did not bounce back off it, backed or not."""
    if aim is None:
        return False
    length = float(np.hypot(*chord))
    return float(aim @ normal) > AIM_AWAY_SIN and float(aim @ chord) > length * math.cos(math.radians(AIM_AGREE_DEG))


def _first_launch_sighting(track: Any, times: Any, strike_t: float, start: Any) -> int | None:
    """The last frame of the launch: the struck coin seen ``LAUNCH_MM`` or more from its spot within
    ``LAUNCH_S`` of the flick, every sighting from its spot to there on one straight line (a longer
    chord gives the direction more closely; a bend would be a rail or a coin)."""
    if start is None:
        return None
    best: int | None = None
    for j in np.nonzero(np.asarray(times) >= strike_t)[0]:
        if times[j] > strike_t + LAUNCH_S:
            break
        if np.isnan(track[j, 0]) or float(np.hypot(*(track[j] - start))) < LAUNCH_MM:
            continue
        if not _straight(track, start, strike_t, times, int(j)):
            break
        best = int(j)
    return best


def _straight(track: Any, start: Any, strike_t: float, times: Any, j: int) -> bool:
    """Every sighting after the flick up to frame ``j`` lies within ``STRAIGHT_MM`` of the chord
    from ``start`` to it."""
    chord = track[j] - start
    length = float(np.hypot(*chord))
    normal = np.array([-chord[1], chord[0]]) / length
    for i in range(j):
        if times[i] >= strike_t and not np.isnan(track[i, 0]) and abs(float((track[i] - start) @ normal)) > STRAIGHT_MM:
            return False
    return True


def _backed(coin: str, struck: str, spot: Any, rests: Mapping[str, Any], diameter_mm: float,
            table: tuple[float, float]) -> bool:
    """A rail or a third coin close enough to the neighbour to stop it moving."""
    r = diameter_mm / 2
    w, length = table
    x, y = float(spot[0]), float(spot[1])
    if min(x - r, y - r, w - r - x, length - r - y) < BACKED_MM:
        return True
    return any(float(np.hypot(*(p - spot))) < diameter_mm + BACKED_MM
               for o, p in rests.items() if o not in (coin, struck) and p is not None)


def _third_on_chord(struck: str, neighbour: str, a: Any, b: Any, rests: Mapping[str, Any], reach_mm: float,
                    aim: Any = None) -> bool:
    """A third coin within touching reach of the struck coin's chord from ``a`` to ``b`` — but not
    one it lay against that the pen pushed it away from too (it never went into that one)."""
    ab = b - a
    span = float(ab @ ab)
    for c, p in rests.items():
        if c in (struck, neighbour) or p is None:
            continue
        gap = float(np.hypot(*(a - p)))
        if gap > 1e-9 and _pushed_away(aim, ab, (a - p) / gap):
            continue
        t = 0.0 if span == 0 else min(max(float((p - a) @ ab) / span, 0.0), 1.0)
        if float(np.hypot(*(p - (a + t * ab)))) < reach_mm + CLEAR_MM:
            return True
    return False
