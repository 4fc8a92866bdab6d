"""The host hands a seat whose phone is gone to a bot (docs/phones.md "A seat nobody plays"): a
journalled control input, replayed exactly, undoable, refused clearly when it makes no sense."""

from __future__ import annotations

import pytest

from controller.games import get_game
from controller.table import Table
from gametable_core.said import msg_of
from web_panel.i18n import render

PLAYERS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy", "bot": True}]


def _coup() -> Table:
    table = Table()
    assert table.submit({"id": "n", "type": "new_game", "game": "coup", "players": PLAYERS, "seed": 3,
                         "options": {"setup": {"first": 1}}}).ok
    return table


def test_a_seat_handed_to_a_bot_joins_the_new_games_bot_seats_and_the_public_state():
    table = _coup()
    assert table.bot_seats() == [3] and "bots" not in (table.public_view() or {})
    before = table.public_view()
    result = table.submit({"id": "b1", "type": "seat_to_bot", "seat": 2})
    assert result.ok and result.effects == [{"kind": "seat_to_bot", "seat": 2}]
    assert table.bot_seats() == [2, 3]
    after = table.public_view() or {}
    assert after.pop("bots") == [2, 3]
    assert {k: v for k, v in after.items() if k != "last"} == {k: v for k, v in before.items() if k != "last"}
    words = get_game("coup").words(result.input, result.effects, table.public_view())
    assert words == ["A bot plays for Bo from now on"]
    assert render(msg_of(words[0]), "zh") == "从现在起由机器人替 Bo 玩"


def test_the_game_goes_on_after_the_hand_over_and_replay_gives_the_same_table():
    table = _coup()
    assert table.submit({"id": "b1", "type": "seat_to_bot", "seat": 2}).ok
    assert table.submit({"id": "m1", "type": "move", "seat": 1, "move": "income"}).ok
    again = Table()
    for inp in table.inputs:
        assert again.submit(inp).ok
    assert again.public_view() == table.public_view() and again.bot_seats() == [2, 3]


def test_undo_takes_the_hand_over_back():
    table = _coup()
    assert table.submit({"id": "b1", "type": "seat_to_bot", "seat": 1}).ok
    assert table.submit({"id": "u1", "type": "undo"}).ok
    assert table.bot_seats() == [3] and "bots" not in (table.public_view() or {})


@pytest.mark.parametrize(("seat", "error"), [
    (9, "seat_to_bot: 'seat' must be a seat of this game (1, 2, 3), got 9"),
    ("2", "seat_to_bot: 'seat' must be a seat of this game (1, 2, 3), got '2'"),
    (3, "seat_to_bot: a bot plays seat 3 already"),
])
def test_a_hand_over_that_makes_no_sense_is_refused_and_changes_nothing(seat, error):
    table = _coup()
    before = (table.public_view(), list(table.inputs))
    out = table.submit({"id": "bad", "type": "seat_to_bot", "seat": seat}).to_json()
    assert out["ok"] is False and out["error"] == error and render(out["error_msg"], "zh") != error
    assert (table.public_view(), list(table.inputs)) == before


def test_no_hand_over_without_a_game_or_after_it():
    out = Table().submit({"id": "x", "type": "seat_to_bot", "seat": 1}).to_json()
    assert out["ok"] is False and "no game in progress" in out["error"]
    table = _coup()
    assert table.submit({"id": "a", "type": "abort"}).ok
    out = table.submit({"id": "y", "type": "seat_to_bot", "seat": 1}).to_json()
    assert out["ok"] is False


def test_the_virtual_tables_bots_take_the_handed_seat_now_and_after_a_restart(offline_daemon, fake_clock):
    """`make demo` / `gametable sim`: the bots play the seat from the hand-over on (the real daemon,
    journalled), and a sim started again over the same game (its public state's "bots") still knows it."""
    from gametable.sim_table import VirtualTable

    vt = VirtualTable(offline_daemon, fake_clock, seed=1)
    assert offline_daemon.submit({"id": "g-stb", "type": "new_game", "game": "coup", "players": PLAYERS,
                                  "seed": 3, "options": {"setup": {"first": 1}}})["ok"]
    assert vt.bots == {3}
    assert offline_daemon.submit({"id": "b-stb", "type": "seat_to_bot", "seat": 1})["ok"]
    assert vt.bots == {1, 3}
    assert VirtualTable(offline_daemon, fake_clock, seed=1).bots == {1, 3}
    assert [r.input["type"] for r in offline_daemon.journal.records()] == ["new_game", "seat_to_bot"]
