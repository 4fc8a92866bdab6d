"""The one deadline scheduler (controller/deadlines.py) on a FakeClock: it arms what the game
lists, cancels what disappears, fires each expired deadline's input once, and pauses/resumes."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.deadlines import Deadlines, PauseError
from gametable_core.clock import FakeClock


@pytest.fixture
def rig():
    clock = FakeClock()
    fired: list[tuple[str, dict]] = []
    d = Deadlines(clock, threading.RLock(), lambda ident, inp: fired.append((ident, inp)))
    return clock, d, fired


def test_a_listed_deadline_fires_its_input_once_when_its_seconds_pass(rig):
    clock, d, fired = rig
    d.sync([("w1", 8, {"type": "timeout", "window": 1})])
    clock.advance(7.9)
    assert fired == []
    d.sync([("w1", 8, {"type": "timeout", "window": 1})])  # still listed: keeps its first start
    clock.advance(0.2)
    assert fired == [("w1", {"type": "timeout", "window": 1})]
    clock.advance(100)
    assert len(fired) == 1


def test_a_deadline_no_longer_listed_is_cancelled(rig):
    clock, d, fired = rig
    d.sync([("w1", 8, {"type": "timeout"})])
    d.sync([])
    clock.advance(60)
    assert fired == [] and d.timers() == {}


def test_since_anchors_a_game_clock_before_now(rig):
    clock, d, fired = rig
    d.sync([("time_up", 120, {"type": "time_up"})], since={"time_up": clock.wall() - 100})
    assert d.timers()["time_up"]["deadline"] == pytest.approx(clock.wall() + 20)
    clock.advance(20.1)
    assert fired == [("time_up", {"type": "time_up"})]


def test_pause_keeps_the_time_left_and_resume_continues(rig):
    clock, d, fired = rig
    with pytest.raises(PauseError, match="no reaction window is open to pause"):
        d.pause()
    d.sync([("w1", 8, {"type": "timeout"})])
    clock.advance(3)
    d.pause()
    with pytest.raises(PauseError, match="already paused"):
        d.pause()
    assert d.timers()["w1"] == {"deadline": None, "paused": True, "remaining_s": pytest.approx(5)}
    clock.advance(600)
    assert fired == []
    d.resume()
    with pytest.raises(PauseError, match="not paused"):
        d.resume()
    clock.advance(4.9)
    assert fired == []
    clock.advance(0.2)
    assert [f[0] for f in fired] == ["w1"]


@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(1, 30), st.integers(0, 40)), max_size=12))
def test_property_only_still_listed_deadlines_fire_and_each_at_most_once_per_arming(steps):
    """Random listings over time: whatever fires was listed at that moment, after its seconds."""
    clock = FakeClock()
    fired: list[str] = []
    d = Deadlines(clock, threading.RLock(), lambda ident, inp: fired.append(ident))
    listed: dict[str, float] = {}  # id -> expected expiry
    for ident, seconds, wait in steps:
        if ident in listed:
            del listed[ident]
        else:
            listed[ident] = clock.wall() + seconds
        d.sync([(i, end - clock.wall() + 0.0, {"type": i}) for i, end in listed.items()])
        before = len(fired)
        clock.advance(wait)
        for i in fired[before:]:
            assert i in listed and listed[i] <= clock.wall()
            del listed[i]
