"""Bang! cards (docs/rules/bang.md BG-2 … BG-5, BG-8): one scenario per card on stacked tables."""

from __future__ import annotations

import pytest

from controller.games import bang
from controller.games.base import GameError
from tests.bang.helpers import FILL, cards_ok, move, p, table, timeout, words_of


def test_bg4_bang_in_range_and_missed_cancels_it():
    s = table(hands={1: ["bang-AS"], 2: ["missed-2S"]})
    s = move(s, 1, "play", card="bang-AS", target=2)
    assert s["window"]["kind"] == "shot" and s["window"]["seats"] == [2] and s["window"]["source"] == 1
    s = move(s, 2, "respond", cards=["missed-2S"])
    assert p(s, 2)["life"] == 4 and s["window"] is None and s["discard"][-2:] == ["bang-AS", "missed-2S"]
    assert cards_ok(s)


def test_bg4_bang_pass_takes_the_hit_and_timeout_too_bg8_7():
    s = table(hands={1: ["bang-AS"], 2: ["missed-2S"]})
    s = move(s, 1, "play", card="bang-AS", target=2)
    hit = move(s, 2, "pass")
    assert p(hit, 2)["life"] == 3 and p(hit, 2)["hand"] == ["missed-2S"]
    late = timeout(s)
    assert p(late, 2)["life"] == 3 and "Time is up for Bo" in words_of(late)


def test_bg3_bang_out_of_range_is_refused_with_distance():
    s = table(5, hands={1: ["bang-AS"]})
    with pytest.raises(GameError, match=r"out of range \(distance 2, range 1\)"):
        move(s, 1, "play", card="bang-AS", target=3)


def test_bg2_3_one_bang_per_turn():
    s = table(hands={1: ["bang-AS", "bang-8D"], 2: []})
    s = move(s, 1, "play", card="bang-AS", target=2)
    with pytest.raises(GameError, match="only one BANG! per turn"):
        move(s, 1, "play", card="bang-8D", target=2)


def test_bg3_volcanic_fires_any_number_of_bangs():
    s = table(hands={1: ["bang-AS", "bang-8D", "volcanic-10S"]})
    s = move(s, 1, "play", card="volcanic-10S")
    s = move(s, 1, "play", card="bang-AS", target=2)
    s = move(s, 1, "play", card="bang-8D", target=2)
    assert p(s, 2)["life"] == 2


@pytest.mark.parametrize("weapon,reach", [("schofield-JC", 2), ("remington-KC", 3), ("rev_carabine-AC", 4),
                                          ("winchester-8S", 5)])
def test_bg3_weapon_ranges(weapon, reach):
    s = table(6, hands={1: [weapon, "bang-AS"]})
    s = move(s, 1, "play", card=weapon)
    targets = {m["target"]: m["distance"] for m in bang.legal(s, 1)["moves"] if m.get("card") == "bang-AS"}
    # ring 1..6: seat 4 is at 3, seats 3/5 at 2 (+1 for Paul Regret at 6, Rose at 5 sees, not seen)
    assert all(d <= reach for d in targets.values()) and targets
    assert (4 in targets) == (reach >= 3)


def test_bg8_11_a_new_weapon_replaces_the_old_and_no_identical_blue_cards():
    s = table(hands={1: ["schofield-JC", "remington-KC", "barrel-QS", "barrel-KS"]})
    s = move(s, 1, "play", card="schofield-JC")
    s = move(s, 1, "play", card="remington-KC")
    assert p(s, 1)["in_play"] == ["remington-KC"] and "schofield-JC" in s["discard"]
    s = move(s, 1, "play", card="barrel-QS")
    with pytest.raises(GameError, match="already have a Barrel"):
        move(s, 1, "play", card="barrel-KS")


def test_bg4_missed_is_not_played_in_your_own_turn():
    s = table(hands={1: ["missed-2S"]})
    with pytest.raises(GameError, match="only in answer to a BANG!"):
        move(s, 1, "play", card="missed-2S")


