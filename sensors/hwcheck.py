"""Bring-up check for the table's beams and LEDs: ``python -m sensors.hwcheck --config FILE``.

Why: after wiring, each beam and LED must be checked by hand before a game. This prints every
debounced beam edge as it happens and walks the LEDs through their patterns, naming each step so
the person at the table knows what they should see. The walk test is done with a real coin (not a
finger: a finger blocks 940 nm, a translucent coin may not): lay it on each beam for ``COIN_HOLD_S``
and lift it (hardware_docs/beams_and_leds.md). Exit status 1 if any beam ends stuck blocked or the
walk test is incomplete: a beam a coin does not hold blocked would let a dead coin go unseen.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any, TextIO

from gpiozero import GPIOZeroError

from gametable_core.clock import Clock, SystemClock
from gametable_core.config import Config, ConfigError, load
from gametable_core.platform import BeamEdge
from sensors.beam_health import COIN_HOLD_S, BeamWalk
from sensors.beams import BeamBank
from sensors.gpio import PinFactoryError, make_pin_factory
from sensors.leds import GpioSeatLights

STEP_S = 1.5


def led_steps(seats: list[int]) -> list[tuple[str, dict[str, Any]]]:
    """The demo sequence: each seat alone (finds swapped wires), then every pattern."""
    keys = [str(s) for s in seats]
    steps = [(f"seat {k} alone solid, status green", {"seats": {k: "solid"}, "status": "ok"}) for k in keys]
    for pattern, status, words in (
        ("blink", "ok", "all seats fast blink (extra turn), status green"),
        ("pulse", "waiting", "all seats pulse (answer needed), status amber"),
        ("chase", "ok", "seats chase in order (winners), status green"),
        ("fault", "fault", "all seats slow blink together (fault), status red"),
        ("dim", "ok", "all seats dim, status green"),
    ):
        steps.append((words, {"seats": dict.fromkeys(keys, pattern), "status": status}))
    return steps


def check(
    cfg: Config, clock: Clock, pin_factory: Any, out: TextIO, seconds: float, *, leds: bool = True
) -> int:
    """Run the check for ``seconds`` of ``clock`` time; returns the exit status."""
    start = clock.now()

    def say(text: str) -> None:
        out.write(f"{clock.now() - start:8.3f} s  {text}\n")
        out.flush()

    walk = BeamWalk(cfg.beams, hold_s=COIN_HOLD_S)

    def on_edge(edge: BeamEdge) -> None:
        say(f"beam {edge.beam_id} {'blocked' if edge.blocked else 'clear'} (edge at +{edge.t - start:.4f} s)")
        status = walk.on_edge(edge.beam_id, edge.blocked, edge.t)
        if status is not None:
            say(f"walk test: {status['message']}")

    bank = BeamBank(cfg.beams, clock, on_edge, pin_factory=pin_factory)
    lights: GpioSeatLights | None = None
    cancel: list[Callable[[], None]] = []
    try:
        if not cfg.beams:
            say("no beams configured ([[beams]] in the config)")
        else:
            say(f"walk test: lay a real coin on each beam for {COIN_HOLD_S:g} s, then lift it")
        for bid in bank.beam_ids:
            pin = next(b.pin for b in cfg.beams if b.id == bid)
            say(f"beam {bid} on GPIO{pin}: {'blocked' if bank.blocked(bid) else 'clear'}")
        if leds and (cfg.leds.seats or cfg.leds.status):
            lights = GpioSeatLights.from_config(cfg.leds, clock, pin_factory=pin_factory)
            steps = led_steps(sorted(cfg.leds.seats))
            index = [0]

            def next_step() -> None:
                words, plan = steps[index[0] % len(steps)]
                index[0] += 1
                assert lights is not None
                lights.show(plan)
                say(f"LEDs: {words}")
                cancel[:] = [clock.call_later(STEP_S, next_step)]

            next_step()
        clock.sleep(seconds)
        return _verdict(bank, walk, say)
    finally:
        for c in cancel:
            c()
        if lights is not None:
            lights.close()
        bank.close()


def _verdict(bank: BeamBank, walk: BeamWalk, say: Callable[[str], None]) -> int:
    """The closing lines and the exit status: 1 for a stuck beam or an incomplete walk test."""
    stuck = bank.diagnostics()
    for line in stuck:
        say(line)
    if walk.beams:
        # an unplugged receiver never toggles, a translucent coin only flickers (beams_and_leds.md)
        say(f"walk test: {walk.status()['message']}")
        if not walk.complete:
            say("FAILED: walk test incomplete — every beam must be held blocked by a real coin")
    say(f"done: {len(bank.beam_ids)} beam(s), {len(stuck)} stuck")
    return 1 if stuck or not walk.complete else 0


def main(argv: list[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(prog="python -m sensors.hwcheck", description=__doc__.splitlines()[0])
    parser.add_argument("--config", help="TOML config file (beams, [leds], [gpio] pin_factory)")
    parser.add_argument("--seconds", type=float, default=90.0, help="how long to watch (default 90: about 5 s a beam)")
    parser.add_argument("--no-leds", action="store_true", help="only watch the beams")
    args = parser.parse_args(argv)
    if not args.seconds >= 0:
        print(f"hwcheck: --seconds must be >= 0, got {args.seconds}", file=sys.stderr)
        return 2
    try:
        cfg = load(args.config)
        factory = make_pin_factory(cfg.gpio.pin_factory)
    except (ConfigError, PinFactoryError) as exc:
        print(f"hwcheck: {exc}", file=sys.stderr)
        return 2
    try:
        return check(cfg, SystemClock(), factory, out, args.seconds, leds=not args.no_leds)
    except GPIOZeroError as exc:  # e.g. a beam and an LED on the same pin
        print(f"hwcheck: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
