"""The bring-up check: beams and LEDs from a config, on mock pins."""

from __future__ import annotations

import io

from gpiozero.pins.mock import MockFactory, MockPWMPin

from gametable_core.clock import FakeClock
from gametable_core.config import parse
from sensors.hwcheck import check, main

CFG = {
    "gpio": {"pin_factory": "mock"},
    "beams": [
        {"id": "mouth", "pin": 17, "kind": "segment", "a": [-50, 0], "b": [50, 0]},
        {"id": "goal", "pin": 27, "kind": "point", "at": [0, 40]},
    ],
    "leds": {"seats": {"1": 18, "2": 20}, "status": [12, 13, 19]},
}


def run(seconds: float, script) -> tuple[int, str, MockFactory]:
    clock, factory, out = FakeClock(), MockFactory(pin_class=MockPWMPin), io.StringIO()
    for at, action in script:
        clock.call_later(at, lambda a=action: a(factory))
    code = check(parse(CFG), clock, factory, out, seconds)
    return code, out.getvalue(), factory


def _lay_coin(pin: int, at: float, hold: float) -> list:
    """A real coin laid on the beam at ``at`` and lifted ``hold`` seconds later."""
    return [(at, lambda f: f.pin(pin).drive_low()), (at + hold, lambda f: f.pin(pin).drive_high())]


def test_prints_each_beam_edge_and_walks_the_leds() -> None:
    code, text, _ = run(5.0, [(0.5, lambda f: f.pin(17).drive_low()), (0.52, lambda f: f.pin(17).drive_high())])
    assert code == 1  # the goal beam never saw a coin, the mouth only a 20 ms swipe
    assert "beam mouth on GPIO17: clear" in text and "beam goal on GPIO27: clear" in text
    assert "beam mouth blocked (edge at +0.5000 s)" in text
    assert "beam mouth clear (edge at +0.5200 s)" in text
    assert "LEDs: seat 1 alone solid, status green" in text
    assert "LEDs: seat 2 alone solid, status green" in text
    assert "LEDs: all seats fast blink (extra turn), status green" in text
    assert text.rstrip().endswith("done: 2 beam(s), 0 stuck")


def test_a_coin_held_on_every_beam_passes_the_walk_test() -> None:
    code, text, _ = run(6.0, _lay_coin(17, 0.5, 1.2) + _lay_coin(27, 2.5, 1.1))
    assert code == 0
    assert "walk test: lay a real coin on each beam for 1 s, then lift it" in text
    assert "walk test: every beam toggled" in text and "FAILED" not in text


def test_an_incomplete_walk_test_fails_loudly_with_the_missing_beam() -> None:
    """hwcheck used to exit 0 with beams never seen: a dead goal point would hide a dead coin."""
    code, text, _ = run(4.0, _lay_coin(17, 0.5, 1.2))
    assert code == 1
    assert "walk test: not seen yet: goal (GPIO27)" in text
    assert "FAILED: walk test incomplete" in text


def test_a_coin_that_only_flickers_the_beam_fails_the_walk_test() -> None:
    """CW-4.1 / beam_layout.md "The coin": an IR-translucent coin trips the receiver only now and then."""
    flicker = _lay_coin(27, 0.5, 0.3) + _lay_coin(27, 1.0, 0.3) + _lay_coin(27, 1.5, 0.3)
    code, text, _ = run(4.0, _lay_coin(17, 2.0, 1.2) + flicker)
    assert code == 1
    assert "goal (GPIO27) blocked 3 time(s) but never held 1 s" in text
    assert "IR-translucent coin" in text


def test_leds_really_light_during_the_walk() -> None:
    clock, factory = FakeClock(), MockFactory(pin_class=MockPWMPin)
    seen = []
    clock.call_later(0.1, lambda: seen.append((factory.pin(18).state, factory.pin(20).state, factory.pin(13).state)))
    clock.call_later(1.6, lambda: seen.append((factory.pin(18).state, factory.pin(20).state, factory.pin(13).state)))
    check(parse(CFG), clock, factory, io.StringIO(), 2.0)
    assert seen == [(1.0, 0.0, 1.0), (0.0, 1.0, 1.0)]


def test_stuck_beam_fails_the_check() -> None:
    code, text, _ = run(6.0, [(0.1, lambda f: f.pin(27).drive_low())])
    assert code == 1
    assert "beam goal (GPIO27) stuck blocked for 5.9 s" in text


def test_bad_config_is_one_line_and_exit_2(tmp_path, capsys) -> None:
    bad = tmp_path / "t.toml"
    bad.write_text('[gpio]\npin_factory = "mock"\n[[beams]]\nid = "x"\npin = 99\n')
    assert main(["--config", str(bad), "--seconds", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("hwcheck: config error: beams[0].pin") and "\n" not in err


def test_beam_and_led_on_one_pin_is_one_line_and_exit_2(tmp_path, capsys) -> None:
    cfg = tmp_path / "t.toml"
    cfg.write_text('[gpio]\npin_factory = "mock"\n[[beams]]\nid = "x"\npin = 5\nkind = "point"\nat = [0, 0]\n'
                   '[leds]\nseats = { "1" = 5 }\n')
    assert main(["--config", str(cfg), "--seconds", "0"]) == 2
    err = capsys.readouterr().err.strip()
    # refused by the config check before any pin is opened
    assert "leds.seats.1: GPIO5 is already used by beam 'x'" in err and "\n" not in err


def test_real_clock_run_with_mock_pins(tmp_path) -> None:
    cfg = tmp_path / "t.toml"
    cfg.write_text('[gpio]\npin_factory = "mock"\n[[beams]]\nid = "x"\npin = 5\nkind = "point"\nat = [0, 0]\n')
    out = io.StringIO()
    assert main(["--config", str(cfg), "--seconds", "0.05", "--no-leds"], out=out) == 1  # nothing walked
    assert "beam x on GPIO5: clear" in out.getvalue()
    assert "FAILED: walk test incomplete" in out.getvalue()
