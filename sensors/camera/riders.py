"""Whether a coin whose blob is an ellipse at rest can be a rider (docs/camera.md, flown, CW-6.1).

A coin rests tilted only on another coin (or half on a rail, read from its position). Its blob is
an ellipse then; but the arm or hand lying over part of a flat coin at the strike's end cuts its
blob into an ellipse too. So a tilted blob proves a rider only where a base is possible: another
coin resting within a diameter of it, or a coin not seen at the end (it may lie under it)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Protocol

Point = tuple[float, float]

BASE_SLACK_MM = 2.0  # beyond a diameter, for the positions' error (a rider's centre is off its base's)


class AtRest(Protocol):
    rest: Point | None
    not_flat: bool
    flight_confidence: float


def base_possible(coin: str, coins: Mapping[str, AtRest], diameter_mm: float) -> bool:
    """Could ``coin`` (resting at ``coins[coin].rest``) be lying on another coin?"""
    here = coins[coin].rest
    if here is None:
        return False
    for other, res in coins.items():
        if other == coin:
            continue
        if res.rest is None or math.dist(here, res.rest) < diameter_mm + BASE_SLACK_MM:
            return True
    return False


def tilted_reading(coin: str, coins: Mapping[str, AtRest], diameter_mm: float) -> tuple[bool, float]:
    """(not_flat, flight_confidence) of ``coin`` whose blob at rest is an ellipse: a rider where a
    base is possible; otherwise what it was, with ``flown`` left unknown (confidence ≤ 0.5)."""
    res = coins[coin]
    if base_possible(coin, coins, diameter_mm):
        return True, res.flight_confidence
    return res.not_flat, min(res.flight_confidence, 0.5)


__all__ = ["BASE_SLACK_MM", "base_possible", "tilted_reading"]