def test_bg4_barrel_hearts_misses_before_any_window_bg8_4():
    s = table(hands={1: ["bang-AS"], 2: ["missed-2S"]}, in_play={2: ["barrel-QS"]}, deck=["beer-6H"])
    s = move(s, 1, "play", card="bang-AS", target=2)
    assert s["window"] is None and p(s, 2)["life"] == 4 and p(s, 2)["hand"] == ["missed-2S"]
    assert "draw! for Barrel (Bo): Beer 6♥ — good" in words_of(s)


def test_bg4_barrel_failing_still_opens_the_missed_window():
    s = table(hands={1: ["bang-AS"], 2: ["missed-2S"]}, in_play={2: ["barrel-QS"]}, deck=["bang-2C"])
    s = move(s, 1, "play", card="bang-AS", target=2)
    assert s["window"]["kind"] == "shot" and "bang-2C" in s["discard"]


def test_bg4_beer_heals_one_not_at_full_life_bg8_10():
    s = table(hands={1: ["beer-6H", "beer-7H"]}, life={1: 3})
    s = move(s, 1, "play", card="beer-6H")
    assert p(s, 1)["life"] == 4
    s = move(s, 1, "play", card="beer-7H")
    with pytest.raises(GameError, match="full life"):
        s2 = table(hands={1: ["beer-6H"]})
        move(s2, 1, "play", card="beer-6H")


def test_bg4_beer_has_no_effect_with_two_players_left():
    s = table(hands={1: ["beer-6H"]}, life={1: 3}, roles={1: "sheriff", 2: "outlaw", 3: "outlaw", 4: "renegade"})
    for seat in (3, 4):
        p(s, seat)["alive"] = False
    with pytest.raises(GameError, match="2 players left"):
        move(s, 1, "play", card="beer-6H")


def test_bg6_dying_window_beer_saves_and_timeout_plays_enough_beers_bg8_7():
    s = table(hands={1: ["bang-AS"], 2: ["beer-6H", "beer-7H"]}, life={2: 1})
    s = move(s, 1, "play", card="bang-AS", target=2)
    s = move(s, 2, "pass")
    assert s["window"]["kind"] == "dying" and s["window"]["needed"] == 1
    saved = timeout(s)
    assert p(saved, 2)["alive"] and p(saved, 2)["life"] == 1 and p(saved, 2)["hand"] == ["beer-7H"]
    by_hand = move(s, 2, "respond", cards=["beer-7H"])
    assert p(by_hand, 2)["life"] == 1


def test_bg8_7_partial_beers_are_not_spent_on_timeout():
    # Cy (seat 3) at 2 life: the Dynamite explodes (-1, two Beers needed); one Beer is not spent
    s = table(hands={3: ["beer-6H"]}, in_play={3: ["dynamite-2H"]}, life={3: 2}, first=3, top=["missed-2S"])
    assert s["window"]["kind"] == "dying" and s["window"]["needed"] == 2
    s = timeout(s)
    assert not p(s, 3)["alive"] and "beer-6H" in p(s, 2)["hand"]  # Vulture Sam took it unspent

def test_bg8_7_no_dying_window_with_two_players_left():
    s = table(hands={1: ["bang-AS"], 2: ["beer-6H", "missed-2S"]}, life={2: 1})
    p(s, 3)["alive"] = False
    p(s, 4)["alive"] = False
    s = move(s, 1, "play", card="bang-AS", target=2)
    s = move(s, 2, "pass")
    assert not p(s, 2)["alive"] and s["winner"] == [1]


def test_bg4_saloon_heals_every_living_player():
    s = table(hands={1: ["saloon-5H"]}, life={1: 2, 2: 3, 3: 4})
    s = move(s, 1, "play", card="saloon-5H")
    assert [p(s, x)["life"] for x in (1, 2, 3, 4)] == [3, 4, 4, 4]


def test_bg8_10_saloon_as_beer_option():
    s = table(hands={1: ["bang-AS"], 2: ["saloon-5H"]}, life={2: 1}, options={"saloon_as_beer": True})
    s = move(s, 1, "play", card="bang-AS", target=2)
    s = move(s, 2, "pass")
    s = move(s, 2, "respond", cards=["saloon-5H"])
    assert p(s, 2)["alive"] and p(s, 2)["life"] == 1


