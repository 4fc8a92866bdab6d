"""BeamBank on gpiozero MockFactory pins with a FakeClock: debounce, pulses, polarity, stuck beams."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from gametable_core.clock import FakeClock
from gametable_core.config import BeamConfig
from gametable_core.platform import BeamEdge
from sensors.beams import BeamBank

MS = 0.001


def beam(bid: str, pin: int, active_high: bool = False) -> BeamConfig:
    return BeamConfig(bid, pin, "point", active_high=active_high, at=(0.0, 0.0))


class LateClock(FakeClock):
    """A FakeClock whose timers fire ``late`` seconds after they were asked for (a busy Pi)."""

    def __init__(self, late: float) -> None:
        super().__init__()
        self.late = late

    def call_later(self, delay, callback):
        return super().call_later(delay + self.late, callback)


class Rig:
    """A bank on fresh mock pins, recording every delivered edge."""

    def __init__(self, beams: list[BeamConfig], late: float = 0.0, **kw: float) -> None:
        self.clock = LateClock(late)
        self.factory = MockFactory()
        self.edges: list[BeamEdge] = []
        self.beams = {b.id: b for b in beams}
        self.bank = BeamBank(beams, self.clock, self.edges.append, pin_factory=self.factory, **kw)

    def set(self, bid: str, blocked: bool) -> None:
        cfg = self.beams[bid]
        pin = self.factory.pin(cfg.pin)
        pin.drive_high() if blocked == cfg.active_high else pin.drive_low()

    def wait(self, ms: float) -> None:
        self.clock.advance(ms * MS)


@pytest.fixture
def rig() -> Rig:
    r = Rig([beam("g1", 17)])
    yield r
    r.bank.close()


def test_idle_beam_is_clear_and_reports_nothing(rig: Rig) -> None:
    rig.wait(100)
    assert rig.bank.blocked("g1") is False
    assert rig.edges == []


def test_block_is_reported_after_1ms_with_time_of_raw_edge(rig: Rig) -> None:
    t0 = rig.clock.now()
    rig.set("g1", True)
    rig.wait(0.5)
    assert rig.edges == [] and rig.bank.blocked("g1") is False  # not settled yet
    rig.wait(0.6)
    assert rig.edges == [BeamEdge("g1", True, t0)]
    assert rig.bank.blocked("g1") is True


def test_pulse_of_exactly_3ms_gives_both_edges_at_raw_times(rig: Rig) -> None:
    t0 = rig.clock.now()
    rig.set("g1", True)
    rig.wait(3)
    t1 = rig.clock.now()
    rig.set("g1", False)
    rig.wait(5)
    assert rig.edges == [BeamEdge("g1", True, t0), BeamEdge("g1", False, t1)]
    assert rig.bank.blocked("g1") is False


def test_pulse_of_2_9ms_is_also_kept(rig: Rig) -> None:
    rig.set("g1", True)
    rig.wait(2.9)
    rig.set("g1", False)
    rig.wait(5)
    assert [e.blocked for e in rig.edges] == [True, False]
    assert rig.edges[1].t - rig.edges[0].t == pytest.approx(2.9 * MS)


def test_glitch_shorter_than_1ms_is_filtered(rig: Rig) -> None:
    rig.set("g1", True)
    rig.wait(0.9)
    rig.set("g1", False)
    rig.wait(10)
    assert rig.edges == []
    assert rig.bank.blocked("g1") is False


def test_chatter_at_both_ends_of_a_pulse_folds_into_two_edges(rig: Rig) -> None:
    t0 = rig.clock.now()
    for _ in range(3):  # contact chatter: toggles 0.2 ms apart
        rig.set("g1", True)
        rig.wait(0.2)
        rig.set("g1", False)
        rig.wait(0.2)
    rig.set("g1", True)
    rig.wait(10)
    t1 = rig.clock.now()
    for _ in range(4):
        rig.set("g1", False)
        rig.wait(0.3)
        rig.set("g1", True)
        rig.wait(0.3)
    rig.set("g1", False)
    rig.wait(10)
    assert rig.edges == [BeamEdge("g1", True, t0), BeamEdge("g1", False, t1)]


def test_chatter_that_ends_where_it_began_gives_nothing(rig: Rig) -> None:
    for _ in range(5):
        rig.set("g1", True)
        rig.wait(0.1)
        rig.set("g1", False)
        rig.wait(0.4)
    rig.wait(20)
    assert rig.edges == []


@pytest.mark.parametrize("active_high", [False, True])
def test_polarity_follows_config(active_high: bool) -> None:
    r = Rig([beam("g1", 5, active_high=active_high)])
    pin = r.factory.pin(5)
    try:
        # Pull-up: an idle line reads high, i.e. "blocked" for an active-high receiver.
        pin.drive_low()
        r.wait(5)
        r.edges.clear()
        pin.drive_high()
        r.wait(2)
        assert [e.blocked for e in r.edges] == [active_high]
        assert r.bank.blocked("g1") is active_high
    finally:
        r.bank.close()


def test_active_high_beam_with_dead_receiver_reads_blocked_and_stuck() -> None:
    r = Rig([beam("g1", 5, active_high=True)], stuck_after_s=2.0)
    try:
        assert r.bank.blocked("g1") is True  # nothing pulls the line low
        r.wait(2000)
        assert r.bank.stuck() == ["g1"]
    finally:
        r.bank.close()


def test_stuck_beam_is_reported_after_threshold_and_cleared_when_free() -> None:
    r = Rig([beam("g1", 17), beam("g2", 18)], stuck_after_s=5.0)
    try:
        r.set("g1", True)
        r.wait(4999)
        assert r.bank.stuck() == []
        r.wait(2)
        assert r.bank.stuck() == ["g1"]
        assert r.bank.diagnostics() == ["beam g1 (GPIO17) stuck blocked for 5.0 s"]
        r.set("g1", False)
        r.wait(2)
        assert r.bank.stuck() == [] and r.bank.diagnostics() == []
    finally:
        r.bank.close()


def test_many_beams_at_once_each_get_their_edge() -> None:
    beams = [beam(f"b{i}", pin) for i, pin in enumerate(range(4, 21))]  # 17 beams
    r = Rig(beams)
    try:
        t0 = r.clock.now()
        for b in beams:
            r.set(b.id, True)
        r.wait(0.3)
        for b in beams[::2]:  # half of them chatter back for a moment
            r.set(b.id, False)
            r.set(b.id, True)
        r.wait(2)
        assert sorted(e.beam_id for e in r.edges) == sorted(b.id for b in beams)
        assert all(e.blocked and e.t == t0 for e in r.edges)
        assert r.bank.blocked_ids() == frozenset(b.id for b in beams)
    finally:
        r.bank.close()


def test_edge_event_is_json_ready(rig: Rig) -> None:
    rig.set("g1", True)
    rig.wait(2)
    assert rig.edges[0].as_event() == {"type": "beam", "beam": "g1", "blocked": True, "t": rig.edges[0].t}


def test_unknown_beam_is_a_clear_error(rig: Rig) -> None:
    with pytest.raises(KeyError, match="unknown beam 'zz' \\(known: g1\\)"):
        rig.bank.blocked("zz")


def test_duplicate_ids_and_pins_are_rejected_and_release_nothing_twice() -> None:
    f = MockFactory()
    with pytest.raises(ValueError, match="duplicate beam id 'a'"):
        BeamBank([beam("a", 4), beam("a", 5)], FakeClock(), lambda e: None, pin_factory=f)
    with pytest.raises(ValueError, match="GPIO4 is used by more than one beam"):
        BeamBank([beam("a", 4), beam("b", 4)], FakeClock(), lambda e: None, pin_factory=f)
    # Nothing was reserved: the pins are still free for a good bank.
    BeamBank([beam("a", 4), beam("b", 5)], FakeClock(), lambda e: None, pin_factory=f).close()


def test_close_stops_pending_edges_and_frees_pins(rig: Rig) -> None:
    rig.set("g1", True)
    rig.bank.close()
    rig.wait(5)
    assert rig.edges == []
    with pytest.raises(RuntimeError, match="closed"):
        rig.bank.blocked("g1")
    BeamBank([beam("g1", 17)], rig.clock, lambda e: None, pin_factory=rig.factory).close()


# --- property: random stable pulses with chatter ---------------------------------------------

# A signal: alternating stable periods of >= 3 ms; each real transition may begin with chatter
# (toggles < 1 ms apart, whole burst < 1 ms); stable periods may hold isolated glitches < 1 ms.
chatter = st.lists(st.floats(0.01, 0.3), max_size=3)  # gaps between chatter toggles, ms (sum < 1)
glitch = st.tuples(st.floats(1.0, 5.0), st.floats(0.01, 0.95))  # (offset ms, width ms)
period = st.tuples(st.floats(3.0, 30.0), chatter, st.lists(glitch, max_size=2))


@settings(max_examples=150, deadline=None)
@given(st.lists(period, min_size=1, max_size=12), st.sampled_from([0.0, 0.0005, 0.004, 0.05]))
def test_every_stable_pulse_appears_once_and_chatter_never_does(periods, late) -> None:
    """Also with timers firing up to 50 ms late: edges are judged on raw times, not timer times."""
    r = Rig([beam("g1", 17)], late=late)
    try:
        expected: list[tuple[bool, float]] = []
        level = False
        for length, gaps, glitches in periods:
            level = not level
            start = r.clock.now()
            expected.append((level, start))
            # Chatter: toggles of odd count that end on the new level (len(gaps) toggles back+forth).
            r.set("g1", level)
            used = 0.0
            for gap in gaps:
                r.wait(gap / 2)
                r.set("g1", not level)
                r.wait(gap / 2)
                r.set("g1", level)
                used += gap
            # Glitches inside the stable part, each surrounded by >= 1 ms of quiet.
            for offset, width in glitches:
                if used + 1.0 + offset + width + 1.0 > length:
                    break
                r.wait(1.0 + offset)
                r.set("g1", not level)
                r.wait(width)
                r.set("g1", level)
                used += 1.0 + offset + width
            r.wait(length - used)
        r.wait(5 + late * 2000)
        got = [(e.blocked, e.t) for e in r.edges]
        assert [g[0] for g in got] == [x[0] for x in expected]
        for (_, t_got), (_, t_exp) in zip(got, expected, strict=True):
            assert t_got == pytest.approx(t_exp, abs=1e-9)
    finally:
        r.bank.close()


def test_staggered_edges_on_several_beams_keep_their_own_times() -> None:
    r = Rig([beam("a", 4), beam("b", 5), beam("c", 6)])
    try:
        t0 = r.clock.now()
        r.set("a", True)
        r.wait(0.5)
        r.set("b", True)
        r.wait(0.4)
        r.set("c", True)
        r.wait(0.2)
        r.set("c", False)  # c: 0.2 ms glitch, filtered
        r.wait(2.1)
        r.set("a", False)
        r.wait(5)
        got = [(e.beam_id, e.blocked, round((e.t - t0) * 1000, 6)) for e in r.edges]
        assert got == [("a", True, 0.0), ("b", True, 0.5), ("a", False, 3.2)]
    finally:
        r.bank.close()


def test_failing_consumer_does_not_stall_the_beams(caplog) -> None:
    clock, factory, got = FakeClock(), MockFactory(), []

    def on_edge(edge: BeamEdge) -> None:
        if edge.beam_id == "a":
            raise RuntimeError("downstream bug")
        got.append(edge.beam_id)

    bank = BeamBank([beam("a", 4), beam("b", 5)], clock, on_edge, pin_factory=factory)
    try:
        factory.pin(4).drive_low()
        factory.pin(5).drive_low()
        clock.advance(0.002)
        factory.pin(5).drive_high()
        clock.advance(0.002)
        assert got == ["b", "b"] and bank.blocked("a") is True
        assert "on_edge failed for BeamEdge(beam_id='a'" in caplog.text
    finally:
        bank.close()


def test_on_stuck_fires_once_per_episode_and_not_for_short_blocks() -> None:
    clock, factory, stuck = FakeClock(), MockFactory(), []
    bank = BeamBank([beam("a", 4)], clock, lambda e: None, pin_factory=factory, stuck_after_s=5.0,
                    on_stuck=lambda bid, since: stuck.append((bid, round(since - 1000.0, 6))))
    try:
        pin = factory.pin(4)
        pin.drive_low()
        clock.advance(4.0)
        pin.drive_high()  # a coin that rested 4 s and left: not stuck
        clock.advance(10.0)
        assert stuck == []
        pin.drive_low()
        clock.advance(20.0)
        assert stuck == [("a", 14.0)]
        pin.drive_high()
        clock.advance(1.0)
        pin.drive_low()
        clock.advance(5.0)
        assert stuck == [("a", 14.0), ("a", 35.0)]
    finally:
        bank.close()


def test_beam_blocked_at_start_reports_stuck() -> None:
    clock, factory, stuck = FakeClock(), MockFactory(), []
    bank = BeamBank([beam("a", 4, active_high=True)], clock, lambda e: None, pin_factory=factory,
                    stuck_after_s=2.0, on_stuck=lambda bid, since: stuck.append(bid))
    try:
        clock.advance(2.0)
        assert stuck == ["a"]
    finally:
        bank.close()


# --- the kernel's edge timestamp (lgpio) instead of the moment Python ran the callback -------

def _late_factory():
    """MockPins whose edges arrive with a timestamp 5 ms old, as lgpio's kernel timestamps do when
    the callback thread was busy."""
    from gpiozero.pins.mock import MockPin

    class LatePin(MockPin):
        def _call_when_changed(self):  # gpiozero's Pin API: (ticks, state)
            super(MockPin, self)._call_when_changed(self._last_change - 0.005, self._state)

    return MockFactory(pin_class=LatePin)


def test_kernel_timestamps_date_an_edge_when_it_happened_not_when_python_saw_it() -> None:
    clock = FakeClock()
    edges: list[BeamEdge] = []
    factory = _late_factory()
    bank = BeamBank([beam("g", 5)], clock, edges.append, pin_factory=factory, kernel_timestamps=True)
    try:
        clock.advance(1.0)
        t_callback = clock.now()
        factory.pin(5).drive_low()
        clock.advance(0.002)
        [edge] = edges
        assert edge.blocked and edge.t == pytest.approx(t_callback - 0.005, abs=0.002)
    finally:
        bank.close()


def test_mock_pins_keep_the_clock_time_of_the_callback() -> None:
    clock = FakeClock()
    edges: list[BeamEdge] = []
    factory = _late_factory()
    bank = BeamBank([beam("g", 5)], clock, edges.append, pin_factory=factory)  # auto: not lgpio
    try:
        t = clock.now()
        factory.pin(5).drive_low()
        clock.advance(0.002)
        assert edges[0].t == t
    finally:
        bank.close()
