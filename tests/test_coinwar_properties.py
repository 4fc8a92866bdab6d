"""Property tests: random legal Coin War play never crashes, keeps the invariants, replays exactly."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.games import coinwar as cw
from controller.games.coinwar.randomplay import random_game
from controller.table import Table
from gametable.replay import replay_lines
from tests.coinwar_helpers import states_of

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=st.integers(0, 2**32), mode=st.sampled_from(["ffa", "teams"]))
def test_random_legal_play_keeps_the_invariants(seed, mode):
    inputs = random_game(seed, mode)
    states = states_of(inputs)
    for before, inp, after in zip(states[:-1], inputs[1:], states[1:], strict=True):
        # a dead seat never acts (CW-4.2)
        if "seat" in inp:
            assert any(p["seat"] == inp["seat"] and p["alive"] for p in before["players"])
        # the turn always belongs to a living player; at most one winner side
        if after["turn"] is not None:
            assert any(p["seat"] == after["turn"]["seat"] and p["alive"] for p in after["players"])
            assert after["winner"] is None and after["phase"] == "playing"
        else:
            assert after["phase"] == "over" and after["winner"] is not None
        w = after["winner"]
        if isinstance(w, list):
            assert len(w) >= 1
            if after["mode"] == "ffa":
                assert len(w) == 1
        # the dead never come back in Classic
        dead_before = {p["seat"] for p in before["players"] if not p["alive"]}
        assert dead_before <= {p["seat"] for p in after["players"] if not p["alive"]}
        assert after["turn"] is None or 0 <= after["turn"]["strikes"] <= 2
        # CW-5.6: a withdraw (randomplay offers it while a strike is in flight, or while a shot no
        # beam saw is asked about) undoes just the strike
        if inp["type"] == "withdraw":
            in_flight = before["striking"]
            unseen_shot = bool(before["questions"]) and before["pending_shot"].get("unseen")
            assert in_flight or unseen_shot
            assert not after["striking"] and after["questions"] == [] and after["pending_shot"] is None
            assert after["turn"] == {**before["turn"], "strikes": before["turn"]["strikes"] - 1}
            assert after["players"] == before["players"] and after["coins"] == before["coins"]


@SETTINGS
@given(seed=st.integers(0, 2**32), cut=st.integers(1, 400))
def test_replaying_any_prefix_gives_the_same_state(seed, cut):
    inputs = random_game(seed, "ffa")
    cut = min(cut, len(inputs))
    direct = states_of(inputs)[cut - 1]
    table = replay_lines([json.dumps(i) for i in inputs[:cut]])
    assert json.dumps(table.state, sort_keys=True) == json.dumps(direct, sort_keys=True)


@SETTINGS
@given(seed=st.integers(0, 2**32), cut=st.integers(2, 400))
def test_undo_equals_replay_without_the_last_input(seed, cut):
    inputs = random_game(seed, "teams")
    cut = min(cut, len(inputs))
    table = Table()
    for inp in inputs[:cut]:
        assert table.submit(inp).ok
    assert table.submit({"type": "undo"}).ok
    expected = replay_lines([json.dumps(i) for i in inputs[: cut - 1]])
    assert json.dumps(table.state, sort_keys=True) == json.dumps(expected.state, sort_keys=True)


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_public_view_is_json_and_has_the_contract_keys(seed):
    for state in states_of(random_game(seed, "ffa"))[::7]:
        v = json.loads(json.dumps(cw.view(state)))
        assert {"game", "mode", "phase", "turn", "players", "questions", "winner"} <= set(v)
