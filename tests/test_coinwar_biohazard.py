"""Coin War Biohazard (CW-7.2, CW-7.4, CW-8): roles, shared body and lives, conversion, rotation."""

from __future__ import annotations

import pytest

from controller.games import GameError
from controller.games import coinwar as cw
from tests.coinwar_helpers import alive, play, players, shot, turn_seat


def bio(roles: dict[int, str], order: list[int], lives: int | None = None, seed: int = 1):
    options: dict = {"roles": {str(s): r for s, r in roles.items()}}
    if lives is not None:
        options["lives"] = lives
    return cw.new(options, seed, players=players(*sorted(roles)), mode="biohazard", order=order)


SIX = {1: "mother", 2: "mother", 3: "human", 4: "human", 5: "human", 6: "human"}
FOUR = {1: "mother", 2: "human", 3: "human", 4: "human"}


def end(seat: int) -> dict:
    return {"type": "end_turn", "seat": seat}


def placed(coin: str) -> dict:
    return {"type": "placed", "coin": coin}


def role(state, seat: int) -> str:
    return next(p["role"] for p in cw.view(state)["players"] if p["seat"] == seat)


def bio_rotation(state) -> list[int]:
    return next(g["members"] for g in state["groups"] if g["key"] == "biohazard")


def turns_ahead(state, n: int) -> list[int]:
    seen = []
    for _ in range(n):
        seen.append(turn_seat(state))
        state = play(state, end(turn_seat(state)))
    return seen


# --- setup ----------------------------------------------------------------------------------

@pytest.mark.parametrize("n,mothers", [(4, 1), (5, 2), (6, 2)])
def test_cw_7_2_role_counts_by_player_count_drawn_from_the_seed(n, mothers):
    seats = list(range(1, n + 1))
    s = cw.new({}, 7, players=players(*seats), mode="biohazard", order=seats)
    roles = [p["role"] for p in cw.view(s)["players"]]
    assert roles.count("mother") == mothers and roles.count("human") == n - mothers
    assert cw.view(s)["lives"] == 2
    again = cw.new({}, 7, players=players(*seats), mode="biohazard", order=seats)
    assert again == s  # same seed, same roles
    for p in cw.view(s)["players"]:
        assert p["team"] == ("biohazard" if p["role"] == "mother" else "humans")


def test_cw_7_2_five_players_default_to_two_mothers_and_roles_may_give_one():
    seats = [1, 2, 3, 4, 5]
    for seed in range(5):  # CW-7.2: 5 players → 2 mothers and 3 humans by default
        roles = [p["role"] for p in cw.view(cw.new({}, seed, players=players(*seats), mode="biohazard",
                                                   order=seats))["players"]]
        assert roles.count("mother") == 2 and roles.count("human") == 3
    one = bio({1: "mother", 2: "human", 3: "human", 4: "human", 5: "human"}, seats)  # [interpretation] 1/4
    assert [p["role"] for p in cw.view(one)["players"]].count("mother") == 1
    assert bio_rotation(one) == [1]
    with pytest.raises(GameError, match="need 2 or 1 mother"):
        bio({1: "mother", 2: "mother", 3: "mother", 4: "human", 5: "human"}, seats)


def test_cw_7_2_roles_option_is_validated():
    with pytest.raises(GameError, match="need 2 mother"):
        bio({**SIX, 2: "human"}, [1, 2, 3, 4, 5, 6])
    with pytest.raises(GameError, match="missing \\[6\\]"):
        cw.new({"roles": {"1": "mother", "2": "mother", "3": "human", "4": "human", "5": "human"}}, 1,
               players=players(1, 2, 3, 4, 5, 6), mode="biohazard", order=[1, 2, 3, 4, 5, 6])
    with pytest.raises(GameError, match="expected one of mother, human"):
        bio({**FOUR, 4: "zombie"}, [1, 2, 3, 4])
    with pytest.raises(GameError, match="not playing"):
        cw.new({"roles": {"9": "mother"}}, 1, players=players(1, 2, 3, 4), mode="biohazard", order=[1, 2, 3, 4])


