"""Following coins through a strike's frames (docs/camera.md, CAM-2): positions, paths, contacts.

One :class:`StrikeTracker` per strike, fed frame by frame (the live camera and ``gametable camera
analyse`` run the same code). It learns each coin's look and the empty table from the frames before
the strike, where the coins' rest positions are known, then segments every frame against that
background (numpy/OpenCV on whole arrays, no per-pixel Python). Every conclusion carries a
confidence; what the hand and pen hid is reported as occluded, never filled in.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from sensors.camera.calibration import Calibration
from sensors.camera.recording import CoinInfo

Point = tuple[float, float]


@dataclass(frozen=True)
class TrackParams:
    """Tuning of the tracker; defaults suit the default table at ≥ 16 px per coin and ≥ 100 fps."""

    coin_diameter_mm: float = 30.0
    table: tuple[float, float] = (425.0, 625.0)
    min_visible: float = 0.6  # fraction of a coin's disc that must be seen to locate it
    contact_band_mm: float = 1.5  # closest approach this close to touching is not decided by distance (docs/camera.md)
    rest_speed_mm_s: float = 8.0


@dataclass
class CoinResult:
    """One coin's strike: where it rests (None = not on the surface / not seen), its path and flags."""

    rest: Point | None
    rest_confidence: float
    path: list[tuple[float, Point]] = field(default_factory=list)  # (t, table mm) of located frames
    left_surface: bool = False  # seen leaving the playing surface (over a rail / out of view)
    not_flat: bool = False  # rests on another coin or on a rail
    flight_confidence: float = 1.0  # confidence in (left_surface or not_flat) as stated
    occluded: list[tuple[float, float]] = field(default_factory=list)  # (t0, t1) hidden intervals
    identity_confidence: float = 1.0  # same-coloured coins: how sure the id is (docs/camera.md "Identity")


@dataclass
class TrackResult:
    """What the frames showed about one strike."""

    coins: dict[str, CoinResult]
    contacts: dict[tuple[str, str], float]  # sorted pair -> confidence that they touched (0..1)
    contacts_confidence: float  # confidence that ``contacts`` (pairs with p >= 0.5) is the full truth
    frames: int = 0
    settled: bool = False  # every coin was at rest in the last frames
    undecided: dict[tuple[str, str], str] = field(default_factory=dict)  # pair -> why it is 0.5 (diagnostics)


