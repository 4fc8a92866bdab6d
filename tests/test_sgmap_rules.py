"""Scenario tests of the battlefield on small inline maps, one rule each (docs/rules/sanguosha-map.md)."""

from __future__ import annotations

import pytest

from controller.games import GameError, get_game
from controller.games import sanguosha_map as sg
from controller.games.sanguosha_map import maps
from tests.sgmap_helpers import minion, move, p, start, timeout, tiny_map, total_gold


def _turn_to(state, seat):
    """End turns (rolling first) until it is ``seat``'s turn."""
    for _ in range(10):
        if state["turn"]["seat"] == seat:
            return state
        s = state["turn"]["seat"]
        if state["turn"]["stage"] == "roll":
            state = move(state, s, "roll")
        state = move(state, s, "end_turn")
    raise AssertionError("never reached seat's turn")


# ---------------------------------------------------------------- SG-1 / SG-8.1 / SG-9 setup


def test_SG_9_registered_and_first_round_starts_at_once():
    assert get_game("sanguosha_map") is sg
    s = start(dice=[2])
    assert s["round"] == {"n": 1, "minion_roll": 2}
    assert s["turn"]["seat"] == 1 and s["turn"]["stage"] == "roll"
    assert minion(s, "A1")["cell"] == [0, 3] and minion(s, "B1")["cell"] == [0, 5]
    v = sg.view(s, None)
    assert set(v["sides"]["A"]) == {"castle", "boss", "minions"} and v["sides"]["A"]["castle"] == 20
    assert "action" not in v and v["players"][0]["action_count"] == 0


def test_SG_8_1_sides_must_be_equal_and_teams_given():
    with pytest.raises(GameError, match="equal"):
        sg.new({"map": tiny_map()}, 1, players=[{"seat": 1, "name": "a", "team": "A"},
                                                {"seat": 2, "name": "b", "team": "A"}])
    with pytest.raises(GameError, match="team must be"):
        sg.new({}, 1, players=[{"seat": 1, "name": "a"}, {"seat": 2, "name": "b", "team": "B"}])


def test_SG_8_1_turn_order_alternates_sides():
    s = start(4, dice=[1])
    assert s["order"] == [1, 2, 3, 4]
    s = sg.new({"map": tiny_map()}, 1, players=[{"seat": 1, "name": "a", "team": "A"},
                                                {"seat": 2, "name": "b", "team": "A"},
                                                {"seat": 3, "name": "c", "team": "B"},
                                                {"seat": 4, "name": "d", "team": "B"}])
    assert s["order"] == [1, 3, 2, 4]


def test_SG_4_health_classes():
    s = start()
    a, b = p(s, 1), p(s, 2)
    assert (a["health"], a["max_health"], sg.view(s)["players"][0]["range"]) == (2, 2, 2)  # 3-health general
    assert (b["health"], b["max_health"], sg.view(s)["players"][1]["range"]) == (3, 3, 1)  # 4-health general


# ---------------------------------------------------------------- SG-8.2 maps


def test_SG_8_2_default_map_honours_the_constraints():
    s = sg.new({}, 3, players=[{"seat": 1, "name": "a", "team": "A"}, {"seat": 2, "name": "b", "team": "B"}])
    m = s["map"]
    for side, inner in (("A", "I"), ("B", "i")):
        cells = m["minions"][side]["cells"]
        assert len(cells) == 6 and all(m["rows"][r][c] == inner for r, c in cells)
        assert len({c for _, c in cells}) == 1  # one inner-zone column
    wall_rows = {a[0] for a, b in m["walls"]} | {b[0] for a, b in m["walls"]}
    minion_rows = {r for side in "AB" for r, _ in m["minions"][side]["cells"]}
    assert 4 in wall_rows and 4 not in minion_rows  # the walled row is skipped
    assert len(m["doors"]) == 2


def test_SG_8_2_the_default_maps_wall_row_is_open_at_its_ends():
    """docs/sanguosha-map.md: walls above and below [4, 5]…[4, 7]; walking in from an end costs 1
    without a horse, crossing a wall edge needs a horse and costs 2, and no attack crosses it (SG-2)."""
    g = maps.geometry(maps.load("default"))
    for end, inside in (((4, 4), (4, 5)), ((4, 8), (4, 7))):
        assert g.step_cost(end, inside, horse=False) == 1
    for col in (5, 6, 7):
        for outside in ((3, col), (5, col)):
            assert g.step_cost(outside, (4, col), horse=False) is None
            assert g.step_cost(outside, (4, col), horse=True) == 2
    assert g.distance((3, 6), (4, 6)) > 1  # attacks go round, not across


@pytest.mark.parametrize("change, message", [
    ({"rows": ["AIOZ..oiB"] + tiny_map()["rows"][1:]}, "unknown cell letter 'Z'"),
    ({"walls": [[[0, 3], [2, 3]]]}, "wall 0 is between non-adjacent cells"),
    ({"walls": [[[0, 3], [9, 3]]]}, "unknown cell"),
    ({"minions": {"A": {**tiny_map()["minions"]["A"], "cells": tiny_map()["minions"]["A"]["cells"][:5]},
                  "B": tiny_map()["minions"]["B"]}}, "side A must have 6 minions"),
    ({"walls": [[[3, 3], [2, 3]], [[3, 3], [4, 3]], [[3, 3], [3, 2]], [[3, 3], [3, 4]]]},
     "no door at the boss point \\[3, 3\\]"),
])
def test_SG_8_2_bad_maps_are_refused_by_name(change, message):
    bad = {**tiny_map(), **change}
    with pytest.raises(GameError, match=message):
        sg.new({"map": bad}, 1, players=[{"seat": 1, "name": "a", "team": "A"},
                                         {"seat": 2, "name": "b", "team": "B"}])


