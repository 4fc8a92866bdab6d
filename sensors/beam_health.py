"""Dead beams: an unplugged receiver reads "clear" forever, so nothing else would notice it.

Two checks, both fed the debounced :class:`~sensors.beams.BeamEdge` s:

- :class:`BeamWalk` -- the walk test before play: someone lays a real coin on every beam and lifts
  it; each must show both levels, blocked and clear. With ``hold_s`` (``python -m sensors.hwcheck``)
  the coin must hold the beam blocked *steadily* for that long: a digital receiver has no analogue
  level to read, and a coin that lets 940 nm through (or a misaligned beam) shows as a blocked level
  that flickers or never settles (hardware_docs/beam_layout.md, "The coin"). ``status()`` says which
  beams have not passed, and is published on ``gametable/<T>/sensors/walk`` (retained) so the host's
  panel can list them.
- :class:`DeadBeamWatch` -- while playing: a beam that never blocks while most other beams of its
  group (goal points, rail beams ...) keep seeing coins is flagged once per episode. A rail beam
  is rarely crossed, so each group has its own threshold; blocks piling up on the few beams where
  players aim do not count against the rest.

Pure logic: no clock, no I/O; the hardware glue publishes what they return.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from gametable_core.config import BeamConfig

# Blocking edges the *other* beams of a group may see while one beam sees none before it is
# flagged. Goal beams: a coin crossing the goal blocks 2-4 of its points, so 80 blocks by the
# others are ~20-40 coins over the goal. Rail beams are crossed only by flying coins: a stricter
# number would cry wolf. Chosen on the virtual table's random believable shots
# (tests/test_beam_health.py): no healthy goal point flagged in 6,000 shots, a dead one flagged
# after ~200; about one healthy rail beam flagged (until it blocks again) per 4,500 shots, a dead
# one after ~1,000 -- the walk test before play is the check that finds a dead rail beam.
DEFAULT_THRESHOLDS = {"point": 80, "segment": 16}
# How long a coin lying on a beam must hold it blocked without a flicker in the walk test (the
# bring-up page's and ``python -m sensors.hwcheck``'s): long against a 2-200 ms flick or a finger's
# swipe, short against the 5 s stuck-beam check.
COIN_HOLD_S = 1.0
# ... and those blocks must be spread over the group: players aim at the same spot, so coins dying
# in the middle of the goal block the same two or three points game after game, and a rail by the
# players' seats is crossed more than the far one. A beam is suspect only once most of the others
# (this share of them, each at least MIN_EACH times) have blocked since it last did: a healthy
# beam among beams that keep seeing coins all around it would have blocked too.
DEFAULT_COVERAGE = {"point": 0.75, "segment": 0.6}
MIN_EACH = {"point": 5, "segment": 3}


class BeamWalk:
    """Which beams have toggled (blocked, then clear) since the walk began.

    ``hold_s`` > 0: a beam passes only once a coin held it blocked for at least ``hold_s`` seconds
    without a single clear edge (edges then need their time ``t``); shorter blocks are counted as
    flickers and named in the status, so a translucent coin fails loudly instead of passing.
    """

    def __init__(self, beams: Iterable[BeamConfig], initially_blocked: Iterable[str] = (),
                 hold_s: float = 0.0) -> None:
        if not (math.isfinite(hold_s) and hold_s >= 0):
            raise ValueError(f"walk test: hold_s must be a number of seconds >= 0, got {hold_s!r}")
        self.beams = tuple(b for b in beams if not b.reference)  # (a reference never clears: no walk)
        self.hold_s = hold_s
        start = set(initially_blocked)
        # the levels each beam has shown; done once it has shown both (its level at the start counts)
        self._levels: dict[str, set[bool]] = {b.id: {b.id in start} for b in self.beams}
        self._done: set[str] = set()
        self._blocked_at: dict[str, float] = {}  # hold_s: when the current block began
        self._flickers: dict[str, int] = {}  # hold_s: blocks shorter than hold_s

    def on_edge(self, beam_id: str, blocked: bool, t: float | None = None) -> dict[str, Any] | None:
        """Feed one edge (with its time ``t`` when ``hold_s`` is set); returns the new status when
        it changed (to publish), else None."""
        levels = self._levels.get(beam_id)
        if levels is None or beam_id in self._done:
            return None
        if self.hold_s > 0:
            return self._on_timed_edge(beam_id, blocked, t)
        levels.add(blocked)
        if len(levels) < 2:
            return None
        self._done.add(beam_id)
        return self.status()

    def _on_timed_edge(self, beam_id: str, blocked: bool, t: float | None) -> dict[str, Any] | None:
        if t is None or not math.isfinite(t):
            raise ValueError(f"walk test: beam {beam_id!r}: an edge needs its time t when hold_s is set, got {t!r}")
        if blocked:
            self._blocked_at[beam_id] = t
            return None
        since = self._blocked_at.pop(beam_id, None)
        if since is None:  # blocked before the walk began: the coin must be laid on it again
            return None
        if t - since >= self.hold_s:
            self._done.add(beam_id)
        else:
            self._flickers[beam_id] = self._flickers.get(beam_id, 0) + 1
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
            "not seen yet: " + ", ".join(self._describe(b) for b in missing),
        }

    def _describe(self, beam: BeamConfig) -> str:
        flickers = self._flickers.get(beam.id, 0)
        if not flickers:
            return f"{beam.id} (GPIO{beam.pin})"
        return (f"{beam.id} (GPIO{beam.pin}) blocked {flickers} time(s) but never held {self.hold_s:g} s: "
                "a coin lying on it must hold it blocked (IR-translucent coin, no foil, or beam misaligned?)")


class DeadBeamWatch:
    """Flag a beam that stays clear while the other beams of its group keep blocking all around it."""

    def __init__(self, beams: Iterable[BeamConfig], groups: dict[str, str] | None = None,
                 thresholds: dict[str, int] | None = None) -> None:
        self.beams = {b.id: b for b in beams if not b.reference}  # (a reference is watched by itself)
        # group of a beam: its role if given (e.g. "rail", "surface"), else its kind
        self.groups = {i: (groups or {}).get(i, b.kind) for i, b in self.beams.items()}
        self.thresholds = {**DEFAULT_THRESHOLDS, **(thresholds or {})}
        self._others_since: dict[str, int] = dict.fromkeys(self.beams, 0)
        # per beam: how often each other beam of its group blocked since it last did
        self._each_since: dict[str, dict[str, int]] = {i: {} for i in self.beams}
        self.flagged: set[str] = set()

    def _setting(self, table: dict[str, Any], beam_id: str, default: Any) -> Any:
        return table.get(self.groups[beam_id], table.get(self.beams[beam_id].kind, default))

    def _suspect(self, beam_id: str) -> bool:
        """Enough blocks by the others, spread over most of them (see ``DEFAULT_COVERAGE``)."""
        if self._others_since[beam_id] < self._setting(self.thresholds, beam_id, 80):
            return False
        group = self.groups[beam_id]
        others = [o for o, g in self.groups.items() if g == group and o != beam_id and o not in self.flagged]
        min_each = self._setting(MIN_EACH, beam_id, 5)
        busy = sum(1 for o in others if self._each_since[beam_id].get(o, 0) >= min_each)
        return busy >= math.ceil(self._setting(DEFAULT_COVERAGE, beam_id, 0.75) * len(others))

    def on_edge(self, beam_id: str, blocked: bool) -> list[dict[str, Any]]:
        """Feed one edge; returns diagnostics to publish (``dead_suspect`` / ``dead_cleared``)."""
        if beam_id not in self.beams or not blocked:
            return []
        out: list[dict[str, Any]] = []
        self._others_since[beam_id] = 0
        self._each_since[beam_id].clear()
        if beam_id in self.flagged:
            self.flagged.discard(beam_id)
            out.append({"event": "dead_cleared", "beam": beam_id,
                        "message": f"beam {beam_id} blocks again"})
        group = self.groups[beam_id]
        for other, g in self.groups.items():
            if other == beam_id or g != group or other in self.flagged:
                continue
            self._others_since[other] += 1
            each = self._each_since[other]
            each[beam_id] = each.get(beam_id, 0) + 1
            if self._suspect(other):
                self.flagged.add(other)
                b = self.beams[other]
                out.append({"event": "dead_suspect", "beam": other, "pin": b.pin,
                            "message": f"beam {other} (GPIO{b.pin}) has not blocked once while the other "
                                       f"{group} beams blocked {self._others_since[other]} times all around it: "
                                       "receiver unplugged or emitter misaligned?"})
        return out
