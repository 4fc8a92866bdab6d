"""Coin War Infinite (CW-7.1, CW-7.4): respawns, a point to the other team per death, target."""

from __future__ import annotations

import pytest

from controller.games import GameError
from controller.games import coinwar as cw
from tests.coinwar_helpers import alive, play, players, shot, turn_seat

TEAMS = {1: "A", 2: "B", 3: "A", 4: "B"}


def infinite(target: int | None = None, order=(1, 2, 3, 4), team_of=None):
    team_of = team_of or TEAMS
    options = {} if target is None else {"target": target}
    return cw.new(options, 1, players=players(*sorted(team_of), teams=team_of), mode="infinite", order=list(order))


def end(seat: int) -> dict:
    return {"type": "end_turn", "seat": seat}


def placed(coin: str) -> dict:
    return {"type": "placed", "coin": coin}


def test_cw_7_1_enemy_death_scores_for_the_killer_team_and_respawns_at_the_initial_position():
    s = play(infinite(), shot(1, touch=["c2"], dead=["c2"]))
    v = cw.view(s)
    assert v["scores"] == {"A": 1, "B": 0}
    assert alive(s) == [1, 2, 3, 4]  # CW-7.1 respawn at once
    assert v["pending_placements"] == [{"coin": "c2", "by": 2, "where": "initial"}]  # CW-7.4
    assert turn_seat(s) == 2  # attack strike ended the turn
    s = play(s, placed("c2"))
    assert "c2" in cw.view(s)["coins_on_table"]


def test_cw_7_1_suicide_and_team_kill_score_for_the_other_team():
    s = play(infinite(), shot(1, dead=["c3"]))  # A1 knocks teammate A3 in: B scores
    assert cw.view(s)["scores"] == {"A": 0, "B": 1}
    assert turn_seat(s) == 1 and s["turn"]["strikes"] == 1  # a move strike: the turn goes on
    # the respawn must be placed (by seat 3) before seat 1 may strike again (CW-9)
    with pytest.raises(GameError, match="placed by seat 3"):
        cw.apply(s, shot(1))
    s = play(s, placed("c3"), shot(1, dead=["c1"]))  # suicide: B scores again
    assert cw.view(s)["scores"] == {"A": 0, "B": 2}
    assert turn_seat(s) == 2  # CW-7.4: own coin died, the turn ends


def test_cw_7_4_active_players_own_death_ends_the_turn_after_one_strike():
    s = play(infinite(), shot(1, dead=["c1"]))
    assert turn_seat(s) == 2
    assert cw.view(s)["pending_placements"] == [{"coin": "c1", "by": 1, "where": "initial"}]


def test_cw_6_4_cw_7_1_execution_scores_and_the_coin_respawns_at_its_initial_position():
    # CW-6.4: two coins flown, the fouler is executed "as if knocked into the goal once": a death
    # (point to B) and the coin respawns at its initial position, placed by its owner
    s = play(infinite(), shot(1, flown=["c2", "c4"]))
    v = cw.view(s)
    assert v["scores"] == {"A": 0, "B": 1}
    assert alive(s) == [1, 2, 3, 4]
    assert sorted((p["coin"], p["by"], p["where"]) for p in v["pending_placements"]) == [
        ("c1", 1, "initial"), ("c2", 2, "normal"), ("c4", 4, "normal")]
    assert "c1" not in v["coins_on_table"]
    assert any(e.get("rule") == "CW-6.4" for e in v["last"])
    s = play(s, placed("c2"), placed("c4"))
    with pytest.raises(GameError, match="placed by seat 1"):
        cw.apply(s, shot(2))
    assert "c1" in cw.view(play(s, placed("c1")))["coins_on_table"]


def test_cw_6_4_cw_7_1_executed_player_whose_coin_flew_respawns_it_at_the_initial_position():
    s = play(infinite(), shot(1, flown=["c1", "c2"]))
    v = cw.view(s)
    assert v["scores"] == {"A": 0, "B": 1}
    assert sorted((p["coin"], p["by"], p["where"]) for p in v["pending_placements"]) == [
        ("c1", 1, "initial"), ("c2", 2, "normal")]


def test_cw_6_5_fouler_dead_in_the_goal_is_not_executed_twice_in_infinite():
    s = play(infinite(), shot(1, dead=["c1"], flown=["c2", "c4"]))
    assert cw.view(s)["scores"] == {"A": 0, "B": 1}


def test_cw_7_1_first_team_to_target_wins():
    s = infinite(target=2)
    s = play(s, shot(1, touch=["c2"], dead=["c2"]), placed("c2"))
    assert s["winner"] is None
    s = play(s, end(2), shot(3, touch=["c4"], dead=["c4"]))
    assert cw.view(s)["scores"] == {"A": 2, "B": 0}
    assert s["winner"] == [1, 3] and s["phase"] == "over" and s["turn"] is None
    assert s["pending_placements"] == []  # CW-6.6: nothing is placed once the game is over


def test_cw_7_1_both_teams_reaching_target_on_one_strike():
    s = infinite(target=1)
    s = play(s, shot(1, dead=["c1", "c2"]))  # one death on each side: 1-1 → draw
    assert s["winner"] == {"draw": [1, 2, 3, 4]}
    s = infinite(target=2)
    s = play(s, shot(1, touch=["c2"], dead=["c2"]), placed("c2"))
    s = play(s, end(2), shot(3, touch=["c4"], dead=["c3", "c4"]))  # A 2, B 1 → A wins
    assert s["winner"] == [1, 3]


def test_cw_7_1_option_and_team_names_are_checked():
    with pytest.raises(GameError, match="'target' must be at least 1"):
        infinite(target=0)
    with pytest.raises(GameError, match="teams 'A' and 'B'"):
        infinite(team_of={1: "X", 2: "Y", 3: "X", 4: "Y"})
    with pytest.raises(GameError, match="4, 6 players"):
        cw.new({}, 1, players=players(1, 2), mode="infinite", order=[1, 2])


def test_cw_7_1_is_described_for_the_lobby():
    entry = next(m for m in cw.describe()["modes"] if m["mode"] == "infinite")
    assert entry["players"] == [4, 6] and entry["options"]["target"]["default"] == 3
