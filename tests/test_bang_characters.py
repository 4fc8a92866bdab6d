"""Bang!'s 16 characters (docs/rules/bang.md BG-1, bang-characters.json, BG-8.4, BG-8.13), one test each."""

from __future__ import annotations

import pytest

from controller.games import bang
from controller.games.base import GameError
from tests.bang.helpers import FILL, cards_ok, move, p, table, timeout, words_of


def test_bart_cassidy_draws_one_card_per_life_lost():
    s = table(hands={1: ["bang-AS"]}, characters={2: "bart_cassidy"}, deck=["beer-6H"])
    s = move(s, 1, "play", card="bang-AS", target=2)
    assert p(s, 2)["life"] == 3 and p(s, 2)["hand"] == ["beer-6H"]


def test_black_jack_shows_his_second_card_and_draws_again_on_red():
    s = table(characters={1: "black_jack"}, top=["bang-AS", "beer-6H", "missed-2S"])
    assert p(s, 1)["hand"] == ["bang-AS", "beer-6H", "missed-2S"]
    assert "Ann shows Beer 6♥: draws one more" in bang.view(s)["log"]
    s = table(characters={1: "black_jack"}, top=["bang-AS", "bang-2C", "missed-2S"])
    assert p(s, 1)["hand"] == ["bang-AS", "bang-2C"]


def test_calamity_janet_plays_missed_as_bang_counting_toward_the_limit():
    s = table(hands={1: ["missed-2S", "bang-AS"], 2: ["bang-8D"]}, characters={1: "calamity_janet"})
    s = move(s, 1, "play", card="missed-2S", target=2, **{"as": "bang"})
    assert s["window"]["kind"] == "shot"
    s = move(s, 2, "pass")
    with pytest.raises(GameError, match="only one BANG!"):
        move(s, 1, "play", card="bang-AS", target=2)


def test_calamity_janet_answers_a_bang_with_a_bang_and_indians_with_a_missed():
    s = table(hands={1: ["bang-AS", "indians-KD"], 2: ["bang-8D", "missed-2S"]}, characters={2: "calamity_janet"})
    s = move(s, 1, "play", card="bang-AS", target=2)
    s = move(s, 2, "respond", cards=["bang-8D"])
    assert p(s, 2)["life"] == 4
    s = move(s, 1, "play", card="indians-KD")
    s = move(s, 2, "respond", cards=["missed-2S"])
    assert p(s, 2)["life"] == 4


def test_el_gringo_takes_a_random_hand_card_of_the_shooter_privately():
    s = table(hands={1: ["bang-AS", "beer-6H"]}, characters={2: "el_gringo"})
    s = move(s, 1, "play", card="bang-AS", target=2)
    (taken,) = p(s, 2)["hand"]
    assert sorted(p(s, 1)["hand"] + [taken]) == sorted(FILL + ["beer-6H"])
    assert taken not in str(bang.view(s)) and "Bo takes a card from Ann" in words_of(s)


def test_el_gringo_takes_nothing_from_dynamite():
    s = table(in_play={2: ["dynamite-2H"]}, characters={2: "el_gringo"}, deck=["missed-2S"])
    s = move(s, 1, "end_turn")
    assert p(s, 2)["life"] == 0 or not any(e["kind"] == "steals" for e in s["last"])


def test_jesse_jones_draws_his_first_card_from_a_players_hand():
    s = table(characters={1: "jesse_jones"}, hands={3: ["beer-6H"]}, top=["bang-AS", "bang-8D"])
    assert s["window"]["kind"] == "draw_choice" and s["turn"]["step"] == "draw"
    assert bang.legal(s, 1)["moves"] == [{"move": "draw_choice", "from": [3, "deck"]}]
    s = move(s, 1, "draw_choice", **{"from": 3})
    assert p(s, 1)["hand"] == ["beer-6H", "bang-AS"] and p(s, 3)["hand"] == []
    assert "beer-6H" not in str(bang.view(s)) and s["turn"]["step"] == "play"


def test_jourdonnais_has_a_barrel_and_a_real_one_is_a_second_check():
    s = table(hands={1: ["bang-AS"]}, characters={2: "jourdonnais"}, in_play={2: ["barrel-QS"]},
              deck=["bang-2C", "beer-6H"])
    s = move(s, 1, "play", card="bang-AS", target=2)
    assert p(s, 2)["life"] == 4 and [e["ok"] for e in s["last"] if e["kind"] == "check"] == [False, True]


