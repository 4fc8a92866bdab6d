"""Coin War's table adapter (``controller/table_adapter.py``): beams, strikers and the camera -> its inputs.

The striker's frame is the ``strike`` input of the seat whose turn it is (``sensing.strike_input``,
``sensing.out_of_turn``); beam edges go to the beams' :class:`~controller.games.coinwar.sensing.Observer`;
camera frames (a ``[camera]`` in the config) to the :class:`CameraObserver`, whose facts are fused
with the beams' when the coins rest (CAM-3). Without beams and camera there is nothing to observe:
the strike's facts come from the phones (CW-8). A table without ``[camera]`` behaves exactly as before.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from controller.games.coinwar.sensing import (
    ObservedStrike,
    Observer,
    facts_submitter,
    out_of_turn,
    strike_input,
)
from controller.table_adapter import Input, TableParts
from gametable_core.platform import BeamEdge

if TYPE_CHECKING:  # OpenCV and numpy are the optional [camera] extra: imported only with a [camera]
    from controller.games.coinwar.camera_observer import CameraObserver

log = logging.getLogger("gametable.hardware")


class CoinWarTable:
    """The Coin War reading of one table's sensors."""

    def __init__(self, parts: TableParts) -> None:
        self.parts = parts
        config, daemon = parts.config, parts.daemon
        self.camera: CameraObserver | None = None
        if config.camera is not None:
            try:
                from controller.games.coinwar.camera_observer import CameraObserver
            except ImportError as exc:  # [camera] in the config, the extra not installed: say so, play on
                log.error("camera: %s: pip install '.[camera]' (hardware_docs/pi_setup.md 6b); playing without it", exc)
            else:
                self.camera = CameraObserver(config.camera, public_state=daemon.public_state,
                                             on_rest=lambda rest: daemon.publish_retained_sensor("camera", rest))
        self._deliver = parts.on_facts or facts_submitter(daemon, parts.clock)
        self.observer: Observer | None = None
        if config.beams or self.camera is not None:  # no beams, no camera: the phones say what happened
            self.observer = Observer(config.beams, parts.clock, self._facts, settle_s=parts.settle_s,
                                     public_state=daemon.public_state, flight_proof=parts.flight_proof)

    def _facts(self, facts: ObservedStrike) -> None:
        """The coins rest (the beams' settle time): the camera's facts joined to the beams', delivered."""
        if self.camera is not None:
            facts = self.camera.finish(facts)
        self._deliver(facts)

    def beam_edge(self, edge: BeamEdge) -> None:
        if self.observer is not None:
            self.observer.on_edge(edge)

    def striker_input(self, frame: dict[str, Any], strikers: dict[str, int]) -> Input | None:
        return strike_input(frame, strikers)

    def out_of_turn(self, inp: Input, frame: dict[str, Any]) -> dict[str, Any] | None:
        return out_of_turn(inp, frame, self.parts.daemon.table_view())

    def input_accepted(self, inp: Input, t: float) -> None:
        """A strike opens; the virtual table names the flicked coin and the coins on the table
        (``coin``, ``coins_on_table``: football's team coins), a striker does not (the seat's coin)."""
        if inp.get("type") != "strike" or self.observer is None:
            return
        if "coin" in inp:
            self.observer.strike(inp["seat"], inp["coin"], coins_on_table=inp.get("coins_on_table"))
        else:
            self.observer.strike_started(inp["seat"], t)
        if self.camera is not None and self.observer.open_coin is not None:
            self.camera.strike_started(self.observer.open_coin)

    def camera_frame(self, t: float, image: Any) -> None:
        if self.camera is not None:
            self.camera.frame(t, image)

    def camera_still(self) -> bytes | None:
        return self.camera.still_jpeg() if self.camera is not None else None

    def record_next(self, path: str, on_done: Callable[[Any, str | None], None]) -> bool:
        if self.camera is None:
            return False
        self.camera.record_next(path, on_done)
        return True

    def beam_groups(self) -> dict[str, str]:
        if self.observer is None:
            return {}
        roles = self.observer.roles
        return {**dict.fromkeys(roles.surface, "point"), **dict.fromkeys(roles.rail, "segment"),
                **dict.fromkeys(roles.mouths, "mouth")}

    def stop(self) -> None:
        if self.observer is not None:
            self.observer.close()
