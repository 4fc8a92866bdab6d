"""Goal sensors that fail safe (hardware_docs/beam_layout.md, "Failing safe"; CW-4.1, CW-8).

A goal point reads "blocked" only while it sees a coin's foil mirror its emitter: a stopped 38 kHz
carrier, a dead emitter supply or the goal cable pulled make every point read "clear", which alone
would state "no coin died". The reference point (`reference = true`, a goal plug under a foil dot
glued for good) must always read blocked; when it does not, even for a moment within a strike,
``dead`` is unknown (the phones are asked) and the host is told at once."""

from __future__ import annotations

from controller.default_table import default_beams
from controller.games.coinwar.sensing import Observer
from gametable_core.clock import FakeClock
from gametable_core.platform import BeamEdge
from sensors.beam_health import BeamWalk, DeadBeamWatch
from sensors.virtual.virtual_beams import VirtualBeams

BEAMS = default_beams()
REFS = [b.id for b in BEAMS if b.reference]
HEALTHY = set(REFS)  # at rest with no coin on the goal: only the reference reads blocked


def _observer(facts: list, blocked: set[str]) -> tuple[Observer, FakeClock]:
    clock = FakeClock()
    return Observer(BEAMS, clock, facts.append, settle_s=1.0, initially_blocked=blocked), clock


def test_the_default_table_has_one_reference_point_off_the_playing_surface():
    assert REFS == ["goal_ref"]
    from controller.games.coinwar.sensing import classify
    roles = classify(BEAMS)
    assert roles.reference == ("goal_ref",) and "goal_ref" not in roles.surface + roles.rail


def test_cw_4_1_healthy_goal_sensors_still_prove_nobody_died():
    facts: list = []
    obs, clock = _observer(facts, HEALTHY)
    obs.strike(1)
    clock.advance(1.1)
    assert facts[0].dead == [] and facts[0].goal_fault == []


def test_cw_4_1_a_reference_reading_clear_makes_dead_unknown():
    facts: list = []
    obs, clock = _observer(facts, set())  # the carrier stopped before the strike
    obs.strike(1)
    clock.advance(1.1)
    assert facts[0].dead is None and facts[0].goal_fault == ["goal_ref"] and facts[0].goal_possible


def test_cw_4_1_a_reference_that_flickered_within_the_strike_makes_dead_unknown():
    facts: list = []
    obs, clock = _observer(facts, HEALTHY)
    obs.strike(1)
    clock.advance(0.1)
    obs.on_edge(BeamEdge("goal_ref", False, clock.now()))  # the carrier dropped out for a moment
    clock.advance(0.05)
    obs.on_edge(BeamEdge("goal_ref", True, clock.now()))
    clock.advance(1.1)
    assert facts[0].dead is None and facts[0].goal_fault == ["goal_ref"]
    obs.strike(2)  # the next strike, sensors healthy throughout: proven again
    clock.advance(1.1)
    assert facts[1].dead == [] and facts[1].goal_fault == []


def test_cw_4_1_a_stopped_carrier_with_a_coin_in_the_goal_is_never_read_as_nobody_died():
    """The virtual beams with the goal sensors failed: a coin lies dead in the goal, no goal point
    reads it, and the observer -- within that one strike -- says dead is unknown, not []."""
    facts: list = []
    clock = FakeClock()
    vb = VirtualBeams(BEAMS)
    vb.reset({"c1": (212.5, 40.0)})
    obs = Observer(BEAMS, clock, facts.append, settle_s=1.0, initially_blocked=vb.state)
    vb.on_edge = obs.on_edge
    obs.strike(1, "c1")
    vb.goal_sensors_failed = True
    for y in range(40, 313, 8):  # c1 slides into the goal's middle and rests there
        clock.advance(0.01)
        vb.update(clock.now(), {"c1": (212.5, float(y))})
    assert not (vb.state & {b.id for b in BEAMS if b.kind == "point"})  # no point reads it
    clock.advance(1.1)
    assert facts[0].dead is None and facts[0].goal_fault == ["goal_ref"]


def test_the_walk_test_and_the_dead_and_stuck_checks_leave_the_reference_alone():
    walk = BeamWalk(BEAMS, initially_blocked=HEALTHY)
    assert "goal_ref" not in walk.status()["missing"]  # it never clears: nothing to walk
    assert "goal_ref" not in DeadBeamWatch(BEAMS).beams
