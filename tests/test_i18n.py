"""The i18n machinery (docs/i18n.md): log lines as messages beside the English words, the phone's
language choice, the catalogue compiled from the committed ``.po``."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.games import coup
from gametable_core.said import Said, listing, msg_of, say, say_n, says, term
from web_panel.i18n import choose, from_accept_language, normalise
from web_panel.loglines import log_entries


def test_a_said_line_is_the_english_sentence_and_carries_its_message():
    line = say("{who} steals {coins} from {target}", who="Ann", coins=2, target=say("Seat {n}", n=3))
    assert line == "Ann steals 2 from Seat 3"
    assert line.msg == {"id": "{who} steals {coins} from {target}",
                        "args": {"who": "Ann", "coins": 2, "target": {"id": "Seat {n}", "args": {"n": 3}}}}
    assert json.loads(json.dumps(["x", line])) == ["x", "Ann steals 2 from Seat 3"]  # words stay plain strings


def test_counts_lists_and_terms_keep_english_and_say_how_to_translate():
    assert say_n("{who} draws {n} card", "{who} draws {n} cards", 1, who="Bo") == "Bo draws 1 card"
    two = say_n("{who} draws {n} card", "{who} draws {n} cards", 2, who="Bo")
    assert two == "Bo draws 2 cards" and two.msg["plural"] == "{who} draws {n} cards" and two.msg["n"] == 2
    cards = say("General Store: {cards}", cards=listing([term("Beer"), term("BANG!")]))
    assert cards == "General Store: Beer, BANG!"
    assert cards.msg["args"]["cards"] == [{"id": "Beer"}, {"id": "BANG!"}]
    assert say("Game over: {who} win", who=listing(["Ann", "Bo", "Cy"], " and ")) == "Game over: Ann and Bo and Cy win"


def test_a_message_missing_a_field_fails_at_once_naming_it():
    with pytest.raises(KeyError, match="needs who"):
        say("{who} passes")


def test_plain_lines_go_on_the_wire_as_text():
    assert says(["Ann", say("Game over")]) == [{"text": "Ann"}, {"id": "Game over"}]
    assert msg_of(Said("x", {"id": "x"})) == {"id": "x"}


@given(st.lists(st.text(max_size=20), max_size=4))
def test_any_names_fill_a_message_without_breaking_it(names):
    line = say("Draw: {who}", who=listing(names))
    assert line == "Draw: " + ", ".join(names) and line.msg["args"]["who"] == names


def test_coup_words_publish_messages_a_phone_can_say_in_chinese():
    state = {"players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}]}
    lines = coup.words({"type": "move"}, [{"kind": "challenge", "seat": 2, "claimant": 1, "claim": "duke"}], state)
    assert lines == ["Bo challenges Ann's Duke (K)"]
    assert says(lines) == [{"id": "{who} challenges {claimant}'s {card}", "args": {
        "who": "Bo", "claimant": "Ann", "card": {"id": "{role} ({rank})", "args": {"role": {"id": "Duke"}, "rank": "K"}}}}]


def test_the_panel_log_keeps_each_lines_message_beside_it():
    event = {"words": ["Ann passes", "  ", "Bo's turn"],
             "says": [{"id": "{who} passes", "args": {"who": "Ann"}}, {"text": "  "}, {"id": "{who}'s turn", "args": {"who": "Bo"}}]}
    assert log_entries(event, []) == [("Ann passes", {"id": "{who} passes", "args": {"who": "Ann"}}),
                                      ("Bo's turn", {"id": "{who}'s turn", "args": {"who": "Bo"}})]
    # "says" that does not match "words" line for line is ignored: the English lines are shown
    assert log_entries({"words": ["a", "b"], "says": [{"id": "x"}]}, []) == [("a", {"text": "a"}), ("b", {"text": "b"})]


def test_the_phone_language_is_its_choice_then_the_table_default_then_the_browser():
    assert choose("en", "zh", "zh-CN") == "en"
    assert choose(None, "zh", "en-GB,en") == "zh"
    assert choose(None, None, "fr-FR,zh-CN;q=0.8,en;q=0.5") == "zh"
    assert choose(None, None, "fr-FR") == "en"
    assert from_accept_language("en;q=0.2, zh-Hans;q=0.9") == "zh"
    assert normalise("zh_Hans") == normalise("zh-TW") == "zh" and normalise("de") is None


def test_a_refusal_said_as_a_message_reaches_the_phone_beside_its_english():
    from controller.table import Result, short_error

    refusal = say("it is seat {turn}'s turn, not seat {seat}'s", turn=2, seat=1)
    assert short_error(refusal) is refusal  # short and one line: kept whole, message and all
    assert Result("c1", False, short_error(refusal)).to_json() == {
        "id": "c1", "ok": False, "error": "it is seat 2's turn, not seat 1's",
        "error_msg": {"id": "it is seat {turn}'s turn, not seat {seat}'s", "args": {"turn": 2, "seat": 1}}}
    assert "error_msg" not in Result("c2", False, short_error("plain English")).to_json()


def test_the_panel_says_a_message_in_the_asking_phones_language_by_gettext():
    from web_panel.i18n import render

    refusal = say("it is seat {turn}'s turn, not seat {seat}'s", turn=2, seat=1).msg
    assert render(refusal, "zh") == "现在是座位 2 的回合，不是座位 1 的"
    assert render(refusal, "en") == "it is seat 2's turn, not seat 1's"
    draws = say_n("{who} draws {n} card", "{who} draws {n} cards", 2, who=say("Seat {n}", n=3)).msg
    assert render(draws, "en") == "Seat 3 draws 2 cards" and render(draws, "zh") == "座位 3 摸了 2 张牌"
    assert render({"id": "General Store: {cards}", "args": {"cards": [{"id": "Beer"}, {"id": "BANG!"}]}}, "zh") == "杂货铺：啤酒、BANG！"
    assert render({"text": "Ann"}, "zh") == "Ann" and render("odd", "zh") == "odd"
