"""Coin War Classic scenarios, one per rule (docs/rules/coinwar.md CW-3 … CW-6, CW-8, CW-9)."""

from __future__ import annotations

import json

import pytest

from controller.games import GameError
from controller.games import coinwar as cw
from tests.coinwar_helpers import alive, ffa, play, shot, teams, turn_seat

END = {"type": "end_turn"}


def end(seat: int) -> dict:
    return {"type": "end_turn", "seat": seat}


# --- CW-3 turn order ---------------------------------------------------------------------------

def test_cw_3_1_ffa_turns_follow_the_order_and_skip_the_dead():
    s = ffa(1, 2, 3, 4, order=[2, 4, 1, 3])
    assert turn_seat(s) == 2
    s = play(s, shot(2, touch=["c4"], dead=["c4"]))  # attack ends the turn, 4 dies
    assert turn_seat(s) == 1  # 4 is skipped
    s = play(s, end(1))
    assert turn_seat(s) == 3
    s = play(s, end(3))
    assert turn_seat(s) == 2


def test_cw_3_2_teams_alternate_and_rotate_within_the_team():
    # order [1,2,3,4,5,6], A = 1,3,5, B = 2,4,6 → A1 B2 A3 B4 A5 B6 A1
    s = teams([1, 2, 3, 4, 5, 6], {1: "A", 2: "B", 3: "A", 4: "B", 5: "A", 6: "B"})
    seen = []
    for _ in range(7):
        seen.append(turn_seat(s))
        s = play(s, end(turn_seat(s)))
    assert seen == [1, 2, 3, 4, 5, 6, 1]


def test_cw_3_2_team_rotation_any_order_within_team():
    # A1 → A3 → A2 style rotation: order [1,4,3,5,2,6] with A = 1,3,2 and B = 4,5,6
    s = teams([1, 4, 3, 5, 2, 6], {1: "A", 2: "A", 3: "A", 4: "B", 5: "B", 6: "B"})
    seen = []
    for _ in range(8):
        seen.append(turn_seat(s))
        s = play(s, end(turn_seat(s)))
    assert seen == [1, 4, 3, 5, 2, 6, 1, 4]


def test_cw_3_3_rotation_after_a_death_keeps_relative_order():
    s = teams([1, 2, 3, 4, 5, 6], {1: "A", 2: "B", 3: "A", 4: "B", 5: "A", 6: "B"})
    s = play(s, shot(1, dead=["c3"], touch=[]))  # A1 kills teammate A3 (move strike, turn goes on)
    assert turn_seat(s) == 1 and s["turn"]["strikes"] == 1
    s = play(s, end(1))
    seen = []
    for _ in range(5):
        seen.append(turn_seat(s))
        s = play(s, end(turn_seat(s)))
    assert seen == [2, 5, 4, 1, 6]


def test_cw_3_first_team_is_the_team_of_the_first_seat_in_order():
    s = teams([2, 1, 4, 3], {1: "A", 2: "B", 3: "A", 4: "B"})
    assert turn_seat(s) == 2
    s = play(s, end(2))
    assert turn_seat(s) == 1


# --- CW-4 death and victory --------------------------------------------------------------------

def test_cw_4_2_dead_coin_leaves_the_table_and_player_leaves_the_game():
    s = play(ffa(1, 2, 3), shot(1, dead=["c2"], touch=["c2"]))
    assert alive(s) == [1, 3]
    assert "c2" not in cw.view(s)["coins_on_table"]
    with pytest.raises(GameError, match="not on the table"):
        cw.apply(s, shot(3, dead=["c2"]))


def test_cw_4_3_suicide_any_coin_several_at_once():
    s = play(ffa(1, 2, 3, 4), shot(1, dead=["c1", "c2"], touch=["c2"]))
    assert alive(s) == [3, 4]
    assert turn_seat(s) == 3


