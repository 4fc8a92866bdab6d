"""Coup rules, one scenario per rule (docs/rules/coup.md CP-2 … CP-5), on stacked tables (CP-7 setup)."""

from __future__ import annotations

import pytest

from controller.games import coup
from controller.games.base import GameError
from tests.helpers.coup import all_cards, coins_total, dump, hand, mv, p, passes, table


def test_cp2_income_gives_one_coin_and_passes_the_turn():
    s = table({1: ["duke", "captain"], 2: ["contessa", "assassin"]})
    s = mv(s, 1, "income")
    assert p(s, 1)["coins"] == 3
    assert coup.view(s)["turn"] == {"seat": 2}
    assert coup.view(s)["window"] is None


def test_cp2_tax_opens_a_challenge_window_then_pays_three():
    s = table({1: ["duke", "captain"], 2: ["contessa", "assassin"], 3: ["duke", "ambassador"]})
    s = mv(s, 1, "tax")
    w = coup.view(s)["window"]
    assert w["kind"] == "challenge_action" and w["claim"] == "duke" and w["claimant"] == 1
    assert w["seats"] == [2, 3] and w["timeout_s"] == 8
    assert p(s, 1)["coins"] == 2  # nothing yet
    s = passes(s, 2, 3)
    assert p(s, 1)["coins"] == 5
    assert coup.view(s)["turn"] == {"seat": 2}


def test_cp3_2_failed_challenge_on_tax_costs_the_challenger_and_the_claim_stands():
    s = table({1: ["duke", "captain"], 2: ["contessa", "assassin"]})
    s = mv(s, 1, "tax")
    s = mv(s, 2, "challenge")
    # CP-3.2: Duke shown, shuffled in, replacement drawn; challenger must choose (two cards, CP-5.1)
    assert coup.view(s)["pending"] == {"kind": "lose_influence", "seat": 2}
    assert len(hand(s, 1)) == 2 and "captain" in hand(s, 1)
    assert coup.legal(s, 2)["moves"] == [{"move": "lose_influence", "cards": ["contessa", "assassin"]}]
    s = mv(s, 2, "lose_influence", card="assassin")
    assert p(s, 2)["revealed"] == ["assassin"] and p(s, 2)["influence"] == 1
    assert p(s, 1)["coins"] == 5
    assert coup.view(s)["last_challenge"]["had"] is True


def test_cp3_3_successful_challenge_on_tax_makes_it_fail():
    s = table({1: ["contessa", "captain"], 2: ["duke", "assassin"]})
    s = mv(s, 1, "tax")
    s = mv(s, 2, "challenge")
    s = mv(s, 1, "lose_influence", card="contessa")
    assert p(s, 1)["coins"] == 2 and p(s, 1)["revealed"] == ["contessa"]
    assert coup.view(s)["turn"] == {"seat": 2}
    assert coup.view(s)["last_challenge"] == {"n": 1, "challenger": 2, "claimant": 1, "claim": "duke", "had": False}


def test_cp2_3_cp4_failed_challenge_against_assassin_then_contessa_block():
    s = table({1: ["assassin", "duke"], 2: ["contessa", "duke"], 3: ["captain", "captain"]}, coins={1: 3})
    s = mv(s, 1, "assassinate", target=2)
    assert p(s, 1)["coins"] == 0  # CP-2.3 paid on declaration
    s = mv(s, 2, "challenge")
    s = mv(s, 2, "lose_influence", card="duke")  # CP-3.2 the challenger loses one
    w = coup.view(s)["window"]
    assert w["kind"] == "block" and w["seats"] == [2] and w["claims"] == ["contessa"]
    s = mv(s, 2, "block", claim="contessa")
    assert coup.view(s)["window"]["kind"] == "challenge_block"
    assert coup.view(s)["window"]["seats"] == [1, 3]
    s = passes(s, 1, 3)
    # CP-4.2 the block stands; CP-2.3 no refund when blocked
    assert p(s, 2)["influence"] == 1 and p(s, 2)["revealed"] == ["duke"]
    assert p(s, 1)["coins"] == 0
    assert coup.view(s)["turn"] == {"seat": 2}
    assert coins_total(s) == 50


