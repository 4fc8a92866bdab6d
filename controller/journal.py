"""The journal: every accepted input, appended durably before its effects are published.

SQLite in WAL mode with ``synchronous=FULL``: a commit returns only once the record is on disk, so
an input acknowledged to anyone survives a crash or power cut. Each record carries a CRC32 of its
body and a chain value over it and the record before (:mod:`controller.journal_chain`); the last
record's seq and chain also go to a side file, the anchor, so storage that loses committed pages
shows it at the next open instead of hiding it. The table stores a snapshot (its effective inputs)
with every ``new_game``, so a start replays the current games, never all history (docs/journal.md).

On open the records since the latest snapshot are checked first, read-only: a bad *last* record
(a power cut mid-write on a flaky SD card) is moved to the ``dropped`` table with a warning and
everything before it is kept; a bad record anywhere else, a record missing between two others, or
a page SQLite cannot read, stops the daemon with a one-line error naming the record and leaves the
file exactly as it was (``gametable journal check|export|repair`` check all of it and salvage it).
Records the anchor proves were committed but are gone are named, kept as ``lost`` rows of the
``dropped`` table, and told to the host. Sequence numbers are never reused, not even a dropped one's.
"""

from __future__ import annotations

import fcntl
import json
import json.scanner
import logging
import os
import sqlite3
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.journal_chain import GENESIS, Anchor, Mark, anchor_path, link, read_anchor

log = logging.getLogger("gametable.journal")

SCHEMA = """
CREATE TABLE IF NOT EXISTS inputs (
    seq   INTEGER PRIMARY KEY,
    ts    REAL NOT NULL,
    cmd_id TEXT,
    body  TEXT NOT NULL,
    crc   INTEGER NOT NULL,
    chain BLOB
);
CREATE INDEX IF NOT EXISTS inputs_cmd_id ON inputs(cmd_id);
CREATE TABLE IF NOT EXISTS dropped (
    seq   INTEGER PRIMARY KEY,
    ts    REAL,
    cmd_id TEXT,
    body,
    crc   INTEGER,
    dropped_at REAL NOT NULL,
    reason TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
    seq   INTEGER PRIMARY KEY,
    body  BLOB NOT NULL,
    crc   INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS finished (
    game_seq INTEGER PRIMARY KEY,
    end_seq  INTEGER NOT NULL,
    body     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS finished_end ON finished(end_seq);
"""
LOST_REASON = "lost: committed (the anchor holds its seq), then gone from the file: the storage lost written data"
SNAPSHOT_TRIES = 8  # a bad latest snapshot falls back to the one before, this many times

SQLITE_MAGIC = b"SQLite format 3\x00"
SECRET_BYTES = 32


class JournalError(RuntimeError):
    """The journal cannot be opened or written (disk full, file not a database …)."""


class JournalBusy(JournalError):
    """Another gametable process holds the journal: worth retrying later (systemd may)."""


@dataclass(frozen=True)
class Record:
    seq: int
    ts: float
    cmd_id: str | None
    input: dict[str, Any]


def _crc(body: str) -> int:
    return zlib.crc32(body.encode("utf-8"))


# typeshed declares make_scanner's context as a make_scanner; CPython takes the decoder (json.decoder
# itself passes ``self``), so the ignore is for the stub only.
_scan_once = json.scanner.make_scanner(json.JSONDecoder())  # type: ignore[arg-type]


def parse_body(body: str) -> Any:
    """``json.loads(body)``, about 3x faster for the bodies ``append`` writes (no surrounding
    whitespace): a restart parses every record twice (check, then replay). The C scanner is
    what ``json.loads`` itself runs; anything it does not consume whole goes to ``json.loads``,
    so the result, or the error, is exactly that of ``json.loads``."""
    try:
        value, end = _scan_once(body, 0)
    except StopIteration:  # leading whitespace, a BOM, or not JSON: json.loads says which
        return json.loads(body)
    if end != len(body):  # trailing whitespace or extra data
        return json.loads(body)
    return value