def test_cw_4_4_ffa_last_player_alive_wins():
    s = play(ffa(1, 2, 3), shot(1, dead=["c2", "c3"], touch=["c2"]))
    v = cw.view(s)
    assert v["winner"] == [1] and v["phase"] == "over" and v["turn"] is None
    with pytest.raises(GameError, match="over"):
        cw.apply(s, shot(1))


def test_cw_4_4_teams_win_lists_every_member_alive_or_not():
    s = teams([1, 2, 3, 4], {1: "A", 2: "B", 3: "A", 4: "B"})
    s = play(s, shot(1, dead=["c3"], touch=[]), shot(1, touch=["c2"]))  # A3 died (team kill)
    s = play(s, shot(2, dead=["c4"]), end(2))  # B4 suicide... then B2 alone
    assert alive(s) == [1, 2]
    s = play(s, shot(1, dead=["c2"], touch=["c2"]))
    assert cw.winner(s) == [1, 3]


def test_cw_4_5_ffa_one_strike_kills_everyone_left_is_a_draw():
    s = play(ffa(1, 2, 3, 4), shot(1, dead=["c4"], touch=["c4"]))
    s = play(s, shot(2, dead=["c1", "c2", "c3"], touch=["c3"]))
    assert cw.winner(s) == {"draw": [1, 2, 3]}
    assert cw.view(s)["phase"] == "over"


def test_cw_4_5_teams_last_members_of_both_teams_die_is_a_draw():
    s = teams([1, 2, 3, 4], {1: "A", 2: "B", 3: "A", 4: "B"})
    s = play(s, shot(1, dead=["c1", "c2", "c3", "c4"], touch=["c2"]))
    assert cw.winner(s) == {"draw": [1, 2, 3, 4]}


# --- CW-5 strikes ------------------------------------------------------------------------------

def test_cw_5_1_only_own_coin():
    with pytest.raises(GameError, match="only c1"):
        cw.apply(ffa(1, 2), shot(1, coin="c2"))


def test_cw_5_1_two_strikes_at_most_then_the_turn_ends():
    s = play(ffa(1, 2, 3), shot(1), shot(1))
    assert turn_seat(s) == 2


def test_cw_5_1_third_strike_is_rejected_state_unchanged():
    s = play(ffa(1, 2, 3), {"type": "strike", "seat": 1}, shot(1), {"type": "strike", "seat": 1})
    assert s["turn"]["strikes"] == 2
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(GameError, match="still being observed"):
        cw.apply(s, {"type": "strike", "seat": 1})
    assert json.dumps(s, sort_keys=True) == before
    s = play(s, shot(1))
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(GameError, match="seat 2's turn, not seat 1's"):
        cw.apply(s, shot(1))
    assert json.dumps(s, sort_keys=True) == before


def test_cw_9_other_players_pending_placement_blocks_the_next_shot():
    # CW-6.4: owners place back; seat 2 is due next but seat 3's coin is still off the table
    s = play(ffa(1, 2, 3, 4), shot(1, flown=["c2", "c3"]))
    with pytest.raises(GameError, match="placed by seat 3"):
        cw.apply(s, shot(2))
    s = play(s, {"type": "placed", "coin": "c3"}, shot(2))
    assert cw.view(s)["pending_placements"] == []


def test_cw_5_1_strike_then_shot_counts_once():
    s = play(ffa(1, 2), {"type": "strike", "seat": 1})
    assert s["turn"]["strikes"] == 1 and cw.view(s)["striking"]
    s = play(s, shot(1))
    assert s["turn"] == {"seat": 1, "strikes": 1, "extra": False}


def test_cw_5_2_move_strike_touching_teammate_keeps_the_turn():
    s = teams([1, 2, 3, 4], {1: "A", 2: "B", 3: "A", 4: "B"})
    s = play(s, shot(1, touch=["c3"]))
    assert turn_seat(s) == 1 and s["turn"]["strikes"] == 1


