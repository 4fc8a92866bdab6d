"""Coup bots play only from their seat's view and legal moves, and play plausibly."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.games import coup
from controller.games.coup.bot import HeuristicBot, RandomBot
from tests.helpers.coup import NAMES, mv, p, passes, table

seeds = st.integers(min_value=0, max_value=2**32)


def _play_bots(seed, n, rnd, kinds):
    """A full game where bots answer windows in a random order, like phones racing (CP-3.4)."""
    state = coup.new({}, seed, players=[{"seat": s, "name": NAMES[s]} for s in range(1, n + 1)])
    bots = {s: (HeuristicBot if kinds[s - 1] else RandomBot)(rnd.getrandbits(32)) for s in range(1, n + 1)}
    steps = 0
    while coup.winner(state) is None:
        steps += 1
        assert steps < 3000
        public = coup.view(state)
        for b in bots.values():
            b.observe(public)
        if public["window"] is not None and rnd.random() < 0.05:
            state = coup.apply(state, {"type": "timeout", "window": public["window"]["id"]})
            continue
        if public["pending"] is not None:
            seats = [public["pending"]["seat"]]
        elif public["window"] is not None:
            seats = list(public["window"]["seats"])
            rnd.shuffle(seats)
        else:
            seats = [public["turn"]["seat"]]
        seat = seats[0]
        choice = bots[seat].choose(coup.view(state, seat), coup.legal(state, seat))
        assert choice is not None
        state = coup.apply(state, choice)  # a GameError here fails the test
    return state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, st.integers(min_value=2, max_value=6), seeds, st.lists(st.booleans(), min_size=6, max_size=6))
def test_both_bots_play_full_games_without_illegal_moves(seed, n, rseed, kinds):
    final = _play_bots(seed, n, random.Random(rseed), kinds)
    assert len(coup.winner(final)) == 1


def test_heuristic_bot_beats_random_bots_more_often_than_not():
    wins = 0
    for seed in range(40):
        final = _play_bots(seed, 2, random.Random(seed), [True, False])
        wins += coup.winner(final) == [1]
    assert wins > 24


def test_bots_have_nothing_to_say_when_their_seat_has_no_move():
    s = table({1: ["duke", "captain"], 2: ["contessa", "assassin"]})
    for bot in (RandomBot(1), HeuristicBot(1)):
        assert bot.choose(coup.view(s, 2), coup.legal(s, 2)) is None


def test_heuristic_bot_challenges_a_claim_whose_every_copy_it_can_see():
    s = table({1: ["captain", "contessa"], 2: ["duke", "duke"], 3: ["duke", "ambassador"]}, coins={1: 7})
    s = mv(s, 1, "coup", target=3)
    s = mv(s, 3, "lose_influence", card="duke")  # the third Duke is face up
    s = mv(s, 2, "income")
    s = mv(s, 3, "income")
    s = mv(s, 1, "tax")
    for seed in range(10):
        bot = HeuristicBot(seed)
        assert bot.choose(coup.view(s, 2), coup.legal(s, 2)) == {
            "type": "move", "seat": 2, "move": "challenge", "args": {}}


def test_heuristic_bot_remembers_an_exposed_bluff_and_doubts_that_player_more():
    s = table({1: ["captain", "contessa"], 2: ["duke", "ambassador"], 3: ["captain", "ambassador"]})
    s = mv(s, 1, "tax")
    s = mv(s, 3, "challenge")
    exposed = mv(s, 1, "lose_influence", card="captain")  # Ann was caught bluffing Duke
    s = mv(exposed, 2, "exchange")
    s = mv(s, 3, "challenge")  # a later challenge: the public view now shows only this one
    s = mv(s, 3, "lose_influence", card="captain")
    s = mv(s, 2, "exchange_return", cards=coup.view(s, 2)["drawn"])
    s = mv(s, 3, "income")
    s = mv(s, 1, "tax")  # Ann claims Duke again
    fresh = remembered = 0
    for seed in range(60):
        forgetful = HeuristicBot(seed)
        fresh += forgetful.choose(coup.view(s, 2), coup.legal(s, 2))["move"] == "challenge"
        bot = HeuristicBot(seed)
        bot.observe(coup.view(exposed))
        assert bot.caught == {1: {"duke"}}
        remembered += bot.choose(coup.view(s, 2), coup.legal(s, 2))["move"] == "challenge"
        # what it believes: a seat caught bluffing is less likely to hold what it claims
        assert bot.memory.holds(coup.view(s, 2), 1, "duke", claimed=True) < \
            forgetful.memory.holds(coup.view(s, 2), 1, "duke", claimed=True)
    assert fresh == 0  # one Duke in its own hand is not reason enough to risk a card
    assert remembered > 10


def test_heuristic_bot_does_not_challenge_a_likely_claim_at_a_full_table():
    # the old bot challenged 8 % of all claims whatever the table; a Duke claim nothing
    # contradicts, at a 4-player table where a failed challenge only helps the two others, is left.
    s = table({1: ["duke", "captain"], 2: ["assassin", "contessa"], 3: ["captain", "ambassador"],
                4: ["contessa", "ambassador"]})
    s = mv(s, 1, "tax")
    for seed in range(200):
        for seat in (2, 3, 4):
            assert HeuristicBot(seed).choose(coup.view(s, seat), coup.legal(s, seat))["move"] == "pass"


def test_heuristic_bot_with_its_last_card_bluffs_contessa_rather_than_challenge_a_likely_assassin():
    # Bo (one card left, a Captain) is assassinated by Ann, whose claims so far were true: a
    # challenge would likely fail and put Bo out; blocking with a Contessa it lacks costs nothing more.
    s = table({1: ["duke", "assassin"], 2: ["captain", "ambassador"]}, coins={1: 3})
    s = mv(s, 1, "tax")
    s = mv(s, 2, "challenge")  # Ann had the Duke
    s = mv(s, 2, "lose_influence", card="ambassador")
    s = mv(s, 2, "income")
    s = mv(s, 1, "assassinate", target=2)
    for seed in range(40):
        bot = HeuristicBot(seed)
        assert bot.choose(coup.view(s, 2), coup.legal(s, 2))["move"] == "pass"
    blocked = mv(s, 2, "pass")
    for seed in range(40):
        choice = HeuristicBot(seed).choose(coup.view(blocked, 2), coup.legal(blocked, 2))
        assert choice == {"type": "move", "seat": 2, "move": "block", "args": {"claim": "contessa"}}


def test_heuristic_bot_prefers_assassinate_over_tax_when_it_can():
    s = table({1: ["duke", "assassin"], 2: ["captain", "contessa"]}, coins={1: 3})
    for seed in range(20):
        choice = HeuristicBot(seed).choose(coup.view(s, 1), coup.legal(s, 1))
        assert choice == {"type": "move", "seat": 1, "move": "assassinate", "args": {"target": 2}}
    poor = table({1: ["duke", "assassin"], 2: ["captain", "contessa"]}, coins={1: 2})
    assert HeuristicBot(0).choose(coup.view(poor, 1), coup.legal(poor, 1))["move"] == "tax"


def test_heuristic_bot_blocks_with_a_card_it_really_holds():
    s = table({1: ["assassin", "duke"], 2: ["contessa", "captain"]}, coins={1: 3})
    s = mv(s, 1, "assassinate", target=2)
    s = mv(s, 2, "pass")
    choice = HeuristicBot(3).choose(coup.view(s, 2), coup.legal(s, 2))
    assert choice == {"type": "move", "seat": 2, "move": "block", "args": {"claim": "contessa"}}


def test_heuristic_bot_uses_its_real_cards_and_coups_when_rich():
    s = table({1: ["duke", "contessa"], 2: ["captain", "assassin"]})
    assert HeuristicBot(1, bluff=0.0).choose(coup.view(s, 1), coup.legal(s, 1))["move"] == "tax"
    rich = table({1: ["duke", "contessa"], 2: ["captain", "assassin"]}, coins={1: 7})
    choice = HeuristicBot(1).choose(coup.view(rich, 1), coup.legal(rich, 1))
    assert choice == {"type": "move", "seat": 1, "move": "coup", "args": {"target": 2}}
    assert p(rich, 1)["coins"] == 7


def test_heuristic_bot_keeps_its_best_cards_in_an_exchange_and_loses_its_worst():
    s = table({1: ["ambassador", "contessa"], 2: ["captain", "assassin"]}, top=["duke", "assassin"])
    s = passes(mv(s, 1, "exchange"), 2)
    choice = HeuristicBot(0).choose(coup.view(s, 1), coup.legal(s, 1))
    assert choice["move"] == "exchange_return" and sorted(choice["args"]["cards"]) == ["ambassador", "contessa"]
    s = mv(s, 1, "exchange_return", **choice["args"])
    s = mv(s, 2, "income")
    assert sorted(coup.view(s, 1)["hand"]) == ["assassin", "duke"]
