"""Believable random tables and flicks, for the benchmarks, the layout study and tests.

Coins are dropped at random normal positions (CW-1.5, not overlapping); a shot flicks a random coin
at 0.3–3 m/s, half the time roughly towards another coin (players aim), half in any direction.
"""

from __future__ import annotations

import math
import random

from core import table_geometry as geo
from virtual.physics import TablePhysics

Point = tuple[float, float]


def random_normal_spots(rng: random.Random, n: int, taken: dict[str, Point] | None = None) -> list[Point]:
    """``n`` random normal positions that overlap neither each other nor ``taken`` coins."""
    r = geo.COIN_RADIUS_MM
    spots: list[Point] = list((taken or {}).values())
    out: list[Point] = []
    tries = 0
    while len(out) < n:
        tries += 1
        if tries > 100_000:
            raise RuntimeError("no room left on the table for another coin")
        p = (rng.uniform(r, geo.WIDTH_MM - r), rng.uniform(r, geo.LENGTH_MM - r))
        if not geo.is_normal_position(p, r):
            continue
        if any(math.hypot(p[0] - q[0], p[1] - q[1]) < 2 * r + 0.5 for q in spots):
            continue
        spots.append(p)
        out.append(p)
    return out


def random_table(rng: random.Random, n: int, *, seed: int | None = None, **kw) -> TablePhysics:
    """A table with coins c1…cn at random normal positions."""
    table = TablePhysics(seed=rng.randrange(2**31) if seed is None else seed, **kw)
    for i, p in enumerate(random_normal_spots(rng, n), start=1):
        table.place(f"c{i}", *p)
    return table


def random_flick(rng: random.Random, positions: dict[str, Point]) -> tuple[str, float, float]:
    """(coin, vx, vy): a random coin, speed 0.3–3 m/s, aimed at another coin half the time."""
    coins = sorted(positions)
    coin = rng.choice(coins)
    speed = rng.uniform(300.0, 3000.0)
    others = [c for c in coins if c != coin]
    if others and rng.random() < 0.5:
        target = positions[rng.choice(others)]
        here = positions[coin]
        angle = math.atan2(target[1] - here[1], target[0] - here[0]) + rng.gauss(0.0, 0.12)
    else:
        angle = rng.uniform(0.0, 2 * math.pi)
    return coin, speed * math.cos(angle), speed * math.sin(angle)