def test_bg4_cat_balou_discards_a_card_in_play_or_a_random_hand_card():
    s = table(hands={1: ["cat_balou-KH", "cat_balou-9D"], 3: ["beer-6H"]}, in_play={3: ["mustang-8H"]})
    s = move(s, 1, "play", card="cat_balou-KH", target=3, target_card="mustang-8H")
    assert p(s, 3)["in_play"] == [] and "mustang-8H" in s["discard"]
    s = move(s, 1, "play", card="cat_balou-9D", target=3, target_card="hand")
    assert p(s, 3)["hand"] == [] and s["discard"][-1] == "beer-6H"


def test_bg4_panic_reaches_distance_one_and_a_stolen_hand_card_stays_private_bg8_13():
    s = table(hands={1: ["panic-JH", "panic-QH"], 2: ["beer-6H"], 3: ["beer-7H"]})
    with pytest.raises(GameError, match="Panic! reaches distance 1"):
        move(s, 1, "play", card="panic-JH", target=3, target_card="hand")
    s = move(s, 1, "play", card="panic-JH", target=2, target_card="hand")
    assert "beer-6H" in p(s, 1)["hand"] and p(s, 2)["hand"] == []
    public = str(bang.view(s)) + str(words_of(s))
    assert "beer-6H" not in public and "Ann takes a card from Bo" in words_of(s)


def test_bg4_duel_goes_back_and_forth_and_the_one_who_cannot_loses_bg8_8():
    s = table(hands={1: ["duel-QD", "bang-AS"], 3: ["bang-8D", "bang-9D"]})
    s = move(s, 1, "play", card="duel-QD", target=3)
    assert s["window"]["kind"] == "duel" and s["window"]["seats"] == [3]
    s = move(s, 3, "respond", cards=["bang-8D"])
    assert s["window"]["seats"] == [1] and s["window"]["source"] == 3
    s = move(s, 1, "respond", cards=["bang-AS"])
    s = move(s, 3, "respond", cards=["bang-9D"])
    s = move(s, 1, "pass")
    assert p(s, 3)["life"] == 4
    assert p(s, 1)["life"] == 4 and any(e["kind"] == "hit" and e["seat"] == 1 and e["source"] == 3
                                        for e in s["last"])


def test_bg4_jail_never_on_the_sheriff_and_skips_a_turn_unless_hearts_bg5():
    other = table(hands={2: ["jail-JS"]}, first=2)
    with pytest.raises(GameError, match="never goes on the Sheriff"):
        move(other, 2, "play", card="jail-JS", target=1)
    s = table(hands={1: ["jail-JS"]}, deck=["bang-2C"])
    s = move(s, 1, "play", card="jail-JS", target=2)
    assert p(s, 2)["in_play"] == ["jail-JS"]
    s = move(s, 1, "end_turn")
    # Bo's check turns the 2♣: no Hearts, turn skipped, Jail discarded; Cy plays next
    assert s["turn"]["seat"] == 3 and p(s, 2)["in_play"] == [] and p(s, 2)["hand"] == []
    assert "Bo stays in Jail: turn skipped" in words_of(s)


def test_bg5_jail_hearts_frees_and_the_turn_goes_on():
    s = table(hands={1: ["jail-JS"]}, deck=["beer-6H", "bang-2C", "bang-3C"])
    s = move(s, 1, "play", card="jail-JS", target=2)
    s = move(s, 1, "end_turn")
    assert s["turn"] == {"seat": 2, "step": "play", "bangs": 0} and p(s, 2)["hand"] == ["bang-2C", "bang-3C"]


def test_bg8_10_jail_discard_down_option():
    s = table(hands={1: ["jail-JS"], 2: ["bang-2C"] * 0 + ["beer-6H", "beer-7H", "beer-8H"]}, life={2: 2},
              deck=["bang-2C"], options={"jail_discard_down": True})
    s = move(s, 1, "play", card="jail-JS", target=2)
    s = move(s, 1, "end_turn")
    assert s["turn"]["seat"] == 2 and s["turn"]["step"] == "discard"
    s = move(s, 2, "discard", cards=["beer-6H"])
    assert s["turn"]["seat"] == 3