# ---------------------------------------------------------------- SG-3 turns


def test_SG_3_roll_reroll_once_draws_two_and_keeps_six():
    s = start(dice=[1, 2, 5], hands={1: [f"strike-{i}" for i in range(1, 6)]},
              decks={"action": ["dodge-1", "dodge-2", "dodge-3", "dodge-4"]})
    with pytest.raises(GameError, match="roll the die first"):
        move(s, 1, "end_turn")
    s = move(s, 1, "roll")
    assert s["turn"]["roll"] == 2 and len(p(s, 1)["action"]) == 5
    s = move(s, 1, "reroll")
    assert s["turn"]["movement_left"] == 5  # the second roll stands (SG-8.10)
    assert p(s, 1)["action"][-2:] == ["dodge-1", "dodge-2"]  # drawn when the value is final (SG-9.1)
    with pytest.raises(GameError, match="only one re-roll"):
        move(s, 1, "reroll")
    with pytest.raises(GameError, match="discard down to 6"):
        move(s, 1, "end_turn")
    s = move(s, 1, "discard", cards=["strike-1"])
    s = move(s, 1, "end_turn")
    assert s["turn"]["seat"] == 2


def test_SG_3_after_the_last_general_the_next_minion_roll_happens():
    s = start(dice=[1, 3, 4, 1])
    s = move(s, 1, "roll")
    s = move(s, 1, "end_turn")
    s = move(s, 2, "roll")
    s = move(s, 2, "end_turn")
    assert s["round"] == {"n": 2, "minion_roll": 1}
    assert minion(s, "A1")["cell"] == [0, 3]  # 1 + 1 forward, never back


def test_SG_8_10_physical_dice_take_the_entered_value():
    s = sg.new({"map": tiny_map(), "physical_dice": True,
                "setup": {"positions": {1: [2, 3], 2: [2, 5]}}}, 1,
               players=[{"seat": 1, "name": "a", "team": "A"}, {"seat": 2, "name": "b", "team": "B"}])
    assert s["turn"]["stage"] == "minion_roll" and s["round"]["minion_roll"] is None
    with pytest.raises(GameError, match="real die"):
        move(s, 1, "roll")
    s = move(s, 1, "roll", value=4)
    assert s["round"]["minion_roll"] == 4 and minion(s, "A1")["cell"] == [0, 5]
    s = move(s, 1, "roll", value=6)
    assert s["turn"]["movement_left"] == 6


# ---------------------------------------------------------------- SG-2 / SG-8.3 movement


def test_SG_8_3_movement_on_walkable_cells_within_the_roll():
    s = start(dice=[1, 3], positions={1: [2, 3], 2: [7, 5]})
    s = move(s, 1, "roll")
    with pytest.raises(GameError, match="not walkable"):
        move(s, 1, "move", path=[[3, 3]])  # the boss point is entered by challenge_boss only
    with pytest.raises(GameError, match="not next to"):
        move(s, 1, "move", path=[[2, 5]])
    with pytest.raises(GameError, match="costs 4"):
        move(s, 1, "move", path=[[2, 4], [2, 5], [2, 6], [2, 7]])
    s = move(s, 1, "move", path=[[2, 4], [2, 5]])
    assert p(s, 1)["cell"] == [2, 5] and s["turn"]["movement_left"] == 1


def test_SG_8_3_a_wall_needs_a_horse_and_costs_2():
    wall = [[[2, 3], [2, 4]]]
    s = start(walls=wall, dice=[1, 3], positions={1: [2, 3], 2: [7, 5]})
    s = move(s, 1, "roll")
    with pytest.raises(GameError, match="only a horse jumps it"):
        move(s, 1, "move", path=[[2, 4]])
    s = start(walls=wall, dice=[1, 3], positions={1: [2, 3], 2: [7, 5]}, equipment={1: {"horse": "dilu"}})
    s = move(s, 1, "roll")
    s = move(s, 1, "move", path=[[2, 4]])
    assert s["turn"]["movement_left"] == 1
    legal = {m["move"]: m for m in sg.legal(start(walls=wall, dice=[1, 3], positions={1: [2, 3], 2: [7, 5]},
                                                  equipment={1: {"horse": "dilu"}}), 1)["moves"]}
    assert "roll" in legal


# ---------------------------------------------------------------- SG-4 attacks


def test_SG_4_attack_opens_a_dodge_window_and_dodge_saves():
    s = start(dice=[1, 3], hands={1: ["strike-1"], 2: ["dodge-1"]}, positions={1: [2, 3], 2: [2, 5]})
    s = move(s, 1, "roll")
    s = move(s, 1, "attack", target=2, cards=["strike-1"])
    assert s["window"]["kind"] == "dodge" and s["window"]["seats"] == [2]
    assert s["turn"]["movement_left"] == 2
    assert sg.table_view(s)["answer"] == [2]
    with pytest.raises(GameError, match="nothing to answer"):
        move(s, 1, "pass")
    s = move(s, 2, "dodge", cards=["dodge-1"])
    assert p(s, 2)["health"] == 3 and s["window"] is None


def test_SG_9_1_a_window_opens_even_without_a_dodge_and_timeout_is_pass():
    s = start(dice=[1, 3], hands={1: ["strike-1"]}, positions={1: [2, 3], 2: [2, 5]})
    s = move(s, 1, "roll")
    s = move(s, 1, "attack", target=2, cards=["strike-1"])
    assert sg.deadlines(s)[0][2] == {"type": "timeout", "window": s["window"]["id"]}
    s = timeout(s)
    assert p(s, 2)["health"] == 2


