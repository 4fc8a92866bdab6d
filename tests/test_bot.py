"""The Coin War bot: legal, seeded shots that avoid teammates; bot-vs-bot games reach their end."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games.coinwar.shot_planner import BotError, plan
from gametable.sim_table import VirtualTable
from gametable_core.clock import FakeClock
from sensors.virtual.physics import MAX_FLICK_MM_S, TablePhysics
from sensors.virtual.random_shots import random_table
from tests.helpers.mini_referee import mini_daemon


def state(players):
    return {"game": "coinwar", "players": players, "phase": "playing"}


def ffa(n):
    return state([{"seat": s, "alive": True, "coin": f"c{s}"} for s in range(1, n + 1)])


def test_cw_5_1_bot_strikes_its_own_coin_with_a_legal_speed_and_is_seeded():
    rng = random.Random(4)
    positions = random_table(rng, 4).positions()
    coin, vx, vy = plan(positions, ffa(4), 3, seed=7)
    assert coin == "c3"
    assert 0 < math.hypot(vx, vy) <= MAX_FLICK_MM_S
    assert plan(positions, ffa(4), 3, seed=7) == (coin, vx, vy)


def test_bot_knocks_an_easy_enemy_into_the_goal():
    # enemy c2 sits just short of the goal, c1 straight behind it
    positions = {"c1": (212.5, 120.0), "c2": (212.5, 200.0), "c3": (60.0, 560.0)}
    coin, vx, vy = plan(positions, ffa(3), 1, seed=1)
    t = TablePhysics(dice=False)
    for c, p in positions.items():
        t.place(c, *p)
    truth = t.flick(coin, vx, vy)
    assert "c2" in truth.dead and "c1" not in truth.dead


def test_cw_5_5_in_teams_the_bot_does_not_knock_its_teammate_into_the_goal():
    # teammate c3 sits where c2 sat above: the "easy kill" would be a team kill
    positions = {"c1": (212.5, 120.0), "c3": (212.5, 200.0), "c2": (60.0, 560.0), "c4": (380.0, 560.0)}
    teams = state(
        [
            {"seat": 1, "alive": True, "coin": "c1", "team": "A"},
            {"seat": 2, "alive": True, "coin": "c2", "team": "B"},
            {"seat": 3, "alive": True, "coin": "c3", "team": "A"},
            {"seat": 4, "alive": True, "coin": "c4", "team": "B"},
        ]
    )
    coin, vx, vy = plan(positions, teams, 1, seed=1)
    t = TablePhysics(dice=False)
    for c, p in positions.items():
        t.place(c, *p)
    truth = t.flick(coin, vx, vy)
    assert coin == "c1" and not {"c1", "c3"} & set(truth.dead)


def test_bot_refuses_a_seat_that_cannot_play():
    positions = {"c1": (100.0, 100.0), "c2": (300.0, 300.0)}
    st = ffa(2)
    st["players"][0]["alive"] = False
    with pytest.raises(BotError, match="seat 1 is out of the game"):
        plan(positions, st, 1)
    with pytest.raises(BotError, match="seat 5 is not a player"):
        plan(positions, ffa(2), 5)
    with pytest.raises(BotError, match="coin c2 of seat 2 is not on the table"):
        plan({"c1": (100.0, 100.0)}, ffa(2), 2)


@pytest.mark.parametrize("ask", [False, True], ids=["truth", "ask"])
def test_bot_vs_bot_free_for_all_game_reaches_the_end(ask):
    daemon = mini_daemon()
    vt = VirtualTable(daemon, FakeClock(), seed=11, ask=ask, bots={1, 2, 3})
    players = [{"seat": s, "name": f"Bot {s}"} for s in (1, 2, 3)]
    assert daemon.submit({"id": "g", "type": "new_game", "game": "coinwar", "mode": "ffa", "players": players,
                          "order": [1, 2, 3], "seed": 11})["ok"]
    for _ in range(300):
        if not vt.play_bots():
            break
    st = daemon.public_state()
    assert st["phase"] == "over"
    assert isinstance(st["winner"], list) and len(st["winner"]) == 1 or "draw" in st["winner"]
    assert all(e["result"]["ok"] for e in vt.log)  # every input the sim made was legal


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 6), teams=st.booleans())
def test_bot_always_plans_a_legal_flick_of_its_own_coin(seed, n, teams):
    rng = random.Random(seed)
    positions = random_table(rng, n).positions()
    players = [{"seat": s, "alive": True, "coin": f"c{s}"} | ({"team": "AB"[s % 2]} if teams else {})
               for s in range(1, n + 1)]
    seat = rng.randint(1, n)
    coin, vx, vy = plan(positions, state(players), seat, seed=seed)
    assert coin == f"c{seat}"
    assert all(math.isfinite(v) for v in (vx, vy)) and 0 < math.hypot(vx, vy) <= MAX_FLICK_MM_S


def test_bot_plans_from_coins_pressed_into_a_corner_and_against_each_other():
    positions = {"c1": (15.0, 14.4), "c2": (44.5, 15.0), "c3": (300.0, 400.0)}
    coin, vx, vy = plan(positions, ffa(3), 1, seed=2)
    assert coin == "c1" and math.hypot(vx, vy) > 0
