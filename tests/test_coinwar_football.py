"""Coin War Football (CW-7.3): team coins and a ball, goals through the mouths, free kicks, time."""

from __future__ import annotations

import pytest

from controller.games import GameError
from controller.games import coinwar as cw
from tests.coinwar_helpers import play, players, turn_seat

TEAMS4 = {1: "A", 2: "B", 3: "A", 4: "B"}


def football(team_of=None, order=None, **options):
    team_of = team_of or TEAMS4
    return cw.new(options, 1, players=players(*sorted(team_of), teams=team_of), mode="football",
                  order=order or sorted(team_of))


def kick(seat: int, coin: str, mouth=None, touch=(), flown=(), dead=()) -> dict:
    return {"type": "shot", "seat": seat, "coin": coin, "dead": list(dead), "flown": None if flown is None else list(flown),
            "contacts": None if touch is None else [[coin, c] for c in touch], "mouth": mouth}


def end(seat: int) -> dict:
    return {"type": "end_turn", "seat": seat}


def test_cw_7_3_team_coins_and_ball_are_on_the_table_and_scores_start_at_zero():
    v = cw.view(football())
    assert v["coins_on_table"] == ["A1", "A2", "A3", "B1", "B2", "B3", "ball"]
    assert v["scores"] == {"A": 0, "B": 0} and v["target"] == 3 and v["minutes"] is None
    assert [p["team"] for p in v["players"]] == ["A", "B", "A", "B"]


def test_cw_7_3_strike_one_of_your_teams_coins_at_most_twice():
    s = football()
    assert next(m for m in cw.legal(s, 1)["moves"] if m["type"] == "shot")["coins"] == ["A1", "A2", "A3"]
    with pytest.raises(GameError, match="may strike only A1 or A2 or A3"):
        cw.apply(s, kick(1, "B1"))
    s = play(s, kick(1, "A2"))
    with pytest.raises(GameError, match="one coin per turn"):
        cw.apply(s, kick(1, "A1"))
    s = play(s, kick(1, "A2"))
    assert turn_seat(s) == 2  # two strikes used


def test_cw_7_3_the_turn_ends_when_the_struck_coin_touches_the_ball():
    s = play(football(), kick(1, "A1", touch=["B1"]))
    assert turn_seat(s) == 1  # touching an opponent's coin is not an attack in football
    s = play(s, kick(1, "A1", touch=["ball"]))
    assert turn_seat(s) == 2


def test_cw_7_3_a_goal_scores_and_the_conceding_team_kicks_off_with_the_ball_on_the_centre():
    s = play(football(), kick(1, "A1", touch=["ball"], mouth="B"))
    v = cw.view(s)
    assert v["scores"] == {"A": 1, "B": 0}
    assert turn_seat(s) == 2  # B conceded: B kicks off
    assert v["pending_placements"] == [{"coin": "ball", "by": 2, "where": "centre"}]
    goal = next(e for e in v["last"] if e["kind"] == "goal")
    assert goal["team"] == "A" and goal["own_goal"] is False


def test_cw_7_3_an_own_goal_counts_for_the_opponent_and_the_scorer_of_it_kicks_off():
    s = play(football(), kick(1, "A3", touch=["ball"], mouth="A"))  # A puts the ball in its own mouth
    v = cw.view(s)
    assert v["scores"] == {"A": 0, "B": 1}
    assert next(e for e in v["last"] if e["kind"] == "goal")["own_goal"] is True
    assert turn_seat(s) == 3  # A conceded: A kicks off (its next member), not B
    s = play(s, {"type": "placed", "coin": "ball"}, end(3))
    assert turn_seat(s) == 2  # then the alternation goes on


def test_cw_7_3_first_to_target_wins():
    s = football(target=2)
    s = play(s, kick(1, "A1", touch=["ball"], mouth="B"), {"type": "placed", "coin": "ball"}, end(2))
    s = play(s, kick(3, "A2", touch=["ball"], mouth="B"))
    assert s["winner"] == [1, 3] and s["phase"] == "over" and s["pending_placements"] == []


def test_cw_7_3_any_foul_gives_the_other_team_a_free_kick():
    s = play(football(), kick(1, "A1", flown=["A2"]))  # own team's coin flew
    v = cw.view(s)
    assert v["turn"] == {"seat": 2, "strikes": 0, "extra": True}
    assert v["pending_placements"] == [{"coin": "A2", "by": 1, "where": "normal"}]
    s = play(s, {"type": "placed", "coin": "A2"}, end(2))
    assert turn_seat(s) == 2 and s["turn"]["extra"] is False  # then B's regular turn resumes


