"""One call builds the table a test says it needs: ``start_table(broker, journal, game=..., panel=True,
serial=True)`` (docs/testing.md).

Every part is the real one: the daemon in process on the test's Mosquitto (on the clock the test
hands in, a fake one for deadlines), a phone recording ``gametable/<table>/#``, the served panel,
and the striker link on a pty to a virtual base station with the Hardware on gpiozero mock pins.
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.daemon import Daemon
from gametable.broker import Broker
from gametable.testing.bots import new_game_input
from gametable.testing.panel import NEW_GAME, PIN, Http
from gametable.testing.recorder import Message, Recorder
from gametable_core.clock import Clock, SystemClock
from gametable_core.config import Config, parse

STRIKERS = {"s1": 1, "s2": 2}  # the virtual base station's strikers and their seats (``serial=True``)


def new_game(game: str | Mapping[str, Any], seed: int = 0) -> dict[str, Any]:
    """A ``new_game`` command with an id no run repeats: the one given, Coin War's three-player
    free-for-all for ``"coinwar"``, or a random lobby of that game (``bots.new_game_input``)."""
    if isinstance(game, Mapping):
        cmd = dict(game)
    elif game == "coinwar":
        cmd = dict(NEW_GAME)
    else:
        cmd = new_game_input(game, random.Random(seed))
    return {**cmd, "id": cmd.get("id") or f"rig-new-{uuid.uuid4().hex[:12]}"}


def table_config(broker: Broker, journal: Path | str, table_id: str = "t1", *, panel: bool = False,
                 striker_port: str | None = None, strikers: Mapping[str, int] | None = None,
                 extra: Mapping[str, Any] | None = None) -> Config:
    """The daemon's config on the test's broker; the panel on a free port with the rig's PIN;
    ``extra`` adds or replaces sections (``beams``, ``leds``, ``camera`` ...)."""
    raw: dict[str, Any] = {"table_id": table_id, "mqtt": {"host": broker.host, "port": broker.port},
                           "journal": {"path": str(journal)}}
    if panel:
        raw["panel"] = {"host": "127.0.0.1", "pin": PIN}
    if striker_port is not None:
        raw["striker"] = {"port": striker_port}
        raw["strikers"] = dict(STRIKERS if strikers is None else strikers)
    for key, value in (extra or {}).items():
        raw[key] = {**raw[key], **value} if isinstance(value, Mapping) and isinstance(raw.get(key), dict) else value
    return parse(raw)


@dataclass
class RigTable:
    """A running table. ``phone``, ``panel``, ``base``/``hardware``/``pins`` are None when not asked for."""

    table_id: str
    broker: Broker
    config: Config
    clock: Clock
    daemon: Daemon
    phone: Recorder | None = None
    panel: Any = None  # web_panel.server.PanelServer
    base: Any = None  # sensors.virtual.virtual_base.VirtualBaseStation
    hardware: Any = None  # controller.hardware.Hardware
    pins: Any = None  # gpiozero.pins.mock.MockFactory
    panel_clock: Any = None  # the panel's own clock when the test handed one in (``panel_kwargs``)
    _closers: list[Callable[[], None]] = field(default_factory=list, repr=False)

    @property
    def url(self) -> str:
        """The served panel's address."""
        assert self.panel is not None, "this table has no panel: ask for panel=True"
        return str(self.panel.url)

    def topic(self, suffix: str) -> str:
        return f"gametable/{self.table_id}/{suffix}"

    def command(self, cmd: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        """Send a command over MQTT as a phone does; its ``cmd/result``."""
        assert self.phone is not None, "this table has no phone: ask for phone=True"
        return self.phone.command(self.table_id, cmd, timeout)

    def wait_for(self, suffix: str, predicate: Callable[[Message], bool] = lambda m: True,
                 timeout: float = 10.0, start: int = 0) -> Message:
        """The phone's first message on ``gametable/<table>/<suffix>`` that ``predicate`` accepts."""
        assert self.phone is not None, "this table has no phone: ask for phone=True"
        return self.phone.wait_for(self.topic(suffix), predicate, timeout, start)

    def http(self) -> Http:
        """A new phone on the panel (its own cookies)."""
        assert self.panel is not None, "this table has no panel: ask for panel=True"
        return Http(self.panel.port)

    def wait(self, predicate: Callable[[], Any], timeout: float = 10.0, what: str = "condition") -> Any:
        """Poll real I/O (the panel's MQTT cache, a pty) until ``predicate`` holds, bounded."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            time.sleep(0.01)
        raise TimeoutError(f"timed out waiting for {what}")

    def stop(self) -> None:
        """Everything the table started, newest first."""
        while self._closers:
            self._closers.pop()()


def start_table(broker: Broker, journal: Path | str, *, table_id: str = "t1",
                game: str | Mapping[str, Any] | None = None, clock: Clock | None = None,
                phone: bool = True, panel: bool = False, panel_kwargs: Mapping[str, Any] | None = None,
                hardware: bool = False, serial: bool = False, heartbeat_s: float = 0.2,
                base: Any = None, strikers: Mapping[str, int] | None = None,
                config: Mapping[str, Any] | None = None) -> RigTable:
    """Start a table; ``stop()`` it at the end (the ``table`` fixture does).

    ``game``: a ``new_game`` command or a game's name, played once the table is up. ``panel_kwargs``
    go to ``PanelServer`` (``clock``, ``limits`` ...). ``hardware``: the Hardware (beams, LEDs of
    ``config``) on gpiozero mock pins, ``pins``. ``serial``: that too, and the striker link on a pty
    to a virtual base station, ``base`` (strikers ``s1``, ``s2`` for seats 1 and 2, a heartbeat
    each every ``heartbeat_s``). ``base``: the test's own base station instead (anything with the
    pty's ``path``, e.g. the firmware's own logic), started and closed by the test; ``strikers``: the
    config's striker-to-seat map.
    """
    clock = clock or SystemClock()
    own_base = serial and base is None
    if own_base:
        from sensors.virtual.virtual_base import VirtualBaseStation

        base = VirtualBaseStation(clock, list(strikers or STRIKERS), hb_interval_s=heartbeat_s)
    cfg = table_config(broker, journal, table_id, panel=panel, striker_port=base.path if base else None,
                       strikers=strikers, extra=config)
    daemon = Daemon(cfg, clock)
    rig = RigTable(table_id, broker, cfg, clock, daemon, base=base)
    try:
        if own_base:
            rig._closers.append(base.close)
        daemon.start()
        rig._closers.append(daemon.stop)
        if daemon.bridge is None or not daemon.bridge.wait_connected(10):
            raise RuntimeError("the daemon did not connect to the test's broker")
        if hardware or serial or base is not None:
            _start_hardware(rig, start_base=own_base)
        if panel:
            from web_panel.server import PanelServer

            rig.panel = PanelServer(cfg, port=0, **(panel_kwargs or {})).start()
            rig.panel_clock = (panel_kwargs or {}).get("clock")
            rig._closers.append(rig.panel.stop)
            if not rig.panel.link.connected.wait(10):
                raise RuntimeError("the panel did not connect to the test's broker")
        if phone:
            rig.phone = Recorder(broker.host, broker.port, f"gametable/{table_id}/#")
            rig._closers.append(rig.phone.close)
            # the daemon says "online" once subscribed to cmd: from here on no command is missed
            rig.wait_for("status", lambda m: m.payload == b"online")
        if game is not None:
            cmd = new_game(game)
            result = rig.command(cmd) if rig.phone is not None else daemon.submit(cmd, source="host")
            if not result.get("ok"):
                raise RuntimeError(f"the table refused its new game: {result}")
    except BaseException:
        rig.stop()
        raise
    return rig


def _start_hardware(rig: RigTable, start_base: bool) -> None:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from controller.hardware import Hardware

    rig.pins = MockFactory(pin_class=MockPWMPin)
    rig.hardware = Hardware(rig.config, rig.clock, rig.daemon, pin_factory=rig.pins)
    rig.hardware.start()
    rig._closers.append(rig.hardware.stop)
    if start_base:
        rig.base.start()


def start_stack(broker: Broker, journal: str, **panel_kwargs: Any) -> RigTable:
    """The daemon and the served panel without a phone: what the panel's tests and benchmarks
    stand on (``panel_kwargs`` go to ``PanelServer``)."""
    return start_table(broker, journal, phone=False, panel=True, panel_kwargs=panel_kwargs)