# --- shared body and lives --------------------------------------------------------------------

def test_cw_7_2_a_mother_may_strike_another_mothers_coin_one_coin_per_turn():
    s = bio(SIX, [1, 3, 2, 4, 5, 6])
    shot_move = next(m for m in cw.legal(s, 1)["moves"] if m["type"] == "shot")
    assert shot_move["coins"] == ["c1", "c2"]
    s = play(s, shot(1, coin="c2"))  # M1 moves M2's coin
    assert turn_seat(s) == 1
    assert next(m for m in cw.legal(s, 1)["moves"] if m["type"] == "shot")["coins"] == ["c2"]
    with pytest.raises(GameError, match="one coin per turn"):
        cw.apply(s, shot(1, coin="c1"))
    s = play(s, end(1))
    with pytest.raises(GameError, match="may strike only c3"):
        cw.apply(s, shot(3, coin="c4"))


def test_cw_7_2_a_mother_dying_with_lives_left_respawns_from_the_initial_position():
    s = bio(SIX, [1, 3, 2, 4, 5, 6])
    s = play(s, end(1), shot(3, touch=["c2"], dead=["c2"]))
    v = cw.view(s)
    assert v["lives"] == 1 and alive(s) == [1, 2, 3, 4, 5, 6]
    assert v["pending_placements"] == [{"coin": "c2", "by": 2, "where": "initial"}]  # CW-7.4
    assert turn_seat(s) == 2 and s["winner"] is None
    s = play(s, placed("c2"), shot(2, touch=["c4"], dead=["c2"]))  # M2's suicide takes the last life
    assert cw.view(s)["lives"] == 0
    assert s["winner"] == [3, 4, 5, 6]


# --- conversion -------------------------------------------------------------------------------

def test_cw_7_2_condition_1_a_human_killed_in_a_mothers_turn_converts_and_respawns():
    s = bio(FOUR, [1, 2, 3, 4])
    s = play(s, shot(1, touch=["c2"], dead=["c2"]))
    assert role(s, 2) == "zombie" and 2 in alive(s)
    assert next(p for p in cw.view(s)["players"] if p["seat"] == 2)["team"] == "biohazard"
    assert cw.view(s)["pending_placements"] == [{"coin": "c2", "by": 2, "where": "initial"}]
    assert any(e["kind"] == "converted" and e["seat"] == 2 for e in cw.view(s)["last"])


def test_cw_7_2_condition_2_a_human_touching_a_biohazard_coin_in_a_human_turn_converts():
    s = bio(FOUR, [1, 2, 3, 4])
    s = play(s, end(1))
    conv = {"type": "shot", "seat": 2, "coin": "c2", "dead": ["c3"], "flown": [],
            "contacts": [["c2", "c3"], ["c3", "c1"]]}
    after = play(s, conv)
    assert role(after, 3) == "zombie"
    no_touch = {**conv, "contacts": [["c2", "c3"]]}
    after = play(s, no_touch)
    assert role(after, 3) == "human" and 3 not in alive(after)  # out of the game


def test_cw_7_2_a_zombie_who_dies_again_is_out_for_good():
    s = bio(FOUR, [1, 2, 3, 4])
    s = play(s, shot(1, touch=["c2"], dead=["c2"]), placed("c2"))
    assert turn_seat(s) == 3
    s = play(s, shot(3, touch=["c2"], dead=["c2"]))
    assert 2 not in alive(s) and role(s, 2) == "zombie"
    assert "c2" not in cw.view(s)["coins_on_table"] and cw.view(s)["pending_placements"] == []


