"""new_game for Coup (CP-1, CP-7): dealing, stacking, options, and a specific error for bad input."""

from __future__ import annotations

from collections import Counter

import pytest

from controller.games import coup
from controller.games.base import GameError
from tests.helpers.coup import all_cards, coins_total, dump

FOUR = [{"seat": s, "name": n} for s, n in zip((1, 2, 3, 4), ("Ann", "Bob", "Cat", "Dan"), strict=True)]


def test_cp1_deal_two_cards_two_coins_fifteen_cards_fifty_coins():
    s = coup.new({}, 42, players=FOUR)
    v = coup.view(s)
    assert v["game"] == "coup" and v["mode"] == "classic" and v["phase"] == "playing"
    assert [(x["coins"], x["influence"], x["revealed"], x["alive"]) for x in v["players"]] == [(2, 2, [], True)] * 4
    assert v["deck_size"] == 7 and v["treasury"] == 42
    assert all_cards(s) == Counter({c: 3 for c in ("duke", "assassin", "ambassador", "captain", "contessa")})
    assert coins_total(s) == 50
    assert v["turn"]["seat"] in (1, 2, 3, 4)
    assert v["window"] is None and v["pending"] is None and v["winner"] is None and v["questions"] == []


def test_cp1_same_seed_same_deal_other_seed_other_deal():
    assert dump(coup.new({}, 5, players=FOUR)) == dump(coup.new({}, 5, players=FOUR))
    deals = {dump(coup.new({}, seed, players=FOUR)) for seed in range(10)}
    assert len(deals) == 10


def test_cp7_stacked_hands_and_deck_are_used_in_order():
    setup = {
        "hands": {"1": ["duke", "captain"], "2": ["contessa", "contessa"]},
        "deck": ["assassin", "duke", "ambassador", "captain", "contessa", "duke",
                 "assassin", "assassin", "ambassador", "ambassador", "captain"],
        "first": 2,
        "coins": {"1": 5},
    }
    s = coup.new({"setup": setup}, 1, players=FOUR[:2])
    assert coup.view(s, 1)["hand"] == ["duke", "captain"]
    assert coup.view(s, 2)["hand"] == ["contessa", "contessa"]
    assert s["deck"] == setup["deck"]
    v = coup.view(s)
    assert v["turn"] == {"seat": 2} and v["players"][0]["coins"] == 5 and v["treasury"] == 43


def test_cp7_unstacked_hands_are_dealt_from_the_top_of_a_stacked_deck():
    deck = ["assassin", "duke", "ambassador", "captain"] + ["contessa"] * 3 + ["captain"] * 2 + ["ambassador"] * 2
    setup = {"hands": {"1": ["duke", "duke"], "3": ["assassin", "assassin"]}, "deck": deck}
    s = coup.new({"setup": setup}, 1, players=FOUR[:3])
    assert coup.view(s, 2)["hand"] == ["assassin", "duke"]
    assert s["deck"] == deck[2:]


def test_cp7_stacked_hands_without_deck_shuffle_the_rest():
    s = coup.new({"setup": {"hands": {"1": ["duke", "duke"], "2": ["duke", "captain"]}}}, 3, players=FOUR)
    assert coup.view(s, 1)["hand"] == ["duke", "duke"]
    assert "duke" not in s["deck"] + coup.view(s, 3)["hand"] + coup.view(s, 4)["hand"]
    assert all_cards(s)["duke"] == 3


def test_cp7_setup_first_and_order():
    s = coup.new({"setup": {"first": 3}}, 1, players=FOUR, order=[3, 1, 4, 2])
    seen = []
    for _ in range(5):
        seat = coup.view(s)["turn"]["seat"]
        seen.append(seat)
        s = coup.apply(s, {"type": "move", "seat": seat, "move": "income"})
    assert seen == [3, 1, 4, 2, 3]
    assert coup.view(s)["order"] == [3, 1, 4, 2]


def test_options_defaults_and_describe():
    s = coup.new({"timeout_s": 12.5, "exchange_to_bottom": True}, 1, players=FOUR)
    assert s["options"] == {"timeout_s": 12.5, "exchange_to_bottom": True}
    d = coup.describe()
    assert d["game"] == "coup" and [m["mode"] for m in d["modes"]] == ["classic"]
    classic = d["modes"][0]
    assert classic["players"] == [2, 3, 4, 5, 6] and classic["teams"] is False
    assert classic["options"]["timeout_s"]["default"] == 8
    assert classic["options"]["exchange_to_bottom"]["default"] is True  # CP-2.4: the seed's way
    assert coup.new({}, 1, players=FOUR)["options"] == {"timeout_s": 8, "exchange_to_bottom": True}
    assert all(o["description"] for o in classic["options"].values())
    assert coup.MODES == ["classic"] and coup.PLAYERS == (2, 6)


