"""The battlefield's log lines in words (docs/phones.md): a move names the cell by what it is and
counts rows and columns from 1, never "moves to [3, 5]"."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from controller.games import sanguosha_map as sg
from tests.sgmap_helpers import ROWS, move, start


def test_sg3_a_move_is_said_with_the_cell_in_words_and_its_cost():
    state = move(start(dice=[1, 3]), 1, "roll")
    mv = next(m for m in sg.legal(state, 1)["moves"] if m["move"] == "move")
    i = next(i for i, (r, c, _) in enumerate(mv["cells"]) if [r, c] == [2, 5])
    state = move(state, 1, "move", path=mv["paths"][i])
    lines = sg.words({"type": "move", "seat": 1, "move": "move"}, state["last"], sg.view(state))
    assert lines[-1] == "P1 moves to the road (row 3, column 6), 2 movement"
    assert lines[-1].msg["id"] == "{who} moves to {place}, {n} movement"  # a phone says it in Chinese too


@given(st.integers(0, len(ROWS) - 1), st.integers(0, len(ROWS[0]) - 1))
def test_every_cell_is_named_without_brackets(r, c):
    said = sg.place(ROWS, [r, c])
    assert "[" not in said and f"(row {r + 1}, column {c + 1})" in said
