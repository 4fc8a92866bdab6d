"""What the hand hid (docs/camera.md, CAM-2 "The hand and pen"): how far a coin's centre can be off
when part of its disc is covered, and what a coin could have touched while it was not seen.

A coin the hand or pen hid could have touched anything it could reach. Its reach is bounded here
by evidence, not by the fastest speed alone: the path seen right after the gap is straight, and a
sliding coin only slows (friction at a constant rate, ``sensors/virtual/physics.py``), so the *last*
change of course before it was seen again happened on the ray back from its first sighting, no
farther back than that speed and friction allow. A change of course needs something there to cause
it — a rail or another coin. Where nothing lies on that ray, the coin came straight from where it
was seen before (which must lie on the ray, or nothing is concluded) and touched nothing. Where
something does, that coin may have been touched, and so may any coin the hidden one could have
reached before it, in the time left. Pure geometry on tracks in table mm (NaN = not located).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from sensors.camera.paths import could_meet_unseen, stayed_at_old_spot

# --- a partly hidden disc -------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _segment_bias(missing: float) -> float:
    """Centroid shift, in coin radii, of a disc with ``missing`` of its area cut off as a circular
    segment: of all shapes of that area, the one that pulls the centre farthest."""
    if missing <= 0.0:
        return 0.0
    lo, hi = 0.0, 2 * math.pi  # the segment's central angle: area share (θ - sin θ) / 2π
    for _ in range(50):
        mid = (lo + hi) / 2
        if (mid - math.sin(mid)) / (2 * math.pi) < missing:
            lo = mid
        else:
            hi = mid
    theta = (lo + hi) / 2
    centroid = 4 * math.sin(theta / 2) ** 3 / (3 * (theta - math.sin(theta)))
    return missing * centroid / (1.0 - missing)


WHOLE_SHARE = 0.97  # a still coin's disc is seen at this share or more when nothing covers it (95 % of frames)
STILL_MM = 1.5  # moved less than this since the frame before: still, so a share missing is no blur


def partly_hidden(shares: Any, track: Any) -> Any:
    """Per frame: was less of the coin's disc seen than a whole one shows, two frames in a row,
    the coin not sliding through (the palm over part of it: on the table's colour it is not seen
    at all)? A sliding disc is blurred, its rim unseen evenly on both sides: that does not pull
    the centre, and neither does one frame's noise."""
    shares = np.asarray(shares, dtype=float)
    into, out = np.zeros(len(track)), np.zeros(len(track))
    if len(track) > 1:
        into[1:] = out[:-1] = np.hypot(*np.diff(track, axis=0).T)
    low = (shares < WHOLE_SHARE) & ~((into >= STILL_MM) & (out >= STILL_MM))  # sliding through: blur
    pair = low[:-1] & low[1:]
    flags = np.zeros(len(track), dtype=bool)
    flags[:-1] |= pair
    flags[1:] |= pair
    # a sighting beside a frame where the hand hid it is at the hand's edge: part of it under the palm
    # (on the table's colour) can pull its centre by millimetres in that one frame
    lost = np.isnan(np.asarray(track, dtype=float)[:, 0])
    edge = np.zeros(len(track), dtype=bool)
    edge[:-1] |= lost[1:]
    edge[1:] |= lost[:-1]
    flags |= edge & ~lost & (shares < WHOLE_SHARE)
    return flags


def centre_slack_mm(shares: Any, partial: Any, radius_mm: float) -> Any:
    """Per frame: how far a located coin's centre can be off because part of its disc was not
    seen: the centroid of the seen part of a disc with that share cut off as a segment (the shape
    that pulls it farthest). A whole disc's own error is in the contact band."""
    out = np.zeros(len(shares))
    for k in np.nonzero(partial)[0]:
        out[k] = _segment_bias(round(min(1.0 - float(shares[k]), 0.6), 3)) * radius_mm
    return out


def interval_slack(slack: Any) -> Any:
    """Per frame interval (k, k+1): the larger of its two frames' centre slack."""
    if len(slack) < 2:
        return np.asarray(slack, dtype=float)
    return np.maximum(slack[:-1], slack[1:])


