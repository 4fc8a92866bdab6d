"""Coin War's reading of what the camera saw (docs/camera.md, CAM-2): a CW-9 ``shot`` with confidences.

``dead`` is CW-4.1 (at rest entirely inside the goal, ``gametable_core/table_geometry.py``), ``flown`` is CW-6.1
(left the surface, or rests on another coin or a rail), ``contacts`` are every touching pair (the
struck coin's decide move vs attack, CW-5.2). A fact whose confidence is below the threshold is
``None``: the referee asks (CW-8). It never guesses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from gametable_core import table_geometry as geo
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


POSITION_SIGMA_MM = 0.65  # rest-position error on rendered strikes: rms ~0.4 mm, worst ~1.1 mm (docs/camera.md)


def camera_shot(result: TrackResult, *, seat: int, coin: str, threshold: float = DEFAULT_THRESHOLD) -> CameraShot:
    """The shot the frames prove; facts below ``threshold`` are ``None``."""
    coins = result.coins
    ids_ok = min((c.identity_confidence for c in coins.values()), default=1.0)
    dead, p_dead = _dead(result)
    flown = sorted(c for c, r in coins.items() if r.left_surface or r.not_flat)
    p_flown = min((r.flight_confidence for r in coins.values()), default=1.0)
    pairs = sorted([list(p) for p, q in result.contacts.items() if q >= 0.5])
    conf = {"dead": p_dead * ids_ok, "flown": p_flown * ids_ok, "contacts": result.contacts_confidence * ids_ok}
    at_rest = {c: r.rest for c, r in coins.items() if r.rest is not None and not (r.left_surface or r.not_flat)
               and c not in dead}
    return CameraShot(
        seat=seat, coin=coin,
        dead=dead if conf["dead"] >= threshold else None,
        flown=flown if conf["flown"] >= threshold else None,
        contacts=pairs if conf["contacts"] >= threshold else None,
        confidence={k: round(v, 4) for k, v in conf.items()},
        at_rest={c: (round(p[0], 1), round(p[1], 1)) for c, p in sorted(at_rest.items())},
    )


def _dead(result: TrackResult) -> tuple[list[str], float]:
    """CW-4.1 per coin from its rest position: how far its disc is inside (or outside) the goal,
    against the analysis' position error. A coin not seen at rest is dead only if... never: unknown."""
    r = geo.COIN_RADIUS_MM
    g = geo.GOAL
    dead: list[str] = []
    conf = 1.0
    for c, res in sorted(result.coins.items()):
        if res.rest is None:
            if not (res.left_surface and res.flight_confidence >= 0.9):
                conf *= 0.5  # where is it? it could lie in the goal
            continue
        x, y = res.rest
        margin = g.disc_margin((x, y), r)  # > 0: inside
        p_in = 0.5 * (1.0 + math.erf(margin / (POSITION_SIGMA_MM * math.sqrt(2))))
        p_in = p_in * res.rest_confidence + (1 - res.rest_confidence) * 0.5
        if p_in >= 0.5:
            dead.append(c)
        conf *= max(p_in, 1.0 - p_in)
    return dead, conf