def test_cw_7_2_rotation_insertion_exactly_as_the_example():
    # biohazard rotation M1 → M2 → M1 …; M2 played last; human 3 converted → M1 → M2 → Z3 → M1 …
    s = bio(SIX, [1, 3, 2, 4, 5, 6])
    s = play(s, end(1), end(3))
    assert turn_seat(s) == 2
    s = play(s, end(2), end(4))
    assert turn_seat(s) == 1
    s = play(s, end(1), end(5), end(2))  # M2 played last for the biohazard faction
    assert turn_seat(s) == 6
    s = play(s, {"type": "shot", "seat": 6, "coin": "c6", "dead": ["c3"], "flown": [],
                 "contacts": [["c6", "c3"], ["c3", "c2"]]})  # human 3 touched M2's coin: converted
    assert role(s, 3) == "zombie"
    assert bio_rotation(s) == [1, 2, 3]
    s = play(s, placed("c3"), end(6))
    assert turns_ahead(s, 6) == [3, 4, 1, 5, 2, 6]  # Z3 plays the faction's next turn, then M1, M2


def test_cw_7_2_two_conversions_on_one_strike_in_reported_order():
    s = bio(SIX, [1, 3, 2, 4, 5, 6])
    s = play(s, shot(1, touch=["c5"], dead=["c5", "c3"]))  # reported order: 5 then 3
    assert role(s, 5) == "zombie" and role(s, 3) == "zombie"
    assert bio_rotation(s) == [1, 5, 3, 2]  # each after the previous insert
    assert [e["seat"] for e in cw.view(s)["last"] if e["kind"] == "converted"] == [5, 3]
    s = play(s, placed("c5"), placed("c3"))
    assert turns_ahead(s, 6) == [4, 5, 6, 3, 4, 2]


def test_cw_7_2_first_conversion_before_the_faction_played_goes_first():
    s = bio(SIX, [3, 1, 4, 2, 5, 6])  # humans play first
    s = play(s, {"type": "shot", "seat": 3, "coin": "c3", "dead": ["c4"], "flown": [],
                 "contacts": [["c3", "c4"], ["c4", "c1"]]})
    assert bio_rotation(s) == [4, 1, 2]
    s = play(s, placed("c4"), end(3))
    assert turn_seat(s) == 4


def test_cw_7_2_the_active_human_converted_leaves_the_humans_rotation_keeping_the_order():
    s = bio(SIX, [1, 3, 2, 4, 5, 6])
    s = play(s, end(1))
    s = play(s, {"type": "shot", "seat": 3, "coin": "c3", "dead": ["c3"], "flown": [],
                 "contacts": [["c3", "c1"]]})  # suicide after touching M1: converted, turn over
    assert role(s, 3) == "zombie" and turn_seat(s) == 3  # Z3 plays the faction's next turn at once
    s = play(s, placed("c3"))
    assert turns_ahead(s, 5) == [3, 4, 2, 5, 1]


def test_cw_7_2_conversion_of_the_last_human_wins_for_the_biohazard_faction():
    s = bio(FOUR, [1, 2, 3, 4])
    s = play(s, shot(1, touch=["c2"], dead=["c2", "c3"]))  # two converted
    s = play(s, placed("c2"), placed("c3"), end(4))
    assert turn_seat(s) == 2
    s = play(s, shot(2, touch=["c4"], dead=["c4"]))  # a zombie's turn: the last human converts
    assert role(s, 4) == "zombie"
    assert s["winner"] == [1, 2, 3, 4] and s["phase"] == "over"


def test_cw_7_2_mothers_last_life_on_the_strike_that_converts_the_last_human_humans_win():
    s = bio(FOUR, [1, 2, 3, 4], lives=1)
    s = play(s, shot(1, touch=["c2"], dead=["c2", "c3"]), placed("c2"), placed("c3"), end(4))
    assert cw.view(s)["lives"] == 1
    s = play(s, shot(2, touch=["c4"], dead=["c4", "c1"]))  # the last human converts, the mother dies
    assert role(s, 4) == "zombie" and cw.view(s)["lives"] == 0
    # CW-7.2 [interpretation]: both victories on one strike → humans win (4 was human on it)
    assert s["winner"] == [4]