def test_kit_carlson_keeps_two_of_three_and_the_returned_card_is_secret():
    s = table(characters={1: "kit_carlson"}, top=["bang-AS", "beer-6H", "missed-2S"])
    assert bang.view(s, 1)["looking"] == ["bang-AS", "beer-6H", "missed-2S"]
    assert "looking" not in bang.view(s, 2) and "beer-6H" not in str(bang.view(s))
    inp = {"type": "move", "seat": 1, "move": "draw_choice", "args": {"return": "beer-6H"}}
    assert bang.public_input(inp)["args"] == {"return": "hidden"}
    s = bang.apply(s, inp)
    assert p(s, 1)["hand"] == ["bang-AS", "missed-2S"] and s["deck"][0] == "beer-6H"
    assert "beer-6H" not in str(bang.view(s)) + str(words_of(s))


def test_lucky_duke_turns_two_and_the_good_one_counts():
    s = table(hands={1: ["bang-AS"]}, characters={2: "lucky_duke"}, in_play={2: ["barrel-QS"]},
              deck=["bang-2C", "beer-6H"])
    s = move(s, 1, "play", card="bang-AS", target=2)
    check = next(e for e in s["last"] if e["kind"] == "check")
    assert check["cards"] == ["bang-2C", "beer-6H"] and check["ok"] and p(s, 2)["life"] == 4


def test_paul_regret_is_seen_one_further():
    s = table(hands={1: ["bang-AS"]}, characters={2: "paul_regret"})
    targets = [m["target"] for m in bang.legal(s, 1)["moves"] if m.get("card") == "bang-AS"]
    assert 2 not in targets and 4 in targets


def test_pedro_ramirez_may_take_the_discard_top_first():
    s = table(characters={2: "pedro_ramirez"}, hands={1: ["beer-6H"]}, life={1: 4},
              deck=["bang-AS", "bang-8D"])
    s = move(s, 1, "play", card="beer-6H")
    s = move(s, 1, "end_turn")
    assert s["window"]["kind"] == "draw_choice" and s["window"]["seats"] == [2]
    s = move(s, 2, "draw_choice", **{"from": "discard"})
    assert p(s, 2)["hand"] == ["beer-6H", "bang-AS"]


def test_rose_doolan_sees_one_closer():
    s = table(5, hands={1: ["bang-AS"]}, characters={1: "rose_doolan"})
    targets = [m["target"] for m in bang.legal(s, 1)["moves"] if m.get("card") == "bang-AS"]
    assert sorted(targets) == [2, 3, 4, 5]


def test_sid_ketchum_discards_two_to_regain_one_in_his_turn_and_when_dying_bg8_13():
    s = table(hands={1: ["bang-AS", "bang-8D", "beer-6H"]}, life={1: 3})
    s = move(s, 1, "ability", cards=["bang-AS", "bang-8D"])
    assert p(s, 1)["life"] == 4
    d = table(hands={2: ["bang-AS"], 1: ["missed-2S", "missed-3S"]}, life={1: 1}, first=2)
    d = move(d, 2, "play", card="bang-AS", target=1)
    d = move(d, 1, "pass")
    assert d["window"]["kind"] == "dying"
    d = move(d, 1, "ability", cards=["missed-2S", "missed-3S"])
    assert p(d, 1)["alive"] and p(d, 1)["life"] == 1 and d["window"] is None


def test_sid_ketchum_only_in_his_turn_or_his_window():
    s = table(hands={1: ["bang-AS"], 4: ["beer-6H", "beer-7H"]}, characters={4: "sid_ketchum", 1: "willy_the_kid"},
              life={4: 2})
    with pytest.raises(GameError, match="only in your turn"):
        move(s, 4, "ability", cards=["beer-6H", "beer-7H"])


def test_slab_the_killer_needs_two_missed_and_a_barrel_counts_as_one_bg8_4():
    s = table(hands={4: ["bang-AS"], 1: ["missed-2S", "missed-3S"]}, first=4)
    s = move(s, 4, "play", card="bang-AS", target=1)
    assert s["window"]["needed"] == 2
    with pytest.raises(GameError, match="needs 2"):
        move(s, 4 - 3, "respond", cards=["missed-2S"])
    s = move(s, 1, "respond", cards=["missed-2S", "missed-3S"])
    assert p(s, 1)["life"] == 5
    b = table(hands={4: ["bang-AS"], 1: ["missed-2S"]}, in_play={1: ["barrel-QS"]}, first=4, top=FILL + ["beer-6H"])
    b = move(b, 4, "play", card="bang-AS", target=1)
    assert b["window"]["needed"] == 1
    b = move(b, 1, "respond", cards=["missed-2S"])
    assert p(b, 1)["life"] == 5


