"""Fusing the camera's shot with the beams' (docs/camera.md, CAM-3). Pure: no I/O, no clock.

A fact the beams prove wins. A camera fact that contradicts a beam-proven fact becomes unknown
(the referee asks, CW-8), and each contradiction is returned for the caller to log with the
strike's number, for the builder to check. A fact only one side knows is taken from that side.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

FACTS = ("dead", "flown", "contacts")


@dataclass(frozen=True)
class Disagreement:
    """The beams proved ``beams`` for ``fact`` and the camera said ``camera`` (with ``confidence``)."""

    strike: int | None
    fact: str
    beams: Any
    camera: Any
    confidence: float

    def message(self) -> str:
        """One log line for the builder."""
        n = "?" if self.strike is None else str(self.strike)
        return (f"strike {n}: {self.fact}: the beams proved {self.beams!r}, the camera saw {self.camera!r} "
                f"(confidence {self.confidence:.3f}); asked instead")


def fuse(beam_shot: Mapping[str, Any], camera_shot: Mapping[str, Any] | None,
         confidences: Mapping[str, float] | None = None, *, strike: int | None = None,
         someone_flew: bool = False) -> tuple[dict[str, Any], list[Disagreement]]:
    """(fused shot, disagreements). ``beam_shot``'s non-null facts are proven; ``camera_shot``
    (or None: no camera) holds the camera's facts, already thresholded (``None`` = unknown).

    ``someone_flew`` is the beams' partial proof that a coin left the table (a rail-top pulse,
    ``sensing.ObservedStrike.rail_crossings``) without saying which: a camera ``flown: []`` then
    contradicts it and is asked. Every other key of ``beam_shot`` (``beam_edges`` …) is kept."""
    fused = dict(beam_shot)
    found: list[Disagreement] = []
    conf = confidences or {}
    camera = camera_shot or {}
    for fact in FACTS:
        proven, seen = beam_shot.get(fact), camera.get(fact)
        if proven is not None:
            fused[fact] = proven  # CAM-3: a fact the beams prove wins
            if seen is not None and _canonical(fact, seen) != _canonical(fact, proven):
                found.append(Disagreement(strike, fact, proven, seen, float(conf.get(fact, 0.0))))
            continue
        if fact == "flown" and someone_flew and seen == []:
            found.append(Disagreement(strike, fact, "a coin crossed a rail beam", seen, float(conf.get(fact, 0.0))))
            fused[fact] = None  # contradicts the beams' partial proof: asked (CW-8)
            continue
        fused[fact] = seen
        if fact == "contacts" and seen is not None and camera.get("contacts_open"):
            fused["contacts_open"] = camera["contacts_open"]  # known in part (CW-9): only these are asked
    return fused, found


def _canonical(fact: str, value: Any) -> Any:
    """Order-free form of a fact's value, so ``[["c2","c1"]]`` equals ``[["c1","c2"]]``."""
    if fact == "contacts":
        return sorted(tuple(sorted(p)) for p in value)
    return sorted(value)
