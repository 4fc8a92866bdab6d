"""Coin War's reading of what the camera saw (docs/camera.md, CAM-2): a CW-9 ``shot`` with confidences.

``dead`` is CW-4.1 (at rest entirely inside the goal, ``core/table_geometry.py``), ``flown`` is CW-6.1
(left the surface, or rests on another coin or a rail), ``contacts`` are every touching pair (the
struck coin's decide move vs attack, CW-5.2). A fact whose confidence is below the threshold is
``None``: the referee asks (CW-8). It never guesses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sensors.camera.tracking import TrackResult

DEFAULT_THRESHOLD = 0.98
FACTS = ("dead", "flown", "contacts")


@dataclass
class CameraShot:
    """The camera's shot: facts (``None`` = unknown), each fact's confidence, and coins at rest."""

    seat: int
    coin: str
    dead: list[str] | None
    flown: list[str] | None
    contacts: list[list[str]] | None
    confidence: dict[str, float] = field(default_factory=dict)  # "dead"/"flown"/"contacts" -> [0, 1]
    at_rest: dict[str, tuple[float, float]] = field(default_factory=dict)

    def shot(self) -> dict[str, Any]:
        """The CW-9 ``shot`` input."""
        return {"type": "shot", "seat": self.seat, "coin": self.coin, "dead": self.dead,
                "flown": self.flown, "contacts": self.contacts}


def camera_shot(result: TrackResult, *, seat: int, coin: str, threshold: float = DEFAULT_THRESHOLD) -> CameraShot:
    """The shot the frames prove; facts below ``threshold`` are ``None``."""
    raise NotImplementedError
