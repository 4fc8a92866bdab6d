"""Who kicked whom (docs/camera.md, CAM-2 contacts): a coin whose velocity changed while only one
coin could touch it was kicked by that coin.

Two coins within the contact band whose velocities both changed were in contact — unless a third
coin in reach did it. This module decides such pairs by exclusion instead of leaving them to the
phones: a coin's velocity changes only by friction (which only slows it, ``FRICTION_MM_S2``), a rail,
the hand or pen, or another coin. When the rails and the hand are out of the question and every
other coin was provably out of reach, or at rest, still, and itself out of every other coin's reach
(it would have moved by as much as it gave: equal masses), the partner did it. Pure geometry on
the tracks in table mm (NaN where a coin was not located)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from sensors.camera.paths import (
    approaches,
    could_meet_unseen,
    impact,
    impact_vector,
    spot_before_flick,
    velocity_change,
)

# a coin at rest (slower than this, mm/s) whose velocity then changed by more than KICK_MM_S was hit;
# its centre is measured to ~0.1 mm, so its velocity to ~25 mm/s (99th percentile on rendered strikes)
REST_MM_S = 30.0
KICK_MM_S = 120.0
# a moving coin's centre wobbles with motion blur: its velocity changes by up to ~430 mm/s on rendered
# strikes with nothing there, so only a larger change proves a hit
MOVING_KICK_MM_S = 600.0
STILL_MM_S = 80.0  # a coin kicked this hard or less gave a kick too small to matter beside KICK_MM_S
STILL_SPOT_MM = 0.6  # ... and one kicked that hard moves more than this within the frames _still reads
PUSH_FROM_DEG = 25.0  # a push this near the line of centres from a coin came from that side
PUSH_NOT_DEG = 45.0  # ... and one this far from it did not come from that coin
BACK_COS = 0.5  # a push more than 120° from a coin's motion is against it
OPPOSITE_SHARE = 0.5  # two pushes whose sum is less than this share of the larger one are opposite
RAIL_GAP_MM = 3.0  # a coin this close to a rail may have been turned by it
FLICK_S = 0.08  # seconds after the flick the pen may still push the struck coin
GONE = -1_000.0  # a track pushed this far away: out of every coin's reach


@dataclass(frozen=True)
class StrikePaths:
    """What the kick rule reads of one strike: per coin its track (NaN where not located, table mm),
    the track with gaps joined (None: never seen), per-frame velocities (mm/s); the frame times."""

    tracks: dict[str, Any]
    filled: dict[str, Any]
    speeds: dict[str, Any]
    times: Any
    covered: dict[str, list[bool]]  # per coin and frame: the hand around it
    reach_mm: float  # centres closer than this may touch (a diameter, the contact band, the error)
    radius_mm: float
    table: tuple[float, float]
    v_max: float  # no coin went faster (it bounds where a coin not seen could be)
    strike_t: float | None
    struck: str
    aim: Any = None  # the way the pen pushed the struck coin (table mm unit vector; aiming.py), if seen

    @cached_property
    def spots(self) -> dict[str, Any]:
        """Where each coin lay before the flick (None: not known); several rules read them per pair."""
        return {c: spot_before_flick(tr, self.times, self.strike_t) for c, tr in self.tracks.items()}

    def hand_near(self, coins: tuple[str, ...], lo: int, hi: int) -> bool:
        """Was the hand or pen around any of ``coins`` in frames ``lo`` … ``hi``? Their centres are not
        trusted then, and the hand may have moved them."""
        return any(self.covered[c][j] for c in coins for j in range(max(lo, 0), min(hi + 1, len(self.times))))

    def window(self, k: int) -> tuple[int, int]:
        """The frames around interval ``k`` whose velocities tell a change (as :func:`impact` reads)."""
        return max(k - 2, 0), min(k + 3, len(self.times) - 1)


def kicked_between(paths: StrikePaths, a: str, b: str, k: int) -> bool:
    """Did ``a`` and ``b`` (within the contact band around interval ``k``) touch, by exclusion: both
    changed course with no third coin in reach, or one was kicked with only the other there."""
    changed = [velocity_change(paths.speeds[c], k) > KICK_MM_S for c in (a, b)]
    return ((all(changed) and changed_alone(paths, a, b, k)) or (changed[0] and kicked_by(paths, b, a, k))
            or (changed[1] and kicked_by(paths, a, b, k)))


def kicked_by(paths: StrikePaths, b: str, a: str, k: int) -> bool:
    """Was ``b``'s velocity changed around interval ``k`` by a touch of ``a``? Only when nothing else
    could have done it: no rail, not the hand or pen (after the flick, no hand around), and every
    other coin provably out of ``b``'s reach or a still coin that could not have given the kick."""
    lo, hi = paths.window(k)
    if b == paths.struck and at_flick(paths, k) and not _held_back(paths, b, k):
        return False  # the pen may still be pushing the struck coin
    if paths.hand_near((a, b), lo, hi):
        return False  # the hand or pen beside them: their centres are not trusted for this
    if near_rail(paths, b, lo, hi) or not _kicked(paths, b, k):
        return False
    others = [o for o in paths.tracks if o not in (a, b)]
    by_side = 0
    for o in others:
        if out_of_reach(paths, o, b, lo, hi):
            continue
        if by_side == 0 and _pushed_from(paths, b, a, o, k):
            by_side += 1  # only one: pushes from two coins add up to any direction
            continue
        # a third coin in reach could have kicked b only by being kicked back as hard (equal masses):
        # one that stayed still gave no such kick, unless a rail or yet another coin held it
        if not (_still(paths, o, lo, hi) and not near_rail(paths, o, lo, hi)
                and all(out_of_reach(paths, x, o, lo, hi) for x in others if x != o)):
            return False
    return True