class StrikeTracker:
    """Frames of one strike in, a :class:`TrackResult` out.

    The first frame is the table at rest with the coins at ``coins[id].at``: it gives the empty
    table (the coin discs painted over from their surroundings) and each coin's look (its colour
    relative to the table under this light). Every later frame: pixels that differ from the empty
    table, each given to the nearest-looking coin group (or to "other": the hand and pen), and each
    coin found by a few mean-shift steps from where its motion says it should be."""

    def __init__(self, calibration: Calibration, coins: Mapping[str, CoinInfo], struck: str, *,
                 params: TrackParams | None = None, strike_t: float | None = None) -> None:
        """``strike_t`` (seconds, frame time) when known: before it no coin moves, so a coin the
        hand hides then is where it rested."""
        self.calibration = calibration
        self.strike_t = strike_t
        self.coins = dict(coins)
        self.ids = sorted(self.coins)
        self.struck = struck
        self.params = params or TrackParams()
        self.times: list[float] = []
        self.px: dict[str, list[Any]] = {c: [] for c in self.ids}  # per frame: (u, v) or None
        self.hidden: dict[str, list[bool]] = {c: [] for c in self.ids}  # per frame: not located
        self.covered: dict[str, list[bool]] = {c: [] for c in self.ids}  # per frame: the hand around it
        self.shape: dict[str, float] = {}  # axis ratio of each coin's blob in the last frame it was seen
        self._bg: Any = None
        self._last_image: Any = None

    # --- set-up on the first frame ---------------------------------------------------------------

    def _start(self, image: Any) -> None:
        cal, d_mm = self.calibration, self.params.coin_diameter_mm
        h, w = image.shape[:2]
        self.size = (w, h)
        at = np.array([self.coins[c].at for c in self.ids], dtype=np.float64)
        self.start_px = cal.to_image(at)
        self.r_px = np.array([cal.coin_px(tuple(p), d_mm) / 2 for p in at])
        mask = np.zeros((h, w), np.uint8)
        for (u, v), r in zip(self.start_px, self.r_px, strict=True):
            cv2.circle(mask, (int(round(u)), int(round(v))), int(math.ceil(r + 3)), 255, -1)
        self._bg = cv2.inpaint(image, mask, 3, cv2.INPAINT_TELEA)
        self._illum = _illumination(self._bg)
        bg = self._illum.astype(np.float32) + 1.0
        looks = []
        for (u, v), r in zip(self.start_px, self.r_px, strict=True):
            ring = np.zeros((h, w), np.uint8)
            cv2.circle(ring, (int(round(u)), int(round(v))), max(1, int(r * 0.85)), 255, -1)
            cv2.circle(ring, (int(round(u)), int(round(v))), max(1, int(r * 0.55)), 0, -1)  # not the sticker dots
            sel = ring > 0
            looks.append(np.median(np.log((image[sel].astype(np.float32) + 1.0) / bg[sel]), axis=0))
        self.looks = np.array(looks)
        # coins that look alike form one group: pixels are given to a group, then to its nearest coin
        self.group = list(range(len(self.ids)))
        for i in range(len(self.ids)):
            for j in range(i):
                if np.abs(self.looks[i] - self.looks[j]).max() < LOOK_SAME:
                    self.group[i] = self.group[j]
                    break
        self._groups: dict[int, list[int]] = {}
        for k, g in enumerate(self.group):
            self._groups.setdefault(g, []).append(k)
        self.pos = self.start_px.copy()
        self.vel = np.zeros_like(self.pos)
        self.area = math.pi * self.r_px**2

    # --- every frame -----------------------------------------------------------------------------

    def feed(self, t: float, image: Any) -> None:
        """One BGR uint8 frame at ``t`` seconds (frames in time order)."""
        if self._bg is None:
            self._start(image)
        dt = t - self.times[-1] if self.times else 0.0
        self.times.append(t)
        self._last_image = image
        predicted = self.pos + self.vel * dt
        reach = self.r_px * 3.0 + np.hypot(self.vel[:, 0], self.vel[:, 1]) * dt + 3.0
        active = self._active(predicted, dt)
        h, w = image.shape[:2]
        box = predicted[active]
        x0 = int(max(0, np.floor((box[:, 0] - reach[active]).min())))
        y0 = int(max(0, np.floor((box[:, 1] - reach[active]).min())))
        x1 = int(min(w, np.ceil((box[:, 0] + reach[active]).max()) + 1))
        y1 = int(min(h, np.ceil((box[:, 1] + reach[active]).max()) + 1))
        vs, us = _foreground(image[y0:y1, x0:x1], self._bg[y0:y1, x0:x1]) if x1 > x0 and y1 > y0 else (
            np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp))
        us, vs = us + x0, vs + y0
        near = np.zeros(len(us), dtype=bool)
        for j in np.nonzero(active)[0]:  # only pixels around a coin being followed (not the whole hand)
            near |= (np.abs(us - predicted[j, 0]) < reach[j]) & (np.abs(vs - predicted[j, 1]) < reach[j])
        us, vs = us[near], vs[near]
        pix = image[vs, us].astype(np.float32) + 1.0
        bgp = self._illum[vs, us].astype(np.float32) + 1.0
        ratio = np.log(pix / bgp)
        looks = self.looks.astype(np.float32)
        d2 = (ratio * ratio).sum(axis=1)[:, None] - 2.0 * ratio @ looks.T + (looks * looks).sum(axis=1)[None, :]
        best = d2.argmin(axis=1) if len(us) else np.zeros(0, dtype=np.intp)
        close = d2[np.arange(len(best)), best] < LOOK_MATCH * LOOK_MATCH
        group_of_pixel = np.where(close, np.asarray(self.group)[best], -1)
        pts = np.column_stack([us, vs]).astype(np.float64)
        other = pts[group_of_pixel < 0]
        est, counts = self._mean_shift(pts, group_of_pixel, predicted, dt, active)
        for k in range(len(self.ids)):  # a coin's blurred rim is "other" too, but it is no hand
            if len(other):
                other = other[((other - est[k]) ** 2).sum(axis=1) > (self.r_px[k] + 2.5) ** 2]
        for k, c in enumerate(self.ids):
            if not active[k]:  # at rest and out of every moving coin's reach: it cannot have moved
                self._record(c, k, self.pos[k].copy(), False)
                continue
            seen = counts[k] >= self.params.min_visible * self.area[k]
            near_hand = False
            if len(other):  # "other" pixels (not a coin's look) just outside the coin: the hand or pen
                d2o = ((other - est[k]) ** 2).sum(axis=1)
                ring = d2o < (self.r_px[k] * 1.8) ** 2
                near_hand = bool(ring.sum() > HAND_SHARE * self.area[k])
            whole = FULL_SHARE[0] * self.area[k] <= counts[k] <= FULL_SHARE[1] * self.area[k]
            if seen and (whole or not near_hand):  # beside the hand only a whole, clean disc counts
                if dt > 0:
                    self.vel[k] = 0.5 * self.vel[k] + 0.5 * (est[k] - self.pos[k]) / dt
                self.pos[k] = est[k]
                self._record(c, k, est[k].copy(), False)
            else:
                self._record(c, k, None, True, near_hand)  # not located: under the hand, or gone

    def _active(self, predicted: Any, dt: float) -> Any:
        """The coins to look for in this frame. A coin at rest moves only when the pen (the struck
        coin) or a moving coin hits it, so one still and out of every moving coin's reach is where
        it was; every ``FULL_EVERY`` frames, and until it is found again, every coin is looked at."""
        n = len(self.ids)
        if len(self.times) <= 2 or len(self.times) % FULL_EVERY == 0:
            return np.ones(n, dtype=bool)
        speed = np.hypot(self.vel[:, 0], self.vel[:, 1]) * dt
        moving = (speed > STILL_PX) | np.array([self.px[c][-1] is None for c in self.ids])
        moving[self.ids.index(self.struck)] = True
        active = moving.copy()
        for j in np.nonzero(moving)[0]:
            gap = np.hypot(*(predicted - predicted[j]).T)
            active |= gap < self.r_px + self.r_px[j] + speed[j] * 2 + 6.0
        return active

    def _mean_shift(self, pts: Any, group_of_pixel: Any, predicted: Any, dt: float,
                    active: Any) -> tuple[Any, Any]:
        """Each coin's centre: a few mean-shift steps from its predicted place, every pixel of a look
        group given to the nearest coin of that group (two touching same-coloured coins split). A
        coin not found there (a coin at rest just hit jumps a radius in one frame) is searched again
        wider among its group's pixels that no found coin owns."""
        n = len(self.ids)
        est = predicted.copy()
        counts = np.zeros(n)
        need = self.params.min_visible * self.area
        for g, group in self._groups.items():
            members = [k for k in group if active[k]]
            gp = pts[group_of_pixel == g]
            if len(gp) == 0 or not members:
                continue
            for step in range(3):
                d2 = ((gp[:, None, :] - est[None, members, :]) ** 2).sum(axis=2)
                owner = d2.argmin(axis=1)
                for m_i, k in enumerate(members):
                    reach = self.r_px[k] * (1.15 if step < 2 else 1.0) + (
                        0.0 if step else float(np.hypot(*self.vel[k])) * dt + 3.0)
                    mine = gp[(owner == m_i) & (d2[:, m_i] < reach * reach)]
                    counts[k] = len(mine)
                    if len(mine):
                        est[k] = mine.mean(axis=0)
            lost = [k for k in members if counts[k] < need[k]]
            if not lost:
                continue
            found = [k for k in members if counts[k] >= need[k]] + [k for k in group if not active[k]]
            free = gp
            for k in found:
                free = free[((free - (est[k] if active[k] else self.pos[k])) ** 2).sum(axis=1) > (self.r_px[k] + 1.0) ** 2]
            for k in lost:
                centre = self.pos[k]
                for step in range(4):
                    reach = self.r_px[k] * (2.6 if step == 0 else 1.0)
                    mine = free[((free - centre) ** 2).sum(axis=1) < reach * reach]
                    if not len(mine):
                        break
                    centre = mine.mean(axis=0)
                counts[k] = len(mine) if len(mine) else 0
                if counts[k] >= need[k]:
                    est[k] = centre
        return est, counts

    def _record(self, c: str, k: int, p: Any, hidden: bool, covered: bool = False) -> None:
        self.px[c].append(p)
        self.hidden[c].append(hidden)
        self.covered[c].append(covered)

    # --- the result ------------------------------------------------------------------------------

    def result(self) -> TrackResult:
        """What the frames fed so far showed (call after the last frame)."""
        if not self.times:
            return TrackResult(coins={}, contacts={}, contacts_confidence=0.0)
        times = np.array(self.times)
        tracks = {c: self._track_mm(c) for c in self.ids}
        coins = {c: self._coin_result(c, tracks[c], times) for c in self.ids}
        self._identities(coins)
        for c, res in coins.items():  # a coin that left over a rail touches nothing on the table after
            if res.left_surface and res.flight_confidence >= 0.99:
                seen = np.nonzero(~np.isnan(tracks[c][:, 0]))[0]
                tracks[c][seen[-1] + 1:] = GONE_MM
        contacts, conf, why = self._contacts(tracks, times, coins)
        settled = all(r.rest is None or r.rest_confidence > 0.5 for r in coins.values())
        return TrackResult(coins=coins, contacts=contacts, contacts_confidence=conf, frames=len(self.times),
                           settled=settled, undecided=why)

    def _track_mm(self, c: str) -> Any:
        """(frames, 2) table mm with NaN where the coin was not located."""
        out = np.full((len(self.times), 2), np.nan)
        idx = [i for i, p in enumerate(self.px[c]) if p is not None]
        if idx:
            out[idx] = self.calibration.to_table(np.array([self.px[c][i] for i in idx]))
        if self.strike_t is not None:  # nothing moves before the flick: a hidden coin is where it rested
            before = (np.array(self.times) < self.strike_t) & np.isnan(out[:, 0])
            out[before] = self.coins[c].at
        return out

    def _coin_result(self, c: str, track: Any, times: Any) -> CoinResult:
        p = self.params
        r = p.coin_diameter_mm / 2
        ok = ~np.isnan(track[:, 0])
        path = [(float(times[i]), (float(track[i, 0]), float(track[i, 1]))) for i in np.nonzero(ok)[0]]
        occluded = _intervals(times, np.array(self.hidden[c]))
        tail = ok[-TAIL_FRAMES:]
        res = CoinResult(rest=None, rest_confidence=0.0, path=path, occluded=occluded)
        if tail.all():
            last = track[-TAIL_FRAMES:]
            rest = last.mean(axis=0)
            still = float(np.hypot(*(last[-1] - last[0])))
            res.rest = (float(rest[0]), float(rest[1]))
            res.rest_confidence = 0.999 if still < 1.0 else 0.3
            w, length = p.table
            off = not (-r * 0.5 <= rest[0] <= w + r * 0.5 and -r * 0.5 <= rest[1] <= length + r * 0.5)
            on_rail = not (r * 0.6 <= rest[0] <= w - r * 0.6 and r * 0.6 <= rest[1] <= length - r * 0.6)
            res.left_surface = off
            res.not_flat = on_rail and not off
            res.flight_confidence = 0.995
        elif not tail.any() and path:
            # gone from view: it left the table if it was last seen near a rail, heading out
            x, y = path[-1][1]
            w, length = p.table
            near_rail = min(x, y, w - x, length - y) < 2.5 * r
            heading_out = len(path) >= 2 and _towards_rail(path[-2][1], path[-1][1], p.table)
            covered = any(self.covered[c][-TAIL_FRAMES * 4:])  # the hand may be lying on it
            res.left_surface = near_rail and heading_out and not covered and not self._still_in_view(c)
            res.flight_confidence = 0.995 if res.left_surface else 0.0
        else:
            res.flight_confidence = 0.0  # seen only sometimes at the end: nothing is stated
        return res

    def _still_in_view(self, c: str) -> bool:
        """Does the last frame hold pixels of ``c``'s look, a coin's worth, that no located coin
        owns? Then the tracker lost it on the table: that is no proof it left."""
        k = self.ids.index(c)
        img = self._last_image
        vs, us = _foreground(img, self._bg)
        if not len(us):
            return False
        ratio = np.log((img[vs, us].astype(np.float32) + 1.0) / (self._illum[vs, us].astype(np.float32) + 1.0))
        mine = np.sqrt(((ratio - self.looks[k].astype(np.float32)) ** 2).sum(axis=1)) < LOOK_MATCH
        pts = np.column_stack([us, vs]).astype(np.float64)[mine]
        for j, other in enumerate(self.ids):
            p = self.px[other][-1]
            if p is not None and len(pts):
                pts = pts[((pts - p) ** 2).sum(axis=1) > (self.r_px[j] + 2.0) ** 2]
        return len(pts) >= 0.4 * self.area[k]

    def _identities(self, coins: dict[str, CoinResult]) -> None:
        """Flatness and identity at rest: an elliptic blob is tilted (on another coin); coins that
        share a look must show the sticker dots of their id (docs/camera.md "Identity")."""
        img = self._last_image
        for k, c in enumerate(self.ids):
            res = coins[c]
            if res.rest is None:
                continue
            u, v = self.px[c][-1]
            ratio, dots = _blob_shape(img, self._bg, self._illum, (u, v), self.r_px[k], self.looks[k])
            if ratio < TILTED_RATIO:
                res.not_flat = True
            elif ratio < FLAT_RATIO:
                res.flight_confidence = min(res.flight_confidence, 0.5)
            twins = [self.ids[j] for j in self._groups[self.group[k]] if j != k]
            if not twins:
                continue
            marks = {self.coins[x].mark for x in twins}
            if self.coins[c].mark not in marks:  # the stickers tell them apart: they must show
                res.identity_confidence = 0.999 if _dot_count(dots) == self.coins[c].mark else 0.0
            else:  # look-alikes without distinct stickers: only an unbroken, well-apart track tells
                res.identity_confidence = 0.999 if all(self._kept_apart(c, x) for x in twins) else 0.0
        for c, res in coins.items():  # two coins resting one on the other: the upper one is not flat
            for d, other in coins.items():
                if c < d and res.rest and other.rest:
                    gap = math.dist(res.rest, other.rest)
                    if gap < self.params.coin_diameter_mm - 3.0:
                        for x in (res, other):
                            x.flight_confidence = min(x.flight_confidence, 0.5 if not (res.not_flat or other.not_flat) else 0.995)

    def _kept_apart(self, a: str, b: str) -> bool:
        """Two coins that look alike kept their ids: both seen in every frame, never near each other."""
        pa, pb = self.px[a], self.px[b]
        if any(p is None for p in pa) or any(p is None for p in pb):
            return False
        gap = np.hypot(*(np.array(pa) - np.array(pb)).T)
        k = self.ids.index(a)
        return bool(gap.min() > 2 * self.r_px[k] + 8.0)

    def _contacts(self, tracks: dict[str, Any], times: Any, coins: dict[str, CoinResult]
                  ) -> tuple[dict[tuple[str, str], float], float, dict[tuple[str, str], str]]:
        """Pairs that touched: closest approach along the (linearly joined) paths, and whether both
        coins' motion changed there. Frames where a coin was not seen make a near pair undecided."""
        d = self.params.coin_diameter_mm
        band = self.params.contact_band_mm
        filled = {c: _fill(tr) for c, tr in tracks.items()}
        speeds = {c: _speeds(filled[c], times) for c in self.ids}
        v_max = UNSEEN_SPEED_MM_S
        for tr in tracks.values():  # no coin is faster than the fastest seen (energy only drops)
            ok = ~np.isnan(tr[:-1, 0]) & ~np.isnan(tr[1:, 0])
            if ok.any():
                step = np.hypot(*(tr[1:] - tr[:-1])[ok].T) / np.maximum(np.diff(times)[ok], 1e-6)
                v_max = max(v_max, float(step.max()) * 1.2)
        out: dict[tuple[str, str], float] = {}
        why: dict[tuple[str, str], str] = {}
        conf = 1.0
        for i, a in enumerate(self.ids):
            for b in self.ids[i + 1:]:
                pa, pb = filled[a], filled[b]
                if pa is None or pb is None:
                    out[(a, b)] = 0.5
                    why[(a, b)] = "never seen"
                    conf *= 0.5
                    continue
                dmin, k = _closest(pa, pb)
                kick = _kick(speeds[a], k) > KICK_MM_S and _kick(speeds[b], k) > KICK_MM_S
                if dmin <= d + band and (kick or dmin < d - band):
                    p = 0.995  # they met, and both changed course right there (or the paths overlap)
                elif _could_meet_unseen(tracks[a], pb, times, d + band, v_max) or _could_meet_unseen(
                        tracks[b], pa, times, d + band, v_max):
                    p = 0.5  # one of them was not seen while the other was within its reach
                    why[(a, b)] = "hidden"
                elif dmin > d + band:
                    p = 0.0 if dmin > d + 2 * band else 0.01
                else:
                    p = 0.5
                    why[(a, b)] = f"closest {dmin:.1f} mm, no impact"
                if p > 0.0:
                    out[(a, b)] = p
                conf *= max(p, 1.0 - p)
        return out, conf, why


