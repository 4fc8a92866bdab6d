"""The virtual table's two platforms: how a flick reaches the daemon.

Why: :class:`gametable.sim_table.VirtualTable` plays the physics and the game; *how* a strike and the
beams reach the referee is the platform's job, chosen once (``run_sim`` via
:func:`gametable.sim_rig.direct_reason`), not forked on inside the table:

- :class:`SensorPlatform`: the table's own sensor code (:class:`~gametable.sim_rig.SimHardware`): a
  flick is a striker frame through a pty, the beams are MockFactory pins read by the Pi's
  ``BeamBank``/``Hardware``/observer;
- :class:`TruthPlatform`: the ground-truth fast path (headless runs, ``--direct``, high
  ``--speed``): the simulator submits ``strike`` itself and the virtual beams (and the virtual
  camera's frames, ``--camera``) feed the games' table adapters of its own on the injected clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any, Protocol

from controller.hardware import table_adapters
from controller.referee_api import TableReferee
from controller.table_adapter import TableAdapter, TableParts
from gametable.sim_rig import SimHardware
from gametable_core.clock import Clock
from gametable_core.config import BeamConfig, CameraConfig, Config
from sensors.virtual.physics import TablePhysics

WAIT_STRIKE_S = 3.0  # bound on a strike frame's trip through the pty, the link thread and the daemon


class SimError(ValueError):
    """A flick or placement the virtual table refuses (one readable line)."""


class TableSide(Protocol):
    """What a platform may use of the virtual table (:class:`gametable.sim_table.VirtualTable`) during a strike."""

    physics: TablePhysics
    log: list[dict[str, Any]]

    def submit(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """Submit one input to the daemon as the simulator; its result."""

    def strikes_seen(self) -> int:
        """How many ``strike`` inputs the daemon has accepted so far."""

    def await_strike(self, before: int, timeout_s: float) -> dict[str, Any] | None:
        """The latest accepted ``strike`` once more than ``before`` were seen; None after ``timeout_s``."""


class TablePlatform(Protocol):
    """What :class:`~gametable.sim_table.VirtualTable` needs from the way its strikes and beams reach the daemon."""

    @property
    def beams(self) -> tuple[BeamConfig, ...]:
        """The beam layout the observer watches."""

    @property
    def observer(self) -> Any:
        """The observer whose facts the table receives (``flush``, ``settle_s``, ``busy``)."""

    @property
    def drive(self) -> Callable[[frozenset[str]], None] | None:
        """Beam levels -> pins; None: the virtual beams' edges go to ``observer.on_edge``."""

    @property
    def checks_truth(self) -> bool:
        """Are the observer's facts compared with the truth (``--truth`` on the sensors)?"""

    @property
    def questions_to_phones(self) -> bool:
        """With ``--ask``, do questions go to the phones (only bot seats answered from the truth)?"""

    def camera_frame(self, t: float, image: Any) -> None:
        """A frame of the virtual camera into the table's camera observer (``--camera``)."""

    def start(self, daemon: TableReferee, on_facts: Callable[[Any], None], settle_s: float) -> None:
        """Start observing for ``daemon``; the observer's facts go to ``on_facts``."""

    def strike(self, table: TableSide, seat: int, coin: str, speed_mm_s: float, st: dict[str, Any]) -> dict[str, Any]:
        """The seat strikes ``coin``: the daemon's ``strike`` input and the observer's open strike."""

    def settled(self, blocked: frozenset[str]) -> bool:
        """Wait (bounded) until the beams as the observer sees them show ``blocked``."""

    def stop(self) -> None:
        """Release what :meth:`start` took."""


