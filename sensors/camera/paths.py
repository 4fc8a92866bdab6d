"""Path geometry of a strike (docs/camera.md, CAM-2 contacts): coins' tracks in table mm per frame
(NaN where a coin was not located), closest approaches, impacts, and what a coin not seen could reach."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

Point = tuple[float, float]


GONE_MM = (-10_000.0, -10_000.0)  # where a coin that left the table is put: out of every coin's reach


def towards_rail(a: Point, b: Point, table: tuple[float, float]) -> bool:
    """Moving from ``a`` to ``b`` towards the nearest rail."""
    x, y = b
    w, length = table
    dist = {(-1, 0): x, (1, 0): w - x, (0, -1): y, (0, 1): length - y}
    nx, ny = min(dist, key=dist.__getitem__)
    return (b[0] - a[0]) * nx + (b[1] - a[1]) * ny > 0.0


def intervals(times: Any, flags: Any) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    start = None
    for t, f in zip(times, flags, strict=True):
        if f and start is None:
            start = float(t)
        elif not f and start is not None:
            out.append((start, float(t)))
            start = None
    if start is not None:
        out.append((start, float(times[-1])))
    return out


UNSEEN_SPEED_MM_S = 600.0  # the least speed bound a coin not seen is allowed


def could_meet_unseen(track: Any, other: Any, times: Any, touch: float, v_max: float) -> bool:
    """Could the coin of ``track`` have touched ``other`` in a frame where it was not seen? Seen at
    p0 before the gap and p1 after it, it went at most ``v_max * gap`` along some path from p0 to
    p1: it could touch a point o only if |p0 - o| + |o - p1| - 2 touch <= that length. Never seen
    again: only the last sighting and the speed bound limit it (to the last frame)."""
    seen = ~np.isnan(track[:, 0])
    if seen.all() or not seen.any():
        return not seen.any()
    n = len(track)
    idx = np.arange(n)
    prev = np.maximum.accumulate(np.where(seen, idx, -1))
    nxt = np.minimum.accumulate(np.where(seen, idx, n)[::-1])[::-1]
    gaps = np.nonzero(~seen)[0]
    p0 = np.where(prev[gaps] >= 0, prev[gaps], nxt[gaps])
    p1 = np.where(nxt[gaps] < n, nxt[gaps], prev[gaps])
    t0 = np.where(prev[gaps] >= 0, times[p0], times[0])
    t1 = np.where(nxt[gaps] < n, times[p1], times[-1])
    # a coin not seen may have been hit by a third one meanwhile: only the fastest speed any coin
    # had bounds it (the caller makes that the table's limit when the flick itself went unseen)
    bound = v_max
    length = bound * (t1 - t0) + 2.0  # 2 mm: the positions' own error
    # a coin found again where it was hidden (within 1.5 mm) stayed there: a hit coin slides
    # away (friction stops it, it cannot come back to the same spot), so its reach is nil
    stayed = np.array([stayed_at_old_spot(track, seen, int(a), int(b)) for a, b in zip(prev[gaps], nxt[gaps], strict=True)])
    length = np.where(stayed, 2.0, length)
    o = other[gaps]
    d0 = np.hypot(*(o - track[p0]).T)
    d1 = np.hypot(*(o - track[p1]).T)
    return bool((d0 + d1 - 2 * touch <= length).any())


STAYED_MM = 1.5  # found again this close to where it was hidden: it stayed there
STAYED_FRAMES = 3  # frames seen still beside a gap that outweigh the one blurred sighting at its edge


def stayed_at_old_spot(track: Any, seen: Any, before: int, after: int) -> bool:
    """Seen before the gap (frame ``before``) and after it (``after``) at the same spot. The
    sightings at a gap's edge are often a disc half out from under the hand, its centre pulled off
    by a millimetre or two: then the coin seen still at the old spot for ``STAYED_FRAMES`` frames
    in a row, in the run of sightings beyond that edge, stayed too (a hit coin slides away: it
    never comes back to rest where it was)."""
    n = len(track)
    if after >= n:
        return False  # never seen again
    before = after if before < 0 else before  # hidden from the first frame: seen only after
    a, b = track[before], track[after]
    if float(np.hypot(*(b - a))) < STAYED_MM:
        return True
    return _still_near(track, seen, after, 1, a) or _still_near(track, seen, before, -1, b)


def _still_near(track: Any, seen: Any, start: int, step: int, spot: Any) -> bool:
    """In the run of frames seen from ``start`` on (``step`` +1: later, -1: earlier), is the coin
    within ``STAYED_MM`` of ``spot`` in ``STAYED_FRAMES`` frames in a row?"""
    run = 0
    k = start
    while 0 <= k < len(track) and seen[k]:
        run = run + 1 if float(np.hypot(*(track[k] - spot))) < STAYED_MM else 0
        if run >= STAYED_FRAMES:
            return True
        k += step
    return False


def spot_before_flick(track: Any, times: Any, strike_t: float | None) -> Any:
    """Where a coin lay before the flick (the tracker puts every frame before it there), or None
    when it is not known (no flick time, never seen before it)."""
    if strike_t is None:
        return None
    before = np.nonzero((np.asarray(times) < strike_t) & ~np.isnan(track[:, 0]))[0]
    return track[before[-1]] if len(before) else None


@dataclass(frozen=True)
class Leg:
    """A straight stretch of a coin's track: the least-squares line through its sightings."""

    velocity: Any  # mm/s
    error: float  # the velocity's standard error (mm/s), from the sightings' scatter about the line
    centre: Any  # the line's point at time ``t_centre`` (mm)
    t_centre: float

    def at(self, t: float) -> Any:
        """Where the line puts the coin at time ``t``."""
        return self.centre + (t - self.t_centre) * self.velocity


