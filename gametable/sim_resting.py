"""Where the virtual table's coins rest, kept beside the journal, so a restarted ``gametable sim`` (or
``make demo``) puts them back where they lay instead of at their start spots.

A real table needs none of this: its coins stay where they are while the Pi restarts. The
referee's journal holds the game (docs/architecture.md), not the physics of the virtual table, so
the virtual table keeps its own small file, ``<journal>.coins.json``, written atomically whenever
coins move and read once when a game is resumed. It names the game it belongs to (its
``new_game`` id): a file from another game is ignored, and a coin it does not list starts at its
start spot.
"""

from __future__ import annotations

import json
import logging
import math
import os
from pathlib import Path
from typing import Any

log = logging.getLogger("gametable.sim")

Point = tuple[float, float]


class RestingCoins:
    """One game's coin positions in a JSON file: ``{"game": id, "coins": {coin: [x, y]}}``."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._last: tuple[str, dict[str, Point]] | None = None  # what the file holds (no rewrite of the same)

    def save(self, game: str, coins: dict[str, Point]) -> None:
        """Write ``coins`` for ``game``; a disk error is logged and play goes on (nothing of the
        game is lost: only where the virtual coins lie)."""
        record = (game, dict(coins))
        if record == self._last:
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            tmp.write_text(json.dumps({"game": game, "coins": {c: [x, y] for c, (x, y) in coins.items()}}))
            os.replace(tmp, self.path)
            self._last = record
        except OSError as exc:
            log.warning("sim: could not keep where the coins rest in %s: %s", self.path, exc)

    def load(self, game: str) -> dict[str, Point]:
        """The positions kept for ``game``; empty if none were, or the file is another game's or
        not readable as written (each coin's position must be two finite numbers)."""
        try:
            data: Any = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("game") != game or not isinstance(data.get("coins"), dict):
            return {}
        out: dict[str, Point] = {}
        for coin, xy in data["coins"].items():
            if isinstance(xy, list) and len(xy) == 2 and all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in xy):
                out[str(coin)] = (float(xy[0]), float(xy[1]))
        self._last = (game, dict(out))
        return out


def resting_for(journal_path: str | None) -> RestingCoins | None:
    """The file beside a journal on disk; None for an in-memory journal (nothing survives it)."""
    if not journal_path or journal_path == ":memory:":
        return None
    return RestingCoins(journal_path + ".coins.json")
