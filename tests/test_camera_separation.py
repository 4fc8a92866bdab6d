"""CAM-2 contacts the physics decides (docs/camera.md): coins nothing reached touched nothing
(undisturbed.py), a struck coin flicked away from a free neighbour did not touch it at the flick
(separating.py), and a struck coin lost under the palm is found again only as one lone disc
(relocating.py). Pure functions on synthetic tracks and pixels; the rendered cases are in
test_camera_flick.py and the bench."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sensors.camera.relocating import find_lone_disc
from sensors.camera.separating import flicked_away
from sensors.camera.undisturbed import stayed_put, untouched_groups, untouched_lie_flat

NEAR = "closest 30.4 mm, no impact"
TIMES = np.arange(40) / 120.0  # 120 frames/s; the flick at frame 12
STRIKE_T = TIMES[12]


def _track(start, *, moves=None, frames=40):
    """A track at ``start`` until the flick, then along ``moves(j)`` (table mm per frame)."""
    tr = np.tile(np.array(start, dtype=float), (frames, 1))
    if moves is not None:
        for j in range(12, frames):
            tr[j] = moves(j)
    return tr


# --- undisturbed.py -----------------------------------------------------------------------------

def test_cam2_coins_lying_together_that_nothing_reached_did_not_touch():
    contacts = {("c2", "c3"): 0.5}
    why = {("c2", "c3"): NEAR}
    still = {"c1": False, "c2": True, "c3": True}
    assert untouched_groups(still, contacts, why, "c1", still) == [("c2", "c3")]


def test_cam2_a_group_the_struck_coin_could_reach_stays_open():
    contacts = {("c1", "c2"): 0.01, ("c2", "c3"): 0.5}
    why = {("c2", "c3"): NEAR}
    still = {"c1": False, "c2": True, "c3": True}
    assert untouched_groups(still, contacts, why, "c1", still) == []


def test_cam2_a_group_with_a_hidden_pair_or_a_moved_coin_stays_open():
    contacts = {("c2", "c3"): 0.5, ("c3", "c4"): 0.5}
    still = {"c1": False, "c2": True, "c3": True, "c4": True}
    assert untouched_groups(still, contacts, {("c2", "c3"): NEAR, ("c3", "c4"): "hidden"}, "c1", still) == []
    moved = {**still, "c4": False}
    assert untouched_groups(moved, contacts, {("c2", "c3"): NEAR, ("c3", "c4"): NEAR}, "c1", moved) == []


@settings(max_examples=200, deadline=None)
@given(pairs=st.dictionaries(st.sampled_from([("c1", "c2"), ("c1", "c3"), ("c2", "c3"), ("c2", "c4"), ("c3", "c4"),
                                              ("c4", "c5"), ("c1", "c5")]),
                             st.sampled_from([(0.5, NEAR), (0.5, "hidden"), (0.995, None), (0.01, None)])),
       still=st.fixed_dictionaries({c: st.booleans() for c in ("c1", "c2", "c3", "c4", "c5")}))
def test_cam2_only_closed_groups_are_cleared(pairs, still):
    """Property: a cleared pair's group holds no struck coin, no coin that moved, no proven or
    hidden pair; and every pair is cleared or kept, none invented."""
    contacts = {p: v[0] for p, v in pairs.items()}
    why = {p: v[1] for p, v in pairs.items() if v[1]}
    cleared = untouched_groups(still, contacts, why, "c1", still)
    assert set(cleared) <= set(contacts)
    for a, b in cleared:
        assert "c1" not in (a, b) and still[a] and still[b]
        assert contacts[(a, b)] <= 0.01 or why[(a, b)] == NEAR
    for p in contacts:  # a kept pair touching a cleared coin would mean a group split in two
        if p not in cleared and (p[0] in {c for q in cleared for c in q}):
            raise AssertionError(("group split", p, cleared))


def test_cam2_stayed_put_reads_the_ends_of_the_track():
    assert stayed_put(_track((100.0, 100.0)))
    assert not stayed_put(_track((100.0, 100.0), moves=lambda j: (100.0 + (j - 11) * 2.0, 100.0)))
    hidden = _track((100.0, 100.0))
    hidden[15:25] = np.nan  # hidden under the palm a while, then found where it lay
    assert stayed_put(hidden)


@dataclass
class _Rest:
    rest: tuple[float, float] | None
    left_surface: bool = False
    not_flat: bool = False
    flight_confidence: float = 0.5


def test_cw6_1_a_coin_nothing_reached_lies_flat_whatever_its_blob_looked_like():
    """A neighbour lying against it cuts a still coin's blob into an ellipse: that left ``flown``
    unknown (asked) though nothing came near it."""
    coins = {"c1": _Rest((50.0, 50.0)), "c2": _Rest((100.0, 100.0)), "c3": _Rest((130.4, 100.0)),
             "c4": _Rest((300.0, 300.0), not_flat=True, flight_confidence=0.995)}
    tracks = {"c1": _track((50.0, 50.0), moves=lambda j: (50.0 + j, 50.0)), "c2": _track((100.0, 100.0)),
              "c3": _track((130.4, 100.0)), "c4": _track((300.0, 300.0))}
    untouched_lie_flat(coins, {("c1", "c4"): 0.5}, {c: stayed_put(t) for c, t in tracks.items()}, "c1")
    assert (coins["c2"].not_flat, coins["c2"].flight_confidence) == (False, 0.995)
    assert (coins["c3"].not_flat, coins["c3"].flight_confidence) == (False, 0.995)
    assert coins["c1"].flight_confidence == 0.5  # the struck coin moved: its own rules decide
    assert coins["c4"].not_flat  # a pair with it is still possible: the rider rule stands


# --- separating.py ------------------------------------------------------------------------------

def _flick(direction_deg: float, neighbour=(200.0, 230.4), third=None, speed_mm_frame=8.0):
    start = np.array([200.0, 200.0])
    u = np.array([math.cos(math.radians(direction_deg)), math.sin(math.radians(direction_deg))])
    tracks = {"c1": _track(start, moves=lambda j: start + u * speed_mm_frame * (j - 11)), "c2": _track(neighbour)}
    if third is not None:
        tracks["c3"] = _track(third)
    return flicked_away(tracks, TIMES, "c1", STRIKE_T, diameter_mm=30.0, reach_mm=33.5, table=(425.0, 625.0))


def test_cam2_struck_coin_flicked_straight_away_from_its_neighbour_left_it():
    assert _flick(-90.0) == {"c2": 26}  # the neighbour lies at +y: flicked to -y (judged from the launch's end)


def test_cam2_struck_coin_flicked_along_or_into_its_neighbour_is_left_to_the_other_rules():
    assert _flick(0.0) == {}  # sliding along it: a graze is possible
    assert _flick(90.0) == {}  # into it
    assert _flick(-4.0) == {}  # within 6° of sliding along it
    assert _flick(-8.0) == {"c2": 26}


def test_cam2_a_neighbour_backed_by_a_rail_or_a_coin_could_have_bounced_it_back():
    assert _flick(-90.0, neighbour=(200.0, 230.4)) == {"c2": 26}
    assert _flick(-90.0, neighbour=(200.0, 230.4), third=(200.0, 261.0)) == {}  # a coin behind it
    near_rail = np.array([200.0, 625.0 - 15.5 - 30.4])
    start = near_rail.copy()
    tracks = {"c1": _track(start, moves=lambda j: start + np.array([0.0, -8.0]) * (j - 11)),
              "c2": _track((200.0, 625.0 - 15.5))}
    assert flicked_away(tracks, TIMES, "c1", STRIKE_T, diameter_mm=30.0, reach_mm=33.5, table=(425.0, 625.0)) == {}


def test_cam2_a_third_coin_on_the_launch_could_have_turned_the_struck_coin():
    """Under the hand for the launch's first frames, the struck coin could have met the third coin
    on its way and come back into the neighbour unseen."""
    start = np.array([200.0, 200.0])
    moves = _track(start, moves=lambda j: start + np.array([0.0, -8.0]) * (j - 11))
    moves[12:16] = np.nan  # the palm over it just after the flick
    tracks = {"c1": moves, "c2": _track((200.0, 230.4)), "c3": _track((200.0, 160.0))}
    assert flicked_away(tracks, TIMES, "c1", STRIKE_T, diameter_mm=30.0, reach_mm=33.5, table=(425.0, 625.0)) == {}


def test_cam2_struck_coin_seen_all_along_its_launch_never_turned_back_past_a_third_coin():
    """Seen in every frame of the launch, each sighting farther along it: it never turned back into
    the neighbour before the launch's end, whatever lay on its way (the other rules judge after)."""
    assert _flick(-90.0, third=(200.0, 160.0)) == {"c2": 26}


