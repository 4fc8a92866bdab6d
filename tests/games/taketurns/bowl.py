"""Take Turns' own sensor (the table adapter of ``controller/table_adapter.py``): a token dropped
into the bowl passes the ``bowl`` beam and takes one token for the seat whose turn it is.

It shows that a plug-in game brings its own sensors: the hardware layer hands it every beam edge,
striker frame and camera frame, knowing nothing of the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.command_ids import CommandIds
from controller.table_adapter import TableParts
from gametable_core.platform import BeamEdge

BEAM = "bowl"


class Bowl:
    def __init__(self, parts: TableParts, game: str) -> None:
        self.daemon = parts.daemon
        self.game = game
        self.ids = CommandIds("bowl")  # never repeats across runs

    def beam_edge(self, edge: BeamEdge) -> None:
        if edge.beam_id != BEAM or not edge.blocked:
            return
        state, view = self.daemon.public_state(), self.daemon.table_view()
        if not state or state.get("game") != self.game or not view or not view.get("turn") or state.get("window"):
            return
        self.daemon.submit({"type": "take", "seat": view["turn"]["seat"], "count": 1, "id": self.ids()}, source="bowl")

    def striker_input(self, frame: dict[str, Any], strikers: dict[str, int]) -> dict[str, Any] | None:
        return None

    def out_of_turn(self, inp: dict[str, Any], frame: dict[str, Any]) -> dict[str, Any] | None:
        return None

    def input_accepted(self, inp: dict[str, Any], t: float) -> None:
        """Nothing opens: a take is whole."""

    def camera_frame(self, t: float, image: Any) -> None:
        """Take Turns does not look."""

    def camera_still(self) -> bytes | None:
        return None

    def record_next(self, path: str, on_done: Callable[[Any, str | None], None]) -> bool:
        return False

    def beam_groups(self) -> dict[str, str]:
        return {}

    def stop(self) -> None:
        """Nothing to release."""