# --- a coin hidden for some frames ----------------------------------------------------------------

FIT_FRAMES = 4  # frames seen in a row right after a gap that give the path's direction and speed
FIT_FRAMES_MAX = 10  # ... at most (a longer slide gives its direction more closely)
SEEN_ERR_MM = 1.1  # a coin seen whole is placed within this (docs/camera.md, rest positions)
FIT_PERP_MM = 1.5  # ... lying this close to one straight line
MIN_SPAN_MM = 4.0  # ... and this far apart (a still coin is the "stayed" rule's, paths.py)
POS_ERR_MM = 2.0  # a sighting at the hand's edge, a disc half out from under it, is off by up to this
DECEL_MAX_MM_S2 = 3500.0  # a sliding coin slows at ~2.9 m/s^2 (sensors/virtual/physics.py), with room
STEP_MM = 1.0  # the ray back from the first sighting is examined at this spacing
GRID_CELLS = 30  # around a coin found lying still: at most this many grid steps each way
STAYED_MM = 1.5  # a coin found again this close to where it was hidden stayed there (paths.py)
AFTER_FRAMES = 6  # a coin at rest is looked at every 6th frame (tracking.FULL_EVERY): its moves show that late


@dataclass(frozen=True)
class Surroundings:
    """What the other coins and the rails were during one gap: each other coin's positions (mm,
    every frame of the gap and a little after) and the slack of each, and the table."""

    points: dict[str, Any]
    slack: dict[str, float]
    table: tuple[float, float]
    radius_mm: float


@dataclass
class HiddenPaths:
    """Every coin's gaps that the path seen after them explains: ``tracks`` with those gaps filled
    (so the fastest-speed rule of ``paths.could_meet_unseen`` sees only the others), ``reach``
    the coins each may have touched in them, ``flick_speed`` a bound on the struck coin's speed
    when its flick went unseen but its path from the flick is proven straight."""

    original: Mapping[str, Any]
    tracks: dict[str, Any]
    reach: dict[str, set[str]] = field(default_factory=dict)
    flick_speed: float | None = None

    def could_touch(self, a: str, b: str, filled: Mapping[str, Any], times: Any, touch: float,
                    v_max: float, *, start: int = 0) -> bool:
        """Could ``a`` and ``b`` have touched while one of them was not seen (from frame ``start``
        on)? In a gap explained here only if both this module and the fastest-speed rule allow it."""
        t = times[start:]
        for x, y in ((a, b), (b, a)):
            if could_meet_unseen(self.tracks[x][start:], filled[y][start:], t, touch, v_max):
                return True
            if y in self.reach.get(x, set()) and could_meet_unseen(self.original[x][start:], filled[y][start:], t,
                                                                   touch, v_max):
                return True
        return False


def explain_gaps(tracks: Mapping[str, Any], times: Any, *, touch: float, radius_mm: float,
                 table: tuple[float, float], v_max: float, struck: str | None = None,
                 strike_t: float | None = None) -> HiddenPaths:
    """Each coin's gaps, explained where the evidence allows (the module's docstring)."""
    out = HiddenPaths(original=tracks, tracks={c: tr.copy() for c, tr in tracks.items()})
    for c, track in tracks.items():
        seen = ~np.isnan(track[:, 0])
        if seen.all() or not seen.any():
            continue
        for i0, i1 in _gaps(seen):
            if i0 == 0 or i1 >= len(track):
                continue  # hidden from the first frame or to the last: nothing after it to go by
            around = _surroundings(tracks, c, i0 - 1, i1 + FIT_FRAMES_MAX + AFTER_FRAMES, table, radius_mm)
            if around is None:
                continue
            found = _gap_reach(track, times, i0, i1, around, touch, v_max)
            if found is None:
                continue
            touched, speed = found
            out.reach.setdefault(c, set()).update(touched)
            out.tracks[c][i0:i1] = track[i0 - 1]  # explained: no longer a gap for the speed rule
            at_flick = strike_t is not None and times[i0 - 1] < strike_t + 0.02 <= times[i1]
            if c == struck and at_flick and not touched and speed is not None:
                out.flick_speed = speed
    return out