def test_cw_7_3_flown_ball_goes_back_on_the_spot_it_left_and_flown_opponent_coin_by_its_team():
    s = play(football(), kick(1, "A1", flown=["ball", "B3"]))
    v = cw.view(s)
    assert v["turn"]["seat"] == 2 and v["turn"]["extra"] is True
    assert {"coin": "ball", "by": 2, "where": "exit"} in v["pending_placements"]
    assert {"coin": "B3", "by": 2, "where": "normal"} in v["pending_placements"]
    assert cw.view(s)["players"][0]["alive"]  # nobody is executed in football


def test_cw_7_3_nothing_dies_in_football_and_mouth_is_checked():
    s = football()
    with pytest.raises(GameError, match="nothing dies in football"):
        cw.apply(s, kick(1, "A1", dead=["B1"]))
    with pytest.raises(GameError, match="'mouth' must be"):
        cw.apply(s, kick(1, "A1", mouth="C"))
    with pytest.raises(GameError, match="both cross a mouth and be flown"):
        cw.apply(s, kick(1, "A1", mouth="B", flown=["ball"]))
    s2 = play(s, {"type": "shot", "seat": 1, "coin": "A1", "dead": None, "flown": [], "contacts": [], "mouth": None})
    assert cw.view(s2)["questions"] == []  # no "which coins died?" question in football


def test_cw_8_football_asks_only_whether_the_struck_coin_touched_the_ball():
    s = play(football(), kick(1, "A1", touch=None))
    q = cw.view(s)["questions"][0]
    assert q["options"] == ["ball"] and q["subject"] == "A1"
    s = play(s, {"type": "answer", "question": q["id"], "value": ["ball"]})
    assert turn_seat(s) == 2


def test_cw_7_3_team_sizes():
    football({1: "A", 2: "B"})  # 1 v 1
    football({1: "A", 2: "B", 3: "B"})  # 1 v 2
    with pytest.raises(GameError, match="two teams of 1-3"):
        cw.new({}, 1, players=players(1, 2, 3, 4, teams={1: "A", 2: "A", 3: "A", 4: "A"}), mode="football",
               order=[1, 2, 3, 4])
    with pytest.raises(GameError, match="team 'A' or 'B'"):
        football({1: "A", 2: "X"})


def test_cw_7_3_time_up_ends_on_the_score():
    s = football(minutes=10)
    assert cw.view(s)["minutes"] == 10
    s = play(s, kick(1, "A1", touch=["ball"], mouth="B"), {"type": "placed", "coin": "ball"})
    s = play(s, {"type": "time_up"})
    assert s["winner"] == [1, 3] and s["phase"] == "over"
    tie = play(football(minutes=5), {"type": "time_up"})
    assert tie["winner"] == {"draw": [1, 2, 3, 4]}


def test_cw_7_3_time_up_during_a_strike_ends_after_it_is_resolved():
    s = play(football(minutes=5), {"type": "strike", "seat": 1}, {"type": "time_up"})
    assert s["phase"] == "playing" and cw.view(s)["time_up"] is True
    with pytest.raises(GameError, match="already up"):
        cw.apply(s, {"type": "time_up"})
    s = play(s, kick(1, "A1", touch=["ball"], mouth="A"))  # an own goal in the last second
    assert s["winner"] == [2, 4]


def test_cw_7_3_time_up_without_a_limit_is_rejected():
    with pytest.raises(GameError, match="no time limit"):
        cw.apply(football(), {"type": "time_up"})


def test_cw_7_3_time_up_goes_through_the_table_and_replays():
    from gametable.replay import replay_lines

    lines = [
        '{"type":"new_game","game":"coinwar","mode":"football","players":[{"seat":1,"name":"A","team":"A"},'
        '{"seat":2,"name":"B","team":"B"}],"order":[2,1],"options":{"minutes":1},"seed":5}',
        '{"type":"shot","seat":2,"coin":"B1","dead":[],"flown":[],"contacts":[["B1","ball"]],"mouth":"A"}',
        '{"type":"placed","coin":"ball"}',
        '{"type":"time_up"}',
    ]
    table = replay_lines(lines)
    assert table.public_view()["winner"] == [2] and table.public_view()["scores"] == {"A": 0, "B": 1}
