"""A tiny seeded random source whose whole state is one integer kept in the game state.

The engines are pure, so they cannot hold a ``random.Random`` object between inputs; storing a
64-bit integer in the JSON state keeps replays exact and states serialisable.
"""

from __future__ import annotations

from typing import Any

_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def _next(value: int) -> tuple[int, int]:
    """splitmix64: returns (new_state, 64-bit output)."""
    value = (value + 0x9E3779B97F4A7C15) & _MASK
    z = value
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return value, z ^ (z >> 31)


def randbelow(state: dict[str, Any], n: int, key: str = "rng") -> int:
    """A uniform integer in [0, n), advancing ``state[key]``."""
    if n <= 0:
        raise ValueError("n must be positive")
    state[key], out = _next(state[key])
    return out % n


def shuffle(state: dict[str, Any], items: list[Any], key: str = "rng") -> list[Any]:
    """A new list with ``items`` shuffled (Fisher-Yates) from the state's random source."""
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = randbelow(state, i + 1, key)
        result[i], result[j] = result[j], result[i]
    return result