def test_SG_2_walls_block_attacks():
    wall = [[[2, 3], [2, 4]]]
    s = start(walls=wall, dice=[1, 3], hands={2: ["strike-1"]}, positions={1: [2, 3], 2: [2, 4]}, first=2)
    s = move(s, 2, "roll")
    with pytest.raises(GameError, match="is 3 away; your range is 1"):
        move(s, 2, "attack", target=1, cards=["strike-1"])


def test_SG_8_4_horses_change_distances_above_1_and_weapons_add_range():
    s = start(dice=[1, 3], hands={2: ["strike-1"]}, positions={1: [2, 3], 2: [2, 5]}, first=2,
              equipment={2: {"weapon": "stone_axe"}})
    s = move(s, 2, "roll")
    assert 1 in next(m for m in sg.legal(s, 2)["moves"] if m["move"] == "attack")["targets"]
    s = start(dice=[1, 3], hands={2: ["strike-1"]}, positions={1: [2, 3], 2: [2, 5]}, first=2,
              equipment={2: {"weapon": "stone_axe"}, 1: {"horse": "dilu"}})
    s = move(s, 2, "roll")
    with pytest.raises(GameError, match="is 3 away; your range is 2"):
        move(s, 2, "attack", target=1, cards=["strike-1"])


def test_SG_8_5_only_the_crossbow_spends_several_strikes():
    hands = {1: ["strike-1", "strike-2"], 2: ["dodge-1"]}
    s = start(dice=[1, 3], hands=hands, positions={1: [2, 3], 2: [2, 4]})
    s = move(s, 1, "roll")
    with pytest.raises(GameError, match="Crossbow"):
        move(s, 1, "attack", target=2, cards=["strike-1", "strike-2"])
    s = start(dice=[1, 3], hands=hands, positions={1: [2, 3], 2: [2, 4]}, equipment={1: {"weapon": "crossbow"}})
    s = move(s, 1, "roll")
    s = move(s, 1, "attack", target=2, cards=["strike-1", "strike-2"])
    s = move(s, 2, "dodge", cards=["dodge-1"])
    assert p(s, 2)["health"] == 2


def test_SG_4_knock_out_back_to_castle_kill_gold_weapon_dropped_skip_and_wake():
    s = start(dice=[1, 3, 3, 1], hands={2: ["strike-1", "strike-2"]}, positions={1: [2, 3], 2: [2, 4]},
              first=2, equipment={1: {"weapon": "ice_sword"}})
    s = move(s, 2, "roll")
    s = move(s, 2, "attack", target=1, cards=["strike-1"])
    s = move(s, 1, "pass")
    s = move(s, 2, "attack", target=1, cards=["strike-2"])
    s = move(s, 1, "pass")
    a = p(s, 1)
    assert a["knocked_out"] and a["cell"] == [0, 0] and a["weapon"] is None
    assert s["decks"]["weapon"][-1] == "ice_sword"
    assert p(s, 2)["gold"] == 2 and total_gold(s) == 0  # SG-7 kill a general +2, from the bank
    s = move(s, 2, "end_turn")
    # SG-8.14: seat 1's next turn is skipped and it stays knocked out through it
    assert s["turn"]["seat"] == 2 and p(s, 1)["knocked_out"]
    s = move(s, 2, "roll")
    s = move(s, 2, "end_turn")
    # at the start of the turn after the skipped one it wakes with min(3, max) = 2 health ([interpretation])
    assert s["turn"]["seat"] == 1 and not p(s, 1)["knocked_out"]
    assert p(s, 1)["health"] == min(3, p(s, 1)["max_health"])


def test_SG_8_14_a_knocked_out_general_is_no_target_during_its_skipped_turn():
    s = start(dice=[1, 3, 3, 6], hands={2: ["strike-1", "strike-2", "strike-3"]},
              positions={1: [2, 3], 2: [2, 4]}, first=2)
    s = move(s, 2, "roll")
    for strike in ("strike-1", "strike-2"):
        s = move(s, 2, "attack", target=1, cards=[strike])
        s = move(s, 1, "pass")
    assert p(s, 1)["knocked_out"] and p(s, 1)["cell"] == [0, 0]
    s = move(s, 2, "end_turn")  # round 2: seat 1's turn is skipped
    assert s["turn"]["seat"] == 2 and p(s, 1)["knocked_out"] and s["last"][-2]["kind"] == "skip"
    s = move(s, 2, "roll")
    s = move(s, 2, "move", path=[[1, 4], [0, 4], [0, 3], [0, 2], [0, 1]])  # next to seat 1 on [0, 0]
    with pytest.raises(GameError, match="is knocked out"):
        move(s, 2, "attack", target=1, cards=["strike-3"])
    assert 1 not in next(m for m in sg.legal(s, 2)["moves"] if m["move"] == "attack")["targets"]


def test_SG_4_a_general_knocked_out_on_their_own_turn_ends_it():
    s = start(dice=[2, 1], positions={1: [0, 4], 2: [7, 5]}, first=1)
    s = move(s, 1, "roll")  # B1 stands on [0, 5] after the minion roll of 2
    s2 = move(s, 1, "move", path=[[0, 5]])
    assert p(s2, 1)["health"] == 1  # SG-5: ending on an enemy minion costs 1
    s = start(dice=[2, 1], positions={1: [0, 4], 2: [7, 5]}, first=1)
    s["players"][0]["health"] = 1
    s = move(s, 1, "roll")
    s = move(s, 1, "move", path=[[0, 5]])
    assert p(s, 1)["knocked_out"] and s["turn"]["seat"] == 2 and p(s, 2)["gold"] == 0


