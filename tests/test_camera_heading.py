"""CAM-2 contacts, "Headed into" (docs/camera.md): a coin sliding straight at a coin at rest, with
nothing else it could meet first, met it — even when no frame shows the two discs touching and the
coin hit hardly moves (backed by a rail or by its neighbours).

The tracks come from the pymunk table itself, sampled at 120 fps with a measurement error
(``tests/test_camera_impacts.py``'s generator); two bench strikes are rendered through the virtual
camera with real OpenCV."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sensors.camera.heading import headed_into
from sensors.camera.impacts import StrikePaths
from sensors.camera.paths import approaches
from tests.test_camera_impacts import TOUCH_BAND_MM, _aimed, _random_cluster_strike, _strike


def _headed(paths: StrikePaths) -> set[tuple[str, str]]:
    """Pairs the rule states met, tried at their closest approach within the band (as the tracker does)."""
    out = set()
    ids = sorted(paths.tracks)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            per = approaches(paths.filled[a], paths.filled[b])
            k = int(per.argmin())
            if per[k] <= TOUCH_BAND_MM and (headed_into(paths, a, b, k) or headed_into(paths, b, a, k)):
                out.add((a, b))
    return out


def test_cam2_a_coin_slid_straight_into_a_coin_in_a_corner_met_it() -> None:
    # c2 lies in a corner (rails behind it): hit, it hardly moves, and c1 bounces straight back
    spots = {"c1": (260.0, 350.0), "c2": (409.6, 609.6)}
    paths, truth = _strike(spots, "c1", _aimed(spots["c1"], spots["c2"], 1800.0, 3.0), noise=0.2)
    assert ("c1", "c2") in truth
    assert ("c1", "c2") in _headed(paths)


def test_cam2_a_coin_in_the_way_first_leaves_the_farther_one_open() -> None:
    # c3 lies on c1's line before c2: c1 meets c3 first, so its line says nothing about c2
    spots = {"c1": (100.0, 100.0), "c2": (100.0, 260.0), "c3": (104.0, 180.0)}
    paths, truth = _strike(spots, "c1", _aimed(spots["c1"], spots["c2"], 1500.0), noise=0.1)
    assert ("c1", "c3") in truth
    assert ("c1", "c2") not in _headed(paths)


def test_cam2_a_line_that_passes_a_coin_by_a_glance_decides_nothing() -> None:
    # c1's line passes c2's centre 29 mm off: a touch or a miss by a hair, the line cannot tell
    spots = {"c1": (100.0, 100.0), "c2": (129.0, 300.0)}
    paths, _truth = _strike(spots, "c1", (0.0, 1500.0), noise=0.1)
    assert ("c1", "c2") not in _headed(paths)


def test_cam2_a_coin_seen_carrying_on_past_the_meeting_did_not_meet_it() -> None:
    """Tracks that say c1 went on along its line past where it would have met c2 (the target's
    spot read wrong, say): the prediction is refuted, nothing is stated."""
    times = np.arange(60) / 120.0
    c1 = np.column_stack([np.full(60, 100.0), 100.0 + 1200.0 * np.clip(times - 0.1, 0.0, None)])
    c2 = np.tile([110.0, 250.0], (60, 1))
    tracks = {"c1": c1, "c2": c2}
    paths = StrikePaths(tracks, {c: t.copy() for c, t in tracks.items()},
                        {c: np.vstack([np.zeros((1, 2)), np.diff(t, axis=0) * 120.0]) for c, t in tracks.items()},
                        times, {c: [False] * 60 for c in tracks}, 33.5, 15.0, (425.0, 625.0), 3000.0, 0.1, "c1")
    k = int(approaches(c1, c2).argmin())
    assert not headed_into(paths, "c1", "c2", k)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(2, 6), noise=st.sampled_from([0.05, 0.2, 0.4]))
@example(seed=2147483646, n=6, noise=0.4)  # a coin slowing to a stop 0.9 mm short of another
def test_cam2_headed_into_states_only_contacts_the_physics_had(seed: int, n: int, noise: float) -> None:
    """Random clusters of coins anywhere on the table, rails and corners too, one flicked at or
    near another: every pair the rule states met, touched."""
    paths, truth = _random_cluster_strike(seed, n, noise, spread_mm=90.0, aim_sd_deg=12.0)
    assert _headed(paths) <= set(truth)


# --- rendered bench strikes ---------------------------------------------------------------------

@pytest.mark.parametrize(("index", "pair"), [(1457, ("c1", "c4")), (1130, ("c3", "c4")), (261, ("c1", "c2"))],
                         ids=["into_a_coin_in_a_corner", "into_a_coin_against_a_rail", "into_a_coin_beside_another"])
def test_cam2_rendered_strike_headed_into_a_coin_is_a_contact(index: int, pair: tuple[str, str]) -> None:
    pytest.importorskip("cv2")
    from sensors.virtual.camera.record import record_strike
    from tests.test_camera_flick import _bench_strike, _tracked

    table, coins, coin, vx, vy, rig = _bench_strike(index)
    rec, frames, truth = record_strike(table, coin, vx, vy, rig, coins)
    assert list(pair) in [sorted(p) for p in truth.contacts]  # the physics: they touched
    result = _tracked(rec, frames, coin)
    assert result.contacts.get(pair, 0.0) >= 0.99  # stated, not asked (it was "closest … no impact")


# --- pushed into a coin it lay against (the pen's line) ------------------------------------------

def _pushed_paths(spots: dict[str, tuple[float, float]], aim: tuple[float, float] | None, *, moves: bool = True):
    """The struck coin c1 at rest until the flick at 0.1 s, then (if ``moves``) seen bouncing back
    along -y; every other coin still; the pen's line ``aim`` (None: not seen)."""
    times = np.arange(40) / 120.0
    tracks = {c: np.tile(p, (40, 1)).astype(float) for c, p in spots.items()}
    if moves:
        after = times > 0.1
        tracks["c1"][after, 1] -= 400.0 * (times[after] - 0.1)
    return StrikePaths(tracks, {c: t.copy() for c, t in tracks.items()}, {c: np.zeros((40, 2)) for c in tracks}, times,
                       {c: [False] * 40 for c in tracks}, 33.5, 15.0, (425.0, 625.0), 3000.0, 0.1, "c1",
                       None if aim is None else np.array(aim) / math.hypot(*aim))