@dataclass(frozen=True)
class BadRecord:
    """A record whose stored bytes are not what was written (bit rot, a torn write)."""

    seq: int
    position: int  # 1-based place in seq order (record 5 of 400)
    cmd_id: str | None
    reason: str

    def describe(self) -> str:
        who = f", id {self.cmd_id!r}" if self.cmd_id is not None else ""
        return f"record seq {self.seq} (#{self.position}{who}): {self.reason}"


@dataclass
class Scan:
    """What a read-only pass over a journal found."""

    count: int = 0  # records read, good and bad (with ``start``: and the records before it)
    last_seq: int = 0  # highest seq read (0: none)
    high_seq: int = 0  # highest seq ever used, dropped records included
    bad: list[BadRecord] = field(default_factory=list)
    missing: list[tuple[int, int]] = field(default_factory=list)  # seq spans gone between two records
    damaged: str | None = None  # a page SQLite cannot read: its message and where
    has_inputs: bool = True  # False: a database without an inputs table (new, or not a journal)
    start: int = 0  # the seq the scan began at (the latest snapshot's; 0: the whole journal)

    @property
    def torn_tail(self) -> BadRecord | None:
        """The one bad record the daemon may drop by itself: the last one, all else intact."""
        if self.damaged is None and not self.missing and len(self.bad) == 1 and self.bad[0].seq == self.last_seq:
            return self.bad[0]
        return None

    def fatal(self, path: str) -> str | None:
        """One line for a damage the daemon must not repair by itself, or None."""
        if self.damaged is not None:
            return (f"journal {path} is damaged ({self.damaged}); the file was not changed: "
                    f"see `gametable journal check {path}`, salvage with `gametable journal repair`")
        if self.missing:
            low, high = self.missing[0]
            return (f"journal {path}: records seq {low}-{high} are missing though later records survive "
                    f"(the storage lost written data); the file was not changed: see `gametable journal check "
                    f"{path}`, salvage with `gametable journal repair {path} NEW_FILE`")
        if self.bad and self.torn_tail is None:
            first = self.bad[0]
            more = f" and {len(self.bad) - 1} more bad record(s)" if len(self.bad) > 1 else ""
            return (f"journal {path}: {first.describe()}{more}, with {self.count - first.position} record(s) "
                    f"after it; the file was not changed: see `gametable journal check {path}`, salvage "
                    f"with `gametable journal repair {path} NEW_FILE`")
        return None


def check_body(body: bytes | str | None, crc: Any) -> tuple[str | None, dict[str, Any] | None]:
    """(why the stored record is bad or None, the input when good)."""
    if isinstance(body, str):
        body = body.encode("utf-8", "surrogatepass")
    if not isinstance(body, bytes):
        return f"body is {type(body).__name__}, not text", None
    if zlib.crc32(body) != crc:
        return "CRC mismatch (the stored body is not what was written)", None
    try:
        value = parse_body(body.decode("utf-8"))
    except ValueError as exc:  # (UnicodeDecodeError is a ValueError)
        return f"body is not JSON ({exc})", None
    if not isinstance(value, dict):
        return f"body is a JSON {type(value).__name__}, not an input object", None
    return None, value


def as_text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _has_table(db: sqlite3.Connection, name: str) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone() is not None


def has_chain_column(db: sqlite3.Connection) -> bool:
    """Journals written before the chain have no ``chain`` column (it is added at their next open)."""
    return any(as_text(row[1]) == "chain" for row in db.execute("PRAGMA table_info(inputs)"))


def dropped_seqs(db: sqlite3.Connection) -> set[int]:
    return {int(r[0]) for r in db.execute("SELECT seq FROM dropped")} if _has_table(db, "dropped") else set()


