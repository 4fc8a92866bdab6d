"""The turn kit the card games share (controller/games/kit.py): one seat lookup with one error,
the seat order round the table, a reaction window's timer glue, and the contract's defaults."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.games import GameError, kit


def test_player_finds_the_seat_and_names_a_seat_not_playing():
    state = {"players": [{"seat": 2, "name": "a"}, {"seat": 5, "name": "b"}]}
    assert kit.player(state, 5)["name"] == "b"
    with pytest.raises(GameError, match="^seat 3 is not playing this game$"):
        kit.player(state, 3)


@given(order=st.lists(st.integers(1, 9), min_size=1, max_size=8, unique=True), data=st.data())
def test_rotation_goes_round_the_table_from_a_seat_and_ends_with_it(order, data):
    seat = data.draw(st.sampled_from(order))
    turn = kit.rotation(order, seat)
    assert sorted(turn) == sorted(order) and turn[-1] == seat
    assert all(order[(order.index(seat) + k + 1) % len(order)] == s for k, s in enumerate(turn))


def test_window_clock_lists_the_open_windows_timeout_while_the_game_plays():
    clock = kit.WindowClock("window", lambda state, window: window["timeout_s"])
    state = {"phase": "playing", "window": {"id": 7, "seats": [3], "timeout_s": 8}}
    assert clock.deadlines(state) == [("window-7", 8.0, {"type": "timeout", "window": 7})]
    assert clock.answer(state) == [3] and clock.until(state) == "window-7"
    for closed in ({**state, "window": None}, {**state, "phase": "aborted"}):
        assert clock.deadlines(closed) == [] and clock.answer(closed) == [] and clock.until(closed) is None
    view = clock.with_timers({"window": {"id": 7}}, {"window-7": {"deadline": 12.5, "paused": False,
                                                                 "remaining_s": 4.0}})
    assert view["window"] == {"id": 7, "deadline": 12.5}


def test_the_defaults_copy_the_winner_and_hide_nothing():
    state = {"winner": [1, 3]}
    assert kit.winner(state) == [1, 3] and kit.winner(state) is not state["winner"]
    assert kit.winner({"winner": {"draw": [1, 2]}}) == {"draw": [1, 2]}
    assert kit.winner({"winner": None}) is None
    inp = {"type": "move", "seat": 1, "move": "take"}
    assert kit.public_input(inp) is inp