class TruthPlatform:
    """The ground-truth platform: inputs submitted from the physics, beams into the table's own observer."""

    checks_truth = False
    questions_to_phones = False
    drive: Callable[[frozenset[str]], None] | None = None

    def __init__(self, beams: Sequence[BeamConfig], clock: Clock,
                 drive: Callable[[frozenset[str]], None] | None = None, camera: CameraConfig | None = None) -> None:
        self.beams = tuple(beams)
        self.clock = clock
        self.drive = drive  # e.g. gpio pins of a caller's own (the on_blocked seam)
        self.camera = camera
        self.adapters: list[TableAdapter] = []

    @property
    def observer(self) -> Any:
        observers = (getattr(adapter, "observer", None) for adapter in self.adapters)
        return next((o for o in observers if o is not None), None)

    def start(self, daemon: TableReferee, on_facts: Callable[[Any], None], settle_s: float) -> None:
        config = replace(Config(), beams=self.beams, camera=self.camera)
        # the physics flies every coin through the rail beams: "rails" proves a flight-free strike
        self.adapters = table_adapters(TableParts(config, self.clock, daemon, on_facts=on_facts, settle_s=settle_s,
                                                  flight_proof="rails"))

    def strike(self, table: TableSide, seat: int, coin: str, speed_mm_s: float, st: dict[str, Any]) -> dict[str, Any]:
        result = table.submit({"type": "strike", "seat": seat})
        if result.get("ok"):
            # the flicked coin (football: any of the team's): told the adapters, not the daemon
            for adapter in self.adapters:
                adapter.input_accepted({"type": "strike", "seat": seat, "coin": coin,
                                        "coins_on_table": table.physics.coins()}, self.clock.now())
        return result

    def camera_frame(self, t: float, image: Any) -> None:
        for adapter in self.adapters:
            adapter.camera_frame(t, image)

    def settled(self, blocked: frozenset[str]) -> bool:
        return True

    def stop(self) -> None:
        """Nothing to release."""


class SensorPlatform:
    """The sensor-path platform: the Pi's own code on a pty striker and MockFactory beam pins."""

    checks_truth = True

    questions_to_phones = True  # as on a real table: with --ask the questions go to the phones

    def __init__(self, rig: SimHardware) -> None:
        self.rig = rig
        self.beams = tuple(rig.config.beams)
        self.drive: Callable[[frozenset[str]], None] | None = rig.drive

    @property
    def observer(self) -> Any:
        return self.rig.observer

    def start(self, daemon: TableReferee, on_facts: Callable[[Any], None], settle_s: float) -> None:
        self.rig.start(daemon, on_facts, settle_s=settle_s)

    def camera_frame(self, t: float, image: Any) -> None:
        self.rig.camera_frame(t, image)

    def strike(self, table: TableSide, seat: int, coin: str, speed_mm_s: float, st: dict[str, Any]) -> dict[str, Any]:
        """The seat's striker hits: frame -> pty -> StrikerLink -> Hardware -> daemon ``strike``.

        Waits (bounded: real I/O and threads) until the daemon accepted it and the observer opened
        the strike, so no beam edge of this strike can reach the observer before it."""
        if st.get("questions"):
            raise SimError("answer the open question first (CW-8): the table does not take a strike now")
        if st.get("pending_placements"):
            raise SimError("a coin waits to be placed (CW-6.2): the table does not take a strike now")
        before = table.strikes_seen()
        g = min(1000.0, 2.0 + speed_mm_s / 250.0)  # a harder flick, a higher peak on the accelerometer
        frame = self.rig.strike(seat, g=g)
        accepted = table.await_strike(before, WAIT_STRIKE_S)
        if accepted is None:
            return {"id": None, "ok": False, "error": f"the strike frame of striker {frame['id']} (seat {seat}) "
                    f"was not accepted by the daemon within {WAIT_STRIKE_S:.0f} s"}
        table.log.append({"cmd": {**accepted, "via": f"striker {frame['id']}"}, "result": {"ok": True}})
        deadline = time.monotonic() + WAIT_STRIKE_S
        while not self.observer.busy and time.monotonic() < deadline:  # Hardware opens it after submit
            time.sleep(0.001)
        return {"id": accepted.get("id"), "ok": True}

    def settled(self, blocked: frozenset[str]) -> bool:
        return self.rig.wait_beams(blocked)

    def stop(self) -> None:
        self.rig.stop()


def platform_for(rig: SimHardware | None, beams: Iterable[BeamConfig], clock: Clock,
                 drive: Callable[[frozenset[str]], None] | None = None,
                 camera: CameraConfig | None = None) -> TablePlatform:
    """The sensor platform on ``rig``, or the ground-truth one when there is none."""
    return SensorPlatform(rig) if rig is not None else TruthPlatform(tuple(beams), clock, drive, camera)