@dataclass
class ChainCheck:
    """Walks records in seq order: each must chain to the one before it (the journal's first, and
    the first after records written before the chain existed, to GENESIS) unless every seq between
    them is a known, reported loss (a ``dropped`` row: a torn tail, a repair, a loss)."""

    dropped: set[int]
    prev_seq: int | None = 0  # None: unknown (after an unreadable stretch): the next record is a new base
    prev_chain: bytes | None = GENESIS  # None: the record before has no chain (written before the chain)

    def step(self, seq: int, ts: Any, cmd_id: Any, body: bytes, chain: Any) -> tuple[str | None, tuple[int, int] | None]:
        """(why this record breaks the chain or None, a span of seqs missing before it or None)."""
        prev_seq, prev_chain = self.prev_seq, self.prev_chain
        self.prev_seq, self.prev_chain = seq, chain if isinstance(chain, bytes) else None
        if prev_seq is None:
            return None, None
        gap = range(prev_seq + 1, seq)
        if gap:
            if prev_seq == 0 or all(s in self.dropped for s in gap):
                return None, None  # the journal's first seqs, or after a known loss: the chain starts afresh
            missing = [s for s in gap if s not in self.dropped]
            return None, (missing[0], missing[-1])
        if not isinstance(chain, bytes):
            if prev_seq > 0 and prev_chain is not None:
                return "no chain value after a chained record (the row was changed)", None
            return None, None  # written before the chain existed
        cid = cmd_id if isinstance(cmd_id, bytes) or cmd_id is None else str(cmd_id).encode("utf-8")
        base = GENESIS if prev_chain is None else prev_chain
        if not isinstance(ts, int | float) or link(base, seq, float(ts), cid, body) != chain:
            return "chain mismatch (its id, time or body is not what was written)", None
        return None, None


def chain_before(db: sqlite3.Connection, seq: int, chained: bool) -> tuple[int, bytes | None]:
    """(seq, chain) of the record before ``seq``: where a check that starts at ``seq`` links from."""
    if not chained:
        return 0, GENESIS
    row = db.execute("SELECT seq, chain FROM inputs WHERE seq < ? ORDER BY seq DESC LIMIT 1", (seq,)).fetchone()
    if row is None:
        return 0, GENESIS
    return int(row[0]), row[1] if isinstance(row[1], bytes) else None


def latest_snapshot(db: sqlite3.Connection) -> tuple[int, dict[str, Any]] | None:
    """The newest snapshot whose record is in the journal and whose bytes are what was written."""
    if not _has_table(db, "snapshots"):
        return None
    rows = db.execute("SELECT s.seq, s.body, s.crc FROM snapshots s JOIN inputs i ON i.seq = s.seq "
                      "ORDER BY s.seq DESC LIMIT ?", (SNAPSHOT_TRIES,)).fetchall()
    for seq, body, crc in rows:
        try:  # zlib-compressed JSON: a tenth of the size, and no second copy of any record's bytes
            reason, value = check_body(zlib.decompress(body), crc) if isinstance(body, bytes) else ("not bytes", None)
        except zlib.error as exc:
            reason, value = f"not zlib data ({exc})", None
        if value is not None:
            return int(seq), value
        log.warning("journal snapshot at seq %d is bad (%s); using an earlier one", seq, reason)
    return None


