"""A journal of a million inputs in seconds, exactly as the daemon would have written it.

Playing a million inputs through ``Table.submit`` takes minutes (each append is a durable commit),
so a block of real bot games is played once through a :class:`Table` whose journal only records
what it is asked to append (records and snapshots); the block is then written again and again
with fresh ids and times, in one SQLite transaction, with the chain, the snapshots and the anchor a
live table leaves (controller/journal.py, controller/journal_chain.py).
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from pathlib import Path
from typing import Any

from controller.journal import SCHEMA, Journal
from controller.journal_chain import GENESIS, Anchor, Mark, anchor_path, link
from controller.table import Table
from gametable.testing.bots import Bot


class _Recorder:
    """Just enough of a Journal for Table.submit: what it appends, with its snapshot."""

    def __init__(self) -> None:
        self.appended: list[tuple[dict[str, Any], dict[str, Any] | None]] = []

    def append(self, inp: dict[str, Any], ts: float, cmd_id: str | None = None,
               snapshot: dict[str, Any] | None = None) -> int:
        self.appended.append((inp, None if snapshot is None else json.loads(json.dumps(snapshot))))
        return len(self.appended)

    def has_id(self, cmd_id: str) -> bool:
        return False

    def secret(self) -> bytes:
        return bytes(32)


def _block(inputs: int, seed: int) -> tuple[list[tuple[dict[str, Any], Any]], list[tuple[dict[str, Any], Any]]]:
    """Bot games of about ``inputs`` inputs, played twice in a row: (first pass, second pass). The
    second pass's snapshots hold the block's own last game as 'the game before', as every
    repetition after the first sees it."""
    bot = Bot(seed=seed, prefix="blk", max_inputs_per_game=150)
    commands = []
    while len(commands) < inputs or commands[-1].get("type") == "new_game":
        cmd = bot.next_command()
        bot.accepted(cmd)
        commands.append(cmd)
    while True:  # end the block just before a new_game, so the next repetition starts with one
        cmd = bot.next_command()
        if cmd["type"] == "new_game":
            break
        bot.accepted(cmd)
        commands.append(cmd)
    recorder = _Recorder()
    table = Table(recorder)  # type: ignore[arg-type]
    for n in range(2):
        for cmd in commands:
            result = table.submit({**cmd, "id": f"{n}-{cmd['id']}"})
            assert result.ok, result.error
    half = len(recorder.appended) // 2
    return recorder.appended[:half], recorder.appended[half:]


def build(path: Path, total: int = 1_000_000, block_inputs: int = 2000, seed: int = 11) -> int:
    """Write a journal of ``total`` inputs (rounded up to whole blocks) at ``path``; returns the count."""
    first, later = _block(block_inputs, seed)
    bodies = [json.dumps(inp, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode("utf-8")
              for inp, _snap in first]
    crcs = [zlib.crc32(b) for b in bodies]
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    db.executescript(SCHEMA)
    db.execute("BEGIN")
    chain, seq, ts = GENESIS, 0, 1_700_000_000.0
    repetition = 0
    while seq < total:
        records, snapshots = [], []
        for i, (body, crc) in enumerate(zip(bodies, crcs, strict=True)):
            seq += 1
            ts += 0.75
            cmd_id = f"bench-{seq}"
            chain = link(chain, seq, ts, cmd_id.encode(), body)
            records.append((seq, ts, cmd_id, body.decode("utf-8"), crc, chain))
            snap = (first if repetition == 0 else later)[i][1]
            if snap is not None:
                snap = {**snap, "applied": seq}
                if first[i][0]["type"] == "new_game":
                    snap["game_started_at"] = ts
                raw = json.dumps(snap, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode("utf-8")
                snapshots.append((seq, zlib.compress(raw, 6), zlib.crc32(raw)))
        db.executemany("INSERT INTO inputs(seq, ts, cmd_id, body, crc, chain) VALUES (?, ?, ?, ?, ?, ?)", records)
        db.executemany("INSERT INTO snapshots(seq, body, crc) VALUES (?, ?, ?)", snapshots)
        repetition += 1
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    anchor = Anchor(anchor_path(str(path)))
    anchor.reset(Mark(seq, chain))
    anchor.close()
    Journal(path).close()  # the daemon's own open accepts it (no loss, chain whole)
    return seq
