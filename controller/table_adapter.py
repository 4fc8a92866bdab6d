"""How a game turns the table's physical observations into its inputs: its *table adapter*.

Why: the hardware layer (``controller/hardware.py``) and the simulator must know no game. A game
that plays on the table's sensors declares ``table_adapter(parts) -> TableAdapter`` beside its
other functions (in its own package); a game without one (the
card games) takes its inputs from the phones only. The hardware hands every observation -- a beam
edge, a striker frame, a camera frame -- to each adapter; each one ignores what is not its game's.
A plug-in game brings its own sensors the same way (``tests/games/`` shows one).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from controller.referee_api import TableReferee
from gametable_core.clock import Clock
from gametable_core.config import Config
from gametable_core.platform import BeamEdge

Input = dict[str, Any]


@dataclass(frozen=True)
class TableParts:
    """What an adapter may use: the config, the clock, the daemon, and how the caller wants facts.

    ``on_facts`` (the simulator) replaces the submit of a strike's facts; ``flight_proof`` and
    ``settle_s`` tune the game's beam observer."""

    config: Config
    clock: Clock
    daemon: TableReferee
    on_facts: Callable[[Any], None] | None = None
    settle_s: float = 1.5
    flight_proof: str = "none"


class TableAdapter(Protocol):
    """One game's reading of the table's sensors."""

    def beam_edge(self, edge: BeamEdge) -> None:
        """A debounced beam edge."""

    def striker_input(self, frame: dict[str, Any], strikers: dict[str, int]) -> Input | None:
        """The input a striker frame means (``strikers``: striker id -> seat), or None."""

    def out_of_turn(self, inp: Input, frame: dict[str, Any]) -> dict[str, Any] | None:
        """A ``sensors/striker`` report when ``inp`` may not be applied now, else None."""

    def input_accepted(self, inp: Input, t: float) -> None:
        """The daemon accepted ``inp`` (from :meth:`striker_input`) at ``t``: e.g. a strike opens."""

    def camera_frame(self, t: float, image: Any) -> None:
        """One camera frame (BGR image in memory, CAM-6) at ``t`` on the table's clock."""

    def camera_still(self) -> bytes | None:
        """The last camera frame with what the game sees outlined (JPEG), for the host's bring-up page."""

    def record_next(self, path: str, on_done: Callable[[Any, str | None], None]) -> bool:
        """``gametable camera record``: write the next strike's frames to ``path``; False: no camera."""

    def beam_groups(self) -> dict[str, str]:
        """Beam id -> the group the dead-beam watch compares it with (``sensors/beam_health.py``)."""

    def stop(self) -> None:
        """Cancel timers, release what the adapter holds."""
