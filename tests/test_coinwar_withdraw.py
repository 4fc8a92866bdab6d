"""CW-5.6: the striker's player withdraws a strike nothing on the table confirmed."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.default_table import default_beams
from controller.games import coinwar as cw
from controller.games.base import GameError
from controller.games.coinwar.randomplay import random_input, random_new_game
from controller.games.coinwar.sensing import Observer
from gametable.replay import replay_lines
from gametable.testing.fake_daemon import FakeDaemon
from gametable_core.clock import FakeClock
from tests.coinwar_helpers import ffa, play, shot

STRIKE = {"type": "strike", "seat": 1}
WITHDRAW = {"type": "withdraw", "seat": 1}


def _unseen_shot(seat: int = 1, edges: int | None = 0) -> dict:
    """What the observer of a real table submits after a set-down spike: nothing in the goal,
    "who flew" unknown (the beams cannot prove nobody flew), and how many beam edges it saw."""
    inp = shot(seat, dead=[], flown=None, touch=[])
    if edges is not None:
        inp["beam_edges"] = edges
    return inp


def test_cw_5_6_withdraw_removes_the_strike_as_if_it_never_happened():
    start = ffa(1, 2)
    s = play(start, STRIKE)
    assert {"type": "withdraw"} in cw.legal(s, 1)["moves"]
    s = play(s, WITHDRAW)
    assert s["turn"] == start["turn"] and s["striking"] is False
    assert s["last"] == [{"kind": "withdraw", "seat": 1, "rule": "CW-5.6"}]
    assert {"type": "withdraw"} not in cw.legal(s, 1)["moves"]
    # both strikes of the turn are still there (CW-5.1)
    s = play(s, STRIKE, shot(1), STRIKE, shot(1))
    assert s["turn"]["seat"] == 2


def test_cw_5_6_withdrawing_the_second_strike_gives_it_back():
    s = play(ffa(1, 2), STRIKE, shot(1), STRIKE, WITHDRAW)
    assert s["turn"] == {"seat": 1, "strikes": 1, "extra": False}
    assert {"type": "strike"} in cw.legal(s, 1)["moves"]


@pytest.mark.parametrize("inputs, seat, message", [
    ([], 1, "seat 1 has no strike in flight to withdraw (CW-5.6)"),
    ([STRIKE, shot(1)], 1, "seat 1 has no strike in flight to withdraw (CW-5.6)"),  # the table confirmed it
    ([STRIKE], 2, "it is seat 1's turn, not seat 2's (CW-3)"),  # only the striking seat
    # the beams saw the coins move: the strike was real
    ([STRIKE, _unseen_shot(edges=3)], 1,
     "seat 1's shot has arrived and the table's beams saw it (or it did not come from the beams); it stands (CW-5.6)"),
    # a phone's or a script's shot says nothing about the beams
    ([STRIKE, _unseen_shot(edges=None)], 1,
     "seat 1's shot has arrived and the table's beams saw it (or it did not come from the beams); it stands (CW-5.6)"),
    ([STRIKE, _unseen_shot()], 2, "it is seat 1's turn, not seat 2's (CW-3)"),
])
def test_cw_5_6_a_withdraw_of_nothing_withdrawable_is_refused_and_changes_nothing(inputs, seat, message):
    s = play(ffa(1, 2), *inputs)
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(GameError) as err:
        cw.apply(s, {"type": "withdraw", "seat": seat})
    assert str(err.value) == message
    assert json.dumps(s, sort_keys=True) == before
    assert {"type": "withdraw"} not in cw.legal(s, seat)["moves"]


def test_cw_5_6_withdraw_is_a_phone_input_and_has_a_log_line():
    assert "withdraw" in cw.describe()["phone_inputs"]
    state = {"players": [{"seat": 1, "name": "Ann", "coin": "c1"}, {"seat": 2, "name": "Bo", "coin": "c2"}]}
    s = play(ffa(1, 2), STRIKE, WITHDRAW)
    assert cw.words(WITHDRAW, s["last"], state) == ["Ann withdrew a strike the table did not see"]


# --- after the shot: a shot no beam saw, while it is asked about (CW-5.6, CW-8) --------------------

def test_cw_5_6_a_shot_no_beam_saw_is_withdrawn_while_who_flew_is_asked():
    start = ffa(1, 2, 3)
    s = play(start, STRIKE, _unseen_shot())
    assert s["questions"][0]["kind"] == "flown"  # CW-8: the real table asks
    assert {"type": "withdraw"} in cw.legal(s, 1)["moves"]
    assert {"type": "withdraw"} not in cw.legal(s, 2)["moves"]
    s = play(s, WITHDRAW)
    assert s["questions"] == [] and s["pending_shot"] is None and s["striking"] is False
    assert s["turn"] == start["turn"] and s["players"] == start["players"]
    assert s["last"] == [{"kind": "withdraw", "seat": 1, "rule": "CW-5.6"}]
    # the turn goes on with both strikes (CW-5.1); the next shot is asked about afresh
    s = play(s, STRIKE, shot(1), STRIKE, shot(1))
    assert s["turn"]["seat"] == 2


def test_cw_5_6_withdrawing_after_the_shot_gives_back_a_strike_that_came_without_a_strike_frame():
    s = play(ffa(1, 2), _unseen_shot())  # a shot with no strike frame before it still counts (CW-5.1)
    assert s["turn"]["strikes"] == 1 and s["questions"]
    s = play(s, WITHDRAW)
    assert s["turn"] == {"seat": 1, "strikes": 0, "extra": False}


def test_cw_5_6_once_every_question_is_answered_the_unseen_shot_stands():
    s = play(ffa(1, 2, 3), STRIKE, _unseen_shot())
    q = s["questions"][0]
    s = play(s, {"type": "answer", "question": q["id"], "value": []})  # "Nobody flew"
    assert s["questions"] == [] and s["pending_shot"] is None
    with pytest.raises(GameError, match="no strike in flight to withdraw"):
        cw.apply(s, WITHDRAW)


@pytest.mark.parametrize("edges", [-1, 1.5, "0", True, [0]])
def test_cw_5_6_a_shot_with_a_bad_beam_edges_count_is_refused(edges):
    s = play(ffa(1, 2), STRIKE)
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(GameError) as err:
        cw.apply(s, _unseen_shot() | {"beam_edges": edges})
    assert str(err.value) == f"'beam_edges' must be a whole number of beam edges (0 or more), got {edges!r}"
    assert json.dumps(s, sort_keys=True) == before


# --- the property: random legal play with withdraws ------------------------------------------------

def _game_with_withdraws(seed: int) -> list[dict]:
    """A random legal game that withdraws often (randomplay offers withdraw among the moves)."""
    rnd = random.Random(seed)
    first = random_new_game(rnd, "ffa")
    state = cw.new(first["options"], first["seed"], players=first["players"], mode="ffa", order=first["order"])
    inputs = [first]
    for _ in range(200):
        if state["turn"] and cw.referee.withdrawable(state, state["turn"]["seat"]) and rnd.random() < 0.4:
            inp = {"type": "withdraw", "seat": state["turn"]["seat"]}
        else:
            inp = random_input(state, rnd)
        if inp is None:
            break
        before = state
        state = cw.apply(state, inp)
        if inp["type"] == "withdraw":
            assert state["turn"]["seat"] == before["turn"]["seat"]
            assert state["turn"]["strikes"] == before["turn"]["strikes"] - 1 >= 0
            assert not state["striking"] and state["players"] == before["players"]
            assert state["questions"] == [] and state["pending_shot"] is None
        assert state["turn"] is None or 0 <= state["turn"]["strikes"] <= 2
        inputs.append(inp)
    return inputs


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_cw_5_6_random_play_with_withdraws_keeps_invariants_and_replays_identically(seed):
    inputs = _game_with_withdraws(seed)
    first = inputs[0]
    state = cw.new(first["options"], first["seed"], players=first["players"], mode="ffa", order=first["order"])
    for inp in inputs[1:]:
        state = cw.apply(state, inp)
    table = replay_lines([json.dumps(i) for i in inputs])
    assert json.dumps(table.state, sort_keys=True) == json.dumps(state, sort_keys=True)


def test_cw_5_6_gametable_replay_takes_a_withdraw_line(tmp_path):
    lines = [json.dumps({"type": "new_game", "game": "coinwar", "mode": "ffa", "seed": 3, "options": {},
                         "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}], "order": [1, 2]}),
             json.dumps(STRIKE), json.dumps(WITHDRAW)]
    f = tmp_path / "w.jsonl"
    f.write_text("\n".join(lines) + "\n")
    r = subprocess.run([sys.executable, "-m", "gametable.cli", "replay", str(f)], capture_output=True, text=True,
                       cwd=Path(__file__).resolve().parent.parent, timeout=60)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["turn"] == {"seat": 1, "strikes": 0, "extra": False} and out["striking"] is False
    f.write_text("\n".join(lines + [json.dumps(WITHDRAW)]) + "\n")
    r = subprocess.run([sys.executable, "-m", "gametable.cli", "replay", str(f)], capture_output=True, text=True,
                       cwd=Path(__file__).resolve().parent.parent, timeout=60)
    assert r.returncode != 0 and "line 4:" in r.stderr and "no strike in flight" in r.stderr


# --- the observer: nothing is submitted for a withdrawn strike -----------------------------------

def _engine_daemon() -> FakeDaemon:
    """The daemon API the observer uses, over the real engine (public_state = the public view)."""
    return FakeDaemon(ffa(2, 3, order=[2, 3]), apply=cw.apply, view=cw.view, refusals=(GameError,))


def _observer(daemon):
    from gametable_core.config import Config

    clock = FakeClock()
    return clock, Observer.for_daemon(Config(beams=default_beams()), clock, daemon)


def test_cw_5_6_the_observer_submits_no_shot_for_a_withdrawn_strike():
    daemon = _engine_daemon()
    clock, obs = _observer(daemon)
    daemon.submit({"type": "strike", "seat": 2, "id": "s1"})
    obs.strike_started(2, clock.now())
    clock.advance(0.5)
    assert daemon.submit({"type": "withdraw", "seat": 2, "id": "w1"})["ok"]
    clock.advance(5.0)  # the observer settles: the strike is no longer in flight
    assert [i["type"] for i in daemon.inputs] == ["strike", "withdraw"]
    assert daemon.state["turn"] == {"seat": 2, "strikes": 0, "extra": False}


def test_cw_5_6_a_new_strike_after_a_withdraw_gets_only_its_own_shot():
    daemon = _engine_daemon()
    clock, obs = _observer(daemon)
    daemon.submit({"type": "strike", "seat": 2, "id": "s1"})
    obs.strike_started(2, clock.now())
    daemon.submit({"type": "withdraw", "seat": 2, "id": "w1"})
    daemon.submit({"type": "strike", "seat": 2, "id": "s2"})
    obs.strike_started(2, clock.now())  # the withdrawn strike's facts must not land on this one
    assert [i["type"] for i in daemon.inputs] == ["strike", "withdraw", "strike"]
    obs.beam_edge("goal3", True, clock.now())
    obs.beam_edge("goal3", False, clock.now() + 0.01)
    clock.advance(2.0)
    assert [i["type"] for i in daemon.inputs] == ["strike", "withdraw", "strike", "shot"]
    assert daemon.state["turn"]["strikes"] == 1 and not daemon.state["striking"]
