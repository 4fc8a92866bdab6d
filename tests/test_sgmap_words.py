"""The battlefield's log lines in words (docs/phones.md): a move names the cell by what it is and
counts rows and columns from 1, never "moves to [3, 5]"."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from controller.games import sanguosha_map as sg
from gametable_core.said import msg_of
from tests.sgmap_helpers import ROWS, move, start, timeout
from web_panel.i18n import render


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


def _attack_unanswered() -> tuple[dict, list[str]]:
    """Ann (P1) hits Bo (P2) with a 杀 and the 闪 window times out (SG-9.1)."""
    state = move(start(dice=[1, 3], hands={"1": ["strike-1"], "2": []}), 1, "roll")
    state = move(state, 1, "attack", target=2, cards=["strike-1"])
    state = timeout(state)
    return state, sg.words({"type": "timeout", "window": 1}, state["last"], sg.view(state))


def test_sg9_a_loss_is_said_in_chinese_on_a_chinese_phone():
    """The engine's own lines carry their messages: "P2 loses 1 health to P1's 杀" reads in Chinese
    on a Chinese phone (docs/i18n.md), the English line unchanged."""
    _, lines = _attack_unanswered()
    loss = next(line for line in lines if "loses" in line)
    assert loss == "P2 loses 1 health to P1's 杀"
    assert render(msg_of(loss), "zh") == "P2 失去 1 点体力（P1 的杀）"
    assert render(msg_of(loss), "en") == loss


def test_every_engine_line_of_a_game_is_a_message_with_a_chinese_translation():
    """No battlefield log line travels as plain English text (`{"text": …}`) and none lacks Chinese."""
    state, lines = _attack_unanswered()
    said = [msg_of(line) for line in lines] + [e["says"] for e in state["last"] if "says" in e]
    assert said and all("id" in m for m in said)
    assert all(render(m, "zh") != render(m, "en") for m in said)


def test_the_engine_state_keeps_english_text_and_adds_the_message():
    """Replay and public state stay as they were: ``text`` is the English sentence; ``says`` is added."""
    state, _ = _attack_unanswered()
    damage = next(e for e in state["last"] if e["kind"] == "damage")
    assert damage["text"] == "P2 loses 1 health to P1's 杀" and type(damage["text"]) is str
    assert damage["says"]["id"] == "{who} loses {n} health to {by}"
    assert state["log"][-1] == damage["text"] and type(state["log"][-1]) is str