FG_LEVEL = 38  # 8-bit difference from the empty table that marks a pixel as "something there"
LOOK_SAME = 0.18  # log-ratio distance under which two coins count as one colour (identity by stickers)
LOOK_MATCH = 0.6  # a pixel this close (log-ratio, Euclidean) to a coin look belongs to that look
TAIL_FRAMES = 3  # the last frames decide where coins rest
TILTED_RATIO = 0.85  # blob minor/major axis below this: a tilted coin (on another coin)
SHAPE_LEVEL = 22  # 8-bit difference for the blob shape at rest (5 noise sigmas)
FLAT_RATIO = 0.9
FULL_EVERY = 6  # every this many frames every coin is looked for, moving or not
STILL_PX = 0.05  # pixels a frame below which a coin counts as still
FULL_SHARE = (0.85, 1.25)  # a coin's matched pixels, as a share of its disc, when nothing covers it
HAND_SHARE = 0.12  # "other" pixels around a coin, as a share of its area, that mean the hand covers it
KICK_MM_S = 120.0  # a change of speed this large within two frames: an impact


def _illumination(bg: Any) -> Any:
    """The light on the table: the empty table with its thin marks (goal line) filtered out, so a
    coin's look is the same over the line as beside it (a median at quarter size, scaled back)."""
    h, w = bg.shape[:2]
    small = cv2.resize(bg, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.medianBlur(small, 5), (w, h), interpolation=cv2.INTER_LINEAR)