def _gaps(seen: Any) -> list[tuple[int, int]]:
    """(first hidden frame, first frame seen again) of every run of hidden frames."""
    out: list[tuple[int, int]] = []
    k, n = 0, len(seen)
    while k < n:
        if seen[k]:
            k += 1
            continue
        j = k
        while j < n and not seen[j]:
            j += 1
        out.append((k, j))
        k = j
    return out


def _surroundings(tracks: Mapping[str, Any], coin: str, lo: int, hi: int, table: tuple[float, float],
                  radius_mm: float) -> Surroundings | None:
    """The other coins' positions in frames ``lo``…``hi``. A coin not seen in some of them counts
    only if it was found again where it was hidden (it stayed, paths.py: a hit coin slides away);
    otherwise it could have been anywhere and nothing is concluded (None)."""
    points: dict[str, Any] = {}
    slack: dict[str, float] = {}
    for o, tr in tracks.items():
        if o == coin:
            continue
        seen = ~np.isnan(tr[:, 0])
        hidden = False
        for g0, g1 in _gaps(seen):
            if g1 <= lo or g0 > hi:
                continue
            if g0 == 0 or g1 >= len(tr) or not stayed_at_old_spot(tr, seen, g0 - 1, g1):
                return None
            hidden = True
        part = tr[max(lo, 0):hi + 1]
        pts = part[~np.isnan(part[:, 0])]
        if not len(pts):
            pts = tr[seen][:1] if hidden else pts
        step = float(np.hypot(*np.diff(pts, axis=0).T).max()) if len(pts) > 1 else 0.0
        points[o] = pts
        slack[o] = step / 2 + (STAYED_MM if hidden else 0.0) + POS_ERR_MM / 2
    return Surroundings(points, slack, table, radius_mm)


def _leg_after(track: Any, times: Any, i1: int, around: Surroundings, touch: float
               ) -> tuple[Any, Any, float, float] | None:
    """The slide seen right after a gap, the longest of ``FIT_FRAMES`` frames or more, straight
    and with nothing in reach to change it: (first sighting, unit direction or None when it lay
    still, the direction's uncertainty, the greatest speed it can have had at the first sighting)."""
    err = POS_ERR_MM + SEEN_ERR_MM  # the first sighting at the hand's edge, the last one clear of it
    for end in range(min(i1 + FIT_FRAMES_MAX, len(track)), i1 + FIT_FRAMES - 1, -1):
        pts = track[i1:end]
        if np.isnan(pts[:, 0]).any() or not _clear(pts, around, touch):
            continue
        dt = float(times[end - 1] - times[i1])
        if float(np.hypot(*(pts - pts[0]).T).max()) < MIN_SPAN_MM:  # it lay still: any direction
            return pts[0], None, math.pi, err / dt + DECEL_MAX_MM_S2 * dt / 2
        centre = pts.mean(axis=0)
        _u, _s, vt = np.linalg.svd(pts - centre)
        d = vt[0] if float(np.dot(pts[-1] - pts[0], vt[0])) >= 0 else -vt[0]
        along = (pts - pts[0]) @ d
        perp = np.abs((pts - centre) @ np.array([-d[1], d[0]]))
        span = float(along[-1] - along[0])
        if perp.max() > FIT_PERP_MM or span < MIN_SPAN_MM or (np.diff(along) <= 0).any():
            continue
        return pts[0], d, math.atan2(err, span), (span + err) / dt + DECEL_MAX_MM_S2 * dt / 2
    return None