def test_cw_5_2_only_the_struck_coins_contacts_count():
    s = ffa(1, 2, 3)
    s = cw.apply(s, {"type": "shot", "seat": 1, "coin": "c1", "dead": [], "flown": [],
                     "contacts": [["c2", "c3"]]})
    assert turn_seat(s) == 1  # c1 touched nobody: a move strike


def test_cw_5_3_attack_strike_ends_the_turn_at_once():
    s = play(ffa(1, 2, 3), shot(1, touch=["c3"]))
    assert turn_seat(s) == 2


def test_cw_5_4_end_turn_after_one_move_strike_and_with_none():
    s = play(ffa(1, 2, 3), shot(1), end(1))
    assert turn_seat(s) == 2
    legal = cw.legal(s, 2)["moves"]
    assert {"type": "end_turn", "confirm": True} in legal  # the panel asks for confirmation
    s = play(s, end(2))
    assert turn_seat(s) == 3


def test_wrong_seat_is_rejected_naming_whose_turn_it_is():
    with pytest.raises(GameError, match="seat 1's turn, not seat 2's"):
        cw.apply(ffa(1, 2), shot(2))


# --- CW-6 the flying-coin foul -----------------------------------------------------------------

def test_cw_6_2_own_coin_flown_next_player_places_it():
    s = play(ffa(1, 2, 3), shot(1, flown=["c1"]))
    assert turn_seat(s) == 2
    assert cw.view(s)["pending_placements"] == [{"coin": "c1", "by": 2, "where": "normal"}]
    with pytest.raises(GameError, match="must be placed by seat 2"):
        cw.apply(s, end(2))
    s = play(s, {"type": "placed", "coin": "c1"})
    assert cw.view(s)["pending_placements"] == []


def test_cw_6_2_shot_by_the_seat_due_next_confirms_its_placement():
    s = play(ffa(1, 2, 3), shot(1, flown=["c1"]), shot(2, touch=["c1"]))
    assert cw.view(s)["pending_placements"] == []
    assert turn_seat(s) == 3


def test_cw_6_2_teammate_coin_flown_is_own_side():
    s = teams([1, 2, 3, 4], {1: "A", 2: "B", 3: "A", 4: "B"})
    s = play(s, shot(1, flown=["c3"]))
    assert turn_seat(s) == 2 and not s["turn"]["extra"]
    assert cw.view(s)["pending_placements"] == [{"coin": "c3", "by": 2, "where": "normal"}]


def test_cw_6_3_opponent_coin_flown_gives_that_opponent_an_extra_turn_then_play_resumes():
    s = play(ffa(1, 2, 3, 4), shot(1, flown=["c3"]))
    assert s["turn"] == {"seat": 3, "strikes": 0, "extra": True}
    assert cw.view(s)["pending_placements"] == [{"coin": "c3", "by": 3, "where": "normal"}]
    s = play(s, {"type": "placed", "coin": "c3"}, end(3))
    assert s["turn"] == {"seat": 2, "strikes": 0, "extra": False}  # the turn after the fouler's
    s = play(s, end(2))
    assert turn_seat(s) == 3  # 3's regular turn still comes: the extra turn moved nothing (CW-3.4)


def test_cw_6_3_extra_turn_in_teams_resumes_with_the_right_player():
    s = teams([1, 2, 3, 4], {1: "A", 2: "B", 3: "A", 4: "B"})
    s = play(s, end(1))  # B2 plays
    s = play(s, shot(2, flown=["c3"]))  # B2 flies A3's coin → A3 extra turn
    assert s["turn"] == {"seat": 3, "strikes": 0, "extra": True}
    s = play(s, shot(3), end(3))  # the shot confirms A3's own placement
    assert turn_seat(s) == 3 and not s["turn"]["extra"]  # A's next regular turn is A3's
    s = play(s, end(3))
    assert turn_seat(s) == 4