# ---------------------------------------------------------------- SG-5 minions


def test_SG_5_a_pair_arriving_alive_damages_the_castle_and_crossing_minions_do_not_collide():
    s = start(dice=[6])
    assert s["sides"]["A"]["castle"] == 17 and s["sides"]["B"]["castle"] == 17
    assert all(m["cell"] == [r, 1] for m, r in zip(s["sides"]["A"]["minions"], [0, 1, 4, 5, 6, 7], strict=True))


def test_SG_5_opposing_minions_on_one_final_cell_both_die_and_restart():
    s = start(dice=[3])
    assert any(e["kind"] == "collision" for e in s["last"])
    assert minion(s, "A1")["cell"] == [0, 1] and minion(s, "B1")["cell"] == [0, 7]
    assert all(m["alive"] and not m["waiting"] for side in "AB" for m in s["sides"][side]["minions"])


def test_SG_5_dead_minion_waits_and_a_lone_partner_arrives_without_damage():
    s = start(dice=[1, 3, 2, 6], hands={1: ["strike-1"]}, positions={1: [2, 5], 2: [2, 2]})
    s = move(s, 1, "roll")
    s = move(s, 1, "attack", target="B2", cards=["strike-1"])
    assert p(s, 1)["gold"] == 1  # SG-7 kill a minion +1
    assert minion(s, "B2")["waiting"] and minion(s, "B2")["cell"] is None
    s = move(s, 1, "end_turn")
    s = move(s, 2, "roll")
    s = move(s, 2, "end_turn")
    # minion roll 6: B1 arrives alone (no damage); the other two B pairs arrive alive (A loses 2)
    assert s["sides"]["A"]["castle"] == 18
    assert s["sides"]["B"]["castle"] == 17
    assert minion(s, "B1")["cell"] == [0, 7] and minion(s, "B2")["cell"] == [1, 7]
    assert not minion(s, "B2")["waiting"]


def test_SG_5_a_minion_landing_on_an_enemy_general_hurts_it():
    s = start(dice=[2], positions={1: [0, 5], 2: [7, 5]})
    assert p(s, 1)["health"] == 1


def test_SG_5_a_general_removes_an_own_minion_by_ending_on_it():
    s = start(dice=[1, 1], positions={1: [0, 3], 2: [7, 5]})
    s = move(s, 1, "roll")
    s = move(s, 1, "move", path=[[0, 2]])
    assert minion(s, "A1")["waiting"] and p(s, 1)["gold"] == 0


# ---------------------------------------------------------------- SG-2 / SG-8.6 zones


@pytest.mark.parametrize("cell, health, expect", [
    ([2, 7], 2, 1),   # enemy inner zone: -1
    ([2, 6], 2, 1),   # enemy outer zone: -1
    ([0, 8], 2, 1),   # enemy castle: -1
    ([2, 1], 1, 2),   # own inner zone: +1 (capped at max 2)
    ([0, 0], 1, 2),   # own castle: +2, capped
    ([2, 2], 1, 1),   # own outer zone: nothing
])
def test_SG_8_6_zone_effects_at_the_end_of_the_turn(cell, health, expect):
    s = start(dice=[1, 1], positions={1: cell, 2: [7, 4]})
    s["players"][0]["health"] = health
    s = move(s, 1, "roll")
    assert p(s, 1)["health"] == health
    s = move(s, 1, "end_turn")
    assert p(s, 1)["health"] == expect


def test_SG_8_6_a_zone_knock_out_pays_no_gold():
    s = start(dice=[1, 1], positions={1: [2, 7], 2: [7, 4]})
    s["players"][0]["health"] = 1
    s = move(s, 1, "roll")
    s = move(s, 1, "end_turn")
    assert p(s, 1)["knocked_out"] and p(s, 2)["gold"] == 0


# ---------------------------------------------------------------- SG-7 shop and upgrades


def test_SG_7_shop_in_a_castle_needs_the_full_price():
    s = start(dice=[1, 1], positions={1: [0, 0], 2: [7, 4]}, gold={1: 35},
              decks={"weapon": ["halberd"], "horse": ["chitu"]})
    s = move(s, 1, "roll")
    s = move(s, 1, "shop", pile="weapon")
    assert p(s, 1)["weapon"] == "halberd" and p(s, 1)["gold"] == 25 and s["bank"] == 10
    assert sg.view(s)["players"][0]["range"] == 3  # halberd 4 - 1
    s = move(s, 1, "shop", pile="horse")
    assert p(s, 1)["horse"] == "chitu" and p(s, 1)["gold"] == 5
    with pytest.raises(GameError, match="costs 10 gold; you have 5"):
        move(s, 1, "shop", pile="weapon")
    s = move(s, 1, "shop", pile="strategy")
    assert p(s, 1)["gold"] == 0 and total_gold(s) == 35


def test_SG_7_shop_only_in_a_castle_and_strategy_carry_limit():
    s = start(dice=[1, 1], positions={1: [2, 3], 2: [7, 4]}, gold={1: 50})
    s = move(s, 1, "roll")
    with pytest.raises(GameError, match="only inside a castle"):
        move(s, 1, "shop", pile="strategy")
    s = start(dice=[1, 1], positions={1: [0, 0], 2: [7, 4]}, gold={1: 50},
              decks={"strategy": ["peach-1", "wine-1", "duel-1", "snatch-1"]})
    s = move(s, 1, "roll")
    for _ in range(3):
        s = move(s, 1, "shop", pile="strategy")
    with pytest.raises(GameError, match="carry 3 strategy"):
        move(s, 1, "shop", pile="strategy")
    s = move(s, 1, "shop", pile="strategy", drop="peach-1")
    assert p(s, 1)["strategy"] == ["wine-1", "duel-1", "snatch-1"]
    assert sg.view(s, 1)["strategy"] == ["wine-1", "duel-1", "snatch-1"]
    assert sg.view(s, 2).get("strategy") == [] and sg.view(s)["players"][0]["strategy_count"] == 3