def test_cp5_2_bluffed_contessa_challenged_loses_two_influences():
    s = table({1: ["assassin", "duke"], 2: ["duke", "captain"], 3: ["captain", "ambassador"]},
              coins={1: 3, 2: 4})
    s = mv(s, 1, "assassinate", target=2)
    s = passes(s, 2, 3)
    s = mv(s, 2, "block", claim="contessa")
    s = mv(s, 1, "challenge")
    s = mv(s, 2, "lose_influence", card="captain")  # CP-3.3 the bluffer loses one ...
    # ... CP-4.2 the block fails, the assassination goes ahead and takes the last one (no choice)
    assert p(s, 2)["alive"] is False and sorted(p(s, 2)["revealed"]) == ["captain", "duke"]
    assert p(s, 2)["coins"] == 0  # CP-5.3 coins back to the treasury
    assert coins_total(s) == 50
    assert coup.view(s)["turn"] == {"seat": 3}  # seat 2 is skipped
    assert coup.winner(s) is None


def test_cp5_2_failed_challenge_against_assassin_then_assassinated():
    s = table({1: ["assassin", "duke"], 2: ["duke", "captain"], 3: ["captain", "ambassador"]}, coins={1: 3})
    s = mv(s, 1, "assassinate", target=2)
    s = mv(s, 2, "challenge")
    s = mv(s, 2, "lose_influence", card="duke")
    s = mv(s, 2, "pass")  # no block
    assert p(s, 2)["alive"] is False
    assert coup.view(s)["turn"] == {"seat": 3}


def test_cp2_3_successfully_challenged_assassin_is_refunded():
    s = table({1: ["duke", "captain"], 2: ["contessa", "duke"], 3: ["captain", "ambassador"]}, coins={1: 5})
    s = mv(s, 1, "assassinate", target=2)
    assert p(s, 1)["coins"] == 2
    s = mv(s, 3, "challenge")
    s = mv(s, 1, "lose_influence", card="captain")
    assert p(s, 1)["coins"] == 5  # refunded
    assert p(s, 2)["influence"] == 2  # target untouched
    assert coup.view(s)["window"] is None and coup.view(s)["turn"] == {"seat": 2}
    assert coins_total(s) == 50


def test_cp2_3_unchallenged_assassination_is_not_refunded_and_target_chooses():
    s = table({1: ["assassin", "duke"], 2: ["contessa", "duke"]}, coins={1: 3})
    s = mv(s, 1, "assassinate", target=2)
    s = mv(s, 2, "pass")
    s = mv(s, 2, "pass")  # no block
    assert coup.view(s)["pending"] == {"kind": "lose_influence", "seat": 2}
    s = mv(s, 2, "lose_influence", card="contessa")
    assert p(s, 1)["coins"] == 0 and p(s, 2)["revealed"] == ["contessa"]


def test_cp4_2_blocked_steal_whose_block_is_exposed_as_a_bluff():
    s = table({1: ["captain", "duke"], 2: ["duke", "assassin"], 3: ["contessa", "contessa"]}, coins={2: 3})
    s = mv(s, 1, "steal", target=2)
    s = passes(s, 2, 3)
    assert coup.legal(s, 2)["moves"] == [{"move": "block", "claims": ["captain", "ambassador"]}, {"move": "pass"}]
    assert coup.legal(s, 3)["moves"] == []  # CP-4.1 only the target blocks a steal
    s = mv(s, 2, "block", claim="ambassador")
    s = mv(s, 3, "challenge")
    s = mv(s, 2, "lose_influence", card="duke")
    assert p(s, 1)["coins"] == 4 and p(s, 2)["coins"] == 1  # the steal went ahead
    assert p(s, 3)["influence"] == 2


def test_cp4_2_true_captain_block_stops_the_steal_and_costs_the_challenger():
    s = table({1: ["captain", "duke"], 2: ["captain", "assassin"]})
    s = mv(s, 1, "steal", target=2)
    s = mv(s, 2, "pass")
    s = mv(s, 2, "block", claim="captain")
    s = mv(s, 1, "challenge")
    s = mv(s, 1, "lose_influence", card="duke")
    assert p(s, 1)["coins"] == 2 and p(s, 2)["coins"] == 2
    assert p(s, 1)["revealed"] == ["duke"]
    assert coup.view(s)["turn"] == {"seat": 2}


