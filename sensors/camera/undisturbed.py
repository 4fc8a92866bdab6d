"""Coins that nothing set moving touched nothing (docs/camera.md, "Undisturbed coins").

Coins lying against each other, as games leave them, are within the contact band of each other
before the strike and after it: distance alone cannot decide the pair, and no kick shows because
nothing happened. But coins at rest move only when something pushes them. Take the coins whose
pairs the contact rule did not decide "apart" (the contact graph: an edge for every pair with a
touch possible). A group of that graph without the struck coin, whose pairs are all "came near, no
impact" or a near miss (none hidden from view, none with a proven touch), and whose coins were each seen at the
end where they were at the start, was never reached by anything that moved: no pair in it touched
during the strike. (CW-5.2 counts the touches a strike makes, not coins lying together.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

import numpy as np

from sensors.camera.paths import STAYED_MM

Pair = tuple[str, str]

NEAR_NO_IMPACT = "closest"  # the start of the reason the contact rule gives an open pair it saw whole
NEAR_MISS = 0.01  # the contact rule's p for a pair that came within twice the band: seen apart
ENDS_FRAMES = 3  # sightings at each end of a track whose median says where the coin was


def untouched_groups(ids: Iterable[str], contacts: Mapping[Pair, float], why: Mapping[Pair, str],
                     struck: str, still: Mapping[str, bool]) -> list[Pair]:
    """The open pairs (``why``) that lie in groups nothing reached: they did not touch.

    ``contacts`` holds every pair with a touch possible (p > 0); pairs absent were decided apart.
    ``still`` says per coin whether it was seen at the end where it was at the start."""
    group = {c: c for c in ids}

    def root(c: str) -> str:
        while group[c] != c:
            group[c] = group[group[c]]
            c = group[c]
        return c

    for a, b in contacts:
        group[root(a)] = root(b)
    members: dict[str, list[str]] = {}
    for c in group:
        members.setdefault(root(c), []).append(c)
    out: list[Pair] = []
    for coins in members.values():
        if len(coins) < 2 or struck in coins or not all(still.get(c, False) for c in coins):
            continue
        inside = [p for p in contacts if p[0] in coins]
        if all(contacts[p] <= NEAR_MISS or why.get(p, "").startswith(NEAR_NO_IMPACT) for p in inside):
            out.extend(inside)
    return sorted(out)


def stayed_put(track: np.ndarray) -> bool:
    """Seen at the end within ``STAYED_MM`` of where it was seen at the start (medians of the
    first and last few sightings; a hand's edge can pull a single one)."""
    seen = track[~np.isnan(track[:, 0])]
    if len(seen) < 2 * ENDS_FRAMES:
        return False
    first = np.median(seen[:ENDS_FRAMES], axis=0)
    last = np.median(seen[-ENDS_FRAMES:], axis=0)
    return bool(np.hypot(*(last - first)) < STAYED_MM)


def clear_untouched(contacts: dict[Pair, float], why: dict[Pair, str], still: Mapping[str, bool],
                    struck: str) -> None:
    """Drop from ``contacts`` (and ``why``) the pairs of groups that nothing reached."""
    for pair in untouched_groups(still, contacts, why, struck, still):
        contacts.pop(pair)
        why.pop(pair, None)


class Flight(Protocol):
    rest: tuple[float, float] | None
    left_surface: bool
    not_flat: bool
    flight_confidence: float


UNTOUCHED_FLAT = 0.995  # the flight confidence of a coin nothing reached (as sure as a coin seen flat)


def untouched_lie_flat(coins: Mapping[str, Flight], contacts: Mapping[Pair, float], still: Mapping[str, bool],
                       struck: str) -> None:
    """A coin nothing reached (no pair with it left possible), seen at the end where it lay, still
    lies flat where it lay: its blob's shape, cut by a neighbour lying against it or by the arm, is
    no reason to doubt it (CW-6.1 needs a coin to move to fly). ``still``: as for ``clear_untouched``."""
    reached = {c for pair in contacts for c in pair}
    for c, res in coins.items():
        if c == struck or c in reached or res.rest is None or res.left_surface or not still.get(c, False):
            continue
        res.not_flat = False
        res.flight_confidence = max(res.flight_confidence, UNTOUCHED_FLAT)