@pytest.mark.parametrize(
    ("options", "players", "kwargs", "message"),
    [
        ({}, FOUR[:1], {}, "coup needs 2-6 players, got 1"),
        ({}, FOUR + [{"seat": s} for s in (5, 6, 7)], {}, "coup needs 2-6 players, got 7"),
        ({}, [FOUR[0], FOUR[0]], {}, "seat 1 appears twice"),
        ({}, [{"seat": 0, "name": "X"}, FOUR[1]], {}, "player seat must be a number from 1 to 6"),
        ({}, [{"seat": 7, "name": "X"}, FOUR[1]], {}, "player seat must be a number from 1 to 6"),
        ({}, [{"seat": 1, "name": " "}, FOUR[1]], {}, "seat 1: name must be 1-40 characters"),
        ({}, [{"seat": 1, "name": "x" * 41}, FOUR[1]], {}, "seat 1: name must be 1-40 characters"),
        ({}, "Ann,Bob", {}, "players must be a list"),
        ({}, FOUR, {"mode": "teams"}, "unknown coup mode 'teams'"),
        ({}, FOUR, {"order": [1, 2, 3]}, "order must list every seat once"),
        ({"turbo": 1}, FOUR, {}, "unknown coup option 'turbo'"),
        ({"timeout_s": 0}, FOUR, {}, "timeout_s must be a number of seconds"),
        ({"timeout_s": True}, FOUR, {}, "timeout_s must be a number of seconds"),
        ({"exchange_to_bottom": "yes"}, FOUR, {}, "exchange_to_bottom must be true or false"),
        ({"setup": {"hand": {}}}, FOUR, {}, "unknown setup key 'hand'"),
        ({"setup": {"hands": {"1": ["duke"]}}}, FOUR, {}, "seat 1 must hold exactly 2 cards"),
        ({"setup": {"hands": {"9": ["duke", "duke"]}}}, FOUR, {}, "setup.hands: 9 is not a seat"),
        ({"setup": {"hands": {"1": ["duke", "joker"]}}}, FOUR, {}, "unknown card 'joker'"),
        ({"setup": {"hands": {"1": ["duke", "duke"], "2": ["duke", "duke"]}}}, FOUR, {},
         "setup uses 4 duke cards; the court deck has 3"),
        ({"setup": {"hands": {"1": ["duke", "duke"]}, "deck": ["duke"] * 13}}, FOUR, {},
         "setup uses 15 duke cards"),
        ({"setup": {"deck": ["duke", "assassin"]}}, FOUR, {}, "hold 2 cards; all 15 must be accounted for"),
        ({"setup": {"deck": "duke"}}, FOUR, {}, "setup.deck must be a list"),
        ({"setup": {"first": 9}}, FOUR, {}, "setup.first must be a seat"),
        ({"setup": {"coins": {"1": -1}}}, FOUR, {}, "whole number of coins >= 0"),
        ({"setup": {"coins": {"1": 40, "2": 9}}}, FOUR, {}, "hands out 53 coins; the treasury only has 50"),
        ({"setup": []}, FOUR, {}, "options.setup must be an object"),
        ({"setup": {"hands": []}}, FOUR, {}, "setup.hands must map seats"),
        ({"setup": {"coins": {"1": 2.5}}}, FOUR, {}, "whole number of coins"),
        ([], FOUR, {}, "options must be an object"),
    ],
)
def test_bad_new_game_gets_a_specific_error(options, players, kwargs, message):
    with pytest.raises(GameError, match=message.replace("(", "\\(").replace(")", "\\)")) as err:
        coup.new(options, 1, players=players, **kwargs)
    assert "\n" not in str(err.value)


def test_missing_cards_are_named():
    deck = ["assassin"] * 3 + ["ambassador"] * 3 + ["captain"] * 3 + ["contessa"] * 2
    setup = {"hands": {"1": ["duke", "duke"]}, "deck": deck}
    with pytest.raises(GameError, match=r"hold 13 cards.*missing: duke, contessa"):
        coup.new({"setup": setup}, 1, players=FOUR[:2])
