"""The battlefield's path-search bot plays like a sensible player (docs/rules/sanguosha-map.md)."""

from __future__ import annotations

from controller.games import sanguosha_map as sg
from controller.games.sanguosha_map.robots import PathBot
from tests.sgmap_helpers import move, start


def choice(state, seat):
    return PathBot(1).choose(sg.view(state, seat), sg.legal(state, seat))


def test_refuses_a_duel_it_can_pay_for_and_accepts_one_it_cannot():
    s = start(dice=[1, 1], positions={1: [2, 3], 2: [2, 3]}, gold={2: 1})
    s = move(s, 1, "roll")
    s = move(s, 1, "request_duel", target=2)
    assert choice(s, 2)["move"] == "refuse"
    s = start(dice=[1, 1], positions={1: [2, 3], 2: [2, 3]}, gold={2: 0})
    s = move(s, 1, "roll")
    s = move(s, 1, "request_duel", target=2)
    assert choice(s, 2)["move"] == "accept"


def test_dodges_when_it_holds_a_dodge():
    s = start(dice=[1, 3], hands={1: ["strike-1"], 2: ["dodge-1"]}, positions={1: [2, 3], 2: [2, 5]})
    s = move(s, 1, "roll")
    s = move(s, 1, "attack", target=2, cards=["strike-1"])
    assert choice(s, 2) == {"type": "move", "seat": 2, "move": "dodge", "args": {"cards": ["dodge-1"]}}


def test_finishes_a_weak_general_before_hitting_the_castle():
    s = start(dice=[1, 3], hands={1: ["strike-1"]}, positions={1: [1, 6], 2: [1, 7]})
    s["players"][1]["health"] = 1
    s = move(s, 1, "roll")
    s = move(s, 1, "keep")
    assert choice(s, 1)["args"] == {"target": 2, "cards": ["strike-1"]}
    s["players"][1]["health"] = 3
    assert choice(s, 1)["args"]["target"] == "castle"


def test_buys_a_weapon_then_a_horse_in_a_castle():
    s = start(dice=[1, 3], positions={1: [0, 0], 2: [7, 4]}, gold={1: 30})
    s = move(s, 1, "roll")
    s = move(s, 1, "keep")
    assert choice(s, 1)["args"] == {"pile": "weapon"}
    s = move(s, 1, "shop", pile="weapon")
    assert choice(s, 1)["args"] == {"pile": "horse"}


def test_heads_home_to_heal_at_1_health():
    s = start(dice=[1, 3], positions={1: [2, 4], 2: [7, 4]})
    s["players"][0]["health"] = 1
    s = move(s, 1, "roll")
    s = move(s, 1, "keep")
    c = choice(s, 1)
    assert c["move"] == "move" and c["args"]["path"][-1] == [2, 1]  # the own inner zone, 3 steps away


def test_rolls_again_on_a_low_roll():
    s = start(dice=[1, 1])
    s = move(s, 1, "roll")
    assert choice(s, 1)["move"] == "reroll"
