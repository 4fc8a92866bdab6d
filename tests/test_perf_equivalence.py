"""The speed-ups of the engines and the journal change nothing a player or the daemon can see:
each fast path gives exactly what the plain one it replaces gives (property tests)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games import bang, coup
from controller.games import coinwar as cw
from controller.games.bang.bot import RandomBot as BangBot
from controller.games.bang.engine import LAYOUT as BANG_LAYOUT
from controller.games.bang.engine import copy_state as bang_copy_state
from controller.games.base import clone
from controller.games.coinwar.randomplay import random_game
from controller.games.coinwar.state_copy import LAYOUT, copy_state
from controller.games.coup.bot import RandomBot
from controller.games.coup.engine import LAYOUT as COUP_LAYOUT
from controller.games.coup.engine import copy_state as coup_copy_state
from controller.journal import parse_body

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


def _outcome(fn, text):
    try:
        return "ok", json.dumps(fn(text))
    except ValueError as exc:
        return "error", type(exc).__name__, str(exc)


@settings(max_examples=80, deadline=None)
@given(value=json_values, before=st.sampled_from(["", " ", "\n", "\ufeff"]),
       after=st.sampled_from(["", " ", "\n", "x", "{}", "]"]), cut=st.integers(0, 40))
def test_journal_body_parser_gives_exactly_what_json_loads_gives(value, before, after, cut):
    body = json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    for text in (body, before + body + after, body[:cut], body[cut:]):
        assert _outcome(parse_body, text) == _outcome(json.loads, text)


def _containers(value, found: list) -> None:
    if type(value) in (dict, list):
        found.append(value)
        for item in value.values() if type(value) is dict else value:
            _containers(item, found)


def _assert_shares_nothing_and_layout_is_referenced_once(state, copy, layout) -> None:
    """``copy`` shares no container with ``state``, and each container under the hand-copied
    ``layout`` keys is referenced only once in ``state``."""
    originals: list = []
    _containers(state, originals)
    copies: list = []
    _containers(copy, copies)
    assert not {id(c) for c in copies} & {id(c) for c in originals}
    laid_out: list = []
    for key in layout:
        _containers(state.get(key), laid_out)
    assert sum(1 for c in originals if any(c is x for x in laid_out)) == len(laid_out)


def _applied(game, state, inp):
    """``game.apply(state, inp)``, which must leave ``state`` as it was and give what the journal
    replay's ``apply_in_place`` gives."""
    before = repr(state)
    after = game.apply(state, inp)
    assert repr(state) == before
    assert repr(game.apply_in_place(clone(state), inp)) == repr(after)
    return after


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), mode=st.sampled_from(sorted(cw.MODES)))
def test_coinwar_state_copy_is_a_deep_copy_of_every_state_random_play_reaches(seed, mode):
    """copy_state (used by every apply and CW-8 trial) equals the state key for key and type for
    type, shares no container with it, and the parts it copies by hand are referenced only once
    in the state (so copying them apart from the rest loses no shared reference)."""
    inputs = random_game(seed, mode, max_inputs=150)
    first = inputs[0]
    state = cw.new(first["options"], first["seed"], players=first["players"], mode=mode, order=first["order"])
    for inp in [None, *inputs[1:]]:
        if inp is not None:
            state = cw.apply(state, inp)
        copy = copy_state(state)
        assert repr(copy) == repr(state)
        _assert_shares_nothing_and_layout_is_referenced_once(state, copy, LAYOUT)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), mode=st.sampled_from(sorted(cw.MODES)))
def test_coinwar_apply_leaves_its_argument_untouched_and_matches_replay_in_place(seed, mode):
    inputs = random_game(seed, mode, max_inputs=150)
    first = inputs[0]
    state = cw.new(first["options"], first["seed"], players=first["players"], mode=mode, order=first["order"])
    in_place = clone(state)
    for inp in inputs[1:]:
        before = repr(state)
        after = cw.apply(state, inp)
        assert repr(state) == before
        in_place = cw.apply_in_place(in_place, inp)
        assert repr(in_place) == repr(after)
        state = after


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6))
def test_coup_state_copy_is_a_deep_copy_of_every_state_bots_reach(seed, players):
    """coup.apply's copy equals the state (but for ``last``, which each input starts empty) and
    shares no container with it; the hand-copied parts are referenced only once in the state."""
    seats = list(range(1, players + 1))
    state = coup.new({}, seed, players=[{"seat": s, "name": f"P{s}"} for s in seats])
    bots = {s: RandomBot(seed * 10 + s) for s in seats}
    while True:
        copy = coup_copy_state(state)
        assert repr(copy) == repr({**state, "last": []})
        _assert_shares_nothing_and_layout_is_referenced_once(state, copy, COUP_LAYOUT)
        if coup.winner(state) is not None:
            break
        seat = state["pending"]["seat"] if state["pending"] else (
            state["window"]["seats"][0] if state["window"] else state["turn"])
        state = _applied(coup, state, bots[seat].choose({}, coup.legal(state, seat)))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(4, 6))
def test_bang_state_copy_is_a_deep_copy_of_every_state_random_play_reaches(seed, players):
    """bang.apply's copy equals the state (but for ``last``, which each input starts empty) and
    shares no container with it but the logged effects (never changed once emitted); the
    hand-copied parts are referenced only once in the state; apply leaves its argument as it was
    and matches the journal replay's apply_in_place."""
    state = bang.new({}, seed, players=[{"seat": s, "name": f"P{s}"} for s in range(1, players + 1)])
    bots = {s: BangBot(seed * 10 + s) for s in range(1, players + 1)}
    while True:
        copy = bang_copy_state(state)
        assert repr(copy) == repr({**state, "last": []})
        effects = {id(e) for e in state["log"]}
        unlogged = {k: v for k, v in state.items() if k not in ("log", "last")}
        _assert_shares_nothing_and_layout_is_referenced_once(
            unlogged, {k: v for k, v in copy.items() if k not in ("log", "last")},
            {k: v for k, v in BANG_LAYOUT.items() if k != "log"})
        assert copy["log"] is not state["log"] and all(id(e) in effects for e in copy["log"])
        if state["phase"] != "playing":
            break
        window = state["window"]
        seat = window["seats"][0] if window is not None else state["turn"]["seat"]
        state = _applied(bang, state, bots[seat].choose({}, bang.legal(state, seat)))