def scan_rows(db: sqlite3.Connection, *, full: bool = True) -> Scan:
    """Check records in seq order on a connection whose ``text_factory`` is ``bytes`` (a flipped
    bit may leave a body that is not UTF-8: SQLite would refuse to return it as str): the whole
    journal (``full``), or the daemon's start: from the latest snapshot on, all it replays.
    The good path is inlined: every daemon start runs it."""
    scan = Scan()
    crc32, decode = zlib.crc32, bytes.decode
    try:
        if not _has_table(db, "inputs"):
            scan.has_inputs = False
            return scan
        snapshot = None if full else latest_snapshot(db)
        scan.start = snapshot[0] if snapshot else 0
        chained = has_chain_column(db)
        chain = ChainCheck(dropped_seqs(db), *chain_before(db, scan.start, chained))
        query = ("SELECT seq, body, crc, ts, cmd_id, chain FROM inputs WHERE seq >= ? ORDER BY seq" if chained else
                 "SELECT seq, body, crc, ts, cmd_id, NULL FROM inputs WHERE seq >= ? ORDER BY seq")
        for seq, body, crc, ts, cmd_id, value in db.execute(query, (scan.start,)):
            scan.count += 1
            scan.last_seq = seq
            broken, gone = chain.step(seq, ts, cmd_id, body if type(body) is bytes else b"", value)
            if gone is not None:
                scan.missing.append(gone)
            try:
                if broken is None and type(body) is bytes and crc32(body) == crc \
                        and type(parse_body(decode(body))) is dict:
                    continue
            except ValueError:
                pass
            reason, _value = check_body(body, crc)
            scan.bad.append(BadRecord(seq, scan.count, as_text(cmd_id), reason or broken or "bad"))
        scan.high_seq = scan.last_seq
        if _has_table(db, "dropped"):
            row = db.execute("SELECT MAX(seq) FROM dropped").fetchone()
            scan.high_seq = max(scan.high_seq, int(row[0] or 0))
        if scan.start and (scan.bad or scan.missing):  # number them from the journal's first record
            before = int(db.execute("SELECT COUNT(*) FROM inputs WHERE seq < ?", (scan.start,)).fetchone()[0])
            scan.count += before
            scan.bad = [BadRecord(b.seq, b.position + before, b.cmd_id, b.reason) for b in scan.bad]
        if not scan.start:  # pages the scan did not read (the id index); a start from a snapshot
            row = db.execute("PRAGMA quick_check(1)").fetchone()  # leaves it to `journal check`
            if row and row[0] not in (b"ok", "ok"):
                scan.damaged = "SQLite's quick_check: " + " ".join((as_text(row[0]) or "").split())
    except sqlite3.DatabaseError as exc:
        where = f"after record seq {scan.last_seq}" if scan.count else "before the first record"
        scan.damaged = f"{exc}, {where}"
    return scan


def open_readonly(path: str | Path) -> sqlite3.Connection:
    """A read-only connection: it never writes the file (no WAL checkpoint on close either), so
    a damaged journal can be looked at, exported and salvaged exactly as it is."""
    # Closed cleanly (no WAL to read, no -shm: no connection open), `immutable` keeps SQLite from
    # even creating the side files; otherwise a normal read-only connection, safe beside a writer.
    closed = not _has_bytes(f"{path}-wal") and not os.path.exists(f"{path}-shm")
    uri = Path(path).resolve().as_uri() + ("?mode=ro&immutable=1" if closed else "?mode=ro")
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        db.text_factory = bytes
        db.execute("SELECT name FROM sqlite_master").fetchall()  # "file is not a database" here
    except sqlite3.DatabaseError as exc:
        raise JournalError(f"cannot open journal {path}: {exc}; if it is not a journal, "
                           "move it away to start a new one") from exc
    return db


def inspect(path: str | Path, *, full: bool = True) -> Scan:
    """Check a journal file read-only (all of it, or from its latest snapshot: a daemon start)."""
    db = open_readonly(path)
    try:
        return scan_rows(db, full=full)
    finally:
        db.close()


