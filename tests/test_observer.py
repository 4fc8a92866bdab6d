"""The observer's per-strike facts against the physics' ground truth, with the default beam layout."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.default_table import DEFAULT_TABLE, default_beams
from controller.games.coinwar.sensing import Observer, classify, dead_possible, uncovered_dead_region
from gametable.testing.fake_daemon import FakeDaemon
from gametable_core import table_geometry as geo
from gametable_core.clock import FakeClock
from gametable_core.config import load
from gametable_core.platform import BeamEdge
from sensors.virtual.flying import FlyModel
from sensors.virtual.physics import TablePhysics
from sensors.virtual.random_shots import random_flick, random_table
from sensors.virtual.virtual_beams import VirtualBeams

BEAMS = tuple(b for b in default_beams() if not b.reference)  # the reference point: test_goal_reference.py
NO_FLY = FlyModel(enabled=False)


class Rig:
    """Physics -> virtual beams -> observer, all on one fake clock."""

    def __init__(self, table: TablePhysics, settle_s: float = 1.5) -> None:
        self.table = table
        self.clock = FakeClock()
        self.facts = []
        # the virtual table: its physics flies every coin through the rail beams' plane
        self.observer = Observer(BEAMS, self.clock, self.facts.append, settle_s=settle_s, flight_proof="rails")
        self.beams = VirtualBeams(BEAMS, self.observer.on_edge)
        self.beams.update(self.clock.now(), table.positions())

    def strike(self, coin: str, vx: float, vy: float, seat: int = 1):
        self.observer.strike(seat, coin, coins_on_table=self.table.coins())

        def step(t, positions):
            if t > 0:
                self.clock.advance(self.table.dt)
            self.beams.update(self.clock.now(), positions)

        truth = self.table.flick(coin, vx, vy, on_step=step)
        self.clock.advance(self.observer.settle_s + 0.01)
        assert len(self.facts) == 1
        return self.facts.pop(), truth


def table(coins, fly=NO_FLY):
    t = TablePhysics(fly=fly)
    for c, p in coins.items():
        t.place(c, *p)
    return t


# --- the default layout ------------------------------------------------------------------------------

def test_default_layout_fits_the_pi_and_leaves_the_led_pins_free():
    cfg = load(DEFAULT_TABLE, layout_only=True)
    pins = [b.pin for b in cfg.beams]
    assert len(cfg.beams) <= 17 and len(set(pins)) == len(pins)
    led_pins = set(cfg.leds.seats.values()) | set(cfg.leds.status or ())
    assert led_pins == {12, 13, 18, 19, 20, 21, 16, 26, 27}
    assert not led_pins & set(pins)
    assert not {0, 1} & set(pins)  # ID EEPROM pins


def test_default_layout_sees_every_dead_position_and_every_rail():
    assert not uncovered_dead_region(BEAMS)  # every dead coin blocks at least one goal beam
    roles = classify(BEAMS)
    assert len(roles.rail) == 4 and not roles.mouths
    # nothing but the rails and flush points: the surface beams are points inside the goal
    for b in BEAMS:
        if b.id in roles.surface:
            assert b.kind == "point" and geo.GOAL.contains_point(b.at)


def test_a_coin_resting_against_a_rail_blocks_no_rail_beam():
    vb = VirtualBeams(BEAMS)
    r = geo.COIN_RADIUS_MM
    assert vb.compute([(r, 300.0), (geo.WIDTH_MM - r, 300.0), (200.0, r), (r, geo.LENGTH_MM - r)]) == frozenset()


# --- scripted shots: facts against ground truth ---------------------------------------------------------

def test_cw_4_1_a_coin_stopping_in_the_goal_makes_the_observer_ask_which_coin():
    v = math.sqrt(2 * 0.30 * 9810.0 * (312.5 - 40.0))
    facts, truth = Rig(table({"c1": (212.5, 40.0), "c2": (60.0, 60.0)})).strike("c1", 0.0, v)
    assert truth.dead == ["c1"]
    assert facts.dead is None and facts.goal_possible  # it never guesses which coin (CW-8)


def test_a_coin_crossing_the_goal_and_stopping_beyond_it_is_known_alive():
    v = math.sqrt(2 * 0.30 * 9810.0 * (480.0 - 40.0))
    facts, truth = Rig(table({"c1": (212.5, 40.0), "c2": (60.0, 60.0)})).strike("c1", 0.0, v)
    assert truth.dead == [] and facts.dead == []
    assert facts.edges > 0  # it did see the coin cross the goal
    assert facts.shot() == {"type": "shot", "seat": 1, "coin": "c1", "dead": [], "flown": [], "contacts": None,
                            "beam_edges": facts.edges}


def test_cw_6_1_a_coin_flying_off_the_table_is_seen_crossing_the_rail():
    always = FlyModel(rail_threshold=1.0, rail_full=2.0, rail_p_max=1.0, coin_threshold=1e12)
    facts, truth = Rig(table({"c1": (212.5, 300.0), "c2": (60.0, 60.0)}, fly=always)).strike("c1", 2500.0, 0.0)
    assert truth.flown == ["c1"]
    assert facts.flown is None and facts.rail_crossings >= 1


def test_contacts_are_unknown_unless_the_struck_coin_is_alone():
    facts, _ = Rig(table({"c1": (60.0, 60.0), "c2": (300.0, 500.0)})).strike("c1", 300.0, 0.0)
    assert facts.contacts is None
    facts, _ = Rig(table({"c1": (60.0, 60.0)})).strike("c1", 300.0, 0.0)
    assert facts.contacts == []


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000))
def test_observer_facts_are_never_wrong_about_ground_truth(seed):
    rng = random.Random(seed)
    rig = Rig(random_table(rng, rng.randint(2, 6)))
    coin, vx, vy = random_flick(rng, rig.table.positions())
    facts, truth = rig.strike(coin, vx, vy)
    if facts.dead is not None:
        assert facts.dead == truth.dead == []
    if truth.dead:
        assert facts.dead is None
    # a coin that left over a rail is always seen; one tilted on another coin is not (documented)
    if truth.left_table:
        assert facts.flown is None
    if facts.flown == []:
        assert truth.left_table == []


# --- timing: coins at rest = no beam activity for the settle time ------------------------------------------

def test_facts_come_only_after_the_beams_are_quiet_for_the_settle_time():
    clock = FakeClock()
    facts = []
    obs = Observer(BEAMS, clock, facts.append, settle_s=1.0)
    obs.strike(2)
    clock.advance(0.6)
    obs.on_edge(BeamEdge("goal5", True, clock.now()))
    clock.advance(0.6)
    obs.on_edge(BeamEdge("goal5", False, clock.now()))
    clock.advance(0.99)
    assert facts == [] and obs.busy
    clock.advance(0.02)
    assert len(facts) == 1 and not obs.busy
    assert facts[0].coin == "c2" and facts[0].dead == [] and facts[0].edges == 2


def test_a_goal_point_still_blocked_at_rest_means_a_coin_may_be_dead():
    clock = FakeClock()
    facts = []
    obs = Observer(BEAMS, clock, facts.append, settle_s=1.0)
    obs.strike(1)
    obs.on_edge(BeamEdge("goal5", True, clock.now()))
    clock.advance(1.5)
    assert facts[0].dead is None
    assert dead_possible(BEAMS, {"goal5"}) and not dead_possible(BEAMS, {"rail_w"})


# --- bad input ------------------------------------------------------------------------------------------

def test_bad_observer_input_is_refused_with_one_line_and_changes_nothing():
    clock = FakeClock()
    facts = []
    obs = Observer(BEAMS, clock, facts.append)
    with pytest.raises(ValueError, match="seat must be a positive integer"):
        obs.strike(0)
    assert not obs.busy
    obs.on_edge(BeamEdge("no_such_beam", True, clock.now()))
    assert obs.unknown_edges == 1 and obs.blocked == set()
    with pytest.raises(ValueError, match="settle_s must be a positive number"):
        Observer(BEAMS, clock, facts.append, settle_s=-1)


def test_cw_7_3_optional_mouth_beams_are_recognised_from_their_geometry():
    from gametable_core.config import BeamConfig

    mouths = [
        BeamConfig("mouth_a", 15, "segment", False, (162.5, -16.0), (262.5, -16.0)),
        BeamConfig("mouth_b", 3, "segment", False, (162.5, 641.0), (262.5, 641.0)),
    ]
    roles = classify(list(BEAMS) + mouths)
    assert roles.mouths == {"mouth_a": "A", "mouth_b": "B"}
    clock = FakeClock()
    facts = []
    obs = Observer(list(BEAMS) + mouths, clock, facts.append, settle_s=1.0)
    obs.strike(1)
    obs.on_edge(BeamEdge("mouth_b", True, clock.now()))
    obs.on_edge(BeamEdge("mouth_b", False, clock.now()))
    clock.advance(1.1)
    assert facts[0].mouth_crossings == {"B": 1} and facts[0].flown is None  # ball or a flown coin?


def test_goal_occupancy_counts_at_least_the_coins_the_points_prove():
    clock = FakeClock()
    facts = []
    obs = Observer(BEAMS, clock, facts.append, settle_s=1.0)
    obs.strike(1)
    for beam in ("goal1", "goal2", "goal9"):  # goal1/goal2 are 16 mm apart (one coin may cover both)
        obs.on_edge(BeamEdge(beam, True, clock.now()))
    clock.advance(1.1)
    assert facts[0].goal_points == ["goal1", "goal2", "goal9"]
    assert facts[0].goal_min_coins == 2


@settings(max_examples=60, deadline=None)
@given(events=st.lists(st.tuples(st.sampled_from([b.id for b in BEAMS] + ["bogus"]), st.booleans(),
                                 st.floats(0.0, 0.9)), max_size=30))
def test_any_edge_sequence_gives_exactly_one_fact_per_strike(events):
    clock = FakeClock()
    facts = []
    obs = Observer(BEAMS, clock, lambda f: facts.append((f, set(obs.blocked))), settle_s=1.0)
    obs.strike(3)
    for beam, blocked, gap in events:
        clock.advance(gap)
        obs.on_edge(BeamEdge(beam, blocked, clock.now()))
    clock.advance(1.01)
    assert len(facts) == 1 and not obs.busy
    f, blocked_at_rest = facts[0]
    assert f.seat == 3 and f.coin == "c3"
    assert f.dead in (None, []) and f.flown in (None, []) and f.contacts is None
    assert (f.dead is None) == dead_possible(BEAMS, blocked_at_rest)


def _recording_daemon(fail: bool = False) -> FakeDaemon:
    """Accepts every shot (or raises, as a closed journal would) and records who sent it."""
    state = {"players": [{"seat": 2, "coin": "c2"}, {"seat": 3, "coin": "c3"}], "coins_on_table": ["c2", "c3"]}
    return FakeDaemon(state, fail=RuntimeError("journal closed") if fail else None)


def test_for_daemon_submits_each_strikes_facts_as_a_shot_with_a_unique_id():
    from gametable_core.config import Config

    clock = FakeClock()
    daemon = _recording_daemon()
    obs = Observer.for_daemon(Config(beams=BEAMS), clock, daemon)
    for _ in range(2):
        obs.strike_started(2, clock.now())
        obs.beam_edge("goal3", True, clock.now())
        obs.beam_edge("goal3", False, clock.now() + 0.01)
        clock.advance(2.0)
    (first, second), (source, _) = daemon.inputs, daemon.sources
    assert source == "observer" and first["id"] != second["id"]
    # a real table cannot prove that nobody flew over a rail beam: flown is left to the engine
    assert {k: first[k] for k in ("type", "seat", "coin", "dead", "flown", "contacts")} == {
        "type": "shot", "seat": 2, "coin": "c2", "dead": [], "flown": None, "contacts": None}


def test_a_stopped_observer_reports_nothing_and_a_failing_daemon_does_not_crash_it():
    from gametable_core.config import Config

    clock = FakeClock()
    daemon = _recording_daemon()
    obs = Observer.for_daemon(Config(beams=BEAMS), clock, daemon)
    obs.strike_started(3)
    obs.stop()
    clock.advance(5.0)
    assert daemon.inputs == []
    broken = Observer.for_daemon(Config(beams=BEAMS), clock, _recording_daemon(fail=True))
    broken.strike_started(3)
    clock.advance(5.0)  # the submit fails inside the timer: logged, not raised
    assert not broken.busy


# --- rail beams, flown, and hands ---------------------------------------------------------------

def _rail_obs(**kw):
    clock = FakeClock()
    facts = []
    obs = Observer(BEAMS, clock, facts.append, settle_s=1.0, **kw)
    return clock, facts, obs


def _pulse(obs, clock, beam, seconds):
    obs.on_edge(BeamEdge(beam, True, clock.now()))
    clock.advance(seconds)
    obs.on_edge(BeamEdge(beam, False, clock.now()))


def test_cw_8_a_real_table_never_states_that_nobody_flew():
    clock, facts, obs = _rail_obs()  # default: a coin clearing the rail by > 0.3 mm passes over the beam unseen
    obs.strike(1, "c1", coins_on_table=["c1", "c2"])
    clock.advance(1.1)
    assert facts[0].flown is None and facts[0].dead == []


def test_cw_6_1_a_coin_shaped_rail_pulse_makes_flown_unknown_even_where_rails_prove_flights():
    clock, facts, obs = _rail_obs(flight_proof="rails")
    obs.strike(1)
    clock.advance(0.3)
    _pulse(obs, clock, "rail_w", 0.02)  # 30 mm at 1.5 m/s
    clock.advance(1.1)
    assert facts[0].flown is None and facts[0].rail_crossings == 1


def test_a_hand_sweeping_over_a_rail_during_a_strike_is_no_fact():
    clock, facts, obs = _rail_obs(flight_proof="rails")
    obs.strike(1)
    _pulse(obs, clock, "rail_s", 0.6)  # a forearm resting on the rail while flicking
    clock.advance(1.1)
    assert facts[0].flown == [] and facts[0].rail_crossings == 0


def test_rail_edges_outside_a_strike_are_no_fact():
    clock, facts, obs = _rail_obs(flight_proof="rails")
    obs.on_edge(BeamEdge("rail_n", True, clock.now()))  # a hand on the rail before the strike ...
    clock.advance(0.5)
    obs.strike(2)
    clock.advance(0.01)
    obs.on_edge(BeamEdge("rail_n", False, clock.now()))  # ... lifted just after it started
    clock.advance(1.1)
    _pulse(obs, clock, "rail_e", 0.02)  # a striker waved over a rail between strikes
    clock.advance(1.1)
    assert len(facts) == 1 and facts[0].flown == [] and facts[0].rail_crossings == 0


def test_a_rail_beam_still_blocked_at_rest_leaves_flown_unknown():
    clock, facts, obs = _rail_obs(flight_proof="rails")
    obs.strike(1)
    clock.advance(0.2)
    obs.on_edge(BeamEdge("rail_w", True, clock.now()))  # a coin come to rest on the rail, or a hand
    clock.advance(1.1)
    assert facts[0].flown is None and facts[0].rail_crossings == 0


def test_an_unknown_flight_proof_is_refused():
    with pytest.raises(ValueError, match="flight_proof must be one of"):
        Observer(BEAMS, FakeClock(), lambda f: None, flight_proof="hope")
