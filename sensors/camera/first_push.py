"""A coin set moving with only one coin that could have reached it was touched by that coin
(docs/camera.md, CAM-2 contacts: "Only one could have pushed it").

A coin at rest moves only when something pushes it: a coin, or the pen (which pushes only the
struck coin). The hand and pen often hide the struck coin's neighbour just when it is hit, so no kick
is seen. But a neighbour that was at home in one frame and well away from it later was pushed in
between, and its first push came where it lay. Every coin that could have come within touching reach
of that spot by then — along its seen path, or while unseen as far as the fastest speed allows — is
a candidate (a coin resting beside it is one too: a push can pass through a row of coins). When
exactly one coin is a candidate, it touched the neighbour. The neighbour must also end away from
home, and its track must start where the table knew it lay: a track that wandered off (the arm
taken for a pale coin) proves no push.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sensors.camera.impacts import StrikePaths
from sensors.camera.paths import approaches, could_meet_unseen

HOME_MM = 1.5  # seen this close to where it lay: still at home
AWAY_MM = 5.0  # ... this far from it: it was pushed (a palm over part of a disc pulls its centre < 4 mm)
KNOWN_MM = 2.0  # the track's spot before the flick within this of the known rest (finding's error ~1.5 mm)


def pushed_only_by(paths: StrikePaths, coin: str, reach_mm: float, known_at: Any) -> str | None:
    """The one coin that can have given ``coin`` (not the struck one) its first push, or None when
    it was never pushed, or more than one coin could have. ``known_at``: where the table knew it
    lay before the strike; a track whose spot before the flick disagrees followed something else."""
    if coin == paths.struck:
        return None
    track = paths.tracks[coin]
    home = paths.spots[coin]
    if home is None or float(np.hypot(*(home - np.asarray(known_at, dtype=float)))) > KNOWN_MM:
        return None
    away = _first_away(track, home)
    if away is None or not _ends_away(track, home):
        return None
    spot = np.tile(home, (away + 1, 1))
    times = paths.times[:away + 1]
    candidates = [o for o in paths.tracks if o != coin and _could_reach(paths, o, spot, times, reach_mm)]
    return candidates[0] if len(candidates) == 1 else None


def _first_away(track: Any, home: Any) -> int | None:
    """The first sighting ``AWAY_MM`` from home after the last one at home."""
    seen = ~np.isnan(track[:, 0])
    dist = np.where(seen, np.hypot(*(track - home).T), np.nan)
    at_home = np.nonzero(seen & (dist < HOME_MM))[0]
    if not len(at_home):
        return None
    later = np.nonzero(seen & (dist > AWAY_MM) & (np.arange(len(track)) > at_home.max()))[0]
    return int(later[0]) if len(later) else None


def _ends_away(track: Any, home: Any) -> bool:
    """Its last sighting is away from home too: a pushed coin never slides back to where it lay,
    while a track that wandered off (the arm taken for a pale coin) comes back to it."""
    seen = np.nonzero(~np.isnan(track[:, 0]))[0]
    return bool(len(seen)) and float(np.hypot(*(track[seen[-1]] - home))) > AWAY_MM


def _could_reach(paths: StrikePaths, other: str, spot: Any, times: Any, reach_mm: float) -> bool:
    """Could ``other`` have come within ``reach_mm`` of ``spot`` in these frames?"""
    filled = paths.filled[other]
    if filled is None:
        return True  # never seen: it could have been anywhere
    n = len(times)
    track = paths.tracks[other][:n]
    seen = ~np.isnan(track[:, 0])
    if seen.any() and float(np.hypot(*(track[seen] - spot[seen]).T).min()) < reach_mm:
        return True
    both = seen[1:] & seen[:-1]
    if n > 1 and both.any() and float(approaches(filled[:n], spot)[both].min()) < reach_mm:
        return True
    return not seen.all() and could_meet_unseen(track, spot, times, reach_mm, paths.v_max)
