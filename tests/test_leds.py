"""GpioSeatLights on MockFactory PWM pins, animated by a FakeClock."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from gametable_core.clock import FakeClock
from gametable_core.config import LedConfig
from gametable_core.led_patterns import DIM_LEVEL, LedPlanError, led_plan
from sensors.leds import GpioSeatLights

SEAT_PINS = {1: 5, 2: 6, 3: 13, 4: 19}
STATUS = (16, 20, 21)


@pytest.fixture
def rig():
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    lights = GpioSeatLights.from_config(LedConfig(SEAT_PINS, STATUS), clock, pin_factory=factory)
    yield clock, factory, lights
    lights.close()


def pin_levels(factory) -> dict[int, float]:
    """What the pins carry, read from the mock hardware itself."""
    return {seat: factory.pin(pin).state for seat, pin in SEAT_PINS.items()}


def cw(turn, **kw):
    players = kw.pop("players", [{"seat": s, "alive": True} for s in SEAT_PINS])
    questions = kw.pop("questions", [])
    answer = sorted({s for q in questions for s in q["seats"]})
    return {"phase": "playing", "turn": turn, "players": players, "answer": answer, "winner": None, **kw}


def test_everything_dark_before_a_plan(rig) -> None:
    _, factory, lights = rig
    assert pin_levels(factory) == {1: 0, 2: 0, 3: 0, 4: 0}
    assert lights.status() == (0, 0, 0)


def test_active_seat_solid_others_dim_status_green(rig) -> None:
    clock, factory, lights = rig
    lights.show(led_plan(cw({"seat": 2, "strikes": 0, "extra": False})))
    clock.advance(3.0)
    assert pin_levels(factory) == {1: DIM_LEVEL, 2: 1.0, 3: DIM_LEVEL, 4: DIM_LEVEL}
    assert lights.status() == (0, 1, 0)
    assert factory.pin(20).state == 1 and factory.pin(16).state == 0


def test_extra_turn_blinks_fast_on_the_clock_cw_6_3(rig) -> None:
    clock, factory, lights = rig
    lights.show(led_plan(cw({"seat": 3, "strikes": 0, "extra": True})))
    seen = []
    for _ in range(25):  # one second of frames, driven only by FakeClock timers
        clock.advance(0.04)
        seen.append(factory.pin(13).state)
    assert set(seen) == {0.0, 1.0}
    on_frames = sum(1 for v in seen if v == 1.0)
    assert 10 <= on_frames <= 15  # ~50 % duty at 4 Hz
    assert factory.pin(5).state == DIM_LEVEL


def test_blink_phase_at_exact_times_with_tick(rig) -> None:
    clock, _, _ = rig
    lights = GpioSeatLights({1: 7}, None, clock, pin_factory=MockFactory(pin_class=MockPWMPin), animate=False)
    try:
        t0 = clock.now()
        lights.show({"seats": {"1": "blink"}, "status": "ok"})
        for dt, level in [(0.05, 1.0), (0.2, 0.0), (0.3, 1.0), (0.45, 0.0)]:
            lights.tick(t0 + dt)
            assert lights.levels() == {"1": level}
    finally:
        lights.close()


def test_answer_needed_pulses_cw_8(rig) -> None:
    clock, factory, lights = rig
    lights.show(led_plan(cw({"seat": 1, "strikes": 1, "extra": False}, questions=[{"seats": [4]}])))
    start = factory.pin(19).state
    clock.advance(0.6)
    peak = factory.pin(19).state
    clock.advance(0.6)
    assert start == pytest.approx(DIM_LEVEL) and peak > 0.9 and factory.pin(19).state < 0.2


def test_pattern_phase_survives_reshowing_the_same_plan(rig) -> None:
    clock, factory, lights = rig
    plan = led_plan(cw({"seat": 1, "strikes": 0, "extra": False}, questions=[{"seats": [2]}]))
    lights.show(plan)
    clock.advance(0.6)
    lights.show(led_plan(cw({"seat": 1, "strikes": 1, "extra": False}, questions=[{"seats": [2]}])))
    assert factory.pin(6).state > 0.9  # still at the top of its pulse, not restarted


def test_out_seat_is_dark(rig) -> None:
    clock, factory, lights = rig
    players = [{"seat": s, "alive": s != 3} for s in SEAT_PINS]
    lights.show(led_plan(cw({"seat": 1, "strikes": 0, "extra": False}, players=players)))
    clock.advance(1)
    assert factory.pin(13).state == 0


def test_winners_chase_one_after_another(rig) -> None:
    clock, factory, lights = rig
    lights.show(led_plan({"phase": "over", "turn": None, "winner": [2, 4],
                          "players": [{"seat": s, "alive": True} for s in SEAT_PINS]}))
    t0, lit = clock.now(), []
    for t in (0.07, 0.22, 0.37, 0.52):  # middle of each 0.15 s chase step
        clock.advance(t0 + t - clock.now())
        lights.tick()
        lit.append(sorted(s for s, v in pin_levels(factory).items() if v == 1.0))
    assert lit == [[2], [4], [], [2]]
    assert factory.pin(5).state == 0 and factory.pin(13).state == 0


def test_fault_blinks_all_seats_and_status_red(rig) -> None:
    clock, factory, lights = rig
    lights.show(led_plan(None, fault="journal write failed", seats=SEAT_PINS))
    clock.advance(0.25)
    assert set(pin_levels(factory).values()) == {1.0}
    clock.advance(0.5)
    assert set(pin_levels(factory).values()) == {0.0}
    assert lights.status() == (1, 0, 0)


def test_waiting_status_is_amber(rig) -> None:
    _, factory, lights = rig
    lights.show(led_plan(None, waiting="striker base", seats=SEAT_PINS))
    assert lights.status() == (1, 0.5, 0)
    assert factory.pin(16).state == 1 and factory.pin(20).state == 0.5


def test_extra_turn_over_means_steady_light_again(rig) -> None:
    clock, factory, lights = rig
    lights.show(led_plan(cw({"seat": 1, "strikes": 0, "extra": True})))
    clock.advance(0.2)
    assert factory.pin(5).state == 0.0  # blinking, in its dark half
    lights.show(led_plan(cw({"seat": 1, "strikes": 0, "extra": False})))
    seen = set()
    for _ in range(20):
        clock.advance(0.04)
        seen.add(factory.pin(5).state)
    assert seen == {1.0}


def test_bad_plan_is_rejected_and_changes_nothing(rig) -> None:
    clock, factory, lights = rig
    lights.show(led_plan(cw({"seat": 2, "strikes": 0, "extra": False})))
    before = pin_levels(factory)
    with pytest.raises(LedPlanError, match="seat 2: unknown pattern 'disco'"):
        lights.show({"seats": {"2": "disco"}, "status": "ok"})
    assert pin_levels(factory) == before and lights.plan["seats"]["2"] == "solid"


def test_seat_without_led_is_ignored_and_pin_clash_is_refused(rig) -> None:
    clock, factory, lights = rig
    lights.show({"seats": {"6": "solid", "1": "solid"}, "status": "ok"})
    assert lights.levels()["1"] == 1.0
    with pytest.raises(ValueError, match="GPIO5 is used by more than one LED"):
        GpioSeatLights({1: 5, 2: 5}, None, clock, pin_factory=MockFactory(pin_class=MockPWMPin))


def test_close_turns_off_and_frees_pins(rig) -> None:
    clock, factory, lights = rig
    lights.show({"seats": {"1": "solid"}, "status": "ok"})
    lights.close()
    with pytest.raises(RuntimeError, match="closed"):
        lights.show({"seats": {}, "status": "ok"})
    again = GpioSeatLights(SEAT_PINS, STATUS, clock, pin_factory=factory)
    again.close()