def test_SG_4_upgrade_adds_max_and_health_up_to_the_cap():
    s = start(dice=[1, 1], positions={1: [0, 8], 2: [7, 4]}, gold={1: 30})
    s = move(s, 1, "roll")
    s = move(s, 1, "upgrade")
    s = move(s, 1, "upgrade")
    assert (p(s, 1)["max_health"], p(s, 1)["health"], p(s, 1)["gold"]) == (4, 4, 10)
    with pytest.raises(GameError, match="cap of 4"):
        move(s, 1, "upgrade")


# ---------------------------------------------------------------- SG-6 duels


def _duel4(**kw):
    """Seats 1 (A) and 2 (B) share [2, 3]; seats 3 (A) and 4 (B) share [5, 4]."""
    return start(4, dice=[1, 1], positions={1: [2, 3], 2: [2, 3], 3: [2, 4], 4: [2, 4]}, **kw)


def test_SG_6_refusal_with_a_joiner_pays_requester_and_joiner():
    s = _duel4(gold={1: 0, 2: 5, 3: 1, 4: 0})
    s = move(s, 1, "roll")
    s = move(s, 1, "request_duel", target=2)
    assert s["window"]["kind"] == "duel" and s["window"]["seats"] == [2, 3]
    s = move(s, 3, "join")
    assert s["fight"]["defenders"] == [2, 4] and p(s, 3)["gold"] == 0 and s["bank"] == 1
    with pytest.raises(GameError, match="refusing costs 2 gold; you have 0"):
        move(s, 4, "refuse")  # a defender without the gold cannot refuse (SG-8.7)
    s = move(s, 2, "refuse")
    s = move(s, 4, "accept")
    assert s["fight"] is None and s["window"] is None  # any refusal cancels
    assert [p(s, x)["gold"] for x in (1, 2, 3, 4)] == [1, 3, 1, 0] and total_gold(s) == 6


def test_SG_6_accepted_duel_result_confirmed_losers_knocked_out_and_pay():
    s = start(dice=[1, 1], positions={1: [2, 3], 2: [2, 3]}, gold={1: 0, 2: 1})
    s = move(s, 1, "roll")
    s = move(s, 1, "request_duel", target=2)
    s = move(s, 2, "accept")
    assert s["fight"]["stage"] == "result" and sg.table_view(s)["answer"] == [1]
    with pytest.raises(GameError, match="enters the result"):
        move(s, 2, "fight_result", winner="B")
    s = move(s, 1, "fight_result", winner="A", health={"1": 1})
    assert s["window"]["kind"] == "confirm" and s["window"]["seats"] == [2]
    d = move(s, 2, "dispute")
    assert d["fight"]["stage"] == "result" and d["window"] is None
    s = timeout(s)  # a timeout confirms (SG-8.11)
    assert p(s, 2)["knocked_out"] and p(s, 1)["health"] == 1
    assert p(s, 1)["gold"] == 1 and p(s, 2)["gold"] == 0  # SG-7 duel lost -1 per winner


def test_SG_8_7_a_loser_without_gold_pays_nothing_and_never_goes_negative():
    s = start(dice=[1, 1], positions={1: [2, 3], 2: [2, 3]}, gold={1: 0, 2: 0})
    s = move(s, 1, "roll")
    s = move(s, 1, "request_duel", target=2)
    assert [m["move"] for m in sg.legal(s, 2)["moves"]] == ["accept"]
    s = move(s, 2, "accept")
    s = move(s, 1, "fight_result", winner="B")
    s = move(s, 2, "confirm")
    assert p(s, 1)["gold"] == 0 and p(s, 1)["knocked_out"]
    assert s["turn"]["seat"] == 2  # the requester's turn ended with the knock-out


def test_SG_8_13_quick_duels_settle_at_once():
    s = start(dice=[1, 1, 6, 1, 1], positions={1: [2, 3], 2: [2, 3]}, gold={2: 0}, fights="quick")
    s = move(s, 1, "roll")
    s = move(s, 1, "request_duel", target=2)
    s = move(s, 2, "accept")
    assert s["fight"] is None
    assert p(s, 2)["knocked_out"]  # 2 + 6 against 3 + 1


# ---------------------------------------------------------------- SG-6 bosses


def test_SG_6_boss_fight_lost_persists_boss_damage_and_costs_2():
    # seat 2 (B) challenges A's boss at [3, 3] from the door [2, 3]
    s = start(dice=[1, 1], positions={1: [7, 4], 2: [2, 3]}, first=2, gold={2: 3})
    boss = s["sides"]["A"]["boss"]
    s = move(s, 2, "roll")
    s = move(s, 2, "challenge_boss")
    assert s["fight"]["kind"] == "boss" and s["fight"]["stage"] == "result"
    s = move(s, 2, "fight_result", winner="A", boss_health=boss["max_health"] - 2)
    assert s["window"]["seats"] == [1]  # the boss's side confirms
    s = move(s, 1, "confirm")
    assert p(s, 2)["knocked_out"] and p(s, 2)["gold"] == 1 and s["bank"] == 2
    assert s["sides"]["A"]["boss"]["health"] == boss["max_health"] - 2