def test_cam2_the_pen_pushing_the_struck_coin_into_a_coin_it_lay_against_is_a_contact() -> None:
    from sensors.camera.heading import pushed_into

    spots = {"c1": (200.0, 300.0), "c2": (203.0, 330.3)}  # c2 against c1, a little to the side
    assert pushed_into(_pushed_paths(spots, (0.0, 1.0)), "c2")
    assert not pushed_into(_pushed_paths(spots, None), "c2")  # no pen seen: nothing stated
    assert not pushed_into(_pushed_paths(spots, (0.0, -1.0)), "c2")  # pushed away from it
    assert not pushed_into(_pushed_paths(spots, (1.0, 0.6)), "c2")  # along it: a graze or a miss
    assert not pushed_into(_pushed_paths(spots, (0.0, 1.0), moves=False), "c2")  # the flick never moved it


def test_cam2_a_coin_the_pen_line_meets_first_leaves_the_other_open() -> None:
    from sensors.camera.heading import pushed_into

    # c3 also lies against c1, nearer the pen's line: which one c1 met first the line cannot tell
    spots = {"c1": (200.0, 300.0), "c2": (215.0, 326.3), "c3": (185.0, 326.3)}
    assert not pushed_into(_pushed_paths(spots, (0.0, 1.0)), "c2")
    assert not pushed_into(_pushed_paths(spots, (0.0, 1.0)), "c3")


def test_cam2_rendered_strike_pushed_by_the_pen_into_a_coin_under_the_hand_is_a_contact() -> None:
    """Bench strike 679: c4 lies against c2 and is pushed straight into it; the hand hides c2 at the
    flick, so the frames alone left the pair open."""
    pytest.importorskip("cv2")
    from sensors.virtual.camera.record import record_strike
    from tests.test_camera_flick import _bench_strike, _tracked

    table, coins, coin, vx, vy, rig = _bench_strike(679)
    rec, frames, truth = record_strike(table, coin, vx, vy, rig, coins)
    assert coin == "c4" and ["c2", "c4"] in [sorted(p) for p in truth.contacts]
    assert _tracked(rec, frames, coin).contacts.get(("c2", "c4"), 0.0) >= 0.99