def _foreground(image: Any, bg: Any) -> tuple[Any, Any]:
    """(rows, cols) of pixels whose largest channel differs from the empty table by > FG_LEVEL
    (OpenCV per channel: a numpy max over the colour axis costs several ms a frame)."""
    b, g, r = cv2.split(cv2.absdiff(image, bg))
    most = cv2.max(cv2.max(b, g), r)
    _, mask = cv2.threshold(most, FG_LEVEL, 255, cv2.THRESH_BINARY)
    pts = cv2.findNonZero(mask)
    if pts is None:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    pts = pts.reshape(-1, 2)
    return pts[:, 1], pts[:, 0]


GONE_MM = (-10_000.0, -10_000.0)  # where a coin that left the table is put: out of every coin's reach


def _towards_rail(a: Point, b: Point, table: tuple[float, float]) -> bool:
    """Moving from ``a`` to ``b`` towards the nearest rail."""
    x, y = b
    w, length = table
    dist = {(-1, 0): x, (1, 0): w - x, (0, -1): y, (0, 1): length - y}
    nx, ny = min(dist, key=dist.__getitem__)
    return (b[0] - a[0]) * nx + (b[1] - a[1]) * ny > 0.0


def _intervals(times: Any, flags: Any) -> list[tuple[float, float]]:
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