def test_SG_6_boss_joiner_and_victory_rewards():
    s = start(4, dice=[1, 1], positions={1: [7, 4], 2: [2, 3], 3: [7, 4], 4: [3, 4]}, first=2,
              gold={2: 0, 4: 2}, decks={"armour": ["bagua_array", "silver_lion"]})
    s = move(s, 2, "roll")
    s = move(s, 2, "challenge_boss")
    assert s["window"]["kind"] == "boss_join" and s["window"]["seats"] == [4]
    s = move(s, 4, "join_boss")
    assert p(s, 4)["gold"] == 0 and s["fight"]["joiners"] == [4]
    s = move(s, 2, "fight_result", winner="B")
    s = move(s, 1, "confirm")
    assert p(s, 2)["armour"] == "bagua_array" and p(s, 4)["armour"] == "silver_lion"
    assert p(s, 2)["gold"] == 2 and p(s, 4)["gold"] == 2
    assert s["sides"]["A"]["boss"]["health"] == s["sides"]["A"]["boss"]["max_health"]


def test_SG_8_12_a_fleeing_entrant_pays_1_and_keeps_movement():
    s = start(dice=[1, 4], positions={1: [7, 4], 2: [2, 3]}, first=2, gold={2: 1})
    s = move(s, 2, "roll")
    s = move(s, 2, "challenge_boss")
    with pytest.raises(GameError, match="being played"):
        move(s, 2, "end_turn")
    s = move(s, 2, "flee", boss_health=3)
    assert s["fight"] is None and p(s, 2)["gold"] == 0 and s["turn"]["movement_left"] == 3
    assert s["sides"]["A"]["boss"]["health"] == 3
    s = move(s, 2, "move", path=[[2, 4]])


def test_SG_6_boss_points_only_for_the_other_side():
    s = start(dice=[1, 1], positions={1: [2, 3], 2: [7, 4]})
    s = move(s, 1, "roll")
    with pytest.raises(GameError, match="door of the enemy boss"):
        move(s, 1, "challenge_boss")


# ---------------------------------------------------------------- SG-2 victory


def test_SG_2_a_castle_at_0_loses():
    s = start(dice=[1, 1], positions={1: [1, 6], 2: [7, 4]}, hands={1: ["strike-1"]}, castle={"B": 1})
    s = move(s, 1, "roll")
    s = move(s, 1, "attack", target="castle", cards=["strike-1"])
    assert s["phase"] == "over" and s["winner"] == [1] and sg.winner(s) == [1]
    assert sg.table_view(s)["winner"] == [1]
    with pytest.raises(GameError, match="over"):
        move(s, 2, "roll")


def test_illegal_inputs_change_nothing():
    s = start(dice=[1, 1])
    before = repr(s)
    for bad in ({"type": "move", "seat": 2, "move": "roll"}, {"type": "move", "seat": 1, "move": "fly"},
                {"type": "move", "seat": 1, "move": "roll", "args": {"x": 1}}, {"type": "timeout"}):
        with pytest.raises(GameError):
            sg.apply(s, bad)
    assert repr(s) == before


def test_words_say_each_effect():
    s = start(dice=[1, 2])
    s2 = move(s, 1, "roll")
    lines = sg.words({"type": "move", "seat": 1, "move": "roll"}, s2["last"], sg.view(s2))
    assert lines == ["P1 rolls 2"]


def test_SG_6_a_challenger_dying_in_a_won_boss_fight_pays_2_and_gets_no_reward():
    s = start(4, dice=[1, 1], positions={1: [7, 4], 2: [2, 3], 3: [7, 4], 4: [3, 4]}, first=2,
              gold={2: 0, 4: 5}, decks={"armour": ["bagua_array", "silver_lion"]})
    s = move(s, 2, "roll")
    s = move(s, 2, "challenge_boss")
    s = move(s, 4, "join_boss")
    s = move(s, 2, "fight_result", winner="B", knocked_out=[4])
    s = move(s, 3, "confirm")
    assert p(s, 4)["knocked_out"] and p(s, 4)["gold"] == 1 and p(s, 4)["armour"] is None
    assert p(s, 2)["armour"] == "bagua_array" and p(s, 2)["gold"] == 2
    assert total_gold(s) == 5


def test_SG_8_11_a_result_naming_a_fled_joiner_charges_1_and_spares_them():
    s = start(4, dice=[1, 1], positions={1: [7, 4], 2: [2, 3], 3: [7, 4], 4: [3, 4]}, first=2,
              gold={2: 0, 4: 3})
    s = move(s, 2, "roll")
    s = move(s, 2, "challenge_boss")
    s = move(s, 4, "join_boss")
    s = move(s, 2, "fight_result", winner="A", fled=[4], boss_health=2)
    s = move(s, 1, "confirm")
    assert p(s, 2)["knocked_out"] and not p(s, 4)["knocked_out"]
    assert p(s, 4)["gold"] == 0 and s["sides"]["A"]["boss"]["health"] == 2


def test_SG_8_10_physical_dice_a_knocked_out_first_roller_skips_and_wakes():
    s = sg.new({"map": tiny_map(), "physical_dice": True,
                "setup": {"positions": {1: [2, 3], 2: [2, 5]}}}, 1,
               players=[{"seat": 1, "name": "a", "team": "A"}, {"seat": 2, "name": "b", "team": "B"}])
    s["players"][0].update(knocked_out=True, health=0, skips=1)
    s = move(s, 1, "roll", value=1)  # anyone rolls the minions' die; then seat 1's turn is skipped
    assert s["turn"]["seat"] == 2 and p(s, 1)["knocked_out"]  # SG-8.14: out through the skipped turn
    s = move(s, 2, "roll", value=1)
    s = move(s, 2, "end_turn")
    s = move(s, 1, "roll", value=1)  # round 2's minion roll; seat 1 wakes and plays this turn
    assert s["turn"]["seat"] == 1 and s["turn"]["stage"] == "roll" and not p(s, 1)["knocked_out"]
    assert p(s, 1)["health"] == min(3, p(s, 1)["max_health"])


