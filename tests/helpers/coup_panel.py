"""What the Coup panel tests check beyond the rig's stacked game (gametable/testing/games.py)."""

from __future__ import annotations

from typing import Any


def keys_anywhere(data: Any) -> set[str]:
    """Every object key at any depth of a JSON value."""
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in keys_anywhere(v)}
    if isinstance(data, list):
        return {k for v in data for k in keys_anywhere(v)}
    return set()
