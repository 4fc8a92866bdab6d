"""Dead beams: the walk test and the running check, fed by the real BeamBank on MockFactory pins."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from controller.default_table import default_beams
from gametable_core.clock import FakeClock
from gametable_core.config import BeamConfig
from sensors.beam_health import BeamWalk, DeadBeamWatch
from sensors.beams import BeamBank

BEAMS = tuple(b for b in default_beams() if not b.reference)  # the reference point: test_goal_reference.py


@pytest.fixture
def bank():
    """The default layout's beams on mock pins; ``pulse(id)`` passes a coin through one beam."""
    clock = FakeClock()
    factory = MockFactory()
    walk = BeamWalk(BEAMS)
    watch = DeadBeamWatch(BEAMS)
    seen: dict[str, list] = {"walk": [], "dead": []}

    def on_edge(edge) -> None:
        status = walk.on_edge(edge.beam_id, edge.blocked)
        if status:
            seen["walk"].append(status)
        seen["dead"] += watch.on_edge(edge.beam_id, edge.blocked)

    b = BeamBank(BEAMS, clock, on_edge, pin_factory=factory)
    for beam in BEAMS:  # every emitter on: the (active-high) rail receivers read clear
        if beam.active_high:
            factory.pin(beam.pin).drive_low()
    clock.advance(0.01)
    seen["walk"].clear()
    walk.__init__(BEAMS, b.blocked_ids())  # the walk starts from the levels read at start
    by_id = {beam.id: beam for beam in BEAMS}

    def pulse(beam_id: str) -> None:
        beam, pin = by_id[beam_id], factory.pin(by_id[beam_id].pin)
        (pin.drive_high if beam.active_high else pin.drive_low)()  # blocked
        clock.advance(0.02)
        (pin.drive_low if beam.active_high else pin.drive_high)()  # clear
        clock.advance(0.02)

    yield pulse, walk, watch, seen
    b.close()


def test_the_walk_test_names_every_beam_that_has_not_toggled(bank):
    pulse, walk, _watch, seen = bank
    assert walk.status()["missing"] == [b.id for b in BEAMS] and not walk.complete
    for b in BEAMS:
        if b.id != "goal7":  # its receiver is unplugged: it reads clear forever
            pulse(b.id)
    status = seen["walk"][-1]
    assert status["complete"] is False and status["missing"] == ["goal7"]
    assert status["message"] == "not seen yet: goal7 (GPIO22)"
    pulse("goal7")
    assert seen["walk"][-1]["complete"] is True and walk.complete


def test_a_beam_that_never_blocks_while_its_neighbours_see_coins_is_flagged_once(bank):
    pulse, _walk, watch, seen = bank
    others = [b.id for b in BEAMS if b.kind == "point" and b.id != "goal4"]
    for i in range(80):
        pulse(others[i % len(others)])
    [report] = [r for r in seen["dead"] if r["event"] == "dead_suspect"]
    assert report["beam"] == "goal4" and "GPIO11" in report["message"]
    for i in range(80):
        pulse(others[i % len(others)])
    assert len([r for r in seen["dead"] if r["event"] == "dead_suspect"]) == 1  # once per episode
    pulse("goal4")  # fixed: it blocks again
    assert seen["dead"][-1] == {"event": "dead_cleared", "beam": "goal4", "message": "beam goal4 blocks again"}


def test_rail_beams_are_judged_among_rail_beams_only(bank):
    pulse, _walk, watch, seen = bank
    for i in range(200):  # coins over the goal say nothing about a rail beam
        pulse(f"goal{1 + i % 12}")
    assert not any(r["beam"].startswith("rail") for r in seen["dead"])
    for i in range(16):  # coins fly over the west and south rails, never the east and north ones
        pulse(("rail_w", "rail_s")[i % 2])
    assert {r["beam"] for r in seen["dead"] if r["event"] == "dead_suspect"} == {"rail_e", "rail_n"}


def test_coins_dying_on_the_same_spot_game_after_game_flag_no_beam(bank):
    """Players aim at the middle of the goal: the two points there block again and again (as in
    `make demo`, where bots play game after game); the points around them are not dead."""
    pulse, _walk, _watch, seen = bank
    for i in range(400):
        pulse(("goal4", "goal6")[i % 2])
    assert seen["dead"] == []


def test_two_dead_points_are_both_flagged(bank):
    pulse, _walk, _watch, seen = bank
    others = [b.id for b in BEAMS if b.kind == "point" and b.id not in ("goal3", "goal9")]
    for i in range(100):
        pulse(others[i % len(others)])
    assert {r["beam"] for r in seen["dead"] if r["event"] == "dead_suspect"} == {"goal3", "goal9"}


def test_edges_of_unknown_beams_change_nothing():
    walk, watch = BeamWalk(BEAMS), DeadBeamWatch([BeamConfig("a", 4, "point", at=(0, 0))])
    assert walk.on_edge("nope", False) is None and watch.on_edge("nope", True) == []


# --- on the virtual table's physics: believable shots, beams from coin geometry ---------------------

def _watch_random_shots(shots: int, seed: int, unplugged: frozenset[str] = frozenset()) -> dict[str, int]:
    """The shot at which each beam was first flagged, over random believable shots on the virtual
    table (physics + beams from coin geometry); ``unplugged`` beams never report an edge."""
    import random

    from sensors.virtual.random_shots import random_flick, random_table
    from sensors.virtual.virtual_beams import VirtualBeams

    rng, watch, first, shot_no = random.Random(seed), DeadBeamWatch(BEAMS), {}, [0]

    def on_edge(edge) -> None:
        if edge.beam_id in unplugged:
            return
        for report in watch.on_edge(edge.beam_id, edge.blocked):
            if report["event"] == "dead_suspect":
                first.setdefault(report["beam"], shot_no[0])

    beams = VirtualBeams(BEAMS)
    for shot_no[0] in range(shots):
        table = random_table(rng, rng.randint(2, 6))
        beams.reset(table.positions())
        beams.on_edge = on_edge
        coin, vx, vy = random_flick(rng, table.positions())
        table.flick(coin, vx, vy, on_step=lambda t, positions: beams.update(t, positions))
    return first


def test_believable_play_flags_no_healthy_beam():
    assert _watch_random_shots(1000, seed=1) == {}


def test_an_unplugged_goal_point_is_flagged_during_believable_play():
    assert set(_watch_random_shots(400, seed=101, unplugged=frozenset({"goal5"}))) == {"goal5"}


def test_timed_walk_passes_a_beam_only_after_a_steady_coin_hold():
    walk = BeamWalk(BEAMS[:1], hold_s=1.0)
    bid = BEAMS[0].id
    assert walk.on_edge(bid, True, 10.0) is None
    short = walk.on_edge(bid, False, 10.4)  # a flicker: counted, not passed
    assert short is not None and not short["complete"] and "blocked 1 time(s) but never held 1 s" in short["message"]
    walk.on_edge(bid, True, 11.0)
    assert walk.on_edge(bid, False, 12.0)["complete"]


def test_timed_walk_refuses_an_edge_without_its_time_and_a_bad_hold():
    with pytest.raises(ValueError, match="needs its time t"):
        BeamWalk(BEAMS, hold_s=1.0).on_edge(BEAMS[0].id, True)
    with pytest.raises(ValueError, match="hold_s must be"):
        BeamWalk(BEAMS, hold_s=float("nan"))