def _pushed_from(paths: StrikePaths, b: str, a: str, o: str, k: int) -> bool:
    """Does the way ``b`` was pushed around interval ``k`` say ``a`` pushed it, not ``o``? A push
    runs along the line of centres from the pusher (within the contact friction's ~9°); two coins
    both touching ``b`` lie at least 60° apart around it (they cannot overlap). So a push within
    ``PUSH_FROM_DEG`` of ``a``'s side and more than ``PUSH_NOT_DEG`` from ``o``'s came from ``a`` —
    when ``o`` is the only coin besides ``a`` that may have pushed (two pushes add up to any way)."""
    dt = float(np.median(np.diff(paths.times)))
    push = impact_vector(paths.speeds[b], k, dt)
    lo, hi = paths.window(k)
    sides = [_side(paths, b, c, lo, hi) for c in (a, o)]
    if sides[0] is None or sides[1] is None:
        return False
    cos_a, cos_o = (float(np.dot(push, side)) / max(float(np.hypot(*push)), 1e-9) for side in sides)
    return cos_a > math.cos(math.radians(PUSH_FROM_DEG)) and cos_o < math.cos(math.radians(PUSH_NOT_DEG))


def _side(paths: StrikePaths, b: str, c: str, lo: int, hi: int) -> Any:
    """The unit vector from ``c`` to ``b`` where they came closest in frames ``lo`` … ``hi``
    (between frames, along the straight joins), or None when ``c`` was not seen throughout."""
    if not _seen(paths, c, lo, hi):
        return None
    rel = paths.tracks[b][lo:hi + 1] - paths.tracks[c][lo:hi + 1]
    step = rel[1:] - rel[:-1]
    denom = np.maximum((step * step).sum(axis=1), 1e-12)
    s = np.clip(-(rel[:-1] * step).sum(axis=1) / denom, 0.0, 1.0)
    points = rel[:-1] + step * s[:, None]
    near = points[int(np.hypot(*points.T).argmin())]
    return near / max(float(np.hypot(*near)), 1e-9)


def _held_back(paths: StrikePaths, c: str, k: int) -> bool:
    """Was coin ``c``, already moving after the flick, pushed back against its motion around
    interval ``k``? The pen only ever pushes the struck coin forward, so that push is no pen's."""
    lo, _hi = paths.window(k)
    if paths.strike_t is None or lo < 1 or paths.times[lo - 1] < paths.strike_t:
        return False  # its velocity before is not measured after the flick
    before = paths.speeds[c][lo]
    push = impact_vector(paths.speeds[c], k, float(np.median(np.diff(paths.times))))
    speed, size = float(np.hypot(*before)), float(np.hypot(*push))
    return speed > REST_MM_S and float(np.dot(push, before)) < -BACK_COS * speed * size


def _still(paths: StrikePaths, o: str, lo: int, hi: int) -> bool:
    """Did coin ``o`` stay put from before the window to a few frames after it (seen in every
    frame)? Then it took no kick worth ``STILL_MM_S``: kicked that hard a coin slides ~1.1 mm before
    friction stops it (v²/2a at ~2.9 m/s²), and a coin is kicked back as hard as it kicks."""
    end = min(hi + 3, len(paths.times) - 1)
    if not _seen(paths, o, lo - 1, end):
        return False
    spot = paths.tracks[o][max(lo - 1, 0):end + 1]
    return float(np.hypot(*(spot - spot[0]).T).max()) < STILL_SPOT_MM


def changed_alone(paths: StrikePaths, a: str, b: str, k: int) -> bool:
    """Both coins were kicked around interval ``k`` while no third coin could reach either of them
    (a coin not seen is bounded by how far it could have gone): they touched. Beside the rails
    only when their pushes were opposite (side by side into a rail, both turn the same way)."""
    lo, hi = paths.window(k)
    opposite = _opposite(paths, a, b, k)
    if near_rail(paths, a, lo, hi) and near_rail(paths, b, lo, hi) and not opposite:
        return False
    # (the struck coin at the flick: the pen changed it anyway, the caller saw a change)
    kicked = all(_kicked(paths, c, k) or (c == paths.struck and at_flick(paths, k)) for c in (a, b))
    if not (kicked or (opposite and _traded(paths, a, b, k))):
        return False
    return all(out_of_reach(paths, o, c, lo, hi) for o in paths.tracks if o not in (a, b) for c in (a, b))