def _could_meet_unseen(track: Any, other: Any, times: Any, touch: float, v_max: float) -> bool:
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
    # a coin slides straight and slows down unless something hits it: over a gap it goes no faster
    # than it was seen going just before or just after (with room), never above v_max
    speed = _seen_speeds(track, times, seen)
    v_before = np.where(prev[gaps] >= 0, speed[np.maximum(p0, 0)], np.nan)
    after = np.minimum(p1 + 1, n - 1)
    v_after = np.where((nxt[gaps] < n) & (p1 + 1 < n) & seen[after], speed[after], np.nan)
    bound = np.fmax(v_before, v_after) * GAP_SPEED_FACTOR + GAP_SPEED_SLACK_MM_S
    bound = np.where(np.isnan(bound), v_max, np.minimum(bound, v_max))
    length = bound * (t1 - t0) + 2.0  # 2 mm: the positions' own error
    # a coin found again where it was hidden (within 1.5 mm) stayed there: a hit coin slides
    # away (friction stops it, it cannot come back to the same spot), so its reach is nil
    stayed = (np.hypot(*(track[p1] - track[p0]).T) < 1.5) & (nxt[gaps] < n)
    length = np.where(stayed, 2.0, length)
    o = other[gaps]
    d0 = np.hypot(*(o - track[p0]).T)
    d1 = np.hypot(*(o - track[p1]).T)
    return bool((d0 + d1 - 2 * touch <= length).any())


