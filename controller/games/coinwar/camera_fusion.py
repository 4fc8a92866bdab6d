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
         ) -> tuple[dict[str, Any], list[Disagreement]]:
    """(fused shot, disagreements). ``beam_shot``'s non-null facts are proven; ``camera_shot``
    (or None: no camera) holds the camera's facts, already thresholded (``None`` = unknown)."""
    raise NotImplementedError