def test_bg4_general_store_picks_clockwise_from_the_player():
    s = table(hands={1: ["general_store-9C"]}, deck=["beer-6H", "bang-2C", "missed-2S", "panic-JH"])
    s = move(s, 1, "play", card="general_store-9C")
    assert s["window"]["kind"] == "store" and s["window"]["seats"] == [1]
    assert s["window"]["cards"] == ["beer-6H", "bang-2C", "missed-2S", "panic-JH"]
    s = move(s, 1, "pick", card="panic-JH")
    assert s["window"]["seats"] == [2]
    s = timeout(s)  # a timeout takes the first card
    assert p(s, 2)["hand"] == ["beer-6H"]
    s = move(s, 3, "pick", card="missed-2S")
    assert s["window"] is None and p(s, 4)["hand"] == ["bang-2C"] and cards_ok(s)


def test_bg8_10_store_counterclockwise_option():
    s = table(hands={1: ["general_store-9C"]}, deck=["beer-6H", "bang-2C", "missed-2S", "panic-JH"],
              options={"store_counterclockwise": True})
    s = move(s, 1, "play", card="general_store-9C")
    s = move(s, 1, "pick", card="panic-JH")
    assert s["window"]["seats"] == [4]


def test_bg8_5_indians_one_target_at_a_time_clockwise_barrel_does_not_help():
    s = table(hands={1: ["indians-KD"], 2: ["bang-2C"], 3: ["missed-2S"], 4: ["bang-3C"]},
              in_play={3: ["barrel-QS"]})
    s = move(s, 1, "play", card="indians-KD")
    assert s["window"]["kind"] == "indians" and s["window"]["seats"] == [2]
    s = move(s, 2, "respond", cards=["bang-2C"])
    assert s["window"]["seats"] == [3]
    with pytest.raises(GameError, match="does not answer"):
        move(s, 3, "respond", cards=["missed-2S"])
    s = move(s, 3, "pass")
    assert s["window"]["seats"] == [4] and p(s, 3)["life"] == 3
    s = move(s, 4, "respond", cards=["bang-3C"])
    assert s["window"] is None and [p(s, x)["life"] for x in (2, 3, 4)] == [4, 3, 4]


def test_bg8_5_gatling_shoots_everyone_barrel_helps_and_it_is_not_your_bang():
    s = table(hands={1: ["gatling-10H", "bang-AS"], 2: ["missed-2S"], 3: ["missed-3S"]},
              in_play={4: ["barrel-QS"]}, deck=["beer-6H"])
    s = move(s, 1, "play", card="gatling-10H")
    assert s["window"]["kind"] == "shot" and s["window"]["seats"] == [2]
    s = move(s, 2, "respond", cards=["missed-2S"])
    s = move(s, 3, "pass")
    # seat 4: the Barrel turns Beer 6♥: missed, no window
    assert s["window"] is None and [p(s, x)["life"] for x in (2, 3, 4)] == [4, 3, 4]
    s = move(s, 1, "play", card="bang-AS", target=2)  # the Gatling was not the turn's BANG!
    assert p(s, 2)["life"] == 3  # Bo's hand is empty: no window (BG-8.6), the hit lands


def test_bg8_5_the_game_ends_at_the_first_decisive_death():
    s = table(hands={2: ["gatling-10H"]}, life={3: 1}, first=2,
              roles={1: "outlaw", 2: "outlaw", 3: "sheriff", 4: "renegade"})
    s = move(s, 2, "play", card="gatling-10H")
    assert s["winner"] == [1, 2] and s["phase"] == "over"
    assert p(s, 4)["life"] == 4 and p(s, 1)["life"] == 4  # later targets are not asked

def test_bg4_stagecoach_and_wells_fargo_draw_two_and_three():
    s = table(hands={1: ["stagecoach-9S", "wells_fargo-3H"]}, top=["beer-6H", "beer-7H"])
    n = len(p(s, 1)["hand"])
    s = move(s, 1, "play", card="stagecoach-9S")
    assert len(p(s, 1)["hand"]) == n - 1 + 2
    s = move(s, 1, "play", card="wells_fargo-3H")
    assert len(p(s, 1)["hand"]) == n - 2 + 5
    assert "Ann draws 3" in words_of(s)


def test_bg4_dynamite_goes_in_front_of_yourself():
    s = table(hands={1: ["dynamite-2H"]})
    s = move(s, 1, "play", card="dynamite-2H")
    assert p(s, 1)["in_play"] == ["dynamite-2H"] and p(s, 1)["hand"] == FILL

