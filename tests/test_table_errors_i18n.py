"""The table's own refusals (no game yet, an aborted game, nothing to undo) reach a host's phone in
its own language like every game's (docs/i18n.md "Errors"): the English ``error`` is unchanged and an
``error_msg`` renders in Chinese."""

from __future__ import annotations

import itertools
import uuid
from typing import Any

from controller.table import Table
from gametable_core.clock import FakeClock
from web_panel.i18n import render

RUN = uuid.uuid4().hex[:8]  # command ids never repeat across runs
_ids = itertools.count(1)


def submit(table: Table, cmd: dict[str, Any]) -> dict[str, Any]:
    return table.submit({"id": f"tblerr-{RUN}-{next(_ids)}", **cmd}).to_json()


def refused(table: Table, cmd: dict[str, Any]) -> tuple[str, str]:
    before, seq = table.state, table.seq
    result = submit(table, cmd)
    assert not result["ok"] and table.state == before and table.seq == seq
    assert render(result["error_msg"], "en") == result["error"]
    return result["error"], render(result["error_msg"], "zh")


def coup_table() -> Table:
    table = Table(clock=FakeClock())
    assert submit(table, {"type": "new_game", "game": "coup", "seed": 3, "order": [1, 2],
                          "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}]})["ok"]
    return table


def test_a_move_before_any_game_is_refused_in_chinese():
    error, chinese = refused(Table(clock=FakeClock()), {"type": "abort"})
    assert error == "no game in progress: start one with new_game before 'abort'"
    assert chinese == "当前没有进行中的游戏：请先开始新游戏，再发送 'abort'"


def test_nothing_to_undo_on_a_fresh_table_is_refused_in_chinese():
    error, chinese = refused(Table(clock=FakeClock()), {"type": "undo"})
    assert (error, chinese) == ("nothing to undo", "没有可以撤销的操作")


def test_an_aborted_game_refuses_moves_and_a_second_abort_in_chinese():
    table = coup_table()
    assert submit(table, {"type": "abort"})["ok"]
    error, chinese = refused(table, {"type": "abort"})
    assert error == "the game is already aborted; nothing to abort"
    assert chinese == "游戏状态已是 aborted；无需中止"
    error, chinese = refused(table, {"type": "move", "seat": 1, "move": "income"})
    assert (error, chinese) == ("the game was aborted; start a new game", "本局已中止；请开始新游戏")