GAP_SPEED_FACTOR = 1.3
GAP_SPEED_SLACK_MM_S = 200.0


def _seen_speeds(track: Any, times: Any, seen: Any) -> Any:
    """Per frame: the speed (mm/s) from the previous frame when both were seen, else NaN."""
    out = np.full(len(track), np.nan)
    both = seen[1:] & seen[:-1]
    step = np.hypot(*(track[1:] - track[:-1]).T) / np.maximum(np.diff(times), 1e-6)
    out[1:][both] = step[both]
    return out


def _fill(track: Any) -> Any:
    """Positions with the gaps joined linearly (None when the coin was never seen)."""
    ok = ~np.isnan(track[:, 0])
    if not ok.any():
        return None
    idx = np.arange(len(track))
    return np.column_stack([np.interp(idx, idx[ok], track[ok, 0]), np.interp(idx, idx[ok], track[ok, 1])])


def _speeds(track: Any, times: Any) -> Any:
    if track is None or len(track) < 2:
        return np.zeros(len(times))
    v = np.diff(track, axis=0) / np.maximum(np.diff(times), 1e-6)[:, None]
    return np.vstack([v[:1], v])


def _kick(vel: Any, k: int) -> float:
    """How much a coin's velocity changed around frame ``k`` (mm/s)."""
    lo, hi = max(k - 2, 0), min(k + 3, len(vel) - 1)
    before, after = vel[lo], vel[hi]
    return float(np.hypot(*(after - before)))