def test_cp4_1_foreign_aid_blocked_by_a_non_target_duke_claim():
    s = table({1: ["captain", "duke"], 2: ["captain", "assassin"], 3: ["contessa", "ambassador"]})
    s = mv(s, 1, "foreign_aid")
    w = coup.view(s)["window"]
    assert w["kind"] == "block" and w["seats"] == [2, 3] and w["claims"] == ["duke"]  # no challenge window
    s = mv(s, 3, "block", claim="duke")  # a bluff, but nobody calls it
    assert coup.view(s)["window"]["seats"] == [1, 2]
    s = passes(s, 1, 2)
    assert p(s, 1)["coins"] == 2
    assert coup.view(s)["turn"] == {"seat": 2}


def test_cp4_2_foreign_aid_duke_block_exposed_lets_the_aid_through():
    s = table({1: ["captain", "duke"], 2: ["captain", "assassin"], 3: ["contessa", "ambassador"]})
    s = mv(s, 1, "foreign_aid")
    s = mv(s, 3, "block", claim="duke")
    s = mv(s, 2, "challenge")
    s = mv(s, 3, "lose_influence", card="ambassador")
    assert p(s, 1)["coins"] == 4


def test_cp2_foreign_aid_unblocked_gives_two():
    s = table({1: ["captain", "duke"], 2: ["captain", "assassin"]})
    s = mv(s, 1, "foreign_aid")
    s = mv(s, 2, "pass")
    assert p(s, 1)["coins"] == 4


@pytest.mark.parametrize(("victim_coins", "taken"), [(0, 0), (1, 1), (2, 2), (5, 2)])
def test_cp2_steal_takes_two_or_all_the_target_has(victim_coins, taken):
    s = table({1: ["captain", "duke"], 2: ["contessa", "assassin"]}, coins={2: victim_coins})
    assert {"move": "steal", "targets": [2]} in coup.legal(s, 1)["moves"]
    s = mv(s, 1, "steal", target=2)
    s = passes(s, 2, 2)  # no challenge, no block
    assert p(s, 1)["coins"] == 2 + taken and p(s, 2)["coins"] == victim_coins - taken
    assert coins_total(s) == 50


def test_cp2_1_mandatory_coup_at_ten():
    s = table({1: ["captain", "duke"], 2: ["contessa", "assassin"]}, coins={1: 10})
    assert coup.legal(s, 1)["moves"] == [{"move": "coup", "targets": [2]}]
    with pytest.raises(GameError, match="must coup"):
        mv(s, 1, "income")
    s = mv(s, 1, "coup", target=2)
    assert p(s, 1)["coins"] == 3
    s = mv(s, 2, "lose_influence", card="assassin")
    assert p(s, 2)["revealed"] == ["assassin"] and coup.view(s)["turn"] == {"seat": 2}


def test_cp2_1_nine_coins_may_do_anything():
    s = table({1: ["captain", "duke"], 2: ["contessa", "assassin"]}, coins={1: 9})
    names = [m["move"] for m in coup.legal(s, 1)["moves"]]
    assert names == ["income", "foreign_aid", "coup", "tax", "assassinate", "steal", "exchange"]


def test_cp2_2_coup_and_assassinate_need_coins():
    s = table({1: ["assassin", "duke"], 2: ["contessa", "assassin"]}, coins={1: 2})
    names = [m["move"] for m in coup.legal(s, 1)["moves"]]
    assert "coup" not in names and "assassinate" not in names
    with pytest.raises(GameError, match="assassinate costs 3 coins; Ann has 2"):
        mv(s, 1, "assassinate", target=2)
    with pytest.raises(GameError, match="coup costs 7 coins"):
        mv(s, 1, "coup", target=2)


def _exchange_table(**options):
    return table({1: ["duke", "contessa"], 2: ["captain", "assassin"]},
                 top=["ambassador", "assassin", "captain", "duke"], **options)