def fit_leg(times: Any, track: Any, i0: int, i1: int, straight_mm: float) -> Leg | None:
    """The straight line through frames ``i0`` … ``i1`` of ``track`` (constant velocity: friction
    changes a sliding coin's speed by a few mm/s within a leg); None when there are fewer than three
    frames or a sighting lies farther than ``straight_mm`` from the line (the coin turned)."""
    t = np.asarray(times[i0:i1 + 1], dtype=float)
    p = np.asarray(track[i0:i1 + 1], dtype=float)
    if len(t) < 3 or np.isnan(p).any():
        return None
    t_centre = float(t.mean())
    tc = t - t_centre
    spread = float((tc * tc).sum())
    if spread <= 0:
        return None
    centre = p.mean(axis=0)
    v = (tc[:, None] * (p - centre)).sum(axis=0) / spread
    resid = p - (centre + tc[:, None] * v)
    if float(np.hypot(*resid.T).max()) > straight_mm:
        return None
    sigma = math.sqrt(float((resid * resid).sum()) / max(2 * len(t) - 4, 1))
    return Leg(v, sigma / math.sqrt(spread), centre, t_centre)


def fill(track: Any) -> Any:
    """Positions with the gaps joined linearly (None when the coin was never seen)."""
    ok = ~np.isnan(track[:, 0])
    if not ok.any():
        return None
    idx = np.arange(len(track))
    return np.column_stack([np.interp(idx, idx[ok], track[ok, 0]), np.interp(idx, idx[ok], track[ok, 1])])


def velocities(track: Any, times: Any) -> Any:
    if track is None or len(track) < 2:
        return np.zeros(len(times))
    v = np.diff(track, axis=0) / np.maximum(np.diff(times), 1e-6)[:, None]
    return np.vstack([v[:1], v])


def velocity_change(vel: Any, k: int) -> float:
    """How much a coin's velocity changed around frame ``k`` (mm/s)."""
    lo, hi = max(k - 2, 0), min(k + 3, len(vel) - 1)
    before, after = vel[lo], vel[hi]
    return float(np.hypot(*(after - before)))


def closest(pa: Any, pb: Any) -> tuple[float, int]:
    """Closest approach of two paths between frames: (distance, frame index)."""
    per = approaches(pa, pb)
    k = int(per.argmin())
    return float(per[k]), k


def sampled_approaches(pa: Any, pb: Any) -> Any:
    """Per frame interval, how close the straight joins of the frames came (no carrying on)."""
    rel = pa - pb
    if len(rel) < 2:
        return np.array([float(np.hypot(*rel[0]))])
    return segment_min(rel[:-1], rel[1:] - rel[:-1])


def approaches(pa: Any, pb: Any) -> Any:
    """Per frame interval, how close two paths came. An impact bends the paths inside one interval,
    and the straight join of the frames cuts that corner (it passes farther off than the coins
    went), so each interval also tries the motion of the interval before carried on and the
    motion of the interval after carried back."""
    rel = pa - pb
    if len(rel) < 2:
        return np.array([float(np.hypot(*rel[0]))])
    d0, d1 = rel[:-1], rel[1:]
    step = d1 - d0
    before = np.vstack([step[:1], step[:-1]])  # the relative motion of the interval before
    after = np.vstack([step[1:], step[-1:]])  # ... and of the one after
    return np.minimum(np.minimum(segment_min(d0, step), segment_min(d0, before)), segment_min(d1 - after, after))


def impact(vel: Any, k: int, dt: float) -> float:
    """How much a coin's velocity changed around frame ``k`` beyond what sliding friction does
    (it only slows a coin, by at most ``FRICTION_MM_S2`` per second), in mm/s."""
    return float(np.hypot(*impact_vector(vel, k, dt)))


def impact_vector(vel: Any, k: int, dt: float) -> Any:
    """:func:`impact` as a vector (mm/s): the push the coin got around frame ``k``."""
    lo, hi = max(k - 2, 0), min(k + 3, len(vel) - 1)
    before, after = vel[lo], vel[hi]
    speed = float(np.hypot(*before))
    slowing = min(speed, FRICTION_MM_S2 * dt * (hi - lo))
    expected = before * (1.0 - slowing / speed) if speed > 1e-9 else before
    return after - expected


FRICTION_MM_S2 = 3500.0  # a coin on the laminate slows at ~3 m/s^2 (sensors/virtual/physics.py), with room


def segment_min(start: Any, step: Any) -> Any:
    """Per row: the least |start + s * step| over s in [0, 1]."""
    denom = (step * step).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.clip(np.where(denom > 1e-12, -(start * step).sum(axis=1) / denom, 0.0), 0.0, 1.0)
    closest = start + step * s[:, None]
    return np.hypot(closest[:, 0], closest[:, 1])