def test_cw_7_2_mothers_death_on_a_strike_that_converts_a_human_the_game_goes_on():
    s = bio(SIX, [1, 3, 2, 4, 5, 6])
    s = play(s, shot(1, touch=["c3"], dead=["c3", "c1"]))
    v = cw.view(s)
    assert v["lives"] == 1 and role(s, 3) == "zombie" and s["winner"] is None
    assert sorted(p["coin"] for p in v["pending_placements"]) == ["c1", "c3"]
    assert bio_rotation(s) == [1, 3, 2]


# --- foul and conversion on one strike -----------------------------------------------------------

def test_cw_7_2_foul_judged_before_conversion_on_the_teams_before_it():
    # H2 touches M1's coin, H2's coin dies (converted), M1's coin flew: before the conversion it is
    # an opponent's coin → CW-6.3: M1 places it and gets an extra turn.
    s = play(bio(FOUR, [1, 2, 3, 4]), end(1))
    s = play(s, {"type": "shot", "seat": 2, "coin": "c2", "dead": ["c2"], "flown": ["c1"],
                 "contacts": [["c2", "c1"]]})
    v = cw.view(s)
    assert role(s, 2) == "zombie"
    assert v["turn"] == {"seat": 1, "strikes": 0, "extra": True}
    kinds = [e["kind"] for e in v["last"]]
    assert kinds.index("foul") < kinds.index("converted")
    assert {"coin": "c1", "by": 1, "where": "normal"} in v["pending_placements"]
    assert {"coin": "c2", "by": 2, "where": "initial"} in v["pending_placements"]


def test_cw_6_4_executed_human_converts_and_respawns_at_the_initial_position():
    s = play(bio(FOUR, [1, 2, 3, 4]), end(1))
    s = play(s, {"type": "shot", "seat": 2, "coin": "c2", "dead": [], "flown": ["c2", "c3"],
                 "contacts": [["c2", "c1"]]})  # CW-6.4 execution counts as a death; touched M1
    assert role(s, 2) == "zombie" and 2 in alive(s)
    placements = cw.view(s)["pending_placements"]
    assert {"coin": "c2", "by": 2, "where": "initial"} in placements  # as if knocked into the goal
    assert {"coin": "c3", "by": 3, "where": "normal"} in placements
    assert len(placements) == 2


def test_cw_6_4_executed_mother_with_lives_left_respawns_at_the_initial_position():
    s = play(bio(FOUR, [1, 2, 3, 4]), shot(1, flown=["c2", "c3"]))  # M1 executed: no coin of hers flew
    v = cw.view(s)
    assert v["lives"] == 1 and 1 in alive(s)
    assert {"coin": "c1", "by": 1, "where": "initial"} in v["pending_placements"]
    assert "c1" not in v["coins_on_table"]
    s = play(s, placed("c2"), placed("c3"))
    with pytest.raises(GameError, match="placed by seat 1"):
        cw.apply(s, shot(2))  # the respawn is placed by its owner first (CW-9)
    assert "c1" in cw.view(play(s, placed("c1")))["coins_on_table"]


