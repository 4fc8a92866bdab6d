"""What the table tells everyone after each input: ``last`` effects, seat views with ``legal``,
and inputs made safe for the public events topic (CP-6, CP-7)."""

from __future__ import annotations

from controller.games import coup
from tests.helpers.coup import mv, passes, table


def test_cp7_new_game_announces_the_first_turn():
    s = table({1: ["duke", "captain"], 2: ["contessa", "assassin"]}, first=2)
    assert coup.view(s)["last"] == [{"kind": "new_game", "mode": "classic"}, {"kind": "turn", "seat": 2}]


def test_cp3_effects_of_a_failed_challenge_name_rule_and_cards_shown():
    s = table({1: ["duke", "captain"], 2: ["contessa", "assassin"], 3: ["ambassador", "ambassador"]})
    s = mv(s, 1, "tax")
    assert coup.view(s)["last"] == [
        {"kind": "declare", "seat": 1, "move": "tax", "target": None, "claim": "duke", "paid": 0},
        {"kind": "window", "id": 1, "window": "challenge_action", "seats": [2, 3]},
    ]
    s = mv(s, 2, "pass")
    assert coup.view(s)["last"] == [{"kind": "pass", "seat": 2, "window": 1}]
    s = mv(s, 3, "challenge")
    assert coup.view(s)["last"] == [
        {"kind": "challenge", "seat": 3, "claimant": 1, "claim": "duke", "had": True, "rule": "CP-3.2"},
        {"kind": "show", "seat": 1, "card": "duke", "rule": "CP-3.2"},
        {"kind": "choose", "seat": 3, "choice": "lose_influence"},
    ]
    s = mv(s, 3, "lose_influence", card="ambassador")
    assert coup.view(s)["last"] == [
        {"kind": "reveal", "seat": 3, "card": "ambassador", "rule": "CP-5.1"},
        {"kind": "coins", "seat": 1, "coins": 3, "move": "tax"},
        {"kind": "turn", "seat": 2},
    ]


def test_cp5_effects_of_the_last_assassination_end_the_game():
    s = table({1: ["duke", "captain"], 2: ["contessa", "assassin"]}, coins={1: 9, 2: 0})
    s = mv(s, 1, "coup", target=2)
    s = mv(s, 2, "lose_influence", card="assassin")
    s = mv(s, 2, "income")
    s = mv(s, 1, "income")
    s = mv(s, 2, "income")
    s = mv(s, 1, "assassinate", target=2)
    s = passes(s, 2, 2)
    assert coup.view(s)["last"] == [
        {"kind": "pass", "seat": 2, "window": 2},
        {"kind": "assassinate", "seat": 1, "target": 2},
        {"kind": "reveal", "seat": 2, "card": "contessa", "rule": "CP-5.1"},
        {"kind": "out", "seat": 2, "rule": "CP-5.3"},
        {"kind": "game_over", "winner": [1], "rule": "CP-5.4"},
    ]


def test_seat_view_carries_its_legal_moves_and_the_public_view_none():
    s = table({1: ["duke", "captain"], 2: ["contessa", "assassin"]})
    s = mv(s, 1, "steal", target=2)
    assert coup.view(s, 2)["legal"] == [{"move": "challenge"}, {"move": "pass"}]
    assert coup.view(s, 1)["legal"] == []
    assert "legal" not in coup.view(s)


def test_cp6_public_input_hides_the_cards_returned_from_an_exchange():
    inp = {"type": "move", "seat": 1, "move": "exchange_return", "args": {"cards": ["duke", "captain"]}, "id": "x"}
    assert coup.public_input(inp) == {"type": "move", "seat": 1, "move": "exchange_return",
                                      "args": {"count": 2}, "id": "x"}
    other = {"type": "move", "seat": 1, "move": "lose_influence", "args": {"card": "duke"}}
    assert coup.public_input(other) is other  # a lost influence is face up anyway (CP-5.1)
