"""``gametable replay FILE.jsonl [--view SEAT]``: apply a file of inputs, print the final state.

One input per line (no ``id`` needed); blank lines are skipped. The first illegal line stops the
replay with a one-line error naming the line and a non-zero exit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from controller.games import GameError
from controller.table import Table


class ReplayError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


def replay_lines(lines: list[str] | TextIO) -> Table:
    """Apply every line to a fresh table (no journal); ReplayError names the first bad line."""
    table = Table()
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        try:
            inp: Any = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ReplayError(number, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(inp, dict):
            raise ReplayError(number, f"an input must be a JSON object, got {type(inp).__name__}")
        if "id" not in inp:
            inp = {**inp, "id": None}
        result = table.submit(inp)
        if not result.ok:
            raise ReplayError(number, result.error or "rejected")
    return table


def run(path: str, view_seat: int | None = None, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    try:
        with Path(path).open(encoding="utf-8") as fh:
            table = replay_lines(fh)
    except OSError as exc:
        print(f"gametable replay: cannot read {path}: {exc.strerror or exc}", file=err)
        return 2
    except UnicodeDecodeError as exc:
        print(f"gametable replay: {path} is not UTF-8 text ({exc.reason})", file=err)
        return 2
    except ReplayError as exc:
        print(f"gametable replay: {path}: {exc}", file=err)
        return 1
    if table.state is None:
        print(f"gametable replay: {path}: no game in the file (the first input must be new_game)", file=err)
        return 1
    if view_seat is not None:
        if view_seat not in table.seats():
            print(f"gametable replay: seat {view_seat} is not in the game (seats: {table.seats()})", file=err)
            return 1
        state = table.seat_view(view_seat)
    else:
        state = table.public_view()
    print(json.dumps(state, indent=2, ensure_ascii=False), file=out)
    return 0


__all__ = ["GameError", "ReplayError", "replay_lines", "run"]