def test_SG_6_seed_example_2_two_on_one_cell_make_2_v_1():
    """A and C on B's cell: C joins for 1 gold, B is the only defender; refusing costs B 2."""
    s = start(4, dice=[1, 1], positions={1: [2, 3], 2: [2, 3], 3: [2, 3], 4: [7, 4]}, gold={2: 1, 3: 1})
    s = move(s, 1, "roll")
    s = move(s, 1, "request_duel", target=2)
    assert s["window"]["seats"] == [2, 3]
    s = move(s, 3, "join")
    assert s["fight"]["defenders"] == [2] and s["fight"]["joiners"] == [3]
    assert [m["move"] for m in sg.legal(s, 2)["moves"]] == ["accept"]  # 1 gold cannot pay 2
    s = move(s, 2, "accept")
    s = move(s, 1, "fight_result", winner="A")
    s = move(s, 2, "confirm")
    assert p(s, 2)["knocked_out"] and p(s, 2)["gold"] == 0 and p(s, 1)["gold"] == 1 and p(s, 3)["gold"] == 0
    assert total_gold(s) == 2


def test_SG_1_pick_general_and_place_before_the_first_roll():
    s = sg.new({"map": tiny_map()}, 4, players=[{"seat": 1, "name": "a", "team": "A"},
                                                {"seat": 2, "name": "b", "team": "B"}])
    offers = p(s, 1)["offers"]
    assert len(offers) == 2
    s = move(s, 1, "pick_general", general=offers[1])
    assert p(s, 1)["general"] == offers[1]
    from controller.games.sanguosha_map.cards import GENERALS
    said = s["last"][-1]["text"]  # the general as players name it (its Chinese name), never its id
    assert GENERALS[offers[1]]["name"] in said and offers[1] not in said
    with pytest.raises(GameError, match="not in your inner zone"):
        move(s, 1, "place", cell=[2, 7])
    s = move(s, 1, "place", cell=[2, 1])
    assert p(s, 1)["cell"] == [2, 1]
    s = move(s, 1, "roll")
    with pytest.raises(GameError, match="only before your first roll"):
        move(s, 1, "place", cell=[3, 1])


def test_SG_9_public_input_hides_strategy_cards_only():
    shop = {"type": "move", "seat": 1, "move": "shop", "args": {"pile": "strategy", "drop": "peach-1"}}
    assert sg.public_input(shop)["args"] == {"pile": "strategy", "drop": "a strategy card"}
    discard = {"type": "move", "seat": 1, "move": "discard", "args": {"cards": ["strike-3", "wine-2"]}}
    assert sg.public_input(discard)["args"] == {"cards": ["strike-3"], "count": 2}
    attack = {"type": "move", "seat": 1, "move": "attack", "args": {"target": 2, "cards": ["strike-1"]}}
    assert sg.public_input(attack) is attack


# ---------------------------------------------------------------- SG-8.14 decisions of 2026-12


def test_SG_8_14_over_6_action_cards_after_the_draw_a_discard_comes_before_any_other_move():
    hand = [f"strike-{i}" for i in range(1, 6)]
    s = start(dice=[1, 3], hands={1: hand}, positions={1: [2, 3], 2: [2, 4]},
              decks={"action": ["dodge-1", "dodge-2"]})
    s = move(s, 1, "roll")
    rolled = s
    # the first other move would draw to 7: refused, and nothing is drawn
    with pytest.raises(GameError, match="you hold 7 action cards; discard down to 6 before any other move"):
        move(rolled, 1, "move", path=[[2, 2]])
    assert len(p(rolled, 1)["action"]) == 5 and rolled["turn"]["stage"] == "rolled"
    assert {m["move"] for m in sg.legal(rolled, 1)["moves"]} == {"reroll", "keep", "discard"}
    s = move(s, 1, "keep")
    assert len(p(s, 1)["action"]) == 7
    assert [m["move"] for m in sg.legal(s, 1)["moves"]] == ["discard"]
    for name, args in (("attack", {"target": 2, "cards": ["strike-1"]}), ("request_duel", {"target": 2}),
                       ("move", {"path": [[2, 2]]}), ("end_turn", {})):
        with pytest.raises(GameError, match="discard down to 6"):
            move(s, 1, name, **args)
    s = move(s, 1, "discard", cards=["dodge-2"])
    s = move(s, 1, "attack", target=2, cards=["strike-1"])
    assert s["window"]["kind"] == "dodge"
    # a discard straight from the roll draws first, then discards
    d = move(rolled, 1, "discard", cards=["strike-5"])
    assert len(p(d, 1)["action"]) == 6 and d["turn"]["stage"] == "act"


def test_SG_8_14_a_crossbow_attack_costs_a_castle_1_durability_however_many_strikes():
    s = start(dice=[1, 3], positions={1: [1, 6], 2: [7, 4]}, hands={1: ["strike-1", "strike-2", "strike-3"]},
              equipment={1: {"weapon": "crossbow"}})
    s = move(s, 1, "roll")
    s = move(s, 1, "attack", target="castle", cards=["strike-1", "strike-2", "strike-3"])
    assert s["sides"]["B"]["castle"] == 19 and len(p(s, 1)["action"]) == 2 and s["turn"]["movement_left"] == 2
    said = {k: v for k, v in s["last"][-1].items() if k not in ("text", "says")}  # the sentence and its message
    assert said == {"kind": "castle", "side": "B", "amount": 1, "castle": 19}