def test_cw_7_2_conversion_in_an_extra_turn_goes_after_the_last_regular_biohazard_player():
    # CW-3.4 / CW-7.2: rotation M1 → M2; M1 plays the last regular biohazard turn; human 4's foul
    # flies M2's coin → M2 gets an extra turn and converts human 3 there. Z3 goes in after M1.
    s = bio(SIX, [1, 3, 2, 4, 5, 6])
    s = play(s, end(1), end(3), end(2), end(4), end(1))  # M1 played the last regular biohazard turn
    assert turn_seat(s) == 5
    s = play(s, {"type": "shot", "seat": 5, "coin": "c5", "dead": [], "flown": ["c2"], "contacts": []})
    assert s["turn"] == {"seat": 2, "strikes": 0, "extra": True}
    groups_before = (s["last_group"], dict(s["last_played"]))
    s = play(s, placed("c2"), shot(2, dead=["c3"]))  # a move strike converting human 3 (condition 1)
    assert role(s, 3) == "zombie" and s["turn"] == {"seat": 2, "strikes": 1, "extra": True}
    assert bio_rotation(s) == [1, 3, 2]  # after M1, not after the extra-turn player M2
    assert (s["last_group"], s["last_played"]["biohazard"]) == (groups_before[0], groups_before[1]["biohazard"])
    s = play(s, placed("c3"), end(2))
    # play resumes after the fouler (human 5) with the biohazard faction: Z3, then H6, M2, H4, M1
    # (with the defect, Z3 went after M2 and M1 played two biohazard turns before M2 played one)
    assert turns_ahead(s, 5) == [3, 6, 2, 4, 1]


# --- CW-8 questions ------------------------------------------------------------------------------

def test_cw_8_condition_2_question_asks_exactly_about_the_dead_humans_biohazard_contacts():
    s = play(bio(FOUR, [1, 2, 3, 4]), end(1), shot(2))
    s = play(s, shot(2, dead=["c3"], touch=None))  # the last strike: attack or not does not matter
    q = cw.view(s)["questions"][0]
    assert q["kind"] == "contacts" and q["subject"] == "c3" and q["options"] == ["c1"]
    assert "biohazard" in q["text"]
    s2 = play(s, {"type": "answer", "question": q["id"], "value": ["c1"]})
    assert role(s2, 3) == "zombie"
    s3 = play(s, {"type": "answer", "question": q["id"], "value": []})
    assert 3 not in alive(s3) and role(s3, 3) == "human"


def test_cw_8_no_conversion_question_in_a_mothers_turn():
    s = play(bio(FOUR, [1, 2, 3, 4]), shot(1), shot(1, dead=["c3"], touch=None))
    assert cw.view(s)["questions"] == []  # condition 1 converts whatever it touched
    assert role(s, 3) == "zombie"


def test_cw_8_struck_coin_question_first_when_the_turn_may_go_on():
    s = play(bio(FOUR, [1, 2, 3, 4]), end(1), shot(2, dead=["c3"], touch=None))
    q = cw.view(s)["questions"][0]
    assert q["subject"] == "c2" and q["options"] == ["c1", "c3", "c4"]
    s = play(s, {"type": "answer", "question": q["id"], "value": []})
    q = cw.view(s)["questions"][0]
    assert q["subject"] == "c3" and q["options"] == ["c1"]


def test_cw_8_nothing_is_asked_once_the_strike_has_decided_the_winner():
    # H2 knocks M1's coin in (the mothers' last life) and H3's coin with it; whether c3 touched a
    # biohazard coin would decide a conversion, but the humans have won: nothing more is asked.
    s = play(bio(FOUR, [1, 2, 3, 4], lives=1), end(1))
    s = play(s, {"type": "shot", "seat": 2, "coin": "c2", "dead": ["c1", "c3"], "flown": [],
                 "contacts": None})
    assert cw.view(s)["questions"] == []
    assert s["phase"] == "over" and s["winner"] == [2, 3, 4]  # 3, conversion unknown, counts as human
    assert s["pending_placements"] == []  # CW-8.1: the game is over, nothing is placed


def test_cw_8_no_conversion_question_when_no_human_died():
    s = play(bio(FOUR, [1, 2, 3, 4]), end(1))
    s = play(s, shot(2, dead=[], touch=None))
    q = cw.view(s)["questions"]
    assert len(q) == 1 and q[0]["subject"] == "c2"  # only "did c2 attack?" (the turn may go on)
