"""The virtual table's physics: real stops, energy, rails, CW-4.1 death geometry, flying coins."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametable_core import table_geometry as geo
from sensors.virtual.flying import FlyModel
from sensors.virtual.physics import PhysicsParams, TablePhysics
from sensors.virtual.random_shots import random_flick, random_table

R = geo.COIN_RADIUS_MM
NO_FLY = FlyModel(enabled=False)
ALWAYS_OFF_RAIL = FlyModel(rail_threshold=1.0, rail_full=2.0, rail_p_max=1.0, coin_threshold=1e12)


def table(coins: dict[str, tuple[float, float]], **kw) -> TablePhysics:
    t = TablePhysics(**kw)
    for c, p in coins.items():
        t.place(c, *p)
    return t


def test_a_flicked_coin_comes_to_a_real_stop_after_the_friction_distance():
    t = table({"c1": (60.0, 40.0)}, fly=NO_FLY)
    speeds = []
    truth = t.flick("c1", 0.0, 1200.0, on_step=lambda _t, _p: speeds.append(t._bodies["c1"].velocity.length))
    # sliding friction mu*g decelerates at a constant rate: d = v^2 / (2 mu g)
    expected = 1200.0**2 / (2 * 0.30 * 9810.0)
    assert truth.positions["c1"][1] - 40.0 == pytest.approx(expected, rel=0.03)
    assert speeds[-1] < 1e-6  # a real stop, not an asymptotic crawl
    assert truth.duration_s == pytest.approx(1200.0 / (0.30 * 9810.0), abs=0.03)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_energy_never_grows_during_a_strike(seed):
    rng = random.Random(seed)
    t = random_table(rng, 6, fly=NO_FLY)
    coin, vx, vy = random_flick(rng, t.positions())
    start = 0.5 * t.params.coin_mass_g * (vx * vx + vy * vy)
    energies: list[float] = []
    t.flick(coin, vx, vy, on_step=lambda _t, _p: energies.append(t.kinetic_energy()))
    assert max(energies[1:]) <= start * 1.0001


@pytest.mark.parametrize("angle_deg", [0, 30, 60, 90, 135, 180, 225, 270, 315, 355])
def test_no_coin_tunnels_through_a_rail_at_the_fastest_flick(angle_deg):
    a = math.radians(angle_deg)
    t = table({"c1": (212.5, 312.5), "c2": (60.0, 60.0), "c3": (380.0, 580.0)}, fly=NO_FLY)
    worst = []

    def check(_t, positions):
        for x, y in positions.values():
            worst.append(min(x - R, geo.WIDTH_MM - R - x, y - R, geo.LENGTH_MM - R - y))

    t.flick("c1", 3000.0 * math.cos(a), 3000.0 * math.sin(a), on_step=check)
    assert min(worst) > -13.0  # a step can dent the rail, never cross it (rails are 60 mm thick)
    for x, y in t.positions().values():
        assert geo.SURFACE.contains_disc((x, y), R - 0.5)


# --- CW-4.1: death geometry on the goal line's edges -----------------------------------------------

EDGES = [
    ("west", (geo.GOAL.x0 + R, geo.CENTRE[1]), (-0.1, 0.0)),
    ("east", (geo.GOAL.x1 - R, geo.CENTRE[1]), (0.1, 0.0)),
    ("south", (geo.CENTRE[0], geo.GOAL.y0 + R), (0.0, -0.1)),
    ("north", (geo.CENTRE[0], geo.GOAL.y1 - R), (0.0, 0.1)),
]


@pytest.mark.parametrize("name,inside,out", EDGES, ids=[e[0] for e in EDGES])
def test_cw_4_1_touching_the_inside_of_the_line_is_dead_and_0_1mm_over_is_alive(name, inside, out):
    assert geo.is_dead_position(inside)
    assert not geo.is_dead_position((inside[0] + out[0], inside[1] + out[1]))
    # and the physics judges the same at rest (a zero flick = a strike where nothing moves)
    t = table({"c1": inside, "c2": (40.0, 40.0)})
    assert t.flick("c1", 0.0, 0.0).dead == ["c1"]
    assert "c1" not in t.positions()  # CW-4.2: removed at once
    t = table({"c1": (inside[0] + out[0], inside[1] + out[1]), "c2": (40.0, 40.0)})
    assert t.flick("c1", 0.0, 0.0).dead == []


@given(x=st.floats(150, 275), y=st.floats(200, 425))
def test_cw_4_1_dead_iff_the_disc_lies_inside_the_goal_rectangle(x, y):
    inside = all(d >= R for d in (x - geo.GOAL.x0, geo.GOAL.x1 - x, y - geo.GOAL.y0, geo.GOAL.y1 - y))
    assert geo.is_dead_position((x, y)) == inside


def test_a_coin_slid_into_the_goal_dies_and_one_short_of_it_lives():
    d = 312.5 - 40.0  # stop exactly at the goal centre: v = sqrt(2 mu g d)
    v = math.sqrt(2 * 0.30 * 9810.0 * d)
    t = table({"c1": (212.5, 40.0), "c2": (40.0, 40.0)}, fly=NO_FLY)
    assert t.flick("c1", 0.0, v).dead == ["c1"]
    t = table({"c1": (212.5, 40.0), "c2": (40.0, 40.0)}, fly=NO_FLY)
    truth = t.flick("c1", 0.0, math.sqrt(2 * 0.30 * 9810.0 * (232.5 - 40.0 - 20.0)))
    assert truth.dead == [] and "c1" in truth.positions


# --- contacts, determinism --------------------------------------------------------------------------

def test_every_contact_pair_of_a_strike_is_reported():
    t = table({"c1": (212.5, 60.0), "c2": (212.5, 140.0), "c3": (212.5, 200.0)}, fly=NO_FLY)
    truth = t.flick("c1", 0.0, 2000.0)
    assert truth.contacts[0] == ("c1", "c2")
    assert ("c2", "c3") in truth.contacts
    assert truth.shot(1)["contacts"][0] == ["c1", "c2"]


def play(seed: int, shots: int = 15):
    rng = random.Random(99)
    t = random_table(rng, 6, seed=seed)
    out = []
    for _ in range(shots):
        pos = t.positions()
        if not pos:
            break
        coin, vx, vy = random_flick(rng, pos)
        truth = t.flick(coin, vx, vy)
        out.append(truth)
        for c, p in truth.left_at.items():  # put flown coins back where they left
            spot = (min(max(p[0], 20), 405), min(max(p[1], 20), 605))
            if t.can_place(c, *spot) is None and geo.is_normal_position(spot):
                t.place(c, *spot)
    return out


def test_same_seed_and_same_flicks_give_identical_results():
    assert play(5) == play(5)


# --- flying coins (CW-6.1) -------------------------------------------------------------------------

@given(a=st.floats(0, 20_000), b=st.floats(0, 20_000), rail=st.booleans())
def test_flying_probability_is_zero_below_threshold_and_rises_with_impulse(a, b, rail):
    m = FlyModel()
    lo, hi = sorted((a, b))
    assert 0.0 <= m.probability(lo, rail=rail) <= m.probability(hi, rail=rail) <= 1.0
    thr = m.rail_threshold if rail else m.coin_threshold
    assert m.probability(min(lo, thr), rail=rail) == 0.0
    assert FlyModel(enabled=False).probability(hi, rail=rail) == 0.0


def test_a_few_percent_of_random_shots_leave_a_coin_flown():
    rng = random.Random(2024)
    n, flown = 300, 0
    for _ in range(n):
        t = random_table(rng, rng.randint(2, 6))
        coin, vx, vy = random_flick(rng, t.positions())
        flown += bool(t.flick(coin, vx, vy).flown)
    assert 0.005 <= flown / n <= 0.10


def test_a_coin_that_flies_off_a_rail_is_off_the_surface_until_placed():
    t = table({"c1": (212.5, 300.0), "c2": (40.0, 40.0)}, fly=ALWAYS_OFF_RAIL)
    seen_beyond = []
    truth = t.flick("c1", 2500.0, 0.0, on_step=lambda _t, p: seen_beyond.append(p.get("c1", (0, 0))[0] > geo.WIDTH_MM))
    assert truth.flown == ["c1"]
    assert "c1" not in truth.positions and "c1" not in t.positions()
    assert t.off_table()["c1"][0] > 380  # left at the east rail
    assert any(seen_beyond)  # the step hook shows it flying over the rail (beams can see it)
    t.place("c1", 100.0, 100.0)
    assert "c1" in t.positions() and "c1" not in t.off_table()


def test_a_coin_can_ride_up_on_another_and_is_flown():
    rider = FlyModel(coin_threshold=1.0, coin_full=2.0, coin_p_max=1.0, rail_threshold=1e12)
    t = table({"c1": (212.5, 60.0), "c2": (212.5, 140.0)}, fly=rider)
    truth = t.flick("c1", 0.0, 2000.0)
    assert truth.flown == ["c1"] and "c2" in truth.positions


def test_cw_7_3_a_coin_through_a_goal_mouth_is_reported_with_the_mouth():
    t = table({"ball": (212.5, 100.0), "A1": (60.0, 300.0)}, params=PhysicsParams(mouths=True), fly=NO_FLY)
    truth = t.flick("ball", 0.0, -1500.0)
    assert truth.mouths == {"ball": "A"}
    assert "ball" not in truth.positions
    t = table({"A1": (60.0, 100.0)}, params=PhysicsParams(mouths=True), fly=NO_FLY)
    assert t.flick("A1", 0.0, -1500.0).mouths == {}  # outside the mouth: the rail bounces it


# --- bad input: one clear line, nothing changes ------------------------------------------------------

@pytest.mark.parametrize(
    "coin,vx,vy,message",
    [
        ("c9", 100.0, 0.0, "coin 'c9' is not on the table"),
        ("c1", float("nan"), 0.0, "flick velocity must be finite"),
        ("c1", 6000.0, 0.0, "above the table's limit"),
    ],
)
def test_a_bad_flick_is_refused_and_changes_nothing(coin, vx, vy, message):
    t = table({"c1": (100.0, 100.0), "c2": (300.0, 300.0)})
    before = t.positions()
    with pytest.raises(ValueError, match=message):
        t.flick(coin, vx, vy)
    assert t.positions() == before


@pytest.mark.parametrize(
    "x,y,message", [(110.0, 110.0, "overlaps coin c1"), (5.0, 100.0, "off the surface"), (float("inf"), 1.0, "finite")]
)
def test_a_bad_placement_is_refused_and_changes_nothing(x, y, message):
    t = table({"c1": (100.0, 100.0)})
    with pytest.raises(ValueError, match=message):
        t.place("c2", x, y)
    assert t.coins() == ["c1"]


def test_cw_7_3_a_coin_may_rest_hanging_over_a_mouths_edge_and_be_set_there_again():
    t = table({"ball": (212.5, 620.0)}, params=PhysicsParams(mouths=True), fly=NO_FLY)
    assert t.positions()["ball"] == (212.5, 620.0)
    with pytest.raises(ValueError, match="off the surface"):
        table({"ball": (60.0, 620.0)}, params=PhysicsParams(mouths=True))  # beside the mouth: a rail


@given(x=st.floats(0, 425), y=st.floats(0, 625))
def test_cw4_1_the_goal_margin_is_positive_exactly_where_the_disc_lies_in_the_goal(x, y):
    margin = geo.GOAL.disc_margin((x, y), geo.COIN_RADIUS_MM)
    assert (margin >= 0) == geo.GOAL.contains_disc((x, y), geo.COIN_RADIUS_MM)