def test_cw_6_4_two_coins_flown_executes_the_fouler_and_owners_place_back():
    s = play(ffa(1, 2, 3, 4), shot(1, flown=["c2", "c3"]))
    assert alive(s) == [2, 3, 4]
    assert turn_seat(s) == 2
    assert cw.view(s)["pending_placements"] == [
        {"coin": "c2", "by": 2, "where": "normal"}, {"coin": "c3", "by": 3, "where": "normal"}]
    last = cw.view(s)["last"]
    assert any(e.get("rule") == "CW-6.4" and e.get("executed") == 1 for e in last)


def test_cw_6_4_executed_players_own_flown_coin_is_not_placed():
    s = play(ffa(1, 2, 3), shot(1, flown=["c1", "c2"]))
    assert alive(s) == [2, 3]
    assert cw.view(s)["pending_placements"] == [{"coin": "c2", "by": 2, "where": "normal"}]


def test_cw_6_4_execution_can_end_the_game():
    s = play(ffa(1, 2), shot(1, flown=["c1", "c2"]))
    assert cw.winner(s) == [2]


def test_cw_6_5_deaths_first_a_dead_coin_is_not_also_flown():
    # c2 reported both dead and flown: it died, so only c3 flew → CW-6.3, not an execution
    s = play(ffa(1, 2, 3), shot(1, dead=["c2"], flown=["c2", "c3"], touch=["c2"]))
    assert alive(s) == [1, 3]
    assert s["turn"] == {"seat": 3, "strikes": 0, "extra": True}


def test_cw_6_5_fouler_who_died_on_the_strike_is_not_killed_twice():
    s = play(ffa(1, 2, 3, 4), shot(1, dead=["c1"], flown=["c2", "c3"]))
    assert alive(s) == [2, 3, 4]
    outs = [e for e in cw.view(s)["last"] if e["kind"] == "out"]
    assert [e["seat"] for e in outs] == [1]


def test_cw_6_6_game_just_ended_nothing_is_placed():
    s = play(ffa(1, 2), shot(1, dead=["c2"], flown=["c1"], touch=["c2"]))
    assert cw.winner(s) == [1]
    assert cw.view(s)["pending_placements"] == []


# --- CW-8 questions ----------------------------------------------------------------------------

def test_cw_8_unknown_dead_asks_the_striker():
    s = play(ffa(1, 2, 3), shot(1, dead=None))
    q = cw.view(s)["questions"][0]
    assert q["kind"] == "dead" and q["seats"] == [1]
    with pytest.raises(GameError, match="answer it first"):
        cw.apply(s, end(1))
    with pytest.raises(GameError, match="may not answer"):
        cw.apply(s, {"type": "answer", "question": q["id"], "value": [], "seat": 2})
    s = play(s, {"type": "answer", "question": q["id"], "value": ["c2"]})
    assert alive(s) == [1, 3]


def test_cw_8_unknown_contacts_on_the_second_strike_need_no_question():
    s = play(ffa(1, 2, 3), shot(1), shot(1, touch=None))
    assert cw.view(s)["questions"] == []
    assert turn_seat(s) == 2


def test_cw_8_unknown_contacts_on_the_first_strike_are_asked():
    s = play(ffa(1, 2, 3), shot(1, touch=None))
    q = cw.view(s)["questions"][0]
    assert q["kind"] == "contacts" and set(q["options"]) == {"c2", "c3"}
    s = play(s, {"type": "answer", "question": q["id"], "value": ["c3"]})
    assert turn_seat(s) == 2  # an attack strike


def test_cw_8_unknown_contacts_after_a_foul_need_no_question():
    s = play(ffa(1, 2, 3), shot(1, flown=["c2"], touch=None))
    assert cw.view(s)["questions"] == []


def test_cw_8_unknown_flown_asked_then_contacts_not_when_flown():
    s = play(ffa(1, 2, 3), shot(1, flown=None, touch=None))
    q = cw.view(s)["questions"][0]
    assert q["kind"] == "flown"
    s = play(s, {"type": "answer", "question": q["id"], "value": ["c1"]})
    assert cw.view(s)["questions"] == [] and turn_seat(s) == 2