def test_cp2_4_exchange_to_bottom_false_returns_by_shuffling():
    s = _exchange_table(exchange_to_bottom=False)
    s = mv(s, 1, "exchange")
    s = mv(s, 2, "pass")
    v1 = coup.view(s, 1)
    assert v1["drawn"] == ["ambassador", "assassin"] and v1["hand"] == ["duke", "contessa"]
    assert "drawn" not in coup.view(s) and "drawn" not in coup.view(s, 2)
    assert coup.view(s)["pending"] == {"kind": "exchange", "seat": 1, "count": 2}
    assert coup.legal(s, 1)["moves"] == [
        {"move": "exchange_return", "count": 2, "cards": ["duke", "contessa", "ambassador", "assassin"]}
    ]
    assert coup.view(s)["deck_size"] == 9
    s = mv(s, 1, "exchange_return", cards=["contessa", "ambassador"])
    assert sorted(hand(s, 1)) == ["assassin", "duke"]
    assert coup.view(s)["deck_size"] == 11 and all_cards(s) == {c: 3 for c in all_cards(s)}
    assert coup.view(s)["turn"] == {"seat": 2}


def test_cp2_4_exchange_returns_to_the_bottom_of_the_deck_by_default():
    s = _exchange_table()
    assert s["options"]["exchange_to_bottom"] is True
    rest = s["deck"][2:]
    s = mv(s, 1, "exchange")
    s = mv(s, 2, "pass")
    s = mv(s, 1, "exchange_return", cards=["duke", "assassin"])
    assert sorted(hand(s, 1)) == ["ambassador", "contessa"]
    assert s["deck"] == rest + ["duke", "assassin"]  # unshuffled, returned cards at the bottom


def test_cp2_4_exchange_return_must_be_cards_you_hold():
    s = _exchange_table()
    s = passes(mv(s, 1, "exchange"), 2)
    before = dump(s)
    for cards, msg in [
        (["captain", "duke"], "cannot return captain"),
        (["duke", "duke"], "cannot return duke"),
        (["duke"], "return exactly 2 cards"),
        ("duke", "return exactly 2 cards"),
        (["duke", "joker"], "unknown card 'joker'"),
    ]:
        with pytest.raises(GameError, match=msg):
            mv(s, 1, "exchange_return", cards=cards)
    with pytest.raises(GameError, match="waiting for Ann"):
        mv(s, 2, "income")
    assert dump(s) == before


def test_cp6_timeout_closes_each_kind_of_window():
    s = table({1: ["assassin", "duke"], 2: ["contessa", "duke"], 3: ["captain", "ambassador"]}, coins={1: 3})
    s = mv(s, 1, "assassinate", target=2)
    s = mv(s, 3, "pass")
    wid = coup.view(s)["window"]["id"]
    s = coup.apply(s, {"type": "timeout", "window": wid})  # seat 2 never answered
    assert coup.view(s)["window"]["kind"] == "block"
    s = mv(s, 2, "block", claim="contessa")
    s = coup.apply(s, {"type": "timeout"})  # without an id: closes whatever is open
    assert coup.view(s)["window"] is None and p(s, 2)["influence"] == 2  # the block stood
    # a block window closed by time: the action resolves
    s = mv(s, 2, "foreign_aid")
    s = coup.apply(s, {"type": "timeout"})
    assert p(s, 2)["coins"] == 4


def test_cp6_stale_timeout_is_rejected():
    s = table({1: ["duke", "captain"], 2: ["contessa", "assassin"], 3: ["duke", "ambassador"]})
    s = mv(s, 1, "tax")
    old = coup.view(s)["window"]["id"]
    s = passes(s, 2, 3)
    s = mv(s, 2, "tax")
    before = dump(s)
    with pytest.raises(GameError, match=f"stale timeout for window {old}"):
        coup.apply(s, {"type": "timeout", "window": old})
    assert dump(s) == before
    s = passes(s, 1, 3)
    with pytest.raises(GameError, match="no reaction window is open"):
        coup.apply(s, {"type": "timeout"})


def test_cp3_4_first_challenge_wins_and_closes_the_window():
    s = table({1: ["duke", "captain"], 2: ["contessa", "assassin"], 3: ["duke", "ambassador"]})
    s = mv(s, 1, "tax")
    s = mv(s, 3, "challenge")
    with pytest.raises(GameError, match="waiting for Cat"):
        mv(s, 2, "challenge")
    s = mv(s, 3, "lose_influence", card="ambassador")
    assert p(s, 2)["influence"] == 2