def test_cam2_a_launch_that_bends_is_judged_only_up_to_the_bend():
    start = np.array([200.0, 200.0])

    def bent(j):
        return start + np.array([0.0, -8.0]) * min(j - 11, 6) + np.array([8.0, 0.0]) * max(j - 17, 0)

    tracks = {"c1": _track(start, moves=bent), "c2": _track((200.0, 230.4))}
    assert flicked_away(tracks, TIMES, "c1", STRIKE_T, diameter_mm=30.0, reach_mm=33.5, table=(425.0, 625.0)) == {"c2": 17}


def test_cam2_a_launch_not_seen_soon_after_the_flick_proves_nothing():
    start = np.array([200.0, 200.0])
    late = _track(start, moves=lambda j: start + np.array([0.0, -8.0]) * (j - 11))
    late[12:30] = np.nan  # under the palm for 150 ms
    tracks = {"c1": late, "c2": _track((200.0, 230.4))}
    assert flicked_away(tracks, TIMES, "c1", STRIKE_T, diameter_mm=30.0, reach_mm=33.5, table=(425.0, 625.0)) == {}


# --- relocating.py ------------------------------------------------------------------------------

def _disc(cx: float, cy: float, r: float):
    ys, xs = np.mgrid[0:200, 0:300]
    sel = (xs - cx) ** 2 + (ys - cy) ** 2 < r * r
    return np.column_stack([xs[sel], ys[sel]])