def test_bg5_dynamite_explodes_for_three_with_no_source_bg8_8():
    s = table(hands={}, in_play={1: ["dynamite-2H"]}, top=["missed-2S", "beer-6H", "beer-7H"])
    assert p(s, 1)["life"] == 2 and p(s, 1)["in_play"] == [] and "dynamite-2H" in s["discard"]
    assert any(e["kind"] == "hit" and e["source"] is None and e["amount"] == 3 for e in s["last"])


def test_bg5_dynamite_passes_to_the_next_living_player():
    s = table(in_play={1: ["dynamite-2H"]}, top=["bang-AS", "beer-6H", "beer-7H"])
    assert p(s, 2)["in_play"] == ["dynamite-2H"] and p(s, 1)["life"] == 5


def test_bg8_12_a_player_killed_by_dynamite_in_their_turn_ends_it():
    s = table(in_play={2: ["dynamite-2H"]}, life={2: 2}, hands={1: []}, deck=["missed-3S"])
    s = move(s, 1, "end_turn")
    assert not p(s, 2)["alive"] and s["turn"]["seat"] == 3


def test_bg8_11_no_self_target_and_no_jail_on_the_jailed():
    s = table(hands={1: ["duel-QD", "jail-JS", "jail-4H"]})
    with pytest.raises(GameError, match="cannot target yourself"):
        move(s, 1, "play", card="duel-QD", target=1)
    s = move(s, 1, "play", card="jail-JS", target=2)
    with pytest.raises(GameError, match="already in Jail"):
        move(s, 1, "play", card="jail-4H", target=2)


def test_bg4_mustang_and_scope_change_distance_bg3():
    s = table(5, hands={1: ["scope-AS", "bang-AS"]}, in_play={2: ["mustang-8H"]})
    moves = {m["target"]: m["distance"] for m in bang.legal(s, 1)["moves"] if m.get("card") == "bang-AS"}
    assert 2 not in moves  # Mustang: 1 + 1 = 2 > range 1
    s = move(s, 1, "play", card="scope-AS")
    moves = {m["target"]: m["distance"] for m in bang.legal(s, 1)["moves"] if m.get("card") == "bang-AS"}
    assert moves[2] == 1 and moves[3] == 1


def test_bg8_12_empty_deck_takes_the_shuffled_discard_pile():
    s = table(hands={1: ["wells_fargo-3H"]})
    s["discard"], s["deck"] = s["deck"][2:], s["deck"][:2]
    s = move(s, 1, "play", card="wells_fargo-3H")
    assert any(e["kind"] == "reshuffle" for e in s["last"]) and cards_ok(s)


def test_bg2_4_discard_down_to_life_at_the_end_of_the_turn():
    s = table(hands={1: ["beer-6H"] * 0 + ["bang-AS", "bang-8D", "bang-9D", "bang-10D"]}, life={1: 3})
    s = move(s, 1, "end_turn")
    assert s["turn"]["step"] == "discard" and "Ann must discard 3" in words_of(s)
    with pytest.raises(GameError, match="discard exactly 3"):
        move(s, 1, "discard", cards=["bang-AS"])
    s = move(s, 1, "discard", cards=["bang-AS", "bang-8D", "bang-9D"])
    assert s["turn"]["seat"] == 2


def test_bg8_12_a_player_who_loses_his_own_duel_to_death_ends_his_turn():
    s = table(hands={2: ["duel-QD", "beer-6H"], 3: ["bang-8D"]}, life={2: 1}, first=2)
    s = move(s, 2, "play", card="duel-QD", target=3)
    s = move(s, 3, "respond", cards=["bang-8D"])
    s = move(s, 2, "pass")  # Bo cannot answer: he loses his last life
    s = move(s, 2, "pass") if s["window"] else s  # no Beer played: out
    assert not p(s, 2)["alive"] and s["turn"]["seat"] == 3
    assert any(e["kind"] == "dies" and e["by"] == 3 for e in s["last"])  # BG-8.8: the Duel's winner
    assert len(p(s, 3)["hand"]) >= 3  # Cy killed an Outlaw: 3 cards (BG-6)
