"""The virtual table's sensors on the *real* sensor code (hardware_docs/virtual_table.md).

Why: ``gametable sim`` should exercise what ``gametable run`` runs on the Pi, not a shortcut
(docs/architecture.md: the virtual table "drives the beam pins through gpiozero's MockFactory from coin
geometry and feeds striker frames through a pty"). :class:`SimHardware` builds exactly the
:class:`~controller.hardware.Hardware` of the Pi on the virtual sensors of
:class:`sensors.virtual.sensor_rig.VirtualSensors`:

- a :class:`~sensors.virtual.virtual_base.VirtualBaseStation` pty as ``[striker] port`` (strikers
  ``s1``..``s6`` for seats 1..6 unless the config maps its own): a flick sends a protocol 1
  ``strike`` frame -> ``StrikerLink`` -> ``Hardware`` -> the daemon's ``strike`` input and
  ``observer.strike_started``;
- one gpiozero ``MockFactory(pin_class=MockPWMPin)`` for beams and LEDs: physics steps drive the
  beam pins with :func:`gametable_core.beam_geometry.drive` -> ``BeamBank`` (debounce on the clock) ->
  ``Hardware`` -> ``observer.beam_edge``; the daemon's LED plan lights ``MockPWMPin`` seat LEDs
  (the default table's LED pins when the config has none).

Real time only: the bank debounces on the clock (1 ms) and a 240 Hz physics step lasts 4.2 ms, so a
one-step pulse survives only while ``speed`` stays low; :data:`MAX_SPEED` (2: such a pulse lasts
2.1 ms, twice the debounce, with room for sleep jitter) is where ``gametable sim`` switches to the
direct path (strike and shot inputs submitted by the simulator itself).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from controller.default_table import default_beams, default_leds
from controller.referee_api import TableReferee
from gametable_core.clock import Clock
from gametable_core.config import BeamConfig, Config, GpioConfig
from sensors.virtual.sensor_rig import DEFAULT_STRIKERS, SimHardwareError, VirtualSensors

MAX_SPEED = 2.0  # above this the debounced beams cannot follow the physics in real time
WAIT_S = 3.0  # bound on waiting for real I/O (the pty, the reader thread, the debounce timer)


def direct_reason(speed: float, direct: bool = False) -> str | None:
    """Why ``gametable sim`` bypasses the sensor code (``None``: it uses it, the default)."""
    if direct:
        return "--direct"
    if speed > MAX_SPEED:
        return f"--speed {speed:g} > {MAX_SPEED:g}: real-time debounce cannot keep up"
    return None


def sim_config(config: Config, beams: Iterable[BeamConfig], port: str) -> Config:
    """The config the daemon and the hardware glue share on the virtual table."""
    leds = config.leds if (config.leds.seats or config.leds.status) else default_leds()
    return replace(
        config,
        striker=replace(config.striker, port=port),
        strikers=dict(config.strikers) or dict(DEFAULT_STRIKERS),
        beams=tuple(beams),
        leds=leds,
        gpio=GpioConfig("mock"),
    )


def _wait(predicate: Callable[[], bool], timeout: float) -> bool:
    """Bounded poll for real I/O (a reader thread, a timer thread); never for game logic."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True


class SimHardware:
    """A pty base station + MockFactory pins + the real ``Hardware`` glue, for one daemon."""

    def __init__(self, config: Config, clock: Clock, *, beams: Iterable[BeamConfig] | None = None,
                 hb_interval_s: float = 0.5) -> None:
        self.clock = clock
        layout = tuple(beams) if beams is not None else (config.beams or default_beams())
        self.sensors = VirtualSensors(clock, dict(config.strikers) or DEFAULT_STRIKERS, hb_interval_s=hb_interval_s)
        self.config = sim_config(config, layout, self.sensors.port)
        self.hardware: Any = None

    @property
    def base(self) -> Any:
        """The pty base station (:class:`sensors.virtual.virtual_base.VirtualBaseStation`)."""
        return self.sensors.base

    @property
    def factory(self) -> Any:
        """The mock pin factory, once started."""
        return self.sensors.factory

    @property
    def observer(self) -> Any:
        return self.hardware.observer if self.hardware is not None else None

    @property
    def lights(self) -> Any:
        return self.hardware.lights if self.hardware is not None else None

    @property
    def bank(self) -> Any:
        return self.hardware.beams if self.hardware is not None else None

    def start(self, daemon: TableReferee, on_facts: Callable[[Any], None], *, settle_s: float = 1.5) -> None:
        """Start the Pi's hardware layer on the virtual parts; facts go to ``on_facts``."""
        from controller.hardware import Hardware

        if self.hardware is not None:
            raise SimHardwareError("the virtual sensors are already started")
        factory = self.sensors.open_pins()
        # the physics flies every coin through the rail beams ("rails"); the virtual camera's frames
        # come through camera_frame, no camera device is opened
        self.hardware = Hardware(self.config, self.clock, daemon, pin_factory=factory,
                                 on_facts=on_facts, settle_s=settle_s, flight_proof="rails", capture=False)
        try:
            self.hardware.start()
        except Exception as exc:
            self.stop()
            raise SimHardwareError(f"virtual sensors: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
        # pyserial flushes the input when it opens the port: say hello only once the link listens
        if not _wait(lambda: self.hardware.link.is_open, WAIT_S):
            self.stop()
            raise SimHardwareError(f"virtual sensors: the striker link did not open {self.base.path}")
        self.base.start()
        references = frozenset(b.id for b in self.config.beams if b.reference)
        self.drive(references)  # a healthy table: the reference points see their fixed foil ...
        self.wait_beams(references)  # ... before the first strike opens

    def camera_frame(self, t: float, image: Any) -> None:
        """A virtual camera frame into the Pi's own camera observer (``--camera``)."""
        if self.hardware is not None:
            self.hardware.camera_frame(t, image)

    def drive(self, blocked_ids: Iterable[str]) -> None:
        """Coin geometry -> beam pin levels (the :class:`BeamBank` reads them like real receivers)."""
        self.sensors.drive(self.config.beams, blocked_ids)

    def strike(self, seat: int, g: float = 6.0) -> dict[str, Any]:
        """The seat's striker hits: a ``strike`` frame goes down the pty; returns its payload."""
        return self.sensors.strike(seat, g)

    def wait_beams(self, blocked: Iterable[str], timeout: float = WAIT_S) -> bool:
        """Wait until the debounced beams show ``blocked`` (the bank's 1 ms timer has run)."""
        want = frozenset(blocked)
        return self.bank is None or _wait(lambda: self.bank.blocked_ids() == want, timeout)

    def stop(self) -> None:
        """Stop the hardware layer and remove the pty; idempotent."""
        if self.hardware is not None:
            self.hardware.stop()
        self.sensors.close()