def test_cam2_the_lost_struck_coin_is_found_as_one_lone_disc():
    r = 10.0
    count, centre = find_lone_disc(_disc(150.0, 80.0, r), r, (300, 200), 0.6 * math.pi * r * r, np.zeros(2))
    assert count > 0.9 * math.pi * r * r
    assert np.hypot(*(centre - (150.0, 80.0))) < 0.5


def test_cam2_two_discs_or_a_patch_too_big_leave_it_lost():
    r = 10.0
    need = 0.6 * math.pi * r * r
    two = np.vstack([_disc(60.0, 60.0, r), _disc(200.0, 120.0, r)])
    assert find_lone_disc(two, r, (300, 200), need, np.zeros(2))[0] == 0.0
    big = _disc(150.0, 100.0, 2 * r)  # a hand of the coin's colour
    assert find_lone_disc(big, r, (300, 200), need, np.zeros(2))[0] == 0.0
    assert find_lone_disc(_disc(150.0, 100.0, 0.5 * r), r, (300, 200), need, np.zeros(2))[0] == 0.0


# --- turning.py ---------------------------------------------------------------------------------

def _paths(tracks: dict, struck: str = "c1"):
    from sensors.camera.impacts import StrikePaths
    from sensors.camera.paths import fill, velocities

    times = np.arange(60) / 120.0
    filled = {c: fill(t) for c, t in tracks.items()}
    return StrikePaths(tracks, filled, {c: velocities(filled[c], times) for c in tracks}, times,
                       {c: [False] * 60 for c in tracks}, 33.5, 15.0, (425.0, 625.0), 3000.0, times[5], struck)


def _passing(turn_mm_s: float, *, noise: float = 0.0, seed: int = 0):
    """c1 slides +x at 0.6 m/s past c2 (resting 29 mm to its side, +y) and, from frame 30 on,
    moves sideways by ``turn_mm_s`` (negative: away from c2)."""
    rng = np.random.default_rng(seed)
    times = np.arange(60) / 120.0
    t_bend = times[30]
    x = 60.0 + 600.0 * times
    y = 300.0 + np.where(times > t_bend, turn_mm_s * (times - t_bend), 0.0)
    mover = np.column_stack([x, y]) + rng.normal(0.0, noise, (60, 2))
    partner = np.tile([60.0 + 600.0 * t_bend, 329.0], (60, 1))
    return {"c1": mover, "c2": partner}