def _closest(pa: Any, pb: Any) -> tuple[float, int]:
    """Closest approach of two paths between frames: (distance, frame index). An impact bends the
    paths inside one frame interval, and the straight join of the frames cuts that corner (it
    passes farther off than the coins went), so each interval also tries the motion of the frame
    before carried on and the motion of the frame after carried back."""
    rel = pa - pb
    if len(rel) < 2:
        return float(np.hypot(*rel[0])), 0
    d0, d1 = rel[:-1], rel[1:]
    step = d1 - d0
    before = np.vstack([step[:1], step[:-1]])  # the relative motion of the interval before
    after = np.vstack([step[1:], step[-1:]])  # ... and of the one after
    best = np.minimum(np.minimum(_segment_min(d0, step), _segment_min(d0, before)), _segment_min(d1 - after, after))
    k = int(best.argmin())
    return float(best[k]), k


def _segment_min(start: Any, step: Any) -> Any:
    """Per row: the least |start + s * step| over s in [0, 1]."""
    denom = (step * step).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.clip(np.where(denom > 1e-12, -(start * step).sum(axis=1) / denom, 0.0), 0.0, 1.0)
    closest = start + step * s[:, None]
    return np.hypot(closest[:, 0], closest[:, 1])


def _blob_shape(img: Any, bg: Any, illum: Any, at: tuple[float, float], r: float, look: Any) -> tuple[float, Any]:
    """(minor/major axis ratio of the coin's blob, (sticker pixels, pixels) of its centre disc):
    sticker pixels are those unlike the coin's own look (white dots on dark coins, black on light)."""
    h, w = img.shape[:2]
    x0, y0 = int(max(at[0] - 2 * r, 0)), int(max(at[1] - 2 * r, 0))
    x1, y1 = int(min(at[0] + 2 * r + 1, w)), int(min(at[1] + 2 * r + 1, h))
    patch, bpatch, lpatch = img[y0:y1, x0:x1], bg[y0:y1, x0:x1], illum[y0:y1, x0:x1]
    b, g, rr = cv2.split(cv2.absdiff(patch, bpatch))
    fg = (cv2.max(cv2.max(b, g), rr) > SHAPE_LEVEL).astype(np.uint8)  # lower than FG_LEVEL: the whole soft rim
    disc = np.zeros_like(fg)
    cv2.circle(disc, (int(round(at[0] - x0)), int(round(at[1] - y0))), int(round(r * 1.2)), 1, -1)
    m = cv2.moments(fg * disc, binaryImage=True)
    if m["m00"] < 4:
        return 1.0, None
    mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
    common = math.sqrt(max(((mu20 - mu02) / 2) ** 2 + mu11**2, 0.0))
    major, minor = (mu20 + mu02) / 2 + common, (mu20 + mu02) / 2 - common
    ratio = math.sqrt(max(minor, 0.0) / major) if major > 0 else 1.0
    inner = np.zeros_like(fg)
    cv2.circle(inner, (int(round(at[0] - x0)), int(round(at[1] - y0))), max(1, int(round(r * 0.7))), 1, -1)
    rel = np.log((patch.astype(np.float32) + 1.0) / (lpatch.astype(np.float32) + 1.0)) - look.astype(np.float32)
    unlike = (np.sqrt((rel * rel).sum(axis=2)) > STICKER_LOOK) & (inner > 0)
    return ratio, (int(unlike.sum()), int(inner.sum()))


def _dot_count(dots: Any) -> int:
    """Sticker dots from the sticker share of a coin's centre (each dot ~16 % of it)."""
    if dots is None or dots[1] == 0:
        return -1
    share = dots[0] / dots[1]
    return int(round(share / DOT_SHARE))


# one dot of 0.28 r covers (0.28 / 0.7)^2 = 16 % of the 0.7 r centre disc; its soft rim at 16-18 px
# per coin makes it ~27 % of the disc's pixels (measured on rendered coins)
DOT_SHARE = 0.27
STICKER_LOOK = 0.7  # log-ratio distance from the coin's look that marks a sticker pixel


def locate_coins(image: Any, calibration: Calibration, coins: Mapping[str, CoinInfo], *,
                 params: TrackParams | None = None) -> dict[str, tuple[Point, float]]:
    """Coins at rest between strikes: id -> (table mm, confidence), searched near ``coins[id].at``
    (the last known positions) by colour."""
    first = next(iter(coins), None)
    if first is None:
        return {}
    tracker = StrikeTracker(calibration, coins, first, params=params)
    tracker.feed(0.0, image)
    tracker.feed(1.0, image)
    out: dict[str, tuple[Point, float]] = {}
    for c in tracker.ids:
        p = tracker.px[c][-1]
        if p is not None:
            mm = calibration.to_table(np.array([p]))[0]
            out[c] = ((float(mm[0]), float(mm[1])), 0.99)
    return out


