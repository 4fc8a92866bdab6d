"""``gametable journal check|export|repair FILE``: look at a damaged journal and salvage it.

The daemon refuses a journal with a bad record anywhere but at its end (it cannot know what the
lost input did to everything after it) and leaves the file as it is. These commands never write
FILE: ``check`` lists the bad records and unreadable stretches (exit 0 all good, 1 damage found,
2 not readable at all), ``export`` prints the good inputs as JSON lines in ``gametable replay``
format, ``repair`` writes the good records to a NEW journal file (same seqs, ids and times; the
bad ones kept in its ``dropped`` table so their seqs are never reused) and says what it dropped.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sqlite3
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from controller.journal import (
    SCHEMA,
    BadRecord,
    ChainCheck,
    Journal,
    JournalError,
    as_text,
    check_body,
    dropped_seqs,
    has_chain_column,
    open_readonly,
)
from controller.journal_chain import anchor_path, read_anchor

PROBE_LIMIT = 100_000  # seqs tried one by one past an unreadable page before giving up


@dataclass
class Salvage:
    """A read of every record SQLite can still reach, good or bad."""

    # (seq, ts, cmd_id, body, crc, chain, the input)
    good: list[tuple[int, float, str | None, bytes, int, bytes | None, dict[str, Any]]] = field(default_factory=list)
    bad: list[tuple[BadRecord, tuple[Any, ...]]] = field(default_factory=list)
    damage: list[str] = field(default_factory=list)  # unreadable stretches, one line each
    missing: list[int] = field(default_factory=list)  # seqs gone between two records that survive
    lost: list[int] = field(default_factory=list)  # seqs past the journal's end that its anchor says were written
    dropped_before: list[tuple[Any, ...]] = field(default_factory=list)  # rows of the 'dropped' table
    quick_check: str = "ok"  # SQLite's integrity_check (every page, every index entry)

    @property
    def clean(self) -> bool:
        return not self.bad and not self.damage and not self.missing and not self.lost and self.quick_check == "ok"


def _rows_from(db: sqlite3.Connection, after: int, chained: bool) -> Iterator[tuple[Any, ...]]:
    chain = "chain" if chained else "NULL"
    yield from db.execute(f"SELECT seq, ts, cmd_id, body, crc, {chain} FROM inputs WHERE seq > ? ORDER BY seq",
                          (after,))


def _next_readable(db: sqlite3.Connection, after: int) -> int | None:
    """The first seq past ``after`` SQLite can read again (a corrupt page hides a run of seqs)."""
    for probe in range(after + 1, after + PROBE_LIMIT):
        try:
            row = db.execute("SELECT seq FROM inputs WHERE seq > ? ORDER BY seq LIMIT 1", (probe,)).fetchone()
        except sqlite3.DatabaseError:
            continue
        return None if row is None else int(row[0])
    return None


def salvage(path: str | Path) -> Salvage:
    """Read FILE read-only, record by record, stepping over pages SQLite cannot read."""
    db = open_readonly(path)
    out = Salvage()
    try:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'inputs'").fetchone():
            raise JournalError(f"{path} is an SQLite file but not a gametable journal (no inputs table)")
        _read_records(db, out)
        try:
            if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'dropped'").fetchone():
                out.dropped_before = list(db.execute(
                    "SELECT seq, ts, cmd_id, body, crc, dropped_at, reason FROM dropped ORDER BY seq"))
            rows = db.execute("PRAGMA integrity_check(5)").fetchall()
            found = [" ".join((as_text(r[0]) or "").split()) for r in rows]
            out.quick_check = "ok" if found in ([], ["ok"]) else "; ".join(found)
        except sqlite3.DatabaseError as exc:
            out.quick_check = str(exc)
    finally:
        db.close()
    out.lost = _lost(str(path), out)
    return out


def _read_records(db: sqlite3.Connection, out: Salvage) -> None:
    chained, chain = has_chain_column(db), ChainCheck(dropped_seqs(db))
    after, position = 0, 0
    while True:
        try:
            for row in _rows_from(db, after, chained):
                seq, ts, cmd_id, body, crc, value = row
                after, position = seq, position + 1
                broken, gone = chain.step(seq, ts, cmd_id, body if isinstance(body, bytes) else b"", value)
                if gone is not None:
                    out.missing.extend(s for s in range(gone[0], gone[1] + 1) if s not in chain.dropped)
                reason, parsed = check_body(body, crc)
                if parsed is None or broken is not None:
                    out.bad.append((BadRecord(seq, position, as_text(cmd_id), reason or broken or "bad"), row))
                else:
                    out.good.append((seq, ts, as_text(cmd_id), body, crc, value, parsed))
            break
        except sqlite3.DatabaseError as exc:
            resume = _next_readable(db, after)
            span = f"seq {after + 1} to {resume - 1}" if resume is not None else f"every seq after {after}"
            out.damage.append(f"records with {span} are unreadable ({exc})")
            chain.prev_seq = None  # the unreadable stretch is reported already: the next record is a new base
            if resume is None:
                break
            after = resume - 1


def _lost(path: str, out: Salvage) -> list[int]:
    """Seqs the anchor says were committed that the file no longer has (nor lists as dropped)."""
    mark = read_anchor(anchor_path(path))
    seqs = [g[0] for g in out.good] + [b.seq for b, _row in out.bad]
    last = max(seqs, default=0)
    if mark is None or mark.seq <= last or mark.seq - last > 1_000_000:
        return []
    known = {int(r[0]) for r in out.dropped_before}
    return [s for s in range(last + 1, mark.seq + 1) if s not in known]


def _span(seqs: list[int]) -> str:
    return f"seq {seqs[0]}" if len(seqs) == 1 else f"seq {seqs[0]}-{seqs[-1]}"


def check(path: str, out: TextIO, err: TextIO) -> int:
    s = salvage(path)
    total = len(s.good) + len(s.bad)
    seqs = [g[0] for g in s.good] + [b[0].seq for b in s.bad]
    span = f" (seq {min(seqs)}-{max(seqs)})" if seqs else ""
    print(f"{path}: {total} record(s){span}, {len(s.good)} good, {len(s.bad)} bad", file=out)
    for bad, _row in s.bad:
        print(f"  bad: {bad.describe()}", file=out)
    for line in s.damage:
        print(f"  damaged: {line}", file=out)
    if s.missing:
        print(f"  missing: {len(s.missing)} record(s) ({_span(s.missing)}) are gone though later records survive "
              "(the storage lost written data)", file=out)
    if s.lost:
        print(f"  lost: {len(s.lost)} committed record(s) ({_span(s.lost)}) are gone from the end: the journal's "
              f"anchor ({anchor_path(path)}) says they were written", file=out)
    if s.quick_check != "ok" and not s.damage:
        print(f"  damaged: SQLite's integrity_check says: {s.quick_check}", file=out)
    if s.dropped_before:
        print(f"  earlier: {len(s.dropped_before)} record(s) dropped (a torn tail or a loss found at a start, or by a repair), "
              f"kept in the 'dropped' table (seq {', '.join(str(r[0]) for r in s.dropped_before[:10])})", file=out)
    if s.clean:
        print("  all good", file=out)
        return 0
    if len(s.bad) == 1 and not s.damage and not s.missing and s.quick_check == "ok" and s.bad[0][0].seq == max(seqs):
        print("  only the last record is bad (a write cut short): the daemon drops it by itself on start", file=out)
    elif s.lost and not s.bad and not s.damage and not s.missing and s.quick_check == "ok":
        print("  the daemon starts on it, records the lost seqs as dropped and tells the host", file=out)
    else:
        print(f"  the daemon refuses this journal; salvage the good records with "
              f"`gametable journal repair {path} NEW_FILE`", file=out)
    return 1


def export(path: str, out: TextIO, err: TextIO) -> int:
    s = salvage(path)
    for *_rest, value in s.good:
        out.write(json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False) + "\n")
    out.flush()
    for bad, _row in s.bad:
        print(f"gametable journal export: skipped {bad.describe()}", file=err)
    for line in s.damage:
        print(f"gametable journal export: {line}", file=err)
    return 0 if not s.bad and not s.damage else 1


def repair(path: str, new: str, out: TextIO, err: TextIO) -> int:
    target = Path(new)
    if target.exists() or Path(f"{new}-wal").exists():
        print(f"gametable journal repair: {new} exists; repair writes a NEW file and never overwrites one", file=err)
        return 2
    if target.resolve() == Path(path).resolve():
        print("gametable journal repair: NEW_FILE must not be FILE (FILE is never edited)", file=err)
        return 2
    s = salvage(path)
    tmp = target.with_name(f".{target.name}.repair-{os.getpid()}")
    for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
        leftover.unlink(missing_ok=True)
    db = sqlite3.connect(tmp, isolation_level=None)
    try:
        db.executescript(SCHEMA)
        db.execute("BEGIN")
        db.executemany("INSERT INTO inputs(seq, ts, cmd_id, body, crc, chain) VALUES (?, ?, ?, ?, ?, ?)",
                       ((seq, ts, cid, body.decode("utf-8"), crc, chain) for seq, ts, cid, body, crc, chain, _v in s.good))
        db.executemany("INSERT OR REPLACE INTO dropped(seq, ts, cmd_id, body, crc, dropped_at, reason) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)",
                       ((seq, ts, as_text(cid), body, crc, at, as_text(why)) for seq, ts, cid, body, crc, at, why
                        in s.dropped_before))
        now = time.time()
        db.executemany("INSERT OR REPLACE INTO dropped(seq, ts, cmd_id, body, crc, dropped_at, reason) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)",
                       ((b.seq, row[1], as_text(row[2]), row[3], row[4], now, f"repair: {b.reason}") for b, row in s.bad))
        db.executemany("INSERT OR REPLACE INTO dropped(seq, ts, cmd_id, body, crc, dropped_at, reason) "
                       "VALUES (?, NULL, NULL, NULL, NULL, ?, ?)",
                       [(seq, now, "repair: missing (the storage lost it)") for seq in s.missing + s.lost]
                       + [(seq, now, "repair: unreadable") for seq in _unreadable(s)])
        db.execute("COMMIT")
        db.execute("PRAGMA journal_mode=WAL")
    finally:
        db.close()
    applied, skipped = _replays(tmp)
    Path(anchor_path(str(tmp))).unlink(missing_ok=True)  # NEW_FILE takes FILE's place, and FILE's anchor
    os.replace(tmp, target)
    print(f"wrote {new}: {len(s.good)} good record(s) of {path}; {path} itself was not changed", file=out)
    for bad, _row in s.bad:
        print(f"  dropped {bad.describe()} (kept in the new file's 'dropped' table)", file=out)
    for line in s.damage:
        print(f"  lost: {line}", file=out)
    if s.missing or s.lost:
        print(f"  lost: {len(s.missing) + len(s.lost)} record(s) the storage lost "
              f"({_span(sorted(s.missing + s.lost))}), kept as dropped seqs (never reused)", file=out)
    if skipped:
        print(f"  {skipped} record(s) no longer apply without the dropped ones; the daemon skips them with a "
              "warning (see `gametable replay` of the new file)", file=out)
    print(f"  {applied} record(s) replay. To use it: stop the daemon, move {path} away (with its -wal and -shm "
          f"files, if any), move {new} to its place",
          file=out)
    return 0


def _unreadable(s: Salvage) -> list[int]:
    """Seqs inside the unreadable stretches: gaps in what was read, not bad, missing nor dropped."""
    have = {g[0] for g in s.good} | {b.seq for b, _row in s.bad} | set(s.missing) | {int(r[0]) for r in s.dropped_before}
    top = max(have, default=0)
    return [seq for seq in range(1, top) if seq not in have] if s.damage else []


def _replays(path: Path) -> tuple[int, int]:
    """(records that apply, records the daemon would skip) when the daemon resumes from ``path``."""
    from controller.table import Table

    quiet = [logging.getLogger("gametable.table"), logging.getLogger("gametable.journal")]
    levels = [q.level for q in quiet]
    for q in quiet:  # the count says it; one warning per skipped record would drown it
        q.setLevel(logging.ERROR)
    journal = Journal(path)
    try:
        applied = Table(journal).load()
        total = sum(1 for _ in journal.records())
    finally:
        for q, level in zip(quiet, levels, strict=True):
            q.setLevel(level)
        journal.close()
    return applied, total - applied


def add_parser(sub: Any) -> None:
    """``gametable journal …`` (hooked into gametable/cli.py)."""
    jp = sub.add_parser("journal", help="check, export or repair a journal file (never edits it in place)")
    jsub = jp.add_subparsers(dest="journal_command", required=True)
    jsub.add_parser("check", help="list bad records; exit 0 if all good, 1 if not").add_argument("file")
    ex = jsub.add_parser("export", help="the good inputs as JSON lines (gametable replay format)")
    ex.add_argument("file")
    ex.add_argument("-o", "--output", help="write here instead of stdout")
    rp = jsub.add_parser("repair", help="write the good records to a NEW journal file and say what was dropped")
    rp.add_argument("file")
    rp.add_argument("new_file")


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    path = args.file
    try:
        if not Path(path).is_file():
            print(f"gametable journal: {path} is not a file", file=err)
            return 2
        if args.journal_command == "check":
            return check(path, out, err)
        if args.journal_command == "export":
            if args.output:
                with open(args.output, "x", encoding="utf-8") as fh:
                    return export(path, fh, err)
            return export(path, out, err)
        return repair(path, args.new_file, out, err)
    except JournalError as exc:
        print(f"gametable journal: {exc}", file=err)
        return 2
    except OSError as exc:
        print(f"gametable journal: {exc.filename or path}: {exc.strerror or exc}", file=err)
        return 2
