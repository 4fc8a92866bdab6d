"""Engine refusals a player can meet through a phone carry their message (docs/i18n.md "Errors"):
``cmd/result`` keeps its English ``error`` and adds ``error_msg``, which the panel says in Chinese."""

from __future__ import annotations

import pytest

from controller.table import Table
from web_panel.i18n import render

COUP_PLAYERS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"}]


def _coup(**setup: object) -> Table:
    table = Table()
    assert table.submit({"id": "n", "type": "new_game", "game": "coup", "players": COUP_PLAYERS, "seed": 3,
                         "options": {"setup": setup} if setup else {}}).ok
    return table


def _refused(table: Table, cmd: dict) -> dict:
    out = table.submit(cmd).to_json()
    assert out["ok"] is False
    return out


def test_cp2_a_move_out_of_turn_is_refused_in_both_languages():
    table = _coup(first=1)
    out = _refused(table, {"id": "x1", "type": "move", "seat": 2, "move": "income"})
    assert out["error"] == "it is Ann (seat 1)'s turn, not seat 2's"  # the English stays as it was
    assert render(out["error_msg"], "zh") == "现在是 Ann (seat 1) 的回合，不是座位 2 的"


def test_cp2_an_action_you_cannot_pay_for_says_so_in_chinese():
    out = _refused(_coup(first=1), {"id": "x2", "type": "move", "seat": 1, "move": "assassinate",
                                    "args": {"target": 2}})
    assert out["error"] == "assassinate costs 3 coins; Ann has 2"
    assert render(out["error_msg"], "zh") == "assassinate 需要 3 枚硬币；Ann 只有 2 枚"


def test_cp2_1_ten_coins_must_coup_and_the_rule_number_stays_out_of_the_chinese():
    out = _refused(_coup(first=1, coins={"1": 10}), {"id": "x3", "type": "move", "seat": 1, "move": "income"})
    assert out["error"].startswith("Ann has 10 coins and must coup")
    assert render(out["error_msg"], "zh") == "Ann 有 10 枚硬币，必须发动政变"


@pytest.mark.parametrize("move", ["challenge", "pass"])
def test_cp3_an_answer_without_a_window_is_refused_in_chinese(move):
    out = _refused(_coup(first=1), {"id": f"x-{move}", "type": "move", "seat": 2, "move": move})
    assert render(out["error_msg"], "zh") == f"{move}：没有打开的回应窗口"
    assert render(out["error_msg"], "en") == out["error"]


def _sg_refusal(state: dict, seat: int, name: str, **args: object) -> object:
    from controller.games import sanguosha_map as sg
    from controller.games.base import GameError
    from gametable_core.said import msg_of

    with pytest.raises(GameError) as err:
        sg.apply(state, {"type": "move", "seat": seat, "move": name, "args": args})
    return msg_of(err.value.args[0])


def test_sg3_attacking_before_the_roll_is_refused_in_chinese_without_the_rule_number():
    from tests.sgmap_helpers import start

    msg = _sg_refusal(start(dice=[1, 3], hands={"1": ["strike-1"]}), 1, "attack", target=2, cards=["strike-1"])
    assert render(msg, "en") == "attack: roll the die first (SG-3)"
    assert render(msg, "zh") == "attack：请先掷骰子"


def test_sg4_a_strike_out_of_range_is_refused_in_chinese():
    from tests.sgmap_helpers import move, start

    state = move(start(dice=[1, 3], positions={1: [1, 6], 2: [7, 4]}, hands={"1": ["strike-1"]}), 1, "roll")
    msg = _sg_refusal(state, 1, "attack", target=2, cards=["strike-1"])
    assert render(msg, "en").startswith("attack: P2 is ") and "your range is" in render(msg, "en")
    assert render(msg, "zh").startswith("攻击：P2 距离 ")


def test_bg8_refusals_a_bang_phone_meets_are_said_in_chinese():
    from controller.games import bang
    from controller.games.base import GameError
    from gametable_core.said import msg_of
    from tests.bang.helpers import move, table

    s = table(hands={1: ["bang-AS"], 2: ["missed-2S"]})
    with pytest.raises(GameError) as err:
        bang.apply(s, {"type": "move", "seat": 2, "move": "play", "args": {"card": "missed-2S"}})
    assert render(msg_of(err.value.args[0]), "zh") == "现在不是座位 2 的回合"
    s = move(s, 1, "play", card="bang-AS", target=2)
    with pytest.raises(GameError) as err:
        move(s, 3, "pass")
    assert str(err.value) == "seat 3 may not answer this window (seat 2 must)"
    assert render(msg_of(err.value.args[0]), "zh") == "座位 3 不能回应这个窗口（应由座位 2 回应）"