def bind_coins(image: Any, calibration: Calibration, seat_colours: Mapping[int, str], *,
               seat_marks: Mapping[int, int] | None = None,
               params: TrackParams | None = None) -> dict[int, Point]:
    """Game start (CAM-2): each seat's coin found on the surface by its colour ``#rrggbb`` (and its
    sticker dots when two seats share a colour, docs/camera.md "Identity") -> its position in mm.
    A seat whose coin is not found, or is found twice, is left out.

    No empty table is known yet: the light is the frame with its coin-sized blobs filtered out,
    and a blob's colour, brought to the table's median light, is matched to the named colours."""
    p = params or TrackParams()
    marks = dict(seat_marks or {})
    h, w = image.shape[:2]
    illum = _light_without_coins(image)
    surface = np.array([(0.0, 0.0), (p.table[0], 0.0), (p.table[0], p.table[1]), (0.0, p.table[1])])
    poly = calibration.to_image(surface).astype(np.int32)
    inside = np.zeros((h, w), np.uint8)
    cv2.fillPoly(inside, [poly], 255)
    b, g, r = cv2.split(cv2.absdiff(image, illum))
    fg = ((cv2.max(cv2.max(b, g), r) > FG_LEVEL) & (inside > 0)).astype(np.uint8)
    n, _labels, stats, centroids = cv2.connectedComponentsWithStats(fg)
    centre_mm = ((p.table[0] / 2, p.table[1] / 2))
    coin_r = calibration.coin_px(centre_mm, p.coin_diameter_mm) / 2
    area = math.pi * coin_r**2
    table_light = np.median(illum[inside > 0], axis=0).astype(np.float32) + 1.0
    want = {seat: np.log(np.array(_hex_bgr(c), dtype=np.float32) + 1.0) for seat, c in seat_colours.items()}
    found: dict[int, list[Point]] = {}
    for i in range(1, n):
        if not 0.5 * area <= stats[i, cv2.CC_STAT_AREA] <= 1.6 * area:
            continue
        u, v = centroids[i]
        look = _ring_colour(image, illum, (u, v), coin_r, table_light)
        if look is None:
            continue
        dist = {seat: float(np.abs(look - c).max()) for seat, c in want.items()}
        best = min(dist.values())
        if best > BIND_MATCH:
            continue
        same = [seat for seat, d in dist.items() if d - best < 0.15]  # seats of one colour
        if len(same) > 1:
            _ratio, dots = _blob_shape(image, illum, illum, (u, v), coin_r, look - np.log(table_light))
            count = _dot_count(dots)
            same = [seat for seat in same if marks.get(seat, 0) == count]
        mm = calibration.to_table(np.array([(u, v)]))[0]
        for seat in same[:1] if len(same) == 1 else []:
            found.setdefault(seat, []).append((float(mm[0]), float(mm[1])))
    return {seat: spots[0] for seat, spots in sorted(found.items()) if len(spots) == 1}


BIND_MATCH = 0.45  # log-colour distance (table light) within which a blob is a named colour


def _hex_bgr(colour: str) -> tuple[int, int, int]:
    v = int(colour[1:], 16)
    return (v & 0xFF, (v >> 8) & 0xFF, v >> 16)


def _light_without_coins(image: Any) -> Any:
    """The light on the table from a frame with coins on it: a median over ~2 coin sizes."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.medianBlur(small, 11), (w, h), interpolation=cv2.INTER_LINEAR)


def _ring_colour(image: Any, illum: Any, at: tuple[float, float], r: float, table_light: Any) -> Any:
    """The log colour of a coin's ring (not its sticker dots) brought to the table's median light."""
    h, w = image.shape[:2]
    ring = np.zeros((h, w), np.uint8)
    c = (int(round(at[0])), int(round(at[1])))
    cv2.circle(ring, c, max(1, int(r * 0.85)), 255, -1)
    cv2.circle(ring, c, max(1, int(r * 0.55)), 0, -1)
    sel = ring > 0
    if not sel.any():
        return None
    px = image[sel].astype(np.float32) + 1.0
    light = illum[sel].astype(np.float32) + 1.0
    return np.median(np.log(px) - np.log(light), axis=0) + np.log(table_light)
