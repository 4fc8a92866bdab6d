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
    # contacts known in part: the pairs seen touching, and the pairs the frames could not decide
    # (every other pair surely did not touch); None when the whole fact is known or unknown
    contacts_known: list[list[str]] | None = None
    contacts_open: list[list[str]] | None = None

    def shot(self, *, open_pairs: bool = False) -> dict[str, Any]:
        """The CW-9 ``shot`` input (CAM-4's ``analyse`` prints this). With ``open_pairs`` a
        contacts fact known in part goes as ``contacts`` + ``contacts_open`` (CW-9: only the open
        pairs can be asked), as the table's referee takes it."""
        out = {"type": "shot", "seat": self.seat, "coin": self.coin, "dead": self.dead,
               "flown": self.flown, "contacts": self.contacts}
        if open_pairs and self.contacts is None and self.contacts_open:
            out.update(contacts=self.contacts_known, contacts_open=self.contacts_open)
        return out


POSITION_SIGMA_MM = 0.65  # rest-position error on rendered strikes: rms ~0.4 mm, worst ~1.1 mm (docs/camera.md)


def camera_shot(result: TrackResult, *, seat: int, coin: str, threshold: float = DEFAULT_THRESHOLD) -> CameraShot:
    """The shot the frames prove; facts below ``threshold`` are ``None``."""
    coins = result.coins
    ids_ok = min((c.identity_confidence for c in coins.values()), default=1.0)
    unsure = {c for c, r in coins.items() if r.identity_confidence < threshold}
    dead, p_dead = _dead(result)
    flown = sorted(c for c, r in coins.items() if r.left_surface or r.not_flat)
    p_flown = min((r.flight_confidence for r in coins.values()), default=1.0)
    pairs = sorted([list(p) for p, q in result.contacts.items() if q >= 0.5])
    conf = {"dead": p_dead * _unless_same(ids_ok, _set_same(dead, unsure)),
            "flown": p_flown * _unless_same(ids_ok, _set_same(flown, unsure)),
            "contacts": result.contacts_confidence * _unless_same(ids_ok, _pairs_same(pairs, unsure, coins))}
    at_rest = {c: r.rest for c, r in coins.items() if r.rest is not None and not (r.left_surface or r.not_flat)
               and c not in dead}
    known, open_ = _in_part(result, ids_ok, threshold) if conf["contacts"] < threshold else (None, None)
    return CameraShot(
        seat=seat, coin=coin,
        dead=dead if conf["dead"] >= threshold else None,
        flown=flown if conf["flown"] >= threshold else None,
        contacts=pairs if conf["contacts"] >= threshold else None,
        confidence={k: round(v, 4) for k, v in conf.items()},
        at_rest={c: (round(p[0], 1), round(p[1], 1)) for c, p in sorted(at_rest.items())},
        contacts_known=known, contacts_open=open_,
    )


def _unless_same(ids_ok: float, same: bool) -> float:
    """What doubt about identities takes off a fact: nothing when the fact reads the same whichever
    way the coins in doubt are swapped."""
    return 1.0 if same else ids_ok


def _set_same(members: list[str], unsure: set[str]) -> bool:
    """``dead`` or ``flown`` reads the same under any swap of the coins in doubt: all of them are in
    it, or none (docs/camera.md "Identity": two teammates who bounced off each other and both lie
    on the table died and flew alike, whichever is which)."""
    inside = unsure & set(members)
    return not inside or inside == unsure


def _pairs_same(pairs: list[list[str]], unsure: set[str], coins: Any) -> bool:
    """``contacts`` reads the same under any swap of the coins in doubt: every other coin touched
    all of them or none, and among them every pair touched or none."""
    touched = {frozenset(p) for p in pairs}
    for other in set(coins) - unsure:
        hits = {c for c in unsure if frozenset((c, other)) in touched}
        if hits and hits != unsure:
            return False
    among = [frozenset((a, b)) in touched for a in unsure for b in unsure if a < b]
    return all(among) or not any(among)


OPEN_BELOW = 0.98  # a pair whose touch (or miss) is surer than this is decided (the default threshold)


def _in_part(result: TrackResult, ids_ok: float, threshold: float) -> tuple[list[list[str]] | None,
                                                                          list[list[str]] | None]:
    """(pairs known to have touched, pairs open) when the pairs the frames decided are, together,
    sure to the threshold and only the others are in doubt; (None, None) otherwise."""
    decided = 1.0
    touched: list[list[str]] = []
    open_: list[list[str]] = []
    for (a, b), p in sorted(result.contacts.items()):
        if max(p, 1.0 - p) < max(threshold, OPEN_BELOW):
            open_.append([a, b])
            continue
        decided *= max(p, 1.0 - p)
        if p >= 0.5:
            touched.append([a, b])
    if not open_ or decided * ids_ok < threshold:
        return None, None
    return touched, open_


def _dead(result: TrackResult) -> tuple[list[str], float]:
    """CW-4.1 per coin from its rest position: how far its disc is inside (or outside) the goal,
    against the analysis' position error. A coin not seen at rest is unknown (it could lie in the goal),
    unless it left the surface or provably did not move in this strike (``unmoved``)."""
    r = geo.COIN_RADIUS_MM
    g = geo.GOAL
    dead: list[str] = []
    conf = 1.0
    for c, res in sorted(result.coins.items()):
        if res.rest is None:
            if not (res.left_surface and res.flight_confidence >= 0.9) and not res.unmoved:
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