def _traded(paths: StrikePaths, a: str, b: str, k: int) -> bool:
    """Opposite pushes (the caller's test) of ``KICK_MM_S`` each, from velocities measured after
    the flick: two coins traded momentum, as a touch does. The hand pulling a still coin's centre
    and the pen pushing the struck coin are no such trade: the pen only pushes forward, so at the
    flick the struck coin must have been pushed back."""
    if not _after_flick(paths, k) or not all(_kicked(paths, c, k, need=KICK_MM_S) for c in (a, b)):
        return False
    return not (paths.struck in (a, b) and at_flick(paths, k) and not _held_back(paths, paths.struck, k))


def _opposite(paths: StrikePaths, a: str, b: str, k: int) -> bool:
    """Were the two coins' pushes around interval ``k`` equal and opposite, as a touch between two
    equal masses makes them? Two coins turned by rails are both pushed away from the rails, never
    against each other: the sum of their pushes is then at least the larger push."""
    dt = float(np.median(np.diff(paths.times)))
    pa, pb = (impact_vector(paths.speeds[c], k, dt) for c in (a, b))
    return float(np.hypot(*(pa + pb))) < OPPOSITE_SHARE * max(float(np.hypot(*pa)), float(np.hypot(*pb)))


def at_flick(paths: StrikePaths, k: int) -> bool:
    """Is interval ``k``'s window so near the flick that the pen and hand may still be at work?"""
    return paths.strike_t is None or paths.times[paths.window(k)[0]] < paths.strike_t + FLICK_S



def _after_flick(paths: StrikePaths, k: int) -> bool:
    """Were the velocities before interval ``k``'s window measured after the flick?"""
    lo = paths.window(k)[0]
    return paths.strike_t is not None and lo >= 1 and paths.times[lo - 1] >= paths.strike_t


def _kicked(paths: StrikePaths, c: str, k: int, need: float | None = None) -> bool:
    """Did coin ``c``'s velocity change around interval ``k`` by more than friction and the
    measurement can: a coin at rest by ``KICK_MM_S``; a moving one, or one beside the hand at the
    flick (its centre is pulled as much as a moving one's wobbles), by ``MOVING_KICK_MM_S``."""
    lo, hi = paths.window(k)
    if not _seen(paths, c, lo - 1, hi):
        return False
    dt = float(np.median(np.diff(paths.times)))
    at_rest = float(np.hypot(*paths.speeds[c][lo])) < REST_MM_S
    if need is None:
        need = KICK_MM_S if at_rest and not at_flick(paths, k) else MOVING_KICK_MM_S
    return impact(paths.speeds[c], k, dt) > need


def out_of_reach(paths: StrikePaths, o: str, c: str, lo: int, hi: int) -> bool:
    """Was coin ``o`` never within ``reach_mm`` of coin ``c`` in frames ``lo`` … ``hi``? Between
    frames where both were seen their paths tell (:func:`approaches`: an impact bends a path inside
    one frame interval); where ``o`` was not seen, how far it could have gone
    (:func:`could_meet_unseen`). ``c`` must have been seen throughout."""
    track, near = paths.tracks[o], paths.filled[c]
    if near is None or paths.filled[o] is None or not _seen(paths, c, lo, hi):
        return False
    seen = ~np.isnan(track[lo:hi + 1, 0])
    both = seen[1:] & seen[:-1]  # intervals lo … hi-1 with o seen at both ends
    per = approaches(paths.filled[o][lo:hi + 1], near[lo:hi + 1])[both] if hi > lo else np.zeros(0)
    if (len(per) and float(per.min()) < paths.reach_mm) or (seen.any() and float(
            np.hypot(*(track[lo:hi + 1][seen] - near[lo:hi + 1][seen]).T).min()) < paths.reach_mm):
        return False
    if seen.all():
        return True
    here = np.full_like(near, GONE)  # only the window's frames of c are compared with o's gaps
    here[lo:hi + 1] = near[lo:hi + 1]
    return not could_meet_unseen(track, here, paths.times, paths.reach_mm, paths.v_max)


def near_rail(paths: StrikePaths, c: str, lo: int, hi: int) -> bool:
    """Was coin ``c`` within ``RAIL_GAP_MM`` of a rail in frames ``lo`` … ``hi`` (a rail may have turned it)?"""
    path = paths.filled[c][lo:hi + 1]
    r = paths.radius_mm + RAIL_GAP_MM
    w, length = paths.table
    x0, y0 = path.min(axis=0)
    x1, y1 = path.max(axis=0)
    return bool(min(x0, y0) < r or x1 > w - r or y1 > length - r)


def _seen(paths: StrikePaths, c: str, lo: int, hi: int) -> bool:
    """Located in every frame ``lo`` … ``hi`` (its velocities there are measured, not filled in)."""
    return not bool(np.isnan(paths.tracks[c][max(lo, 0):hi + 1, 0]).any())
