"""Command ids that never repeat across runs (docs/architecture.md, "Commands and inputs").

The daemon answers a repeated ``id`` with its first result and never applies it again, and the
journal remembers every id for good. So an id that restarts from 1 on every run (``sim-1-1``,
``sim-1-2``…) is swallowed as a duplicate after a restart on the same journal.
Each :class:`CommandIds` draws a random run token (72 bits) once, then counts: ids stay short and
readable, and two runs never share one.
"""

from __future__ import annotations

import itertools
import secrets


class CommandIds:
    """``prefix-<run token>-<n>``: a fresh token per instance, a counter within it."""

    def __init__(self, prefix: str) -> None:
        self.prefix = f"{prefix}-{secrets.token_hex(9)}"
        self._n = itertools.count(1)

    def __call__(self) -> str:
        return f"{self.prefix}-{next(self._n)}"


def new_id(prefix: str) -> str:
    """A one-off id that no run repeats (for a single command such as a bot game's ``new_game``)."""
    return f"{prefix}-{secrets.token_hex(9)}"


__all__ = ["CommandIds", "new_id"]
