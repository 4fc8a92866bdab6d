"""Dead beams (#5): an unplugged receiver reads "clear" forever, so nothing else would notice it.

Two checks, both fed the debounced :class:`~sensors.beams.BeamEdge` s:

- :class:`BeamWalk` -- the walk test before play: someone passes a coin (or a finger) through
  every beam; each must show both levels, blocked and clear. ``status()`` says which have not, and is
  published on ``gametable/<T>/sensors/walk`` (retained) so the host's panel can list them.
- :class:`DeadBeamWatch` -- while playing: a beam that never blocks while the other beams of its
  group (goal points, rail beams ...) keep seeing coins is flagged once per episode. A rail beam
  is rarely crossed, so each group has its own threshold.

Pure logic: no clock, no I/O; the hardware glue publishes what they return.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.config import BeamConfig

# Blocking edges the *other* beams of a group may see while one beam sees none before it is
# flagged. Goal beams: a coin crossing the goal blocks 2-4 of its 10 points, so 40 blocks by the
# others are ~10-20 coins over the goal. Rail beams are crossed only by flying coins: a stricter
# number would cry wolf.
DEFAULT_THRESHOLDS = {"point": 40, "segment": 12}


class BeamWalk:
    """Which beams have toggled (blocked, then clear) since the walk began."""

    def __init__(self, beams: Iterable[BeamConfig], initially_blocked: Iterable[str] = ()) -> None:
        self.beams = tuple(beams)
        start = set(initially_blocked)
        # the levels each beam has shown; done once it has shown both (its level at the start counts)
        self._levels: dict[str, set[bool]] = {b.id: {b.id in start} for b in self.beams}
        self._done: set[str] = set()

    def on_edge(self, beam_id: str, blocked: bool) -> dict[str, Any] | None:
        """Feed one edge; returns the new status when it changed (to publish), else None."""
        levels = self._levels.get(beam_id)
        if levels is None or beam_id in self._done:
            return None
        levels.add(blocked)
        if len(levels) < 2:
            return None
        self._done.add(beam_id)
        return self.status()

    @property
    def complete(self) -> bool:
        return len(self._done) == len(self.beams)

    def status(self) -> dict[str, Any]:
        """The ``sensors/walk`` payload: done and missing beams (with their GPIO, for the builder)."""
        missing = [b for b in self.beams if b.id not in self._done]
        return {
            "event": "walk",
            "complete": not missing,
            "done": [b.id for b in self.beams if b.id in self._done],
            "missing": [b.id for b in missing],
            "message": "every beam toggled" if not missing else
            "not seen yet: " + ", ".join(f"{b.id} (GPIO{b.pin})" for b in missing),
        }


class DeadBeamWatch:
    """Flag a beam that stays clear while the other beams of its group keep blocking."""

    def __init__(self, beams: Iterable[BeamConfig], groups: dict[str, str] | None = None,
                 thresholds: dict[str, int] | None = None) -> None:
        self.beams = {b.id: b for b in beams}
        # group of a beam: its role if given (e.g. "rail", "surface"), else its kind
        self.groups = {i: (groups or {}).get(i, b.kind) for i, b in self.beams.items()}
        self.thresholds = {**DEFAULT_THRESHOLDS, **(thresholds or {})}
        self._others_since: dict[str, int] = dict.fromkeys(self.beams, 0)
        self.flagged: set[str] = set()

    def _threshold(self, beam_id: str) -> int:
        group = self.groups[beam_id]
        return self.thresholds.get(group, self.thresholds.get(self.beams[beam_id].kind, 40))

    def on_edge(self, beam_id: str, blocked: bool) -> list[dict[str, Any]]:
        """Feed one edge; returns diagnostics to publish (``dead_suspect`` / ``dead_cleared``)."""
        if beam_id not in self.beams or not blocked:
            return []
        out: list[dict[str, Any]] = []
        self._others_since[beam_id] = 0
        if beam_id in self.flagged:
            self.flagged.discard(beam_id)
            out.append({"event": "dead_cleared", "beam": beam_id,
                        "message": f"beam {beam_id} blocks again"})
        group = self.groups[beam_id]
        for other, g in self.groups.items():
            if other == beam_id or g != group or other in self.flagged:
                continue
            self._others_since[other] += 1
            if self._others_since[other] >= self._threshold(other):
                self.flagged.add(other)
                b = self.beams[other]
                out.append({"event": "dead_suspect", "beam": other, "pin": b.pin,
                            "message": f"beam {other} (GPIO{b.pin}) has not blocked once while the other "
                                       f"{group} beams blocked {self._others_since[other]} times: "
                                       "receiver unplugged or emitter misaligned?"})
        return out
