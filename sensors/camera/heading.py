"""A coin sliding straight at a coin at rest, with nothing else it could meet first, touched it
(docs/camera.md, CAM-2 contacts: "Headed into").

A fast coin is blurred and crosses a coin's width in two or three frames, so the frames often
never show the two discs touching, and a coin backed by a rail or by its neighbours hardly moves
when hit: no kick shows. But a sliding coin goes straight (friction only slows it), and only a
rail, the hand or another coin can turn or stop it. So a coin seen sliding on one straight line
towards a coin at rest, fast enough that friction cannot stop it before they meet, with every
other coin and every rail farther along its way and nothing else moving near, met that coin.

The struck coin's run counts only after the pen has gone, or when it goes the pen's way (read
before the flick, aiming.py): a pen still on the coin pushes it on along that line, never off it.
The prediction is checked against what the frames show next: a coin seen carrying on along the
same line past the meeting point did not meet it (the fit was wrong), and the pair stays open.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from sensors.camera.impacts import FLICK_S, StrikePaths
from sensors.camera.paths import FRICTION_MM_S2, GONE_MM, Leg, fit_leg, segment_min

LEG_FRAMES = 5  # sightings of the mover's straight run before the meeting, fitted with a line
STRAIGHT_MM = 1.0  # every sighting of that run this close to its line
MOVING_MM_S = 150.0  # the mover slid at least this fast
AIM_MARGIN_MM = 2.0  # the line passes this much inside touching distance, beyond the aim's error
ORDER_MARGIN_MM = 3.0  # anything else is met at least this much farther along the line
AIM_SIGMAS = 4.0  # the aim's error: this many standard errors of the line's direction, ...
POSITION_MM = 0.5  # ... plus this error of the fitted centre and the target's centre
REACH_MM = 60.0  # the meeting is at most this far along the line from the last sighting used
RAIL_GAP_MM = 1.0  # a coin's edge this near a rail may be turned by it
STILL_MM = 0.6  # the target stayed within this of one spot through the mover's run
AIM_AGREE_DEG = 5.0  # a run this close to the pen's way (aiming.py) is not turned by the pen
AIM_ERROR_DEG = 6.0  # the pen's line read before the flick is good to this (aiming.py: frames agree within 6°)
PUSH_REACH_MM = 3.0  # pushed into a coin it lay against: the meeting at most this far along the pen's line
LEFT_MM = 3.0  # the struck coin seen this far from its spot after the flick: the flick moved it
CARRIED_FRAMES = 2  # sightings after the meeting on the same line: the mover went on, did not meet it


def headed_into(paths: StrikePaths, mover: str, target: str, k: int) -> bool:
    """Did ``mover``, sliding straight, meet ``target`` (at rest) around interval ``k``? Tries runs
    ending a few frames before ``k`` (the frames at the meeting may show blurred, merged discs)."""
    for end in range(k + 1, k - 3, -1):
        verdict = _met_from(paths, mover, target, end)
        if verdict is not None:
            return verdict
    return False


def _met_from(paths: StrikePaths, mover: str, target: str, end: int) -> bool | None:
    """From the mover's run ending at frame ``end``: True (it met ``target``), False (it cannot be
    told, or the frames after contradict it), None (no usable run ends here: try an earlier one)."""
    times = paths.times
    start = end - LEG_FRAMES + 1
    if start < 0 or end >= len(times) or paths.strike_t is None or times[start] < paths.strike_t:
        return None
    if paths.hand_near((mover, target), start, end):
        return None
    leg = fit_leg(times, paths.tracks[mover], start, end, STRAIGHT_MM)
    if leg is None:
        return None
    speed = float(np.hypot(*leg.velocity))
    if speed < MOVING_MM_S:
        return None
    here = leg.at(float(times[end]))
    along = leg.velocity / speed
    if mover == paths.struck and times[end] < paths.strike_t + FLICK_S and not _along_aim(paths.aim, along):
        return None  # the pen may still be on the struck coin, pushing it who knows which way
    spot = _resting_spot(paths, target, start, end)
    if spot is None:
        return None  # the target was moving by then (the meeting itself, maybe): try an earlier run
    slack = AIM_SIGMAS * leg.error / speed  # the direction's error (radians)
    rail, bend = _rail_along(here, along, paths.radius_mm + RAIL_GAP_MM, paths.table, slack)
    distance = float(np.hypot(*(spot - here)))
    meet = _meeting(here, along, spot, paths.radius_mm * 2, (slack + bend) * distance + 2 * POSITION_MM)
    if meet is None:
        return False  # a glance, or not its way: the line does not tell
    if meet <= 0:
        return None  # the run's last sighting is at the meeting already: an earlier run tells
    if meet > REACH_MM or not _carries_to(leg, float(times[end]), meet):
        return False  # too far to carry the line on, or friction could stop it before
    if rail < meet + ORDER_MARGIN_MM or not _nothing_else_first(paths, mover, target, here, along, meet, speed, end):
        return False
    return not _carried_on(paths, mover, leg, along, end, meet / speed)


def _carries_to(leg: Leg, t_end: float, meet: float) -> bool:
    """Friction cannot stop the mover short of the meeting, ``meet`` mm on from the run's end. Its
    speed there is taken low: the line's speed is the run's mean (at its middle), friction has slowed
    it since, and the speed has its error. A coin slowing to a stop beside another often ends a
    fraction of a millimetre short of it."""
    slowest = float(np.hypot(*leg.velocity)) - FRICTION_MM_S2 * (t_end - leg.t_centre) - AIM_SIGMAS * leg.error
    return slowest > 0 and meet + 2 * POSITION_MM <= slowest * slowest / (2 * FRICTION_MM_S2)


def _along_aim(aim: Any, along: Any) -> bool:
    """The run goes the pen's way (within ``AIM_AGREE_DEG``): a pen still on the coin only pushes it
    on along its line, so it cannot turn it off the line."""
    return aim is not None and float(np.dot(aim, along)) > math.cos(math.radians(AIM_AGREE_DEG))


def _resting_spot(paths: StrikePaths, coin: str, lo: int, hi: int) -> Any:
    """Where ``coin`` lay through frames ``lo`` … ``hi``, when it was seen still there throughout."""
    seg = paths.tracks[coin][lo:hi + 1]
    if np.isnan(seg).any():
        return None
    spot = seg[-1]
    if float(np.hypot(*(seg - spot).T).max()) > STILL_MM:
        return None
    return spot


def _meeting(here: Any, along: Any, spot: Any, diameter: float, error: float) -> float | None:
    """How far along the line from ``here`` the mover's centre comes to one diameter from ``spot``
    (≤ 0: it is there already), when the line passes well inside that (a sure hit, not a glance);
    None otherwise."""
    rel = spot - here
    ahead = float(rel @ along)
    side = abs(float(rel[0] * along[1] - rel[1] * along[0]))
    if ahead <= 0 or side + error > diameter - AIM_MARGIN_MM:
        return None
    return ahead - math.sqrt(diameter * diameter - side * side)


def _nothing_else_first(paths: StrikePaths, mover: str, target: str, here: Any, along: Any, meet: float,
                        speed: float, end: int) -> bool:
    """Every other coin lies farther along the line than the meeting, and no coin
    that moves (or is not seen) could come into the way or push the target first."""
    d = paths.radius_mm * 2
    lo = end - LEG_FRAMES + 1
    time_left = meet / speed + float(np.median(np.diff(paths.times)))
    for o, track in paths.tracks.items():
        if o in (mover, target):
            continue
        seg = track[lo:end + 1]
        if (seg == GONE_MM).all():
            continue  # it left the table
        spot = _resting_spot(paths, o, lo, end)
        if spot is None:  # moving, or not seen: it must be far from the mover's way and the target
            last = seg[~np.isnan(seg[:, 0])]
            if not len(last):
                return False
            near = float(segment_min((here - last[-1])[None], (along * meet)[None])[0])
            room = 2 * d + paths.v_max * time_left
            if min(near, float(np.hypot(*(last[-1] - paths.tracks[target][end])))) < room:
                return False
            continue
        if _in_the_way(here, along, spot, d, meet):
            return False
    return True


def _in_the_way(here: Any, along: Any, spot: Any, d: float, meet: float, side_error: float = 0.0) -> bool:
    """Would a coin lying at ``spot`` be met (within ``ORDER_MARGIN_MM``) no farther along the line
    from ``here`` than the meeting ``meet`` mm on? ``side_error``: how far off the line it may
    really lie nearer (the line's direction error at that distance). Coins behind the mover are not."""
    rel = spot - here
    ahead = float(rel @ along)
    side = abs(float(rel[0] * along[1] - rel[1] * along[0])) - side_error
    if ahead + d <= 0 or side >= d + ORDER_MARGIN_MM:
        return False
    first = ahead - math.sqrt(max((d + ORDER_MARGIN_MM) ** 2 - max(side, 0.0) ** 2, 0.0))
    return first < max(meet, 0.0) + ORDER_MARGIN_MM


def _rail_along(here: Any, along: Any, r: float, table: tuple[float, float], slack: float) -> tuple[float, float]:
    """How far along the line from ``here`` a coin's centre comes within ``r`` of a rail it moves
    towards, and how far off its line a rail it slides along (within ``slack``, the direction's
    error, of parallel) may bend it by the meeting, per mm of the way: a rail only pushes a coin
    away from itself, by at most twice the angle it came in at."""
    w, length = table
    best, bend = math.inf, 0.0
    for pos, step, top in ((float(here[0]), float(along[0]), w), (float(here[1]), float(along[1]), length)):
        for gap, towards in ((pos - r, -step), (top - r - pos, step)):
            if towards > slack:
                best = min(best, max(gap, 0.0) / towards)
            elif towards > -slack and gap < 1.0:
                bend = max(bend, 2 * slack)
    return best, bend


def _carried_on(paths: StrikePaths, mover: str, leg: Leg, along: Any, end: int, dt_meet: float) -> bool:
    """Was the mover seen after the meeting still on its line (``CARRIED_FRAMES`` sightings within
    ``STRAIGHT_MM`` of it, at least as far along as the line's speed takes it, less friction)?
    Then it did not meet anything: the prediction was wrong."""
    times, track = paths.times, paths.tracks[mover]
    t_meet = float(times[end]) + dt_meet
    after = [j for j in range(end + 1, len(times)) if times[j] > t_meet and not np.isnan(track[j, 0])][:CARRIED_FRAMES]
    if len(after) < CARRIED_FRAMES:
        return False
    for j in after:
        off = track[j] - leg.at(float(times[j]))
        if abs(float(off[0] * along[1] - off[1] * along[0])) > STRAIGHT_MM:
            return False
        lag = -float(off @ along)
        dt = float(times[j]) - float(times[end])
        if lag > FRICTION_MM_S2 * dt * dt / 2 + STRAIGHT_MM:
            return False
    return True


def pushed_into(paths: StrikePaths, target: str) -> bool:
    """Did the pen push the struck coin straight into ``target``, lying against it? The pen is a
    cue (CW-1.2): it pushes the coin along its own line, read before the flick (aiming.py, to
    ``AIM_ERROR_DEG``). When that line runs well inside touching distance of a coin within
    ``PUSH_REACH_MM`` of the meeting, with every other coin and rail farther along it, the struck
    coin, once it moved, met that coin — the frames need not show it (the hand hides the flick,
    and a neighbour backed by a rail does not move)."""
    aim, struck = paths.aim, paths.struck
    if aim is None or paths.strike_t is None:
        return False
    spots = paths.spots
    here, spot = spots[struck], spots[target]
    if here is None or spot is None or not _left_spot(paths, here):
        return False
    slack = math.sin(math.radians(AIM_ERROR_DEG))
    d = paths.radius_mm * 2
    meet = _meeting(here, aim, spot, d, slack * float(np.hypot(*(spot - here))) + 2 * POSITION_MM)
    if meet is None or meet > PUSH_REACH_MM:
        return False
    rail, bend = _rail_along(here, aim, paths.radius_mm + RAIL_GAP_MM, paths.table, slack)
    if rail < max(meet, 0.0) + ORDER_MARGIN_MM or bend:
        return False
    for o, p in spots.items():
        if o in (struck, target):
            continue
        if p is None:
            return False
        if _in_the_way(here, aim, p, d, meet, slack * float(np.hypot(*(p - here)))):
            return False
    return True


def _left_spot(paths: StrikePaths, here: Any) -> bool:
    """The struck coin was seen after the flick more than ``LEFT_MM`` from where it lay: the flick
    moved it."""
    track, times = paths.tracks[paths.struck], paths.times
    after = (np.asarray(times) > paths.strike_t) & ~np.isnan(track[:, 0])
    return bool(after.any() and float(np.hypot(*(track[after] - here).T).max()) > LEFT_MM)


__all__ = ["headed_into", "pushed_into"]