def test_cp3_1_claimant_cannot_challenge_its_own_claim():
    s = table({1: ["duke", "captain"], 2: ["contessa", "assassin"], 3: ["duke", "ambassador"]})
    s = mv(s, 1, "tax")
    assert coup.legal(s, 1)["moves"] == []
    with pytest.raises(GameError, match="cannot answer a challenge window on its own claim"):
        mv(s, 1, "challenge")
    s = mv(s, 2, "pass")
    with pytest.raises(GameError, match="seat 2 may not answer this challenge action window"):
        mv(s, 2, "challenge")  # already passed
    s = mv(s, 3, "pass")
    assert p(s, 1)["coins"] == 5


def test_cp5_3_out_player_is_skipped_and_cannot_move():
    s = table({1: ["duke", "captain"], 2: ["contessa", "assassin"], 3: ["duke", "ambassador"]},
              coins={1: 7, 3: 6})
    s = mv(s, 1, "coup", target=2)
    s = mv(s, 2, "lose_influence", card="contessa")
    s = mv(s, 2, "income")
    s = mv(s, 3, "income")
    s = mv(s, 1, "income")
    assert p(s, 1)["coins"] == 1
    s = mv(s, 2, "income")  # turn: 2 → 3
    s = mv(s, 3, "coup", target=2)  # one card left: lost at once, no choice (CP-7)
    assert p(s, 2)["alive"] is False and coup.view(s)["pending"] is None
    assert coup.view(s)["turn"] == {"seat": 1}
    assert coup.legal(s, 2)["moves"] == []
    with pytest.raises(GameError, match="Bob \\(seat 2\\) is out of the game"):
        mv(s, 2, "income")
    s = mv(s, 1, "tax")
    assert coup.view(s)["window"]["seats"] == [3]  # the out have no say
    assert coins_total(s) == 50


def test_cp5_4_last_player_with_influence_wins():
    s = table({1: ["duke", "captain"], 2: ["contessa", "assassin"]}, coins={1: 7}, first=1)
    s = mv(s, 1, "coup", target=2)
    s = mv(s, 2, "lose_influence", card="assassin")
    s = mv(s, 2, "steal", target=1)
    s = mv(s, 1, "challenge")  # Bob has no captain: loses his last influence
    v = coup.view(s)
    assert coup.winner(s) == [1] and v["winner"] == [1] and v["phase"] == "over"
    assert v["turn"] is None and v["window"] is None
    assert coup.legal(s, 1)["moves"] == []
    with pytest.raises(GameError, match="the game is over"):
        mv(s, 1, "income")


def test_cp7_turn_order_follows_setup_first_and_wraps():
    s = table({1: ["duke", "captain"], 2: ["contessa", "assassin"], 3: ["duke", "ambassador"]}, first=2)
    seen = []
    for _ in range(4):
        seat = coup.view(s)["turn"]["seat"]
        seen.append(seat)
        s = mv(s, seat, "income")
    assert seen == [2, 3, 1, 2]


def test_cp1_an_empty_treasury_pays_nothing():
    s = table({1: ["duke", "captain"], 2: ["contessa", "assassin"]}, coins={1: 9, 2: 41})
    assert coup.view(s)["treasury"] == 0
    s = mv(s, 1, "income")
    assert p(s, 1)["coins"] == 9 and coup.view(s)["log"][-1] == "Ann (seat 1) takes income (+0)"
    assert coup.view(s)["last"][0] == {"kind": "coins", "seat": 1, "coins": 0, "move": "income"}
    s = mv(s, 2, "coup", target=1)  # CP-2.1 41 coins: must coup; the 7 refill the treasury
    assert coup.view(s)["treasury"] == 7 and coins_total(s) == 50


def test_cp6_exchange_keeps_the_drawn_cards_out_of_every_log_line():
    s = table({1: ["duke", "contessa"], 2: ["ambassador", "assassin"]}, top=["captain", "captain"])
    s = passes(mv(s, 1, "exchange"), 2)
    s = mv(s, 1, "exchange_return", cards=["duke", "captain"])
    lines = coup.view(s)["log"]
    assert lines[-2:] == ["Ann (seat 1) draws 2 cards to exchange", "Ann (seat 1) returns 2 cards to the bottom of the deck"]
    assert not any(card in line for line in lines for card in ("captain", "duke", "contessa"))
