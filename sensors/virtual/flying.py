"""The flying-coin model (CW-6.1): when does a hard impact make a coin leave the flat surface?

Real coins jump when they hit a rail hard (they climb the rail's edge and hop over) or when a fast
coin meets another one slightly off-centre (it rides up and stays tilted on it). pymunk is 2-D, so
we decide it with a seeded dice roll on each *first* contact whose normal impulse is above a
threshold, with a probability that rises with the impulse:

    p(J) = 0                                          if J <= threshold
    p(J) = p_max * min(1, (J - threshold) / (full - threshold)) ** exponent   otherwise

Impulses are in g·mm/s (a 1.5 g coin hitting a rail square-on at 2 m/s and bouncing back at 0.65 of
its speed gets ≈ 1.5 * 2000 * 1.65 ≈ 5000). The defaults give a few % of random shots a flown
coin (figures in hardware_docs/beam_layout.md); every parameter can be overridden (e.g. from config).
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class FlyModel:
    """Parameters of the flying-coin dice. ``enabled=False`` gives a table where nothing ever flies."""

    enabled: bool = True
    rail_threshold: float = 3000.0  # g·mm/s: below this a rail impact never lifts a coin
    rail_full: float = 7000.0  # impulse where the rail probability reaches rail_p_max
    rail_p_max: float = 0.40
    coin_threshold: float = 2000.0  # coin-on-coin impacts
    coin_full: float = 4500.0
    coin_p_max: float = 0.25
    exponent: float = 2.0
    airborne_s: float = 0.25  # how long a coin that leaves the table is seen flying over the rail

    def probability(self, impulse: float, *, rail: bool) -> float:
        """Chance that an impact of ``impulse`` makes a coin fly (rail or coin impact)."""
        if not self.enabled:
            return 0.0
        lo, hi, p_max = (
            (self.rail_threshold, self.rail_full, self.rail_p_max)
            if rail
            else (self.coin_threshold, self.coin_full, self.coin_p_max)
        )
        if impulse <= lo:
            return 0.0
        frac = min(1.0, (impulse - lo) / max(hi - lo, 1e-9))
        return p_max * frac**self.exponent

    def roll(self, rng: random.Random, impulse: float, *, rail: bool) -> bool:
        """One seeded dice roll. Always consumes exactly one random number when enabled, so the
        random sequence (and thus the whole game) depends only on the seed and the flicks."""
        if not self.enabled:
            return False
        return rng.random() < self.probability(impulse, rail=rail)
