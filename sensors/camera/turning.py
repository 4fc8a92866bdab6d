"""A moving coin that turned beside another, with nothing else there to turn it, touched it
(docs/camera.md, CAM-2 contacts: "Turned aside").

A glancing touch barely changes either coin's speed: the coin passing by keeps most of its speed
and the one brushed moves less than a millimetre, so no kick shows. But the touch turns the passing
coin: its path bends away from the other coin. Friction only slows a sliding coin along its path,
never turns it; only a rail, the hand or pen, or another coin can. So a coin seen sliding on one
straight line, then on another, bent sideways away from a coin within the contact band, with no
rail, no hand and no third coin in reach, was turned by that coin. Each leg is a least-squares line
over several frames, so a blurred centre's one-frame wobble (up to ~430 mm/s) is averaged out; the
bend must exceed several times the legs' own scatter.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from sensors.camera.impacts import FLICK_S, StrikePaths, near_rail, out_of_reach
from sensors.camera.paths import fit_leg

LEG_FRAMES = 6  # frames on each side of the bend fitted with a straight line
MOVING_MM_S = 150.0  # the coin was sliding at least this fast before the bend
TURN_MM_S = 150.0  # the bend's sideways change of velocity: at least this ...
TURN_SIGMAS = 6.0  # ... and this many times the legs' scatter (each leg's slope error)
LEG_STRAIGHT_MM = 1.0  # every sighting of a leg this close to its line: nothing else bent it
AWAY_DEG = 30.0  # the sideways push points away from the other coin, within this


def turned_by(paths: StrikePaths, mover: str, partner: str, k: int) -> bool:
    """Did ``mover`` bend away from ``partner`` at interval ``k`` (they were within the contact
    band there) with nothing else that turns a coin around? Then ``partner`` touched it."""
    n = len(paths.times)
    lo, hi = k - LEG_FRAMES + 1, k + LEG_FRAMES
    if lo < 0 or hi >= n or paths.strike_t is None or paths.times[lo] < paths.strike_t + FLICK_S:
        return False  # the pen may still be on the struck coin
    track = paths.tracks[mover]
    if np.isnan(track[lo:hi + 1, 0]).any() or paths.hand_near((mover, partner), lo, hi):
        return False
    before, after = _leg(paths.times, track, lo, k), _leg(paths.times, track, k + 1, hi)
    if before is None or after is None:
        return False
    (v0, err0), (v1, err1) = before, after
    speed = float(np.hypot(*v0))
    if speed < MOVING_MM_S:
        return False
    along = v0 / speed
    change = v1 - v0
    sideways = change - float(change @ along) * along
    size = float(np.hypot(*sideways))
    if size < max(TURN_MM_S, TURN_SIGMAS * math.hypot(err0, err1)):
        return False
    if not _away_from(paths, mover, partner, k, along, sideways / size):
        return False
    if near_rail(paths, mover, lo, hi):
        return False
    return all(out_of_reach(paths, o, mover, lo, hi) for o in paths.tracks if o not in (mover, partner))


def _leg(times: Any, track: Any, i0: int, i1: int) -> tuple[Any, float] | None:
    """(velocity, its standard error) of the straight line through frames ``i0`` … ``i1``; None
    when the sightings stray from one line (the leg itself bent)."""
    leg = fit_leg(times, track, i0, i1, LEG_STRAIGHT_MM)
    return None if leg is None else (leg.velocity, leg.error)


def _away_from(paths: StrikePaths, mover: str, partner: str, k: int, along: Any, push: Any) -> bool:
    """Does the sideways push point away from ``partner`` (its side of the path, at the bend)?"""
    rel = paths.filled[mover][k] - paths.filled[partner][k]  # from the partner to the mover
    side = rel - float(rel @ along) * along
    if float(np.hypot(*side)) < 1e-6:
        return False  # head-on: the kick rules decide
    side = side / float(np.hypot(*side))
    return float(push @ side) > math.cos(math.radians(AWAY_DEG))