def test_SG_8_14_request_duel_ends_the_requesters_movement():
    s = start(dice=[1, 5], positions={1: [2, 3], 2: [2, 3]}, gold={2: 1}, hands={1: ["strike-1"]})
    s = move(s, 1, "roll")
    s = move(s, 1, "request_duel", target=2)
    assert s["turn"]["movement_left"] == 0
    s = move(s, 2, "refuse")
    assert s["fight"] is None and p(s, 1)["gold"] == 1
    with pytest.raises(GameError, match="0 movement left"):
        move(s, 1, "move", path=[[2, 4]])
    with pytest.raises(GameError, match="no movement left"):
        move(s, 1, "attack", target=2, cards=["strike-1"])
    assert {m["move"] for m in sg.legal(s, 1)["moves"]} == {"discard", "end_turn"}


def _boss_with_joiner(gold):
    """Seat 2 (B) challenges A's boss from [2, 3]; seat 4 (B) on the door [3, 4] joins for 2."""
    s = start(4, dice=[1, 4], positions={1: [7, 4], 2: [2, 3], 3: [7, 4], 4: [3, 4]}, first=2, gold=gold)
    s = move(s, 2, "roll")
    s = move(s, 2, "challenge_boss")
    return move(s, 4, "join_boss")


def test_SG_8_14_when_the_entrant_flees_the_joiner_fights_on_and_may_flee_too():
    s = _boss_with_joiner({2: 1, 4: 3})
    with pytest.raises(GameError, match="P4 fights on; the boss's health is entered when the fight ends"):
        move(s, 2, "flee", boss_health=3)
    s = move(s, 2, "flee")
    assert p(s, 2)["gold"] == 0 and s["turn"]["movement_left"] == 3  # SG-8.12: the entrant keeps movement
    assert s["fight"] is not None and s["fight"]["entrant"] == 4 and s["fight"]["joiners"] == []
    assert sg.table_view(s)["answer"] == [4]  # the challenger left enters the result
    with pytest.raises(GameError, match="only a boss fight's challenger"):
        move(s, 2, "flee")
    with pytest.raises(GameError, match="being played"):
        move(s, 2, "move", path=[[2, 4]])
    out = move(s, 4, "flee", boss_health=4)
    assert out["fight"] is None and p(out, 4)["gold"] == 0 and out["sides"]["A"]["boss"]["health"] == 4
    # or the joiner loses on alone: knocked out and pays 2; the fled entrant is spared
    lost = move(move(s, 4, "fight_result", winner="A", boss_health=2), 1, "confirm")
    assert p(lost, 4)["knocked_out"] and p(lost, 4)["gold"] == 0 and not p(lost, 2)["knocked_out"]
    assert lost["sides"]["A"]["boss"]["health"] == 2 and lost["turn"]["seat"] == 2


def test_SG_8_14_a_boss_healed_in_the_fight_is_entered_up_to_its_full_health():
    s = _boss_with_joiner({2: 2, 4: 3})
    boss = s["sides"]["A"]["boss"]
    s["sides"]["A"]["boss"]["health"] = 2  # hurt in an earlier fight
    full = boss["max_health"]
    with pytest.raises(GameError, match=f"boss_health must be 0-{full}, got {full + 1}"):
        move(s, 2, "fight_result", winner="A", boss_health=full + 1)
    with pytest.raises(GameError, match="a boss at 0 health is beaten"):
        move(s, 2, "fight_result", winner="A", boss_health=0)
    healed = move(move(s, 2, "fight_result", winner="A", boss_health=full), 1, "confirm")
    assert healed["sides"]["A"]["boss"]["health"] == full
    s = move(s, 4, "flee")
    s = move(s, 2, "flee", boss_health=full - 1)  # Peach: above the 2 it had before the fight
    assert s["fight"] is None and s["sides"]["A"]["boss"]["health"] == full - 1


def test_SG_8_14_a_challenger_with_0_gold_cannot_leave_by_either_path():
    s = _boss_with_joiner({2: 0, 4: 2})
    assert p(s, 4)["gold"] == 0
    with pytest.raises(GameError, match="fleeing costs 1 gold; you have 0"):
        move(s, 4, "flee")
    with pytest.raises(GameError, match="seat 4 cannot have fled: leaving costs 1 gold and they have 0"):
        move(s, 2, "fight_result", winner="A", fled=[4])
    assert "flee" not in {m["move"] for m in sg.legal(s, 4)["moves"]}


def test_SG_8_11_nobody_flees_a_duel_fled_is_refused_and_changes_nothing():
    """SG-8.11/SG-8.12: fleeing belongs to boss fights; in a duel every loser is knocked out, so a
    duel's result naming who fled is refused with a clear error and the fight waits as it was."""
    s = start(dice=[1, 1], positions={1: [2, 3], 2: [2, 3]}, gold={1: 3, 2: 3})
    s = move(s, 1, "roll")
    s = move(s, 1, "request_duel", target=2)
    s = move(s, 2, "accept")
    with pytest.raises(GameError, match="nobody flees a duel"):
        move(s, 1, "fight_result", winner="A", fled=[2])
    assert s["fight"]["stage"] == "result" and s["fight"]["result"] is None
    s = move(s, 1, "fight_result", winner="A", fled=[])  # an empty list says nothing: accepted
    assert s["fight"]["stage"] == "confirm"
