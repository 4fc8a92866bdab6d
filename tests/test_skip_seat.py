"""The host passes for a seat the game has waited on too long (docs/phones.md "A seat nobody
plays"): the seat's own ``pass`` or ``end_turn`` where the game offers it with nothing to choose,
journalled as a control input and replayed exactly; refused clearly, changing nothing, where the
rules give the seat no such move (a Coup turn must be an action, CP-3)."""

from __future__ import annotations

import pytest

from controller.games import get_game
from controller.table import Table
from gametable_core.said import msg_of
from web_panel.i18n import render

BANG = {
    "type": "new_game", "game": "bang", "seed": 5,
    "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"},
                {"seat": 4, "name": "Di"}],
}
COUP = {"type": "new_game", "game": "coup", "seed": 3, "options": {"setup": {"first": 1}},
        "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"}]}


def _table(new_game: dict) -> Table:
    table = Table()
    assert table.submit({"id": "n", **new_game}).ok
    return table


SG_PLAYERS = [{"seat": 1, "name": "Ann", "team": "A"}, {"seat": 2, "name": "Bo", "team": "B"}]
BATTLEFIELD = {"type": "new_game", "game": "sanguosha_map", "players": SG_PLAYERS, "seed": 9}


def test_sg_skipping_a_turn_rolls_and_ends_it_as_the_seat_itself_could():
    """The battlefield's turn starts with the roll (SG-3): a skip rolls for Ann and ends her turn
    at once, the same table as Ann rolling and ending it herself."""
    table, by_seat = _table(BATTLEFIELD), _table(BATTLEFIELD)
    assert table.public_view()["turn"]["seat"] == 1
    for move in ("roll", "end_turn"):
        assert by_seat.submit({"id": move, "type": "move", "seat": 1, "move": move}).ok
    result = table.submit({"id": "s", "type": "skip_seat", "seat": 1})
    assert result.ok, result.to_json()
    assert result.effects[0] == {"kind": "skipped", "seat": 1, "move": "end_turn"}
    assert table.state == {**by_seat.state, "last": table.state["last"]}
    assert table.public_view()["turn"]["seat"] == 2
    words = get_game("sanguosha_map").words(result.input, result.effects, table.public_view())
    assert words[0] == "The host ended Ann's turn (no phone held the seat)" and "Bo's turn" in words
    assert render(msg_of(words[0]), "zh") != words[0]


def test_a_skip_is_replayed_from_the_inputs_to_the_same_table():
    table = _table(BATTLEFIELD)
    assert table.submit({"id": "s", "type": "skip_seat", "seat": 1}).ok
    again = Table()
    for inp in table.inputs:
        assert again.submit(inp).ok
    assert again.public_view() == table.public_view()


def test_undo_takes_a_skip_back():
    table = _table(BATTLEFIELD)
    before = table.public_view()
    assert table.submit({"id": "s", "type": "skip_seat", "seat": 1}).ok
    assert table.submit({"id": "u", "type": "undo"}).ok
    assert {k: v for k, v in (table.public_view() or {}).items() if k != "last"} == \
        {k: v for k, v in (before or {}).items() if k != "last"}


def test_bg_3_a_turn_whose_hand_is_over_its_limit_is_not_skipped():
    """Ending this Bang! turn needs discards only the player may choose (BG-3): refused, nothing
    changes (the host may hand the seat to a bot or end the game)."""
    table = _table(BANG)
    seat = table.public_view()["turn"]["seat"]
    before = (table.public_view(), list(table.inputs))
    out = table.submit({"id": "s", "type": "skip_seat", "seat": seat}).to_json()
    assert out["ok"] is False and out["error"].startswith(f"skip_seat: seat {seat} has no answer to pass")
    assert (table.public_view(), list(table.inputs)) == before


def test_cp_3_a_coup_turn_cannot_be_skipped_a_window_can_be_passed():
    table = _table(COUP)
    before = (table.public_view(), list(table.inputs))
    out = table.submit({"id": "bad", "type": "skip_seat", "seat": 1}).to_json()
    assert out["ok"] is False
    assert out["error"] == "skip_seat: seat 1 has no answer to pass or turn to end now; a bot may play it, or end the game"
    assert render(out["error_msg"], "zh") != out["error"]
    assert (table.public_view(), list(table.inputs)) == before
    # Ann claims Duke (tax): Bo and Cy may challenge; the host passes for Bo
    assert table.submit({"id": "t", "type": "move", "seat": 1, "move": "tax"}).ok
    window = table.public_view()["window"]
    assert 2 in window["seats"]
    result = table.submit({"id": "p", "type": "skip_seat", "seat": 2})
    assert result.ok, result.to_json()
    assert result.effects[0] == {"kind": "skipped", "seat": 2, "move": "pass"}
    assert get_game("coup").words(result.input, result.effects, table.public_view())[0] == \
        "The host passed for Bo (no phone held the seat)"


@pytest.mark.parametrize(("seat", "error"), [
    (9, "skip_seat: 'seat' must be a seat of this game (1, 2, 3), got 9"),
    (True, "skip_seat: 'seat' must be a seat of this game (1, 2, 3), got True"),
    (None, "skip_seat: 'seat' must be a seat of this game (1, 2, 3), got None"),
])
def test_a_skip_for_no_seat_of_the_game_is_refused_and_changes_nothing(seat, error):
    table = _table(COUP)
    before = (table.public_view(), list(table.inputs))
    out = table.submit({"id": "bad", "type": "skip_seat", "seat": seat}).to_json()
    assert out["ok"] is False and out["error"] == error and render(out["error_msg"], "zh") != error
    assert (table.public_view(), list(table.inputs)) == before


def test_no_skip_without_a_game_or_after_it():
    assert "no game in progress" in Table().submit({"id": "x", "type": "skip_seat", "seat": 1}).to_json()["error"]
    table = _table(COUP)
    assert table.submit({"id": "a", "type": "abort"}).ok
    out = table.submit({"id": "y", "type": "skip_seat", "seat": 1}).to_json()
    assert out["ok"] is False and out["error"] == "skip_seat: the game is aborted"