def _last_leg_starts(q1: Any, d: Any, angle: float, reach: float) -> tuple[Any, Any, Any]:
    """Where the last straight leg before ``q1`` can have begun: (points, each one's width, its
    distance from ``q1``). Moving along ``d``: the ray back from ``q1``, widening with the
    direction's uncertainty; lying still (``d`` None): anywhere within ``reach``."""
    if d is None:
        step = max(STEP_MM, reach / GRID_CELLS)  # a long gap: a coarser grid, each point wider
        grid = np.arange(-reach, reach + step, step)
        gx, gy = np.meshgrid(grid, grid)
        offs = np.column_stack([gx.ravel(), gy.ravel()])
        offs = offs[np.hypot(*offs.T) <= reach + step]
        dist = np.hypot(*offs.T)
        return q1[None, :] + offs, np.full(len(offs), POS_ERR_MM + step * 0.71), dist
    s = np.arange(0.0, reach + STEP_MM, STEP_MM)
    return q1[None, :] - s[:, None] * d[None, :], POS_ERR_MM + s * math.tan(angle), s


def _clear(pts: Any, around: Surroundings, touch: float) -> bool:
    """Nothing but friction acted on the coin along ``pts``: no other coin, no rail in reach."""
    w, length = around.table
    lim = around.radius_mm + (touch - 2 * around.radius_mm) + POS_ERR_MM
    if pts[:, 0].min() < lim or pts[:, 1].min() < lim or pts[:, 0].max() > w - lim or pts[:, 1].max() > length - lim:
        return False
    for o, op in around.points.items():
        gap = np.hypot(*(pts[:, None, :] - op[None, :, :]).transpose(2, 0, 1))
        if float(gap.min()) <= touch + around.slack[o] + POS_ERR_MM:
            return False
    return True


def _gap_reach(track: Any, times: Any, i0: int, i1: int, around: Surroundings, touch: float,
               v_max: float) -> tuple[set[str], float | None] | None:
    """The coins the coin of ``track`` may have touched in frames ``i0``…``i1 - 1`` (not seen), and
    (when its path was straight) its greatest speed there; None when the frames after do not tell."""
    leg = _leg_after(track, times, i1, around, touch)
    if leg is None:
        return None
    q1, d, angle, v1 = leg
    p_prev = track[i0 - 1]
    span_t = float(times[i1] - times[i0 - 1])
    reach = v1 * span_t + DECEL_MAX_MM_S2 * span_t**2 / 2  # the last straight leg is at most this long
    centres, widths, s = _last_leg_starts(q1, d, angle, reach)
    # where the last change of course could have been: beside a rail or another coin
    w, length = around.table
    rail = touch - around.radius_mm
    cx, cy = centres[:, 0], centres[:, 1]
    deflect = (cx - widths <= rail) | (cy - widths <= rail) | (cx + widths >= w - rail) | (cy + widths >= length - rail)
    touched: set[str] = set()
    for o, op in around.points.items():
        gap = np.hypot(*(centres[:, None, :] - op[None, :, :]).transpose(2, 0, 1)).min(axis=1)
        near = gap <= touch + widths + around.slack[o]
        if near.any():
            touched.add(o)  # on the last straight leg, or what turned the coin onto it
            deflect |= near
    # time left before the last leg, at each place it could have begun
    shortest = np.maximum(s - POS_ERR_MM, 0.0)
    tau = (np.sqrt(v1 * v1 + 2 * DECEL_MAX_MM_S2 * shortest) - v1) / DECEL_MAX_MM_S2
    budget = span_t - tau
    turns = np.nonzero(deflect & (budget >= 0))[0]
    if not len(turns):
        # no change of course was possible: it came straight from where it was seen before
        if float((np.hypot(*(centres - p_prev).T) - widths).min()) > 0.0:
            return None  # it was not where the path after the gap says: something is off
        return touched, v1 + DECEL_MAX_MM_S2 * span_t
    for o, op in around.points.items():  # before the last leg: anywhere in the time left
        if o in touched:
            continue
        d0 = np.hypot(*(op - p_prev).T)
        for j in turns:
            d1 = np.hypot(*(op - centres[j]).T)
            slack = 2 * touch + widths[j] + around.slack[o] + POS_ERR_MM
            if float((d0 + d1).min()) <= v_max * budget[j] + slack:
                touched.add(o)
                break
    return touched, None
