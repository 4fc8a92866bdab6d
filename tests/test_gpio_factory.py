"""Choosing the pin factory from config, and the real-clock path of BeamBank on it."""

from __future__ import annotations

import threading
import time

import pytest
from gpiozero import PWMLED

from gametable_core.clock import SystemClock
from gametable_core.config import BeamConfig
from sensors.beams import BeamBank
from sensors.gpio import PinFactoryError, make_pin_factory


def test_mock_factory_serves_beams_and_pwm_leds_on_one_set_of_pins() -> None:
    factory = make_pin_factory("mock")
    led = PWMLED(5, pin_factory=factory)
    led.value = 0.5
    assert factory.pin(5).state == 0.5
    led.close()


def test_unknown_factory_is_a_one_line_error() -> None:
    with pytest.raises(PinFactoryError, match="unknown factory 'gpiod' \\(expected one of: mock, lgpio"):
        make_pin_factory("gpiod")


def test_lgpio_off_a_pi_says_what_is_missing() -> None:
    with pytest.raises(PinFactoryError) as info:
        make_pin_factory("lgpio")
    assert "gpio.pin_factory = 'lgpio'" in str(info.value) and "\n" not in str(info.value)


def test_bank_on_system_clock_delivers_a_3ms_pulse_with_real_timers() -> None:
    factory = make_pin_factory("mock")
    edges, done = [], threading.Event()

    def on_edge(e) -> None:
        edges.append(e)
        if len(edges) == 2:
            done.set()

    bank = BeamBank([BeamConfig("g1", 17, "point", at=(0.0, 0.0))], SystemClock(), on_edge, pin_factory=factory)
    try:
        pin = factory.pin(17)
        pin.drive_low()  # blocked (active low)
        end = time.monotonic() + 0.003
        while time.monotonic() < end:  # hold the pulse for 3 ms of real time
            pass
        pin.drive_high()
        assert done.wait(2.0), f"edges seen: {edges}"
        assert [e.blocked for e in edges] == [True, False]
        assert edges[1].t - edges[0].t >= 0.003
    finally:
        bank.close()
