"""Following coins through a strike's frames (docs/camera.md, CAM-2): positions, paths, contacts.

One :class:`StrikeTracker` per strike, fed frame by frame (the live camera and ``gametable camera
analyse`` run the same code). It learns each coin's look and the empty table from the frames before
the strike, where the coins' rest positions are known, then segments every frame against that
background (numpy/OpenCV on whole arrays, no per-pixel Python). Every conclusion carries a
confidence; what the hand and pen hid is reported as occluded, never filled in.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from sensors.camera.aiming import agreed_direction, pen_direction
from sensors.camera.binding import bind_coins
from sensors.camera.calibration import Calibration
from sensors.camera.faces import FACE_REACH_RADII, LOOK_MATCH, Faces
from sensors.camera.first_push import pushed_only_by
from sensors.camera.glitches import settle_glitches
from sensors.camera.heading import headed_into, pushed_into
from sensors.camera.impacts import FLICK_S, MOVING_KICK_MM_S, REST_MM_S, StrikePaths, kicked_between
from sensors.camera.leaving import could_be_hit, seen_leaving
from sensors.camera.lost import refind_lost
from sensors.camera.occlusion import WHOLE_SHARE, centre_slack_mm, explain_gaps, interval_slack, partly_hidden
from sensors.camera.params import TrackParams, coin_plane
from sensors.camera.paths import (
    GONE_MM,
    UNSEEN_SPEED_MM_S,
    approaches,
    fill,
    impact,
    intervals,
    sampled_approaches,
    spot_before_flick,
    velocities,
    velocity_change,
)
from sensors.camera.recording import CoinInfo
from sensors.camera.relocating import find_lone_disc
from sensors.camera.riders import tilted_reading
from sensors.camera.seating import seat_coins
from sensors.camera.separating import flicked_away
from sensors.camera.shapes import blob_shape, dot_count, foreground, illumination, surface_mask
from sensors.camera.turning import turned_by
from sensors.camera.undisturbed import clear_untouched, stayed_put, untouched_lie_flat
from sensors.camera.unseen_still import SpotWatch

Point = tuple[float, float]


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
    # not seen, but nothing came near where the table knew it (unseen_still.py): whether or not it
    # lies there, it did not move, die or fly in this strike (its rest stays unknown)
    unmoved: bool = False


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
        self.params = params or TrackParams()
        self.calibration = coin_plane(calibration, self.params)  # the coins' top faces (params.py)
        self.strike_t = strike_t
        self.coins = dict(coins)
        self.ids = sorted(self.coins)
        self.struck = struck
        self.times: list[float] = []
        self.px: dict[str, list[Any]] = {c: [] for c in self.ids}  # per frame: (u, v) or None
        self.hidden: dict[str, list[bool]] = {c: [] for c in self.ids}  # per frame: not located
        self.covered: dict[str, list[bool]] = {c: [] for c in self.ids}  # per frame: the hand around it
        self.share: dict[str, list[float]] = {c: [] for c in self.ids}  # per frame: share of its disc seen
        self._partial: dict[str, Any] = {}  # per frame: still, part of its disc not seen (occlusion.py)
        self.shape: dict[str, float] = {}  # axis ratio of each coin's blob in the last frame it was seen
        self._bg: Any = None
        self.unseated: set[str] = set()  # coins not found near their spot at the start (seating.py)
        self._wide: int | None = None  # the struck coin's index while it is looked for everywhere
        self._last_image: Any = None
        self._pen: list[Any] = []  # the pen's direction (image px) in frames just before the flick
        self._unseen_watch = SpotWatch()  # around unseated coins' spots (unseen_still.py)

    # --- set-up on the first frame ---------------------------------------------------------------

    def _start(self, image: Any) -> None:
        cal, d_mm = self.calibration, self.params.coin_diameter_mm
        h, w = image.shape[:2]
        self.size = (w, h)
        # where each coin really lies (seating.py): a re-aimed coin is learned where it is, and a
        # coin not found near its spot is learned from nothing and stated nothing about
        seated = seat_coins(image, cal, self.coins, self.params)
        self.unseated = {c for c, spot in seated.items() if spot is None}
        self.coins = {c: info if (spot := seated[c]) is None else replace(info, at=spot)
                      for c, info in self.coins.items()}
        at = np.array([self.coins[c].at for c in self.ids], dtype=np.float64)
        self.start_px = cal.to_image(at)
        self.r_px = np.array([cal.coin_px(tuple(p), d_mm) / 2 for p in at])
        mask = np.zeros((h, w), np.uint8)
        for (u, v), r in zip(self.start_px, self.r_px, strict=True):
            cv2.circle(mask, (int(round(u)), int(round(v))), int(math.ceil(r + 3)), 255, -1)
        self._bg = cv2.inpaint(image, mask, 3, cv2.INPAINT_TELEA)
        self._illum = illumination(self._bg, cv2.bitwise_and(surface_mask(cal, self.params.table, (w, h)),
                                                             cv2.bitwise_not(mask)))
        bg = self._illum.astype(np.float32) + 1.0
        looks = []
        for (u, v), r in zip(self.start_px, self.r_px, strict=True):
            ring = np.zeros((h, w), np.uint8)
            cv2.circle(ring, (int(round(u)), int(round(v))), max(1, int(r * 0.85)), 255, -1)
            cv2.circle(ring, (int(round(u)), int(round(v))), max(1, int(r * 0.55)), 0, -1)  # not the sticker dots
            sel = ring > 0
            looks.append(np.median(np.log((image[sel].astype(np.float32) + 1.0) / bg[sel]), axis=0))
        self.looks = np.array(looks)
        for k, c in enumerate(self.ids):  # an unseated coin's "look" is the table's: no pixel is its
            if c in self.unseated:
                self.looks[k] = UNSEEN_LOOK
        self.faces = Faces.learn(image, bg, self.start_px, self.r_px, self.looks,
                                 {k for k, c in enumerate(self.ids) if c in self.unseated})
        # unseen coins that provably lay still (unseen_still.py): only when the struck coin is seen
        unseen = [k for k, c in enumerate(self.ids) if c in self.unseated]
        self._unseen_watch = SpotWatch(image, {self.ids[k]: tuple(self.start_px[k]) for k in unseen},
                                       {self.ids[k]: float(self.r_px[k]) for k in unseen},
                                       struck_seen=self.struck not in self.unseated)
        # coins that look alike form one group: pixels are given to a group, then to its nearest coin
        self.group = list(range(len(self.ids)))
        for i in range(len(self.ids)):
            if self.ids[i] in self.unseated:
                continue
            for j in range(i):
                if self.ids[j] in self.unseated:
                    continue
                same_colour = self.coins[self.ids[i]].colour.lower() == self.coins[self.ids[j]].colour.lower()
                if same_colour or np.abs(self.looks[i] - self.looks[j]).max() < LOOK_SAME:  # (light varies)
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
        self._unseen_watch.feed(image)
        self._read_pen(t, image)
        predicted = self.pos + self.vel * dt
        reach = self.r_px * 3.0 + np.hypot(self.vel[:, 0], self.vel[:, 1]) * dt + 3.0
        active = self._active(predicted, dt)
        self._wide = self._struck_lost(t)
        x0, y0, x1, y1 = self._search_box(predicted, reach, active, image.shape)
        vs, us = foreground(image[y0:y1, x0:x1], self._bg[y0:y1, x0:x1]) if x1 > x0 and y1 > y0 else (
            np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp))
        us, vs = us + x0, vs + y0
        near = np.zeros(len(us), dtype=bool)
        for j in np.nonzero(active)[0]:  # only pixels around a coin being followed (not the whole hand)
            near |= (np.abs(us - predicted[j, 0]) < reach[j]) & (np.abs(vs - predicted[j, 1]) < reach[j])
        if self._wide is not None:  # the struck coin lost after the flick: it is looked for everywhere
            near[:] = True
        us, vs = us[near], vs[near]
        pix = image[vs, us].astype(np.float32) + 1.0
        bgp = self._illum[vs, us].astype(np.float32) + 1.0
        ratio = np.log(pix / bgp)
        pts = np.column_stack([us, vs]).astype(np.float64)
        reach_face = self.r_px * FACE_REACH_RADII + np.hypot(self.vel[:, 0], self.vel[:, 1]) * dt + 3.0
        coin_of_pixel = self.faces.owners_of(ratio, pts, predicted, reach_face)
        group_of_pixel = np.where(coin_of_pixel >= 0, np.asarray(self.group)[np.maximum(coin_of_pixel, 0)], -1)
        other = pts[group_of_pixel < 0]
        est, counts = self._mean_shift(pts, group_of_pixel, predicted, dt, active)
        for k in range(len(self.ids)):  # a coin's blurred rim is "other" too, but it is no hand
            if len(other):
                other = other[((other - est[k]) ** 2).sum(axis=1) > (self.r_px[k] + 2.5) ** 2]
        for k, c in enumerate(self.ids):
            if not active[k]:  # at rest and out of every moving coin's reach: it cannot have moved
                self._record(c, k, self.pos[k].copy(), False, share=self.share[c][-1] if self.share[c] else 1.0)
                continue
            seen = counts[k] >= self.params.min_visible * self.area[k]
            near_hand = False
            if len(other):  # "other" pixels (not a coin's look) just outside the coin: the hand or pen
                d2o = ((other - est[k]) ** 2).sum(axis=1)
                ring = d2o < (self.r_px[k] * 1.8) ** 2
                near_hand = bool(ring.sum() > HAND_SHARE * self.area[k])
            whole = FULL_SHARE[0] * self.area[k] <= counts[k] <= FULL_SHARE[1] * self.area[k]
            if seen and (whole or not near_hand):  # beside the hand only a whole, clean disc counts
                if k == self._wide:
                    self.vel[k] = 0.0  # found again far from where it was lost: its speed is not known yet
                elif dt > 0:
                    self.vel[k] = 0.5 * self.vel[k] + 0.5 * (est[k] - self.pos[k]) / dt
                self.pos[k] = est[k]
                self._record(c, k, est[k].copy(), False, share=float(counts[k] / self.area[k]))
            else:
                self._record(c, k, None, True, near_hand)  # not located: under the hand, or gone

    def _read_pen(self, t: float, image: Any) -> None:
        """The pen's direction behind the struck coin in a frame just before the flick (aiming.py)."""
        if self.strike_t is None or not self.strike_t - AIM_S <= t < self.strike_t:
            return
        k = self.ids.index(self.struck)
        discs = [(self.pos[j], float(self.r_px[j])) for j in range(len(self.ids))]
        reading = pen_direction(image, self._bg, self.pos[k], float(self.r_px[k]), discs)
        if reading is not None:
            self._pen.append(reading)

    def pen_aim(self) -> Any:
        """The way the pen pushed the struck coin, as a unit vector in table mm (None: not seen)."""
        px = agreed_direction(self._pen)
        if px is None:
            return None
        k = self.ids.index(self.struck)
        ends = self.calibration.to_table(np.array([self.start_px[k], self.start_px[k] + px * 10.0]))
        step = ends[1] - ends[0]
        return step / max(float(np.hypot(*step)), 1e-9)

    def _search_box(self, predicted: Any, reach: Any, active: Any, shape: Any) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1): the part of the frame around the coins looked for (all of it while the
        struck coin is lost)."""
        h, w = shape[:2]
        if self._wide is not None:
            return 0, 0, w, h
        box = predicted[active]
        x0 = int(max(0, np.floor((box[:, 0] - reach[active]).min())))
        y0 = int(max(0, np.floor((box[:, 1] - reach[active]).min())))
        x1 = int(min(w, np.ceil((box[:, 0] + reach[active]).max()) + 1))
        y1 = int(min(h, np.ceil((box[:, 1] + reach[active]).max()) + 1))
        return x0, y0, x1, y1

    def _struck_lost(self, t: float) -> int | None:
        """The struck coin's index when it was lost after the flick (the palm hid its launch): then
        it is looked for in the whole frame (relocating.py), if every look-alike is accounted for."""
        k = self.ids.index(self.struck)
        if self.strike_t is None or t < self.strike_t or not self.px[self.struck] or self.px[self.struck][-1] is not None:
            return None
        return k

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
            for k in lost:  # the whole frame only when no look-alike is lost too (it could be either)
                counts[k], est[k] = self._search_lost(k, free, need[k], est[k], wide=k == self._wide and len(lost) == 1)
        return est, counts

    def _search_lost(self, k: int, free: Any, need: float, fallback: Any, *, wide: bool) -> tuple[float, Any]:
        """(pixels, centre) of coin ``k`` not found where predicted: among its look's pixels no found
        coin owns, near where it was last (a coin at rest just hit jumps a radius in one frame), or
        anywhere in the frame while it is the struck coin lost after the flick (relocating.py)."""
        if wide:
            return find_lone_disc(free, self.r_px[k], self.size, need, fallback)
        centre = self.pos[k]
        mine = free[:0]
        for step in range(4):
            reach = self.r_px[k] * (2.6 if step == 0 else 1.0)
            mine = free[((free - centre) ** 2).sum(axis=1) < reach * reach]
            if not len(mine):
                break
            centre = mine.mean(axis=0)
        count = float(len(mine))
        return (count, centre) if count >= need else (count, fallback)

    def _record(self, c: str, k: int, p: Any, hidden: bool, covered: bool = False, share: float = 1.0) -> None:
        self.px[c].append(p)
        self.hidden[c].append(hidden)
        self.covered[c].append(covered)
        self.share[c].append(share)

    # --- the result ------------------------------------------------------------------------------

    def result(self) -> TrackResult:
        """What the frames fed so far showed (call after the last frame)."""
        if not self.times:
            return TrackResult(coins={}, contacts={}, contacts_confidence=0.0)
        times = np.array(self.times)
        tracks = {c: self._track_mm(c) for c in self.ids}
        coins = {c: self._coin_result(c, tracks[c], times) for c in self.ids}
        for c, res in coins.items():  # gone, but nothing came near to set it moving (leaving.py)
            if res.left_surface and res.rest is None and not could_be_hit(
                    c, self.struck, tracks, times, MAX_FLICK_MM_S):
                res.left_surface, res.flight_confidence = False, 0.0
        self._refind_lost(coins, tracks)
        self._identities(coins)  # (after: a coin found again lying tilted was not found flat)
        for c, res in coins.items():  # a coin that left over a rail touches nothing on the table after
            if res.left_surface and res.flight_confidence >= 0.99:
                seen = np.nonzero(~np.isnan(tracks[c][:, 0]))[0]
                tracks[c][seen[-1] + 1:] = GONE_MM
        still = {c: stayed_put(tracks[c]) for c in self.ids}  # seen at the end where it lay at the start
        contacts, conf, why = self._contacts(tracks, times, still)
        if self.unseated:  # where they were before the flick is unknown: so is whatever touched them
            unmoved = self._unseen_watch.still()  # ... unless nothing came near where the table knew them
            for pair in itertools.combinations(self.ids, 2):
                unseen = self.unseated & set(pair)
                if unseen and unseen <= unmoved:
                    contacts[pair] = 0.0  # nothing came within a coin's width of it
                elif unseen:
                    contacts[pair], why[pair] = 0.5, "not found before the flick"
            for c in unmoved:  # on the table or not, it did not die or fly in this strike
                coins[c].unmoved, coins[c].flight_confidence = True, 0.995
            conf = math.prod(max(q, 1.0 - q) for q in contacts.values())
        untouched_lie_flat(coins, contacts, still, self.struck)  # nothing reached them (undisturbed.py)
        settled = all(r.rest is None or r.rest_confidence > 0.5 for r in coins.values())
        return TrackResult(coins=coins, contacts=contacts, contacts_confidence=conf, frames=len(self.times),
                           settled=settled, undecided=why)

    def _refind_lost(self, coins: dict[str, CoinResult], tracks: dict[str, Any]) -> None:
        """A coin not seen at rest, found in the last frame where only it can be (lost.py): its rest
        is known, and its track ends there (so its reach while hidden ends there too)."""
        lost = [c for c, res in coins.items() if res.rest is None]
        if not lost or self._last_image is None:
            return
        held = {c: res.rest for c, res in coins.items() if res.rest is not None}
        for c, at in refind_lost(self._last_image, self.calibration, self.coins, lost, held,
                                 params=self.params).items():
            left = coins[c].left_surface  # the tracker saw it go: a coin lying here says otherwise, so ask
            coins[c] = replace(coins[c], rest=at, rest_confidence=0.999, left_surface=False, not_flat=False,
                               flight_confidence=0.0 if left else 0.995)
            tracks[c][-1] = at

    def _track_mm(self, c: str) -> Any:
        """(frames, 2) table mm with NaN where the coin was not located."""
        out = np.full((len(self.times), 2), np.nan)
        if c in self.unseated:  # never found before the flick: where it was is unknown throughout
            return out
        idx = [i for i, p in enumerate(self.px[c]) if p is not None]
        if idx:
            out[idx] = self.calibration.to_table(np.array([self.px[c][i] for i in idx]))
        if self.strike_t is not None:  # nothing moves before the flick: every coin is where it rested
            before = np.array(self.times) < self.strike_t  # (the hand and pen can only blur that)
            # where the frames put it (its median there), not the last known position: a millimetre
            # between the two would be a jump at the flick, read as a kick of a coin at rest
            # ... from the frames that saw it whole where there are some: the hand comes in before
            # the flick, and a palm over part of the disc pulls the centre by millimetres
            whole = before & ~np.isnan(out[:, 0]) & (np.array(self.share[c]) >= WHOLE_SHARE)
            measured = out[whole] if whole.any() else out[before & ~np.isnan(out[:, 0])]
            out[before] = np.median(measured, axis=0) if len(measured) else self.coins[c].at
        return settle_glitches(out)  # a coin at rest around a frame was there in it (glitches.py)

    def _coin_result(self, c: str, track: Any, times: Any) -> CoinResult:
        p = self.params
        r = p.coin_diameter_mm / 2
        ok = ~np.isnan(track[:, 0])
        path = [(float(times[i]), (float(track[i, 0]), float(track[i, 1]))) for i in np.nonzero(ok)[0]]
        occluded = intervals(times, np.array(self.hidden[c]))
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
            heading_out = seen_leaving(path, p.table)  # moving out in its last sightings (leaving.py)
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
        vs, us = foreground(img, self._bg)
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

    def _flat_beside(self, c: str, coins: dict[str, CoinResult]) -> list[tuple[Any, float]]:
        """The coins at rest beside ``c`` (centres a diameter or more from its own, in px): side by
        side, not one on the other, so their pixels are theirs alone."""
        here = coins[c].rest
        out = []
        for j, o in enumerate(self.ids):
            there = coins[o].rest
            if o != c and here is not None and there is not None and self.px[o][-1] is not None and (
                    math.dist(here, there) >= self.params.coin_diameter_mm - 1.0):
                out.append((self.px[o][-1], float(self.r_px[j])))
        return out

    def _identities(self, coins: dict[str, CoinResult]) -> None:
        """Flatness and identity at rest: an elliptic blob is tilted (on another coin); coins that
        share a look must show the sticker dots of their id (docs/camera.md "Identity")."""
        img = self._last_image
        for k, c in enumerate(self.ids):
            res = coins[c]
            if res.rest is None:
                continue
            u, v = self.px[c][-1] if self.px[c][-1] is not None else self.calibration.to_image(np.array([res.rest]))[0]
            ratio, dots = blob_shape(img, self._bg, self._illum, (u, v), self.r_px[k], self.looks[k],
                                     self._flat_beside(c, coins))
            if ratio < TILTED_RATIO:  # on a coin beside it or unseen; else cut by the arm: unknown
                res.not_flat, res.flight_confidence = tilted_reading(c, coins, self.params.coin_diameter_mm)
            elif ratio < FLAT_RATIO:
                res.flight_confidence = min(res.flight_confidence, 0.5)
            twins = [self.ids[j] for j in self._groups[self.group[k]] if j != k]
            if not twins:
                continue
            marks = {self.coins[x].mark for x in twins}
            if self.coins[c].mark not in marks:  # the stickers tell them apart: they must show
                res.identity_confidence = 0.999 if dot_count(dots) == self.coins[c].mark else 0.0
            else:  # look-alikes without distinct stickers: only an unbroken, well-apart track tells
                res.identity_confidence = 0.999 if all(
                    self._kept_apart(c, x) or self._never_moved(c) or self._never_moved(x) for x in twins) else 0.0
        for c, res in coins.items():  # two coins resting one on the other: the upper one is not flat
            for d, other in coins.items():
                if c < d and res.rest and other.rest:
                    gap = math.dist(res.rest, other.rest)
                    if gap < self.params.coin_diameter_mm - 3.0:
                        for x in (res, other):
                            x.flight_confidence = min(x.flight_confidence, 0.5 if not (res.not_flat or other.not_flat) else 0.995)

    def _lone_impact(self, a: str, b: str, per: Any, filled: dict[str, Any], speeds: dict[str, Any],
                     times: Any, tracks: dict[str, Any]) -> bool:
        """While ``a`` and ``b`` were within touching reach, did one of them, at rest, start to move
        with nothing else there to do it: no third coin in reach, not the pen at the flick, no hand
        beside them? Then they touched (a glancing touch barely turns the moving coin). A rail
        turns a moving coin but never starts a resting one."""
        d = self.params.coin_diameter_mm
        reach = d + self.params.contact_band_mm
        dt = float(np.median(np.diff(times))) if len(times) > 1 else 0.0
        for k in (int(i) for i in np.nonzero(per <= reach)[0]):
            lo, hi = max(k - 2, 0), min(k + 3, len(times) - 1)
            for c, partner in ((a, b), (b, a)):
                if self.strike_t is not None and times[lo] < self.strike_t + FLICK_S:
                    continue  # the pen is still on the struck coin, the hand beside its neighbours
                if float(np.hypot(*speeds[c][lo])) > LONE_REST_MM_S or impact(speeds[c], k, dt) <= IMPACT_MM_S:
                    continue  # only a coin at rest that starts to move tells (a moving one's centre wobbles)
                if any(self.covered[x][j] or self._partial[x][j] for x in (c, partner) for j in range(lo, hi + 1)):
                    continue  # the hand or pen beside them, or over part of one: their centres are not trusted
                if self._third_near(c, partner, k, filled, tracks):
                    continue  # a third coin could have done it (or was not seen then)
                return True
        return False

    @staticmethod
    def _wobbling(speed: Any, k: int) -> bool:
        """Was the coin already moving around interval ``k`` and changed by less than a moving coin's
        centre wobbles (motion blur: up to ~430 mm/s with nothing there, impacts.MOVING_KICK_MM_S)?
        Then its change is no kick: two coins sliding side by side after one push both "changed"."""
        lo = max(k - 2, 0)
        return float(np.hypot(*speed[lo])) >= REST_MM_S and velocity_change(speed, k) <= MOVING_KICK_MM_S

    def _third_near(self, a: str, b: str, k: int, filled: dict[str, Any], tracks: dict[str, Any]) -> bool:
        """Was a third coin within touching reach of ``a`` or ``b`` around frame ``k`` (or not seen)?"""
        reach = self.params.coin_diameter_mm + self.params.contact_band_mm + 2.0
        lo, hi = max(k - 2, 0), min(k + 3, len(self.times) - 1)
        for o in self.ids:
            if o in (a, b):
                continue
            if filled[o] is None or np.isnan(tracks[o][lo:hi + 1, 0]).any():
                return True
            for c in (a, b):
                if filled[c] is not None and np.hypot(*(filled[o][lo:hi + 1] - filled[c][lo:hi + 1]).T).min() < reach:
                    return True
        return False

    def _flick_seen(self, track: Any, times: Any) -> bool:
        """Was the struck coin seen in two frames in a row just after the flick (its fastest)?"""
        if self.strike_t is None:
            return False
        window = (times >= self.strike_t) & (times <= self.strike_t + FLICK_SEEN_S)
        seen = ~np.isnan(track[:, 0]) & window
        return bool((seen[1:] & seen[:-1]).any())

    def _kept_apart(self, a: str, b: str) -> bool:
        """Two coins that look alike kept their ids (docs/camera.md "Identity", by continuity): in
        every frame at least one of them was located, never near the other; and while one was
        hidden, the other stayed away from where it was last seen and where it came back, so the
        blob that came back can only be the hidden one (the other was followed all along)."""
        pa, pb = self.px[a], self.px[b]
        far = 2 * self.r_px[self.ids.index(a)] + 8.0
        for p, q in zip(pa, pb, strict=True):
            if p is None and q is None:
                return False  # both hidden at once: they may have swapped
            if p is not None and q is not None and math.dist(p, q) <= far:
                return False
        for mine, other in ((pa, pb), (pb, pa)):
            for lo, hi in _hidden_runs(mine):
                ends = [mine[j] for j in (lo - 1, hi) if 0 <= j < len(mine) and mine[j] is not None]
                if not ends:
                    return False  # never seen at all
                for j in range(max(lo - 1, 0), min(hi + 1, len(other))):
                    if other[j] is not None and any(math.dist(other[j], e) <= far for e in ends):
                        return False
        return True

    def _never_moved(self, c: str) -> bool:
        """Located where it lay in every frame it was seen, the last included: a look-alike that came
        near it cannot have taken its id (a coin that hit it would have moved it, and a tracker
        that swapped them would show it leaving its spot)."""
        k = self.ids.index(c)
        seen = [p for p in self.px[c] if p is not None]
        if not seen or self.px[c][-1] is None:
            return False
        home = self.start_px[k]
        return all(math.dist(p, home) <= STILL_RADII * self.r_px[k] for p in seen)

    def _flicking(self, times: Any) -> Any:
        """Per frame interval: is it at the flick? The hand and pen there can pull a coin's centre by
        millimetres (a palm on the table's colour is not seen), so overlapping discs prove nothing
        in it; a touch there needs a kick."""
        if self.strike_t is None:
            return np.zeros(max(len(times) - 1, 0), dtype=bool)
        return (times[1:] >= self.strike_t) & (times[:-1] < self.strike_t + FLICK_S)

    def _distrust_started_off(self, tracks: dict[str, Any], out: dict[tuple[str, str], float],
                              why: dict[tuple[str, str], str]) -> None:
        """Every pair with a coin whose track began away from where it lay is undecided."""
        for c in self._started_off(tracks):
            for pair in [(a, b) for a, b in itertools.combinations(self.ids, 2) if c in (a, b)]:
                out[pair], why[pair] = 0.5, "track began off its spot"

    def _started_off(self, tracks: dict[str, Any]) -> list[str]:
        """Coins whose track before the flick lies more than ``START_OFF_MM`` from where the table
        knew they lay: the tracker followed something else (the arm, for a pale coin), so nothing
        its track says about touches holds."""
        spots = {c: spot_before_flick(tracks[c], self.times, self.strike_t) for c in self.ids}
        return [c for c, spot in spots.items() if spot is not None
                and float(np.hypot(*(spot - np.asarray(self.coins[c].at, dtype=float)))) > START_OFF_MM]

    def _flick_kick_unproven(self, a: str, b: str, k: int, times: Any, still: Mapping[str, bool]) -> bool:
        """A kick of the struck coin and a neighbour read around the flick (frames k-2 … k+3), the
        neighbour found at the end where it lay: at the flick the struck coin always changes course
        and a palm over part of the neighbour pulls its centre, while a neighbour really hit there
        leaves its spot (one backed by a rail or a coin may not: then the pair is asked)."""
        if self.strike_t is None or self.struck not in (a, b):
            return False
        lo, hi = times[max(k - 2, 0)], times[min(k + 3, len(times) - 1)]
        return hi >= self.strike_t and lo < self.strike_t + FLICK_S and still[b if a == self.struck else a]

    def _contacts(self, tracks: dict[str, Any], times: Any, still: Mapping[str, bool]
                  ) -> tuple[dict[tuple[str, str], float], float, dict[tuple[str, str], str]]:
        """Pairs that touched: closest approach along the (linearly joined) paths, and whether both
        coins' motion changed there. Frames where a coin was not seen make a near pair undecided.
        ``still``: per coin, seen at the end where it lay at the start (undisturbed.py)."""
        d = self.params.coin_diameter_mm
        band = self.params.contact_band_mm
        filled = {c: fill(tr) for c, tr in tracks.items()}
        around = {c: _seen_around(tr) for c, tr in tracks.items()}
        speeds = {c: velocities(filled[c], times) for c in self.ids}
        v_max = UNSEEN_SPEED_MM_S
        for tr in tracks.values():  # no coin is faster than the fastest seen (energy only drops)
            ok = ~np.isnan(tr[:-1, 0]) & ~np.isnan(tr[1:, 0])
            if ok.any():
                step = np.hypot(*(tr[1:] - tr[:-1])[ok].T) / np.maximum(np.diff(times)[ok], 1e-6)
                v_max = max(v_max, float(step.max()) * 1.2)
        flick_seen = self._flick_seen(tracks[self.struck], times)
        hidden = explain_gaps(tracks, times, touch=d + band, radius_mm=d / 2, table=self.params.table,
                              v_max=v_max if flick_seen else MAX_FLICK_MM_S, struck=self.struck,
                              strike_t=self.strike_t)  # what the frames after a gap prove (occlusion.py)
        if not flick_seen:  # the fastest moment went unseen: the path after it, or the table's limit, bounds it
            v_max = max(v_max, 1.2 * hidden.flick_speed) if hidden.flick_speed else MAX_FLICK_MM_S
        self._partial = {c: partly_hidden(self.share[c], tracks[c]) for c in self.ids}  # the palm over part of it
        slack = {c: interval_slack(centre_slack_mm(self.share[c], self._partial[c], d / 2)) for c in self.ids}
        out: dict[tuple[str, str], float] = {}
        why: dict[tuple[str, str], str] = {}
        aim = self.pen_aim()
        paths = StrikePaths(tracks, filled, speeds, times, self.covered, d + band + 2.0, d / 2, self.params.table,
                            v_max, self.strike_t, self.struck, aim)
        flicking = self._flicking(times)
        left = flicked_away(tracks, times, self.struck, self.strike_t, diameter_mm=d, reach_mm=paths.reach_mm,
                            table=self.params.table, aim=aim)  # neighbours it left at once (separating.py)
        first_push = {c: pushed_only_by(paths, c, paths.reach_mm, self.coins[c].at) for c in self.ids}
        for i, a in enumerate(self.ids):
            for b in self.ids[i + 1:]:
                pa, pb = filled[a], filled[b]
                if pa is None or pb is None:
                    out[(a, b)] = 0.5
                    why[(a, b)] = "never seen"
                    continue
                # positive evidence only from frames where both were seen (a gap's straight fill
                # is no path): an interval counts when both coins were seen two frames around it
                start = left.get(b if a == self.struck else a, 0) if self.struck in (a, b) else 0
                valid = around[a] & around[b]
                valid[:start] = False  # the flick itself is judged by separating.py
                per = np.where(valid, approaches(pa, pb), np.inf)
                k = int(per.argmin())
                dmin = float(per[k])
                # overlapping discs prove a touch only in frames actually seen, not carried on
                # ... and only by more than a partly hidden disc's centre can be off (occlusion.py)
                sampled = sampled_approaches(pa, pb) + slack[a] + slack[b]
                seen = valid & ~flicking if self.struck not in (a, b) else valid  # the pen pushes the struck coin only
                overlap = float(np.where(seen, sampled, np.inf).min()) < d - band
                kick = (velocity_change(speeds[a], k) > KICK_MM_S and velocity_change(speeds[b], k) > KICK_MM_S
                        and not self._third_near(a, b, k, filled, tracks)  # a third coin may have hit both
                        and not any(self._wobbling(speeds[c], k) for c in (a, b)))
                if dmin <= d + band and not kick:
                    kick = self._lone_impact(a, b, per, filled, speeds, times, tracks) or kicked_between(
                        paths, a, b, k) or turned_by(paths, a, b, k) or turned_by(paths, b, a, k) or (
                        headed_into(paths, a, b, k) or headed_into(paths, b, a, k))
                    # ... or kicked, or turned aside, when only the other was there to do it (turning.py),
                    # or one slid straight at the other with nothing else in its way (heading.py)
                kick = kick and not self._flick_kick_unproven(a, b, k, times, still)
                pushed = first_push.get(a) == b or first_push.get(b) == a or (  # only one could have (first_push.py)
                    self.struck in (a, b) and pushed_into(paths, b if a == self.struck else a))  # the pen's line (heading.py)
                if (dmin <= d + band and (kick or overlap)) or pushed:
                    p = 0.995  # they met, and both changed course right there (or the paths overlap)
                elif hidden.could_touch(a, b, filled, times, d + band, v_max, start=start) or (
                        dmin > d + band and float(approaches(pa, pb)[start:].min()) <= d + band):
                    # one of them was not seen while the other was within its reach, or they came near
                    # only in frames not seen all around (the hand came just after): no proof either way
                    p = 0.5
                    why[(a, b)] = "hidden"
                elif dmin > d + band:
                    p = 0.0 if dmin > d + 2 * band else 0.01
                else:
                    p = 0.5
                    why[(a, b)] = f"closest {dmin:.1f} mm, no impact"
                if p > 0.0:
                    out[(a, b)] = p
        self._distrust_started_off(tracks, out, why)
        clear_untouched(out, why, still, self.struck)  # groups that nothing reached (undisturbed.py)
        conf = math.prod(max(p, 1.0 - p) for p in out.values())
        return out, conf, why


STILL_RADII = 0.25  # a look-alike located within this many radii of its spot all strike never moved


UNSEEN_LOOK = 99.0  # log-ratio no pixel has: an unseated coin owns none


LOOK_SAME = 0.18  # log-ratio distance under which two coins count as one colour (identity by stickers)




TAIL_FRAMES = 3  # the last frames decide where coins rest


TILTED_RATIO = 0.85  # blob minor/major axis below this: a tilted coin (on another coin)


FLAT_RATIO = 0.9


def _hidden_runs(px: list[Any]) -> list[tuple[int, int]]:
    """(first, one past last) frame index of each run of frames where a coin was not located."""
    runs: list[tuple[int, int]] = []
    start: int | None = None
    for i, p in enumerate([*px, (0.0, 0.0)]):
        if p is None and start is None:
            start = i
        elif p is not None and start is not None:
            runs.append((start, i))
            start = None
    return runs


def _seen_around(track: Any) -> Any:
    """Per frame interval k: the coin was located in frames k-2 … k+3 (velocities there are real),
    and had not left the table (no approach is measured towards where a gone coin is put)."""
    seen = ~np.isnan(track[:, 0])
    n = len(seen)
    out = np.zeros(max(n - 1, 1), dtype=bool)
    for k in range(n - 1):
        out[k] = bool(seen[max(k - 2, 0):min(k + 4, n)].all())
    gone = np.nonzero(track[:, 0] == GONE_MM[0])[0]
    if len(gone):
        out[max(int(gone[0]) - 1, 0):] = False
    return out


FULL_EVERY = 6  # every this many frames every coin is looked for, moving or not


STILL_PX = 0.05  # pixels a frame below which a coin counts as still


FULL_SHARE = (0.85, 1.25)  # a coin's matched pixels, as a share of its disc, when nothing covers it


HAND_SHARE = 0.12  # "other" pixels around a coin, as a share of its area, that mean the hand covers it


AIM_S = 0.05  # the frames this long before the flick show the pen behind the struck coin (aiming.py)
MAX_FLICK_MM_S = 5000.0  # the virtual table's limit (sensors/virtual/physics.py); a finger does ~3 m/s
FLICK_SEEN_S = 0.06  # the struck coin must be seen moving this soon after the flick to bound speeds
LONE_REST_MM_S = 30.0  # below this a coin counts as at rest for the lone-impact rule
IMPACT_MM_S = 80.0  # a change of velocity beyond friction this large: something hit the coin
KICK_MM_S = 120.0  # a change of speed this large within two frames: an impact
START_OFF_MM = 2.0  # a track before the flick this far from the known rest followed something else


__all__ = ["CoinResult", "StrikeTracker", "TrackParams", "TrackResult", "bind_coins"]
