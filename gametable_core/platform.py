"""The platform seam: what the referee's side needs from a table's sensors and lights.

A table is a *platform* (as in the Mission Pinball Framework): the real one on the Pi (gpiozero
beams, the striker's serial link, PWM seat LEDs in ``sensors/``) or the virtual one (pymunk coins
and virtual beams in ``sensors/virtual/``). Both implement these small interfaces and hand their
observations through one door: a beam change is a :class:`BeamEdge` whoever saw it, so the
observer (a game's sensing adapter) cannot tell a real beam from a virtual one. Lives in
``core`` so drivers, the virtual table and the daemon can all name it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class BeamEdge:
    """One accepted (debounced) change of a beam: the observation the observer consumes."""

    beam_id: str
    blocked: bool
    t: float

    def as_event(self) -> dict[str, Any]:
        """The JSON-serialisable input event for the journal / sensors topic."""
        return {"type": "beam", "beam": self.beam_id, "blocked": self.blocked, "t": self.t}


@runtime_checkable
class BeamSource(Protocol):
    """Break-beams that report each change as a :class:`BeamEdge` (to the callback they were given)."""

    @property
    def beam_ids(self) -> tuple[str, ...]:
        """Every beam of the layout, in config order."""

    def blocked_ids(self) -> frozenset[str]:
        """The beams blocked now."""

    def close(self) -> None:
        """Stop reporting and release the pins."""


@runtime_checkable
class StrikerSource(Protocol):
    """Strikers whose frames arrive through a callback (the strike that starts a turn)."""

    @property
    def is_open(self) -> bool:
        """Can strikes arrive now (e.g. the serial port is open)?"""

    def start(self) -> None:
        """Start delivering frames."""

    def stop(self) -> None:
        """Stop delivering frames and release the port."""

    def send(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Write one frame to the strikers' base (pairing: ``pair_open``, ``peers_set``); raises
        when it cannot be written now (nothing is queued)."""

    def set_allowed(self, allowed: Any) -> None:
        """Admit exactly these striker ids from now on (the pairings changed)."""


@runtime_checkable
class SeatLights(Protocol):
    """What the daemon needs from any seat-light hardware."""

    def show(self, plan: dict[str, Any]) -> None:
        """Display a plan from :func:`gametable_core.led_patterns.led_plan` (validated first)."""

    def tick(self, now: float | None = None) -> None:
        """Render the frame for clock time ``now`` (default: the clock's now)."""

    def close(self) -> None:
        """Turn everything off and release the hardware."""
