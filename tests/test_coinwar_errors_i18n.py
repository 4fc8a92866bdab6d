"""Coin War's refusals reach a phone in its own language (docs/i18n.md "Errors"): an illegal
strike, answer, placement or card move sent through the real :class:`Table` comes back with the
English ``error`` unchanged and an ``error_msg`` the panel renders in Chinese, rule numbers left out.
"""

from __future__ import annotations

import itertools
import uuid
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.games.coinwar.referee import question_text
from controller.table import Table
from gametable_core.clock import FakeClock
from gametable_core.said import Said
from web_panel.i18n import render

RUN = uuid.uuid4().hex[:8]  # command ids never repeat across runs
_ids = itertools.count(1)


def submit(table: Table, cmd: dict[str, Any]) -> dict[str, Any]:
    return table.submit({"id": f"cwerr-{RUN}-{next(_ids)}", **cmd}).to_json()


def ffa_table(*seats: int) -> Table:
    table = Table(clock=FakeClock())
    started = submit(table, {"type": "new_game", "game": "coinwar", "mode": "ffa", "seed": 7, "order": list(seats),
                             "players": [{"seat": s, "name": f"P{s}"} for s in seats]})
    assert started["ok"], started
    return table


def refused(table: Table, cmd: dict[str, Any]) -> tuple[str, str]:
    """The English error and its Chinese rendering; the refusal changed nothing."""
    before, seq = table.state, table.seq
    result = submit(table, cmd)
    assert not result["ok"] and table.state == before and table.seq == seq
    assert render(result["error_msg"], "en") == result["error"]  # the same sentence as before
    chinese = render(result["error_msg"], "zh")
    assert "CW-" not in chinese and chinese != result["error"]
    return result["error"], chinese


def test_cw3_a_strike_out_of_turn_is_refused_in_chinese():
    error, chinese = refused(ffa_table(1, 2), {"type": "shot", "seat": 2, "coin": "c2", "dead": [], "flown": [],
                                               "contacts": []})
    assert error == "it is seat 1's turn, not seat 2's (CW-3)"
    assert chinese == "现在是座位 1 的回合，不是座位 2 的"


def test_cw5_1_striking_another_players_coin_is_refused_in_chinese():
    error, chinese = refused(ffa_table(1, 2), {"type": "shot", "seat": 1, "coin": "c2", "dead": [], "flown": [],
                                               "contacts": []})
    assert error == "seat 1 may strike only c1, not 'c2' (CW-5.1)"
    assert chinese == "座位 1 只能击打 c1，不能击打 'c2'"


def test_cw8_a_wrong_answer_and_a_strike_before_answering_are_refused_in_chinese():
    table = ffa_table(1, 2)
    asked = submit(table, {"type": "shot", "seat": 1, "coin": "c1", "dead": None, "flown": [], "contacts": []})
    assert asked["ok"] and table.state["questions"][0]["id"] == "q1"
    error, chinese = refused(table, {"type": "answer", "question": "q1", "value": ["c9"]})
    assert error == "'c9' is not an option of q1 (options: ['c1', 'c2'])"
    assert chinese == "'c9' 不是问题 q1 的选项（选项：['c1', 'c2']）"
    error, chinese = refused(table, {"type": "strike", "seat": 1})
    assert error == "question q1 is open (Which coins are lying entirely inside the goal?); answer it first"
    assert chinese.startswith("问题 q1 还没回答（") and "Which coins" not in chinese  # the question, in Chinese too


def test_cw7_3_football_the_open_ball_question_is_quoted_in_chinese():
    table = Table(clock=FakeClock())
    teams = {1: "A", 2: "B"}
    started = submit(table, {"type": "new_game", "game": "coinwar", "mode": "football", "seed": 3, "order": [1, 2],
                             "players": [{"seat": s, "name": f"P{s}", "team": t} for s, t in teams.items()]})
    assert started["ok"], started
    asked = submit(table, {"type": "shot", "seat": 1, "coin": "A1", "dead": [], "flown": [], "contacts": None})
    assert asked["ok"] and table.state["questions"][0]["subject"] == "A1"
    error, chinese = refused(table, {"type": "end_turn", "seat": 1})
    assert error == "question q1 is open (Did A1 touch the ball? (pick it if so)); answer it first"
    assert chinese.startswith("问题 q1 还没回答（") and "A1" in chinese and "Did" not in chinese


def test_cw9_placing_a_coin_nobody_owes_is_refused_in_chinese():
    error, chinese = refused(ffa_table(1, 2), {"type": "placed", "coin": "c1"})
    assert error == "nothing to place for coin 'c1' (pending: nothing)"
    assert chinese == "币 'c1' 不需要放回（待放回的：无）"


