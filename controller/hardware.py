"""The real table's inputs and outputs, wired to the daemon (``gametable run``).

Beams (gpiozero) → observer → ``shot`` facts; striker frames (serial) → ``strike`` inputs for the
seat whose turn it is (a strike from another seat is reported, not applied); the daemon's LED plan
→ seat LEDs. Diagnostics (stuck beams, silent strikers, low batteries, port lost) go to
``gametable/T/sensors/…`` and, when they stop the game, to the status LED.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from controller.games.coinwar.sensing import Observer, out_of_turn, strike_input
from controller.referee_api import Referee, TableReferee
from core.clock import Clock
from core.config import Config
from core.platform import BeamSource, SeatLights, StrikerSource

log = logging.getLogger("gametable.hardware")

# Striker events that mean the table cannot see strikes right now: the game waits (the status LED
# turns amber and the panel says why) instead of guessing.
WAITING_EVENTS = {"port_lost", "port_unavailable", "silent", "low_battery"}
# a striker that said "going to sleep" is idle by design, not a fault (#8): it clears its "silent"
CLEARING_EVENTS = {"port_reopened", "port_opened", "back", "battery_ok", "asleep", "awake"}


class Hardware:
    """Owns the beam bank, the striker link, the observer and the LEDs of one table."""

    def __init__(self, config: Config, clock: Clock, daemon: TableReferee, *, pin_factory: Any = None,
                 on_facts: Callable[[Any], None] | None = None, settle_s: float = 1.5,
                 flight_proof: str = "none") -> None:
        self.config = config
        self._flight_proof = flight_proof  # "rails" only where every flight crosses a rail beam (sim)
        self._on_facts = on_facts  # None: the observer submits its shot facts to the daemon
        self._settle_s = settle_s
        self.clock = clock
        self.daemon = daemon
        self._pin_factory = pin_factory
        # the real platform's parts, behind the same interfaces as the virtual table's (core.platform)
        self.beams: BeamSource | None = None
        self.link: StrikerSource | None = None
        self.lights: SeatLights | None = None
        self.observer: Any = None
        self.walk: Any = None  # the beam walk test before play (#5)
        self.dead_watch: Any = None  # beams that never block while others do (#5)
        self._waiting: dict[str, str] = {}

    def start(self) -> None:
        from sensors.gpio import make_pin_factory
        from sensors.leds import GpioSeatLights

        factory = self._pin_factory or make_pin_factory(self.config.gpio.pin_factory)
        if self.config.leds.seats or self.config.leds.status:
            self.lights = GpioSeatLights.from_config(self.config.leds, self.clock, pin_factory=factory)
            self.daemon.use_lights(self.lights)
        if self.config.beams:  # no beams, no observer: the strike's facts come from the phones
            self.observer = make_observer(self.config, self.clock, self.daemon, on_facts=self._on_facts,
                                          settle_s=self._settle_s, flight_proof=self._flight_proof)
            from sensors.beams import BeamBank

            self.beams = BeamBank(self.config.beams, self.clock, self._on_beam_edge, pin_factory=factory,
                                  on_stuck=self._on_stuck)
            self.start_walk()
        s = self.config.striker
        if s.port:
            from sensors.striker_link import StrikerLink

            # only the strikers paired in [strikers] are tracked (#7): another table's, or a flood
            # of made-up ids, is dropped before it costs memory or MQTT traffic
            self.link = StrikerLink(s.port, s.baud, self.clock, self._on_frame, self._on_striker_event,
                                    silence_s=s.silence_s, low_battery_v=s.low_battery_v,
                                    allowed=self.config.strikers)
            self.link.start()

    def stop(self) -> None:
        for part in (self.link, self.beams, self.observer, self.lights):
            if part is None:
                continue
            try:
                part.stop() if hasattr(part, "stop") else part.close()
            except Exception:
                log.exception("closing %s failed", type(part).__name__)

    # --- beams -------------------------------------------------------------------------------
    def start_walk(self) -> None:
        """(Re)start the walk test: every beam must go blocked and clear once; its progress goes to
        ``sensors/walk`` (#5). Also (re)starts the running dead-beam watch."""
        from sensors.beam_health import BeamWalk, DeadBeamWatch

        self.walk = BeamWalk(self.config.beams, self.beams.blocked_ids() if self.beams is not None else ())
        roles = self.observer.roles if self.observer is not None else None
        groups = {}
        if roles is not None:
            groups = {**dict.fromkeys(roles.surface, "point"), **dict.fromkeys(roles.rail, "segment"),
                      **dict.fromkeys(roles.mouths, "mouth")}
        self.dead_watch = DeadBeamWatch(self.config.beams, groups)
        self.daemon.diagnostic("walk", self.walk.status())

    def _on_beam_edge(self, edge: Any) -> None:
        self.daemon.diagnostic("beams", edge.as_event())
        if self.walk is not None and not self.walk.complete:
            status = self.walk.on_edge(edge.beam_id, edge.blocked)
            if status is not None:
                self.daemon.diagnostic("walk", status)
        if self.dead_watch is not None:
            for report in self.dead_watch.on_edge(edge.beam_id, edge.blocked):
                log.warning(report["message"])
                self.daemon.diagnostic("beams", report)
        if self.observer is not None:
            self.observer.beam_edge(edge.beam_id, edge.blocked, edge.t)

    def _on_stuck(self, beam_id: str, since: float) -> None:
        message = f"beam {beam_id} stuck blocked since {since:.1f}"
        log.warning(message)
        self.daemon.diagnostic("beams", {"event": "stuck", "beam": beam_id, "message": message})

    # --- strikers ----------------------------------------------------------------------------
    def _on_frame(self, frame: dict[str, Any]) -> None:
        self.daemon.diagnostic("striker", frame)
        inp = strike_input(frame, self.config.strikers)
        if inp is None:
            return
        report = out_of_turn(inp, frame, self.daemon.table_view())
        if report is not None:
            self.daemon.diagnostic("striker", report)
            return
        result = self.daemon.submit(inp, source="striker")
        if result["ok"] and self.observer is not None:
            self.observer.strike_started(inp["seat"], self.clock.now())

    def _on_striker_event(self, event: dict[str, Any]) -> None:
        self.daemon.diagnostic("striker", event)
        name = event.get("event")
        key = str(event.get("id") or event.get("striker") or "port")
        if key not in ("port", "base") and key not in self.config.strikers:
            return  # never let an unpaired id into the retained "waiting" text
        if name in WAITING_EVENTS:
            self._waiting[key] = event.get("message", name)
        elif name in CLEARING_EVENTS:
            self._waiting.pop(key, None)
            if name in ("port_reopened", "port_opened"):
                self._waiting.pop("port", None)
        self.daemon.set_waiting("; ".join(self._waiting.values()) or None)


def make_observer(config: Config, clock: Clock, daemon: Referee, *, on_facts: Callable[[Any], None] | None = None,
                  settle_s: float = 1.5, flight_proof: str = "none") -> Observer:
    """The observer turning beam edges into shot facts for ``daemon``."""
    return Observer.for_daemon(config, clock, daemon, settle_s=settle_s, on_facts=on_facts,
                               flight_proof=flight_proof)