def test_suzy_lafayette_draws_when_her_hand_is_empty():
    s = table(hands={1: ["bang-AS"], 2: ["missed-2S"]}, characters={2: "suzy_lafayette"}, deck=["beer-6H"])
    s = move(s, 1, "play", card="bang-AS", target=2)
    s = move(s, 2, "respond", cards=["missed-2S"])
    assert p(s, 2)["hand"] == ["beer-6H"]


def test_vulture_sam_takes_the_cards_of_the_dead():
    s = table(5, hands={1: ["bang-AS", "scope-AS"], 3: ["missed-2S"]}, life={3: 1}, in_play={3: ["volcanic-10S"]},
              roles={1: "sheriff", 2: "deputy", 3: "outlaw", 4: "outlaw", 5: "renegade"})
    s = move(s, 1, "play", card="scope-AS")
    s = move(s, 1, "play", card="bang-AS", target=3)
    s = move(s, 3, "pass")
    s = move(s, 3, "pass")  # dying: no Beer
    assert not p(s, 3)["alive"] and set(p(s, 2)["hand"]) == {"missed-2S", "volcanic-10S"}
    assert p(s, 3)["role"] == "outlaw" and bang.view(s)["players"][2]["role"] == "outlaw"


def test_willy_the_kid_fires_any_number_of_bangs():
    s = table(hands={1: ["bang-AS", "bang-8D"]}, characters={1: "willy_the_kid"})
    s = move(s, 1, "play", card="bang-AS", target=2)
    s = move(s, 1, "play", card="bang-8D", target=2)
    assert p(s, 2)["life"] == 2 and cards_ok(s)


def test_every_character_has_a_scenario():
    import sys

    names = {n for n in dir(sys.modules[__name__]) if n.startswith("test_")}
    from controller.games.bang.cards import CHARACTERS

    assert all(any(n.startswith(f"test_{c}") for n in names) for c in CHARACTERS)


def test_bg8_7_a_timeout_in_a_dying_window_without_beer_dies():
    s = table(hands={1: ["bang-AS"], 2: ["missed-2S"]}, life={2: 1})
    s = move(s, 1, "play", card="bang-AS", target=2)
    s = timeout(s)
    s = timeout(s)
    assert not p(s, 2)["alive"]


def test_sid_ketchum_heals_inside_a_bang_window_and_still_answers_bg8_13():
    s = table(hands={2: ["bang-AS"], 1: ["beer-6H", "beer-7H", "missed-2S"]}, life={1: 3}, first=2)
    s = move(s, 2, "play", card="bang-AS", target=1)
    s = move(s, 1, "ability", cards=["beer-6H", "beer-7H"])
    assert p(s, 1)["life"] == 4 and s["window"]["kind"] == "shot"
    s = move(s, 1, "respond", cards=["missed-2S"])
    assert p(s, 1)["life"] == 4 and s["window"] is None


def _sid_dying_with_two_left(hand: list[str]) -> dict:
    """Sid Ketchum (seat 1) at 1 life is shot by Bo with only the two of them left."""
    s = table(hands={2: ["bang-AS"], 1: hand}, life={1: 1}, first=2)
    p(s, 3)["alive"] = False
    p(s, 4)["alive"] = False
    s = move(s, 2, "play", card="bang-AS", target=1)
    return move(s, 1, "pass")


def test_sid_ketchum_gets_the_dying_window_with_two_left_and_his_ability_saves_bg8_7():
    s = _sid_dying_with_two_left(["beer-6H", "missed-2S"])
    assert s["window"]["kind"] == "dying" and s["window"]["seats"] == [1]
    assert [m["move"] for m in bang.legal(s, 1)["moves"]] == ["pass", "ability"]  # no Beer to offer
    with pytest.raises(GameError, match="Beer has no effect with 2 players left"):
        move(s, 1, "respond", cards=["beer-6H"])
    saved = move(s, 1, "ability", cards=["beer-6H", "missed-2S"])
    assert p(saved, 1)["alive"] and p(saved, 1)["life"] == 1 and saved["window"] is None
    assert saved["phase"] == "playing"


def test_sid_ketchum_with_two_left_dies_on_a_timeout_even_holding_beer_bg8_7():
    s = timeout(_sid_dying_with_two_left(["beer-6H", "beer-7H"]))
    assert not p(s, 1)["alive"] and s["phase"] == "over"


def test_sid_ketchum_with_two_left_and_one_card_gets_no_dying_window_bg8_7():
    s = _sid_dying_with_two_left(["beer-6H"])
    assert not p(s, 1)["alive"] and s["phase"] == "over"
