"""Believable random tables and flicks, for the benchmarks, the layout study and tests; free spots
for coins put back by hand on the virtual table.

Coins are dropped at random normal positions (CW-1.5, not overlapping); a shot flicks a random coin
at 0.3–3 m/s, half the time roughly towards another coin (players aim), half in any direction.
``random_played_table`` lays coins out as a game leaves them: against a rail, in a corner, resting
against a neighbour (a table of uniform spots almost never has a coin there, and the camera's
positions are worst there: docs/camera.md).
"""

from __future__ import annotations

import math
import random

from gametable_core import table_geometry as geo
from sensors.virtual.physics import TablePhysics

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


def free_spot_near(physics: TablePhysics, coin: str, first: Point | None, rng: random.Random) -> Point:
    """Where a hand puts ``coin`` back: the free normal spot closest to ``first`` (searched in rings
    of 10 mm out to 190 mm), or a random free normal spot when there is none near (or no ``first``)."""
    taken = {c: p for c, p in physics.positions().items() if c != coin}
    if first is not None:
        r = geo.COIN_RADIUS_MM
        p = (min(max(first[0], r + 1), geo.WIDTH_MM - r - 1), min(max(first[1], r + 1), geo.LENGTH_MM - r - 1))
        for ring in range(0, 200, 10):
            for k in range(12 if ring else 1):
                a = k * math.pi / 6
                q = (p[0] + ring * math.cos(a), p[1] + ring * math.sin(a))
                if geo.is_normal_position(q) and physics.can_place(coin, *q) is None:
                    return q
    return random_normal_spots(rng, 1, taken)[0]


def random_table(rng: random.Random, n: int, *, seed: int | None = None, **kw) -> TablePhysics:
    """A table with coins c1…cn at random normal positions."""
    table = TablePhysics(seed=rng.randrange(2**31) if seed is None else seed, **kw)
    for i, p in enumerate(random_normal_spots(rng, n), start=1):
        table.place(f"c{i}", *p)
    return table


PLAYED_KINDS: dict[str, float] = {"free": 0.4, "rail": 0.25, "corner": 0.1, "neighbour": 0.25}  # shares
SNUG_MM = 0.6  # a coin "against" a rail or a neighbour rests up to this far from it


def random_played_spots(rng: random.Random, n: int) -> list[Point]:
    """``n`` normal positions (CW-1.5) as games leave coins: each free, against a rail, in a corner,
    or resting against a coin placed before it (``PLAYED_KINDS`` gives the shares)."""
    r = geo.COIN_RADIUS_MM
    w, length = geo.WIDTH_MM, geo.LENGTH_MM
    out: list[Point] = []
    kinds, weights = list(PLAYED_KINDS), list(PLAYED_KINDS.values())
    tries = 0
    while len(out) < n:
        tries += 1
        if tries > 100_000:
            raise RuntimeError("no room left on the table for another coin")
        kind = rng.choices(kinds, weights)[0]
        snug = r + rng.uniform(0.05, SNUG_MM)
        if kind == "rail":
            along = rng.uniform(r, (w if rng.random() < 0.5 else length) - r)
            side = rng.randrange(4)
            p = [(snug, along), (w - snug, along), (along, snug), (along, length - snug)][side]
        elif kind == "corner":
            p = (snug if rng.random() < 0.5 else w - snug, snug if rng.random() < 0.5 else length - snug)
        elif kind == "neighbour" and out:
            q, a = rng.choice(out), rng.uniform(0.0, 2 * math.pi)
            p = (q[0] + (snug + r) * math.cos(a), q[1] + (snug + r) * math.sin(a))
        else:
            p = (rng.uniform(r, w - r), rng.uniform(r, length - r))
        if not geo.is_normal_position(p, r - 0.01):
            continue
        if any(math.hypot(p[0] - q[0], p[1] - q[1]) < 2 * r + 0.05 for q in out):
            continue
        out.append(p)
    return out


def random_played_table(rng: random.Random, n: int, *, seed: int | None = None, **kw) -> TablePhysics:
    """A table with coins c1…cn laid out as a game leaves them (``random_played_spots``)."""
    table = TablePhysics(seed=rng.randrange(2**31) if seed is None else seed, **kw)
    for i, p in enumerate(random_played_spots(rng, n), start=1):
        table.place(f"c{i}", *p, as_found=True)
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