def test_cw_8_answer_to_no_question_is_rejected():
    with pytest.raises(GameError, match="no open question"):
        cw.apply(ffa(1, 2), {"type": "answer", "question": "q1", "value": []})


def test_cw_8_wrong_question_id_and_bad_value_rejected():
    s = play(ffa(1, 2, 3), shot(1, dead=None))
    with pytest.raises(GameError, match="not open"):
        cw.apply(s, {"type": "answer", "question": "q9", "value": []})
    with pytest.raises(GameError, match="not an option"):
        cw.apply(s, {"type": "answer", "question": "q1", "value": ["c9"]})


# --- CW-9 inputs -------------------------------------------------------------------------------

def test_cw_9_placed_with_nothing_pending_is_rejected():
    with pytest.raises(GameError, match="nothing to place"):
        cw.apply(ffa(1, 2), {"type": "placed", "coin": "c1"})


def test_cw_9_order_must_list_every_seat_once():
    with pytest.raises(GameError, match="every seat once"):
        cw.new({}, 1, players=[{"seat": 1}, {"seat": 2}], mode="ffa", order=[1, 1])


def test_cw_2_1_teams_need_4_or_6_players_of_equal_teams():
    with pytest.raises(GameError, match="4, 6 players"):
        cw.new({}, 1, players=[{"seat": 1, "team": "A"}, {"seat": 2, "team": "B"}], mode="teams")
    with pytest.raises(GameError, match="equal size"):
        cw.new({}, 1, players=[{"seat": s, "team": t} for s, t in zip([1, 2, 3, 4], "AAAB", strict=True)],
               mode="teams")


def test_cw_2_2_random_teams_and_order_come_from_the_seed():
    a = cw.new({}, 42, players=[{"seat": s} for s in (1, 2, 3, 4)], mode="teams")
    b = cw.new({}, 42, players=[{"seat": s} for s in (1, 2, 3, 4)], mode="teams")
    assert a == b
    assert sorted(p["team"] for p in a["players"]) == ["A", "A", "B", "B"]


def test_cw_9_public_state_has_the_contract_keys():
    v = cw.view(ffa(1, 2))
    for key in ("game", "mode", "phase", "turn", "players", "questions", "winner", "pending_placements"):
        assert key in v
    assert v["turn"] == {"seat": 1, "strikes": 0, "extra": False}
    assert v["players"][0] == {"seat": 1, "name": "P1", "alive": True, "coin": "c1"}


def test_malformed_shot_fields_are_rejected_with_the_field_named():
    s = ffa(1, 2)
    with pytest.raises(GameError, match="'dead'"):
        cw.apply(s, {"type": "shot", "seat": 1, "coin": "c1", "dead": "c2", "flown": [], "contacts": []})
    with pytest.raises(GameError, match="'contacts'"):
        cw.apply(s, {"type": "shot", "seat": 1, "coin": "c1", "dead": [], "flown": [], "contacts": [["c1"]]})
    with pytest.raises(GameError, match="needs 'flown'"):
        cw.apply(s, {"type": "shot", "seat": 1, "coin": "c1", "dead": [], "contacts": []})
    with pytest.raises(GameError, match="unknown input type"):
        cw.apply(s, {"type": "teleport"})


def test_cw_8_answers_accept_a_single_coin_id_and_contact_pairs():
    s = play(ffa(1, 2, 3), shot(1, dead=None))
    s = play(s, {"type": "answer", "question": "q1", "value": "c2"})
    assert alive(s) == [1, 3]
    s = play(ffa(1, 2, 3), shot(1, touch=None))
    q = cw.view(s)["questions"][0]
    s = play(s, {"type": "answer", "question": q["id"], "value": [["c1", "c3"]]})
    assert turn_seat(s) == 2  # an attack strike
    s = play(ffa(1, 2, 3), shot(1, touch=None))
    with pytest.raises(GameError, match="every pair must name it"):
        cw.apply(s, {"type": "answer", "question": cw.view(s)["questions"][0]["id"], "value": [["c2", "c3"]]})
