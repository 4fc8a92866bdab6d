"""What the daemon offers the parts around it (bots, the virtual table, the real table's sensors),
as small protocols: each part asks for the least it needs, so a test double stands in for the
daemon where a test is about that part alone."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol

from controller.games.base import TableView
from gametable_core.platform import SeatLights

Listener = Callable[[dict[str, Any], dict[str, Any] | None], None]


class Referee(Protocol):
    """Inputs in, the public state out: what an observer needs to submit the facts it saw."""

    def submit(self, cmd: Any, source: str = ...) -> dict[str, Any]: ...

    def public_state(self) -> dict[str, Any] | None: ...


class SeatReferee(Referee, Protocol):
    """Plus each seat's own view and word of every accepted input: what bots and the simulator need."""

    def seat_view(self, seat: int) -> dict[str, Any] | None: ...

    def add_listener(self, fn: Listener) -> None: ...


class TableReferee(SeatReferee, Protocol):
    """Plus the common table view, diagnostics and the LEDs: what the real table's sensors need."""

    def table_view(self) -> TableView | None: ...

    def diagnostic(self, kind: str, payload: Any) -> None: ...

    def set_waiting(self, reason: str | None) -> None: ...

    def use_lights(self, lights: SeatLights) -> None: ...

    @property
    def lock(self) -> threading.RLock:
        """The input lock: the hardware's own state changes (pairing) take it in the same order."""
        ...

    def on_table_command(self, kind: str, handler: Callable[[dict[str, Any]], dict[str, Any]]) -> None: ...

    def publish_retained_sensor(self, kind: str, payload: Any) -> None: ...
