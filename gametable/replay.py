"""``gametable replay FILE [--view SEAT]``: apply a file of inputs, print the final state.

FILE is either JSON lines (one input per line, no ``id`` needed; blank lines are skipped) or a
daemon's SQLite journal, told apart by content (SQLite's file header), so a journal copied off the
Pi can be replayed as it is. Both go through the same loop, so they give the same output; the
first illegal input (or bad journal record) stops the replay with a one-line error naming the line
(or the record) and a non-zero exit.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from controller.games import GameError
from controller.journal import SQLITE_MAGIC, JournalError, check_body, open_readonly
from controller.table import Table


class ReplayError(Exception):
    def __init__(self, line: int | str, message: str) -> None:
        super().__init__(f"{f'line {line}' if isinstance(line, int) else line}: {message}")
        self.line = line


def _lines(lines: Iterable[str]) -> Iterator[tuple[int, Any]]:
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        try:
            yield number, json.loads(text)
        except json.JSONDecodeError as exc:
            raise ReplayError(number, f"not valid JSON ({exc.msg} at column {exc.colno})") from None


def journal_inputs(path: str | Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(``record seq N``, input) of a SQLite journal in seq order, read-only (safe while the daemon
    writes it); a bad record stops with ReplayError naming it, as a bad line does."""
    db = open_readonly(path)
    try:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'inputs'").fetchone():
            raise JournalError(f"{path} is an SQLite file but not a gametable journal (no inputs table)")
        for seq, body, crc in db.execute("SELECT seq, body, crc FROM inputs ORDER BY seq"):
            reason, value = check_body(body, crc)
            if value is None:
                raise ReplayError(f"record seq {seq}", f"{reason}; see `gametable journal check {path}`")
            yield f"record seq {seq}", value
    finally:
        db.close()


def replay_inputs(items: Iterable[tuple[int | str, Any]]) -> Table:
    """Apply every input to a fresh table (no journal); ReplayError names the first bad one."""
    table = Table()
    for where, inp in items:
        if not isinstance(inp, dict):
            raise ReplayError(where, f"an input must be a JSON object, got {type(inp).__name__}")
        if "id" not in inp:
            inp = {**inp, "id": None}
        result = table.submit(inp)
        if not result.ok:
            raise ReplayError(where, result.error or "rejected")
    return table


def replay_lines(lines: list[str] | TextIO) -> Table:
    """Apply every line to a fresh table (no journal); ReplayError names the first bad line."""
    return replay_inputs(_lines(lines))


def is_sqlite(path: str | Path) -> bool:
    with Path(path).open("rb") as fh:
        return fh.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC


def replay_file(path: str | Path) -> Table:
    """Replay a JSON-lines file or a SQLite journal (OSError, UnicodeDecodeError, ReplayError,
    JournalError)."""
    if is_sqlite(path):
        return replay_inputs(journal_inputs(path))
    with Path(path).open(encoding="utf-8") as fh:
        return replay_lines(fh)


def run(path: str, view_seat: int | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    try:
        table = replay_file(path)
    except OSError as exc:
        print(f"gametable replay: cannot read {path}: {exc.strerror or exc}", file=err)
        return 2
    except UnicodeDecodeError as exc:
        print(f"gametable replay: {path} is not UTF-8 text ({exc.reason})", file=err)
        return 2
    except JournalError as exc:
        print(f"gametable replay: {exc}", file=err)
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


__all__ = ["GameError", "ReplayError", "replay_file", "replay_inputs", "replay_lines", "run"]
