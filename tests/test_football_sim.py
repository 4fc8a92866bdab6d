"""CW-7.3 football on the virtual table: mouths in the short rails, team coins, ball, bot."""

from __future__ import annotations

import math

from controller.games.coinwar.shot_planner import plan
from controller.games.coinwar.virtual_table import FOOTBALL_SPOTS
from gametable.sim_table import VirtualTable
from gametable.testing.fake_daemon import FakeDaemon
from gametable_core.clock import FakeClock
from sensors.virtual.physics import PhysicsParams, TablePhysics

FOOTBALL = {
    "game": "coinwar", "mode": "football", "phase": "playing",
    "turn": {"seat": 1, "strikes": 0, "extra": False},
    "players": [{"seat": 1, "name": "Ann", "alive": True, "coin": None, "team": "A"},
                {"seat": 2, "name": "Bob", "alive": True, "coin": None, "team": "B"}],
    "coins_on_table": ["A1", "A2", "A3", "B1", "B2", "B3", "ball"],
    "questions": [], "pending_placements": [], "winner": None, "strikes_allowed": 2,
}


def test_cw_7_3_football_kick_off_has_both_teams_the_ball_and_open_mouths():
    vt = VirtualTable(FakeDaemon(FOOTBALL), FakeClock(), seed=1)
    vt.sync()
    assert vt.physics.params.mouths
    assert vt.physics.positions() == {c: FOOTBALL_SPOTS[c] for c in FOOTBALL["coins_on_table"]}


def test_cw_7_3_the_ball_through_mouth_b_is_reported_as_the_shots_mouth():
    daemon = FakeDaemon(FOOTBALL)
    vt = VirtualTable(daemon, FakeClock(), seed=1)
    vt.sync()
    vt.physics.remove("ball")
    vt.physics.place("ball", 212.5, 560.0)
    vt.physics.remove("A2")
    vt.physics.place("A2", 212.5, 400.0)
    assert vt.flick("A2", 0.0, 2200.0)["ok"]
    shot = daemon.inputs[-1]
    assert shot["type"] == "shot" and shot["coin"] == "A2"
    assert shot["mouth"] == "B" and shot["dead"] == [] and "ball" not in shot["flown"]
    assert "ball" not in vt.physics.positions()


def test_cw_7_3_football_bot_scores_through_the_other_teams_mouth():
    positions = dict(FOOTBALL_SPOTS) | {"ball": (212.5, 540.0), "A2": (230.0, 440.0), "B2": (330.0, 560.0)}
    coin, vx, vy = plan(positions, FOOTBALL, 1, seed=3)
    assert coin in ("A1", "A2", "A3")
    t = TablePhysics(PhysicsParams(mouths=True), dice=False)
    for c, p in positions.items():
        t.place(c, *p)
    assert t.flick(coin, vx, vy).mouths.get("ball") == "B"
    assert 0 < math.hypot(vx, vy) <= 3000.0
    # the coin already struck this turn is the only choice
    assert plan(positions, FOOTBALL, 1, seed=3, coins=["A3"])[0] == "A3"
