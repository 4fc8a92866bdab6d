"""Property tests of the Coup engine: random legal play from ``legal`` (docs/rules/coup.md CP-1 … CP-7)."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations_with_replacement

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.games import coup
from controller.games.coup.cards import CARDS
from controller.games.coup.engine import MOVES
from tests.helpers.coup import NAMES, all_cards, coins_total, dump, play_random

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32)
counts = st.integers(min_value=2, max_value=6)

PUBLIC_KEYS = {
    "game", "mode", "phase", "turn", "players", "order", "deck_size", "treasury", "window", "pending", "action",
    "questions", "winner", "log", "last", "last_challenge", "ranks",
}
PLAYER_KEYS = {"seat", "name", "alive", "coins", "influence", "revealed"}


@SETTINGS
@given(seeds, counts, seeds)
def test_cp5_4_random_legal_play_always_ends_with_one_winner(seed, n, rseed):
    final, inputs = play_random(seed, n, random.Random(rseed))
    winner = coup.winner(final)
    alive = [x["seat"] for x in coup.view(final)["players"] if x["alive"]]
    assert winner is not None and winner == alive and len(winner) == 1
    assert coup.view(final)["phase"] == "over"


def _invariants(state):
    # CP-1: coins conserved, 15 cards accounted for; CP-5.3: the out hold no coins
    assert coins_total(state) == 50
    assert state["treasury"] >= 0 and all(x["coins"] >= 0 for x in state["players"])
    assert all_cards(state) == Counter({c: 3 for c in CARDS})
    for x in state["players"]:
        assert len(x["hand"]) + len(x["revealed"]) == 2
        if not x["hand"]:
            assert x["coins"] == 0


@SETTINGS
@given(seeds, counts, seeds, st.booleans())
def test_cp1_coins_and_cards_are_always_conserved(seed, n, rseed, bottom):
    play_random(seed, n, random.Random(rseed), on_step=_invariants, exchange_to_bottom=bottom)


def _redeal(state, rnd):
    """The same game with every hidden card (hands, deck, drawn) dealt differently."""
    other = json.loads(json.dumps(state))
    pending = other["pending"]
    drawn = pending["drawn"] if pending and pending["kind"] == "exchange" else []
    hidden = [c for x in other["players"] for c in x["hand"]] + other["deck"] + drawn
    rnd.shuffle(hidden)
    for x in other["players"]:
        k = len(x["hand"])
        x["hand"], hidden = hidden[:k], hidden[k:]
    if drawn:
        pending["drawn"], hidden = hidden[: len(drawn)], hidden[len(drawn):]
    other["deck"] = hidden
    other["rng"] = rnd.getrandbits(64)
    return other


def _no_leaks(rnd):
    def check(state):
        public = coup.view(state)
        assert set(public) == PUBLIC_KEYS
        assert all(set(x) == PLAYER_KEYS for x in public["players"])
        text = json.dumps(public)
        assert str(state["rng"]) not in text
        if len(state["deck"]) >= 3:
            assert json.dumps(state["deck"])[1:-1] not in text
        # the public view does not depend on any hidden card
        assert coup.view(_redeal(state, rnd)) == public
        pending = state["pending"]
        for x in state["players"]:
            mine = coup.view(state, x["seat"])
            exchanging = bool(pending and pending["kind"] == "exchange" and pending["seat"] == x["seat"])
            assert mine["hand"] == x["hand"]
            assert ("drawn" in mine) == exchanging
            if exchanging:
                assert mine["drawn"] == pending["drawn"]
            assert mine["legal"] == coup.legal(state, x["seat"])["moves"]
            rest = {k: v for k, v in mine.items() if k not in ("seat", "hand", "drawn", "legal")}
            assert rest == public  # nothing about other seats beyond the public view

    return check


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, counts, seeds)
def test_cp6_no_hidden_card_in_the_public_view_or_another_seats_view(seed, n, rseed):
    rnd = random.Random(rseed)
    play_random(seed, n, rnd, on_step=_no_leaks(random.Random(rseed + 1)))


@SETTINGS
@given(seeds, counts, seeds, st.booleans())
def test_cp6_replaying_the_same_inputs_gives_the_identical_state(seed, n, rseed, bottom):
    final, inputs = play_random(seed, n, random.Random(rseed), exchange_to_bottom=bottom)
    state = coup.new({"exchange_to_bottom": bottom}, seed,
                     players=[{"seat": s, "name": NAMES[s]} for s in range(1, n + 1)])
    fast = json.loads(json.dumps(state))
    for inp in inputs:
        state = coup.apply(state, inp)
        fast = coup.apply_in_place(fast, inp)  # the journal's fast replay path
    assert dump(state) == dump(final) == dump(fast)


def _probes(seat, n):
    """Plausible inputs from one seat: every move with every kind of argument it could carry."""
    seats = list(range(1, n + 1)) + [99]
    out = [{"type": "move", "seat": seat, "move": m, "args": {}} for m in MOVES]
    for m in ("coup", "assassinate", "steal"):
        out += [{"type": "move", "seat": seat, "move": m, "args": {"target": t}} for t in seats]
    out += [{"type": "move", "seat": seat, "move": "block", "args": {"claim": c}} for c in CARDS]
    out += [{"type": "move", "seat": seat, "move": "lose_influence", "args": {"card": c}} for c in CARDS]
    for pair in combinations_with_replacement(sorted(CARDS), 2):
        out.append({"type": "move", "seat": seat, "move": "exchange_return", "args": {"cards": list(pair)}})
    return out


def _canon(inp):
    return json.dumps(inp, sort_keys=True)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, counts, seeds)
def test_legal_lists_exactly_what_apply_accepts(seed, n, rseed):
    rnd = random.Random(rseed)

    def check(state):
        if coup.winner(state) is None and rnd.random() > 0.3:
            return
        seat = rnd.randint(1, n)
        offered = {_canon(i) for i in coup.inputs_for(coup.legal(state, seat))}
        for probe in _probes(seat, n):
            try:
                coup.apply(state, probe)
                accepted = True
            except coup.GameError:
                accepted = False
            assert accepted == (_canon(probe) in offered), probe

    play_random(seed, n, rnd, on_step=check)