def test_cam2_a_coin_turned_aside_beside_another_with_nothing_else_there_was_touched():
    from sensors.camera.turning import turned_by

    assert turned_by(_paths(_passing(-300.0)), "c1", "c2", 30)
    assert not turned_by(_paths(_passing(0.0)), "c1", "c2", 30)  # straight on: no sign of a touch
    assert not turned_by(_paths(_passing(300.0)), "c1", "c2", 30)  # turned towards it: not its push
    assert not turned_by(_paths(_passing(-60.0)), "c1", "c2", 30)  # too small to tell from the blur


def test_cam2_a_turn_beside_a_rail_or_a_third_coin_is_not_the_partners():
    from sensors.camera.turning import turned_by

    third = _passing(-300.0)
    third["c3"] = np.tile([third["c1"][30, 0], 270.0], (60, 1))  # on the other side, within reach
    assert not turned_by(_paths(third), "c1", "c2", 30)
    rail = {c: t - [0.0, 300.0 - 17.0] for c, t in _passing(-300.0).items()}  # c1 slides 2 mm from a rail
    assert not turned_by(_paths(rail), "c1", "c2", 30)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), noise=st.floats(0.0, 0.35))
def test_cam2_a_straight_slide_with_blurred_centres_never_reads_as_turned(seed, noise):
    """Property: centres scattered by up to the rendered strikes' blur (σ ≤ 0.35 mm) on a straight
    slide never make a touch."""
    from sensors.camera.turning import turned_by

    assert not turned_by(_paths(_passing(0.0, noise=noise, seed=seed)), "c1", "c2", 30)


# --- first_push.py ------------------------------------------------------------------------------

def _pushed_scene(*, hidden_neighbour: bool = True, third_at=None):
    """c1 (struck) lies against c2 and is flicked into it under the palm: c2 is hidden around the
    flick and seen again sliding away, 40 mm off by frame 30."""
    c1 = np.tile([100.0, 100.0], (60, 1))
    c2 = np.tile([130.4, 100.0], (60, 1))
    for j in range(13, 60):
        c2[j] = [130.4 + min(j - 12, 25) * 2.0, 100.0]
    if hidden_neighbour:
        c2[12:20] = np.nan
    tracks = {"c1": c1, "c2": c2}
    if third_at is not None:
        tracks["c3"] = np.tile(third_at, (60, 1))
    return _paths(tracks)


def test_cam2_a_coin_set_moving_with_only_the_struck_coin_in_reach_was_touched_by_it():
    from sensors.camera.first_push import pushed_only_by

    assert pushed_only_by(_pushed_scene(), "c2", 33.5, (130.4, 100.0)) == "c1"
    assert pushed_only_by(_pushed_scene(third_at=(400.0, 500.0)), "c2", 33.5, (130.4, 100.0)) == "c1"  # one far away: no matter


def test_cam2_a_second_coin_in_reach_or_a_coin_that_never_left_home_proves_nothing():
    from sensors.camera.first_push import pushed_only_by

    assert pushed_only_by(_pushed_scene(third_at=(150.0, 125.0)), "c2", 33.5, (130.4, 100.0)) is None  # resting beside it: it could be
    assert pushed_only_by(_pushed_scene(), "c1", 33.5, (100.0, 100.0)) is None  # the struck coin: the pen moved it
    still = _pushed_scene()
    still.tracks["c2"][:] = [130.4, 100.0]
    assert pushed_only_by(still, "c2", 33.5, (130.4, 100.0)) is None  # never pushed
    pulled = _pushed_scene()
    pulled.tracks["c2"][13:] = [133.0, 100.0]  # a palm pulling its centre 2.6 mm is no push
    assert pushed_only_by(pulled, "c2", 33.5, (130.4, 100.0)) is None
    wandered = _pushed_scene()  # the arm taken for it before the flick: its track began 19 mm off
    assert pushed_only_by(wandered, "c2", 33.5, (130.4, 81.0)) is None