class Journal:
    """Append-only input log. One writer (the daemon); readers may replay at any time."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock_fd: int | None = None
        self._secret: bytes | None = None
        self._anchor: Anchor | None = None
        self.dropped: list[int] = []  # seqs of the torn record dropped at this open
        self.lost: list[int] = []  # seqs the anchor proves were committed and this open found gone
        self.notice: dict[str, Any] | None = None  # what the host must be told about this open
        memory = self.path == ":memory:"
        existed = empty = False
        if not memory:
            file = Path(self.path)
            file.parent.mkdir(parents=True, exist_ok=True)
            existed = file.is_file()
            empty = existed and file.stat().st_size == 0 and not _has_bytes(self.path + "-wal")
            self._lock_fd = _lock(self.path)
        torn: BadRecord | None = None
        high_seq = 0
        vanished: int | None = None
        db = None
        try:
            if existed and not empty:
                # read-only, from the latest snapshot on: a journal we must not repair stays untouched
                scan = inspect(self.path, full=False)
                problem = scan.fatal(self.path)
                if problem is not None:
                    raise JournalError(problem)
                torn, high_seq = scan.torn_tail, scan.high_seq
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(SCHEMA)
            if not has_chain_column(db):  # a journal from before the chain: its old records stay unchained
                db.execute("ALTER TABLE inputs ADD COLUMN chain BLOB")
            if torn is not None:
                _move_to_dropped(db, torn)
            if not memory:
                self._anchor = Anchor(anchor_path(self.path))
                self.lost, vanished = _reconcile(db, self.path, self._anchor, existed and not empty)
        except sqlite3.DatabaseError as exc:
            self._close_all(db)
            raise JournalError(f"cannot open journal {self.path}: {exc}") from exc
        except OSError as exc:  # the anchor file (a read-only or full disk)
            self._close_all(db)
            raise JournalError(f"cannot open the journal's anchor {anchor_path(self.path)}: "
                               f"{exc.strerror or exc}") from None
        except BaseException:
            self._close_all(db)
            raise
        self._db = db
        self._tell(torn, empty, vanished)
        row = self._db.execute("SELECT seq, chain FROM inputs ORDER BY seq DESC LIMIT 1").fetchone()
        self._chain: bytes = row[1] if row is not None and isinstance(row[1], bytes) else GENESIS
        high = self._db.execute("SELECT MAX(seq) FROM dropped").fetchone()[0] or 0
        self._last_seq = max(int(row[0]) if row is not None else 0, high_seq, int(high))

    def _tell(self, torn: BadRecord | None, empty: bool, vanished: int | None) -> None:
        """The log lines and the host's ``notice`` for what this open found."""
        if torn is not None:
            self.dropped = [torn.seq]
            self.notice = {"dropped": self.dropped, "warning": "torn journal tail dropped"}
            log.warning("journal %s: record %d is torn or corrupted; dropping it (the last record, a write "
                        "cut short: %s); its bytes are kept in the 'dropped' table, everything before it is kept",
                        self.path, torn.seq, torn.describe())
        elif empty:
            self.notice = {"dropped": [], "warning": "journal file was empty (0 bytes): a new journal was started"}
            log.warning("journal %s was an empty file (0 bytes): starting a NEW journal in it; if it held "
                        "games, stop the daemon and restore the file from a backup", self.path)
        if self.lost:
            self.notice = lost_notice(self.lost, self.dropped)
            log.error("journal %s: %s", self.path, self.notice["warning"])
        if vanished is not None:
            before = (self.notice or {}).get("warning")
            self.notice = {"dropped": [], "lost": [1, vanished], "count": vanished,
                           "warning": (f"{before}; " if before else "") + f"its anchor names input #{vanished}: "
                           "the journal before this one was lost (deleted or emptied); restore it from a backup if "
                           "it held games"}
            log.error("journal %s is new, but its anchor %s names input #%d: the journal before it was lost "
                      "(deleted or emptied); restore it from a backup if it held games",
                      self.path, anchor_path(self.path), vanished)

    def _close_all(self, db: sqlite3.Connection | None) -> None:
        if db is not None:
            db.close()
        if self._anchor is not None:
            self._anchor.close()
            self._anchor = None
        self._unlock()

    @property
    def last_seq(self) -> int:
        """The highest seq ever given out, a dropped record's included: never reused."""
        return self._last_seq

    def append(self, inp: dict[str, Any], ts: float, cmd_id: str | None = None,
               snapshot: dict[str, Any] | None = None) -> int:
        """Durably append one input (with the table's ``snapshot`` after it, in the same commit);
        returns its sequence number once it is on disk."""
        body = json.dumps(inp, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
        seq = self._last_seq + 1
        raw = body.encode("utf-8")
        chain = link(self._chain, seq, ts, None if cmd_id is None else cmd_id.encode("utf-8"), raw)
        row = (seq, ts, cmd_id, body, zlib.crc32(raw), chain)
        try:
            if snapshot is None:
                self._db.execute("INSERT INTO inputs(seq, ts, cmd_id, body, crc, chain) VALUES (?, ?, ?, ?, ?, ?)", row)
            else:
                with self._transaction():
                    self._db.execute("INSERT INTO inputs(seq, ts, cmd_id, body, crc, chain) VALUES (?, ?, ?, ?, ?, ?)",
                                     row)
                    self._put_snapshot(seq, snapshot)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot append to journal {self.path}: {exc}") from exc
        self._last_seq, self._chain = seq, chain
        self._mark(Mark(seq, chain))
        return seq

    def _mark(self, mark: Mark) -> None:
        """The anchor follows the commit: behind by one after a crash between the two is harmless,
        ahead would be a false alarm. A failed write is logged, not raised: the input is durable."""
        if self._anchor is None:
            return
        try:
            self._anchor.write(mark)
        except OSError as exc:
            log.error("journal %s: cannot write its anchor (%s): a loss of the last inputs could go unnoticed",
                      self.path, exc.strerror or exc)

    def save_snapshot(self, seq: int, snapshot: dict[str, Any]) -> None:
        """A snapshot for an input already journalled (a start that replayed many records)."""
        try:
            with self._transaction():
                self._put_snapshot(seq, snapshot)
        except sqlite3.Error as exc:
            log.error("journal %s: cannot store a snapshot (%s); the next start replays more", self.path, exc)

    def _put_snapshot(self, seq: int, snapshot: dict[str, Any]) -> None:
        raw = json.dumps(snapshot, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode("utf-8")
        self._db.execute("INSERT OR REPLACE INTO snapshots(seq, body, crc) VALUES (?, ?, ?)",
                         (seq, zlib.compress(raw, 6), zlib.crc32(raw)))

    def snapshot(self) -> tuple[int, dict[str, Any]] | None:
        """(seq, the table's snapshot after that record) for the newest good one, or None."""
        return latest_snapshot(self._db)

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    # --- finished games (controller/finished_games.py) ------------------------------------------
    # Derived from the inputs (a game's final public state, keyed by its new_game's seq), kept so a
    # venue that missed a result can fetch it without the table replaying its history.
    def opening(self, cmd_id: str | None, body: dict[str, Any]) -> tuple[int, float] | None:
        """(seq, ts) of the newest journalled ``new_game`` with this id (or, without one, this input)."""
        try:
            if cmd_id is not None:
                row = self._db.execute("SELECT seq, ts FROM inputs WHERE cmd_id = ? ORDER BY seq DESC LIMIT 1",
                                       (cmd_id,)).fetchone()
            else:
                text = json.dumps(body, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
                row = self._db.execute("SELECT seq, ts FROM inputs WHERE body = ? ORDER BY seq DESC LIMIT 1",
                                       (text,)).fetchone()
        except sqlite3.Error as exc:
            raise JournalError(f"cannot read journal {self.path}: {exc}") from exc
        return (int(row[0]), float(row[1])) if row is not None else None

    def put_finished(self, game_seq: int, end_seq: int, record: dict[str, Any]) -> None:
        body = json.dumps(record, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
        try:
            self._db.execute("INSERT OR REPLACE INTO finished(game_seq, end_seq, body) VALUES (?, ?, ?)",
                             (game_seq, end_seq, body))
        except sqlite3.Error as exc:
            raise JournalError(f"cannot write journal {self.path}: {exc}") from exc

    def drop_finished(self, game_seq: int) -> None:
        try:
            self._db.execute("DELETE FROM finished WHERE game_seq = ?", (game_seq,))
        except sqlite3.Error as exc:
            raise JournalError(f"cannot write journal {self.path}: {exc}") from exc

    def has_finished(self, game_seq: int) -> bool:
        try:
            return self._db.execute("SELECT 1 FROM finished WHERE game_seq = ?", (game_seq,)).fetchone() is not None
        except sqlite3.Error as exc:
            raise JournalError(f"cannot read journal {self.path}: {exc}") from exc

    def finished_after(self, end_seq: int, limit: int) -> tuple[list[tuple[int, dict[str, Any]]], int]:
        """Up to ``limit`` finished games that ended after ``end_seq``, oldest first, as (end_seq,
        record); and the newest end_seq held (0: none)."""
        try:
            rows = self._db.execute("SELECT end_seq, body FROM finished WHERE end_seq > ? ORDER BY end_seq LIMIT ?",
                                    (end_seq, limit)).fetchall()
            newest = self._db.execute("SELECT MAX(end_seq) FROM finished").fetchone()[0] or 0
        except sqlite3.Error as exc:
            raise JournalError(f"cannot read journal {self.path}: {exc}") from exc
        return [(int(e), json.loads(b)) for e, b in rows], int(newest)

    def records(self, after: int = 0) -> Iterator[Record]:
        cursor = self._db.execute(
            "SELECT seq, ts, cmd_id, body, crc FROM inputs WHERE seq > ? ORDER BY seq", (after,)
        )
        for seq, ts, cmd_id, body, _crc_value in cursor:
            yield Record(seq, ts, cmd_id, parse_body(body))

    def has_id(self, cmd_id: str) -> bool:
        try:
            row = self._db.execute("SELECT 1 FROM inputs WHERE cmd_id = ? LIMIT 1", (cmd_id,)).fetchone()
        except sqlite3.Error as exc:  # a page gone bad since the start: refuse, do not crash
            raise JournalError(f"cannot read journal {self.path}: {exc}") from exc
        return row is not None

    def secret(self) -> bytes:
        """This table's secret (a file next to the journal, made once): ``new_game`` seeds are
        derived from it and the command id, so a redelivered command deals the same cards."""
        if self._secret is None:
            self._secret = os.urandom(SECRET_BYTES) if self.path == ":memory:" else load_secret(self.path + ".secret")
        return self._secret

    def close(self) -> None:
        self._db.close()
        if self._anchor is not None:
            self._anchor.close()
            self._anchor = None
        self._unlock()  # after SQLite is closed: closing an fd of the file drops SQLite's own locks

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any error (the connection is in autocommit mode)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: Any, *_rest: Any) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


def lost_notice(lost: list[int], torn: list[int]) -> dict[str, Any]:
    """The retained ``sensors/journal`` payload (the host's panel shows ``warning``) for a loss."""
    span = f"#{lost[0]}" if len(lost) == 1 else f"#{lost[0]}-#{lost[-1]}"
    also = f"; input #{torn[0]} was torn and dropped" if torn else ""
    return {"dropped": [], "lost": [lost[0], lost[-1]], "count": len(lost),
            "warning": f"{len(lost)} committed input(s) ({span}) were lost from the journal (the storage lost "
                       f"written data){also}: check the state"}


MAX_LOST = 1_000_000  # an anchor further ahead than this belongs to another journal


def _reconcile(db: sqlite3.Connection, path: str, anchor: Anchor, had_records: bool) -> tuple[list[int], int | None]:
    """Compare the journal's end with its anchor: record the seqs it proves lost as ``lost`` rows
    of ``dropped`` (never reused; ``journal check`` names them), then anchor the journal's end.
    Returns (those seqs, the anchor's seq when the journal is new but an anchor was there: the
    journal before it was deleted or emptied)."""
    mark = read_anchor(anchor.path)
    row = db.execute("SELECT seq, chain FROM inputs ORDER BY seq DESC LIMIT 1").fetchone()
    last_seq, last_chain = (int(row[0]), row[1]) if row is not None else (0, None)
    lost: list[int] = []
    if row is None and db.execute("SELECT 1 FROM dropped LIMIT 1").fetchone() is None:
        if mark is not None:  # a new (or emptied) journal beside the anchor of the one before it
            anchor.clear()
            return [], mark.seq
        return [], None
    if mark is None:
        if had_records and isinstance(last_chain, bytes):
            log.warning("journal %s has no anchor file %s (deleted, or the journal was copied here): whether its "
                        "last inputs were lost cannot be told this once; a new anchor was made", path, anchor.path)
    elif mark.seq > last_seq and mark.seq - last_seq <= MAX_LOST:
        known = {int(r[0]) for r in db.execute("SELECT seq FROM dropped WHERE seq > ?", (last_seq,))}
        lost = [s for s in range(last_seq + 1, mark.seq + 1) if s not in known]
        if lost:
            with _Transaction(db):
                db.executemany("INSERT INTO dropped(seq, ts, cmd_id, body, crc, dropped_at, reason) "
                               "VALUES (?, NULL, NULL, NULL, NULL, ?, ?)", ((s, time.time(), LOST_REASON) for s in lost))
    elif mark.seq <= last_seq:
        at = db.execute("SELECT chain FROM inputs WHERE seq = ?", (mark.seq,)).fetchone()
        if at is not None and isinstance(at[0], bytes) and at[0] != mark.chain:
            log.warning("journal %s: record %d is not the one its anchor names (was the journal file replaced?)",
                        path, mark.seq)
    else:
        log.warning("journal %s: its anchor names seq %d, far past the journal's last (%d): another journal's "
                    "anchor? a new one was made", path, mark.seq, last_seq)
    if isinstance(last_chain, bytes) and mark != Mark(last_seq, last_chain):
        anchor.reset(Mark(last_seq, last_chain))
    return lost, None


def _move_to_dropped(db: sqlite3.Connection, bad: BadRecord) -> None:
    """Keep the torn record's bytes (nothing is deleted outright) and its seq (never reused)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("INSERT OR REPLACE INTO dropped(seq, ts, cmd_id, body, crc, dropped_at, reason) "
                   "SELECT seq, ts, cmd_id, CAST(body AS BLOB), crc, ?, ? FROM inputs WHERE seq = ?",
                   (time.time(), bad.reason, bad.seq))
        db.execute("DELETE FROM inputs WHERE seq = ?", (bad.seq,))
        db.execute("DELETE FROM snapshots WHERE seq >= ?", (bad.seq,))  # it may hold the torn input
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _has_bytes(path: str) -> bool:
    try:
        return os.path.getsize(path) > 0
    except OSError:
        return False


def load_secret(path: str) -> bytes:
    """Read the table secret, or create it once (atomically: a power cut leaves none or all)."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        data = b""
    except OSError as exc:
        raise JournalError(f"cannot read the table secret {path}: {exc.strerror or exc}") from None
    if len(data) >= SECRET_BYTES:
        return data[:SECRET_BYTES]
    data = os.urandom(SECRET_BYTES)
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        dir_fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError as exc:
        raise JournalError(f"cannot write the table secret {path}: {exc.strerror or exc}") from None
    return data


def _lock(path: str) -> int:
    """One writer per journal: a second daemon on the same file (systemd plus a manual
    ``gametable run``) would fight the first over MQTT and fork the game. The kernel releases
    the lock when the process dies, so a restart after ``kill -9`` or a power cut just works."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise JournalError(f"cannot open journal {path}: {exc.strerror or exc}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise JournalBusy(f"journal {path} is in use by another gametable process "
                           "(only one daemon may write a journal)") from None
    return fd
