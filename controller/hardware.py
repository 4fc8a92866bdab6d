"""The real table's inputs and outputs, wired to the daemon (``gametable run``).

One part per job, each in its own module; this one only builds and starts them:

- beams (gpiozero ``BeamBank``) -> :class:`~controller.beam_watch.BeamWatch` (walk test, dead and
  stuck beams) -> the games' table adapters;
- striker frames (serial ``StrikerLink``) -> :class:`~controller.striker_events.StrikerEvents`
  (strikes to the adapters, faults to the waiting text), the host's pairing and tuning ->
  :class:`~controller.striker_pairing.StrikerPairing`;
- camera frames (``[camera]``) -> :class:`~controller.camera_watch.CameraWatch` -> the adapters;
- the daemon's LED plan -> seat LEDs.

Which physical observation becomes which input is each game's own business: the games that play
on the table declare a table adapter (``controller/table_adapter.py``); this module knows no game.
Diagnostics go to ``gametable/T/sensors/…`` and, when they stop the game, to the status LED.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from controller.beam_watch import BeamWatch
from controller.camera_watch import CameraWatch
from controller.games import registry
from controller.pairing import StrikerTuning
from controller.referee_api import TableReferee
from controller.striker_events import StrikerEvents
from controller.striker_pairing import StrikerPairing
from controller.table_adapter import TableAdapter, TableParts
from controller.waiting import WaitingReasons
from gametable_core.clock import Clock
from gametable_core.config import Config
from gametable_core.platform import BeamEdge

if TYPE_CHECKING:  # imported where started: gpiozero and pyserial load only on a table that has the part
    from sensors.beams import BeamBank
    from sensors.leds import GpioSeatLights
    from sensors.striker_link import StrikerLink

log = logging.getLogger("gametable.hardware")


def table_adapters(parts: TableParts) -> list[TableAdapter]:
    """The adapters of every game the table offers that declares one (``table_adapter``)."""
    out: list[TableAdapter] = []
    for _name, game in sorted(registry().items()):
        make = getattr(game, "table_adapter", None)
        if callable(make):
            adapter = make(parts)
            if adapter is not None:  # a game may see nothing it can use on this table's sensors
                out.append(adapter)
    return out


class Hardware:
    """Owns the beam bank, the striker link, the camera, the games' adapters and the LEDs of one table."""

    def __init__(self, config: Config, clock: Clock, daemon: TableReferee, *, pin_factory: Any = None,
                 on_facts: Callable[[Any], None] | None = None, settle_s: float = 1.5,
                 flight_proof: str = "none", capture: bool = True) -> None:
        self.config = config
        self._capture = capture  # open the configured camera (False: the caller feeds camera_frame)
        self.clock = clock
        self.daemon = daemon
        self._pin_factory = pin_factory
        # "rails" only where every flight crosses a rail beam (the sim); on_facts: the sim takes the
        # facts itself (None: the adapters submit them to the daemon)
        self.parts = TableParts(config, clock, daemon, on_facts=on_facts, settle_s=settle_s,
                                flight_proof=flight_proof)
        self.adapters: list[TableAdapter] = []
        self.beams: BeamBank | None = None
        self.link: StrikerLink | None = None
        self.lights: GpioSeatLights | None = None
        self.beam_watch: BeamWatch | None = None
        self.camera: CameraWatch | None = None
        self.waiting = WaitingReasons(daemon)
        # which striker is which seat: the config's [strikers] with the host's pairings over it
        self.pairing = StrikerPairing(config, clock, daemon, self.waiting)

    @property
    def strikers(self) -> dict[str, int]:
        return self.pairing.strikers

    @property
    def tuning(self) -> StrikerTuning:
        return self.pairing.tuning

    @property
    def observer(self) -> Any:
        """The first adapter's observer (the virtual table reads its settle time and whether it is busy)."""
        observers = (getattr(adapter, "observer", None) for adapter in self.adapters)
        return next((o for o in observers if o is not None), None)

    def start(self) -> None:
        from sensors.beams import BeamBank
        from sensors.gpio import make_pin_factory
        from sensors.leds import GpioSeatLights
        from sensors.striker_link import StrikerLink

        factory = self._pin_factory or make_pin_factory(self.config.gpio.pin_factory)
        if self.config.leds.seats or self.config.leds.status:
            self.lights = GpioSeatLights.from_config(self.config.leds, self.clock, pin_factory=factory)
            self.daemon.use_lights(self.lights)
        self.adapters = table_adapters(self.parts)
        if self.config.beams:
            self.beam_watch = BeamWatch(self.config.beams, self.daemon, self.adapters, self.waiting)
            self.beams = BeamBank(self.config.beams, self.clock, self._on_beam_edge, pin_factory=factory,
                                  on_stuck=self.beam_watch.on_stuck)
            self.start_walk()
        if self.config.camera is not None:
            self.camera = CameraWatch(self.config.camera, self.clock, self.adapters, self.daemon)
            self.camera.serve_commands()
            if self._capture:
                self.camera.start()
        s = self.config.striker
        if s.port:
            events = StrikerEvents(self.daemon, self.pairing, self.waiting, self.adapters, self.clock.now)
            # only the strikers paired in [strikers] are tracked: another table's, or a flood of
            # made-up ids, is dropped before it costs memory or MQTT traffic
            self.link = StrikerLink(s.port, s.baud, self.clock, events.on_frame, events.on_event,
                                    silence_s=s.silence_s, low_battery_v=s.low_battery_v,
                                    allowed=self.strikers)
            self.pairing.attach(self.link)
            self.link.start()

    def _on_beam_edge(self, edge: BeamEdge) -> None:
        if self.beam_watch is not None:
            self.beam_watch.on_edge(edge)

    def camera_frame(self, t: float, image: Any) -> None:
        """One camera frame, in memory (CAM-6): the capture thread's door, and the virtual camera's."""
        if self.camera is not None:
            self.camera.frame(t, image)

    def start_walk(self) -> None:
        """(Re)start the walk test: every beam must go blocked and clear once (``sensors/walk``)."""
        if self.beam_watch is not None:
            self.beam_watch.start_walk(self.beams.blocked_ids() if self.beams is not None else ())

    def stop(self) -> None:
        parts: list[Any] = [self.link, self.camera, self.beams, *self.adapters, self.lights]
        for part in parts:
            if part is None:
                continue
            try:
                part.stop() if hasattr(part, "stop") else part.close()
            except Exception:
                log.exception("closing %s failed", type(part).__name__)