def three_kingdoms_table() -> Table:
    """Four players (CW-7.5), a deck of every kind so each hand holds something to play."""
    table = Table(clock=FakeClock())
    identities = {"1": "lord", "2": "rebel", "3": "loyalist", "4": "traitor"}
    deck = [{"kind": kind, "points": 1 + i % 5} for i, kind in enumerate(["combo", "elixir", "burning_camps"] * 4)]
    started = submit(table, {"type": "new_game", "game": "coinwar", "mode": "three_kingdoms", "seed": 1,
                             "order": [1, 2, 3, 4], "options": {"identities": identities, "deck": deck},
                             "players": [{"seat": s, "name": f"P{s}"} for s in (1, 2, 3, 4)]})
    assert started["ok"], started
    return table


def test_cw7_5_a_combo_out_of_turn_is_refused_in_chinese():
    table = three_kingdoms_table()
    card = table.state["tk"]["hands"]["2"][0]["id"]  # out of turn is refused before the card is looked at
    error, chinese = refused(table, {"type": "move", "seat": 2, "move": "combo", "args": {"card": card}})
    assert error == "seat 2 may play Combo only in their own turn (CW-7.5)"
    assert chinese == "座位 2 只能在自己的回合打出连击"


COINS = st.sampled_from(["c1", "c2", "c3", "c9", "ball", 7, None])
COIN_LISTS = st.one_of(st.none(), st.lists(COINS, max_size=3), st.just("c1"))
PLAYER_INPUTS = st.one_of(
    st.fixed_dictionaries({"type": st.just("shot"), "seat": st.integers(1, 3), "coin": COINS,
                           "dead": COIN_LISTS, "flown": COIN_LISTS, "contacts": st.just([])}),
    st.fixed_dictionaries({"type": st.just("strike"), "seat": st.integers(1, 3)}),
    st.fixed_dictionaries({"type": st.just("withdraw"), "seat": st.integers(1, 3)}),
    st.fixed_dictionaries({"type": st.just("end_turn"), "seat": st.integers(1, 3)}),
    st.fixed_dictionaries({"type": st.just("placed"), "coin": COINS, "seat": st.integers(1, 3)}),
    st.fixed_dictionaries({"type": st.just("answer"), "question": st.sampled_from(["q1", "q2", 3]),
                           "value": COIN_LISTS}),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PLAYER_INPUTS, min_size=1, max_size=12))
def test_every_refusal_a_player_meets_in_play_is_said_in_chinese(inputs):
    assert_said_in_chinese(ffa_table(1, 2, 3), inputs)


def assert_said_in_chinese(table: Table, inputs: list[dict[str, Any]]) -> None:
    """Whatever a phone sends during a game, a refusal carries its message (the Chinese differs from
    the English and names no rule) and changes nothing; an accepted input simply plays on."""
    for inp in inputs:
        before, seq = table.state, table.seq
        result = submit(table, inp)
        if result["ok"]:
            continue
        assert "error_msg" in result, result["error"]
        assert table.state == before and table.seq == seq
        assert render(result["error_msg"], "en") == result["error"]
        chinese = render(result["error_msg"], "zh")
        assert "CW-" not in chinese and chinese != result["error"]


CARD_IDS = st.one_of(st.sampled_from([f"k{i}" for i in range(1, 14)]), st.none(), st.integers(0, 3))
TK_INPUTS = st.one_of(
    st.fixed_dictionaries({"type": st.just("move"), "seat": st.integers(1, 4),
                           "move": st.sampled_from(["combo", "burning_camps", "elixir", "take_damage", "discard", "x"]),
                           "args": st.fixed_dictionaries({}, optional={
                               "card": CARD_IDS, "target": st.integers(0, 5), "hide": st.sampled_from([True, False, 1]),
                               "cards": st.lists(CARD_IDS, max_size=3)})}),
    st.fixed_dictionaries({"type": st.just("shot"), "seat": st.integers(1, 4), "coin": st.sampled_from(["c1", "c2"]),
                           "dead": st.sampled_from([[], ["c2"], ["c1"]]), "flown": st.just([]),
                           "contacts": st.sampled_from([[], [["c1", "c2"]]])}),
    st.fixed_dictionaries({"type": st.just("end_turn"), "seat": st.integers(1, 4)}),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(TK_INPUTS, min_size=1, max_size=12))
def test_cw7_5_every_refusal_of_a_card_move_is_said_in_chinese(inputs):
    assert_said_in_chinese(three_kingdoms_table(), inputs)


def test_cw8_a_question_carrying_its_message_is_quoted_by_it():
    question = {"id": "q1", "kind": "contacts", "subject": "c1", "text": "Which coins did c1 touch?",
                "says": {"id": "Which coins did {coin} touch?", "args": {"coin": "c1"}}}
    quoted, rebuilt = question_text(question), question_text({**question, "says": None})
    assert isinstance(quoted, Said) and isinstance(rebuilt, Said)
    assert quoted == "Which coins did c1 touch?" and render(quoted.msg, "zh") != quoted
    assert rebuilt.msg == question["says"]  # the same message, from the template that wrote it
    assert question_text({"kind": "contacts", "subject": "c1", "text": "odd"}) == "odd"
