"""Tables for the condition matrix's layouts (conditions.LAYOUTS, docs/camera_heldout.md): coins
touching at rest, a cluster of 3–4, coins against the rails, besides the uniform and played
tables of ``sensors.virtual.random_shots``.

Why apart: these are the layouts where the camera's positions and contacts are hardest (two blobs
merge, a rail's edge meets a coin's), and the matrix must hold enough of them to show it.
"""

from __future__ import annotations

import math
import random

from gametable_core import table_geometry as geo
from sensors.virtual.physics import TablePhysics
from sensors.virtual.random_shots import SNUG_MM, random_played_table, random_table

Point = tuple[float, float]


def table_for(layout: str, rng: random.Random, n: int) -> TablePhysics:
    """A table of ``n`` coins (c1…cn) laid out as ``layout`` says."""
    if layout == "uniform":
        return random_table(rng, n)
    if layout == "played":
        return random_played_table(rng, n)
    table = TablePhysics(seed=rng.randrange(2**31))
    for i, p in enumerate(_spots(layout, rng, n), start=1):
        table.place(f"c{i}", *p, as_found=True)
    return table


def _spots(layout: str, rng: random.Random, n: int) -> list[Point]:
    r = geo.COIN_RADIUS_MM
    out: list[Point] = []
    cluster = rng.randint(3, 4) if layout == "cluster" else 0
    tries = 0
    while len(out) < n:
        tries += 1
        if tries > 100_000:
            raise RuntimeError(f"no room for a {layout} table of {n} coins")
        snug = r + rng.uniform(0.05, SNUG_MM)
        touch = (layout == "touching" and out and rng.random() < 0.7) or 0 < len(out) < cluster
        if touch:  # resting against a coin placed before (in a cluster: around its first coins)
            q = rng.choice(out if layout == "touching" else out[:max(1, len(out))])
            a = rng.uniform(0.0, 2 * math.pi)
            p = (q[0] + (snug + r) * math.cos(a), q[1] + (snug + r) * math.sin(a))
        elif layout == "rails":
            w, length = geo.WIDTH_MM, geo.LENGTH_MM
            along = rng.uniform(r, (w if rng.random() < 0.5 else length) - r)
            p = [(snug, along), (w - snug, along), (along, snug), (along, length - snug)][rng.randrange(4)]
        else:
            p = (rng.uniform(r, geo.WIDTH_MM - r), rng.uniform(r, geo.LENGTH_MM - r))
        if not geo.is_normal_position(p, r - 0.01):
            continue
        if any(math.hypot(p[0] - q[0], p[1] - q[1]) < 2 * r + 0.05 for q in out):
            continue
        out.append(p)
    return out
