"""The journal: every accepted input, appended durably before its effects are published.

SQLite in WAL mode with ``synchronous=FULL``: a commit returns only once the record is on disk, so
an input acknowledged to anyone survives a crash or power cut. Each record carries a CRC32 of its
body. On open the whole file is checked first, read-only: a bad *last* record (a power cut
mid-write on a flaky SD card) is moved to the ``dropped`` table with a warning and everything
before it is kept; a bad record anywhere else, or a page SQLite cannot read, stops the daemon with
a one-line error naming the record and leaves the file exactly as it was (``gametable journal
check|export|repair`` salvage it). Sequence numbers are never reused, not even a dropped one's.
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

log = logging.getLogger("gametable.journal")

SCHEMA = """
CREATE TABLE IF NOT EXISTS inputs (
    seq   INTEGER PRIMARY KEY,
    ts    REAL NOT NULL,
    cmd_id TEXT,
    body  TEXT NOT NULL,
    crc   INTEGER NOT NULL
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
"""

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

    count: int = 0  # records read, good and bad
    last_seq: int = 0  # highest seq read (0: none)
    high_seq: int = 0  # highest seq ever used, dropped records included
    bad: list[BadRecord] = field(default_factory=list)
    damaged: str | None = None  # a page SQLite cannot read: its message and where
    has_inputs: bool = True  # False: a database without an inputs table (new, or not a journal)

    @property
    def torn_tail(self) -> BadRecord | None:
        """The one bad record the daemon may drop by itself: the last one, all else intact."""
        if self.damaged is None and len(self.bad) == 1 and self.bad[0].seq == self.last_seq:
            return self.bad[0]
        return None

    def fatal(self, path: str) -> str | None:
        """One line for a damage the daemon must not repair by itself, or None."""
        if self.damaged is not None:
            return (f"journal {path} is damaged ({self.damaged}); the file was not changed: "
                    f"see `gametable journal check {path}`, salvage with `gametable journal repair`")
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


def scan_rows(db: sqlite3.Connection) -> Scan:
    """Check every record in seq order on a connection whose ``text_factory`` is ``bytes``
    (a flipped bit may leave a body that is not UTF-8: SQLite would refuse to return it as str).
    The good path is inlined: every daemon start runs it over the whole journal."""
    scan = Scan()
    crc32, decode = zlib.crc32, bytes.decode
    try:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'inputs'").fetchone():
            scan.has_inputs = False
            return scan
        for seq, body, crc in db.execute("SELECT seq, body, crc FROM inputs ORDER BY seq"):
            scan.count += 1
            scan.last_seq = seq
            try:
                if type(body) is bytes and crc32(body) == crc and type(parse_body(decode(body))) is dict:
                    continue
            except ValueError:
                pass
            reason, _value = check_body(body, crc)
            row = db.execute("SELECT cmd_id FROM inputs WHERE seq = ?", (seq,)).fetchone()
            scan.bad.append(BadRecord(seq, scan.count, as_text(row[0]) if row else None, reason or "bad"))
        scan.high_seq = scan.last_seq
        if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'dropped'").fetchone():
            row = db.execute("SELECT MAX(seq) FROM dropped").fetchone()
            scan.high_seq = max(scan.high_seq, int(row[0] or 0))
        row = db.execute("PRAGMA quick_check(1)").fetchone()  # pages the scan did not read (the id index)
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


def inspect(path: str | Path) -> Scan:
    """Check a journal file read-only (``gametable journal check``, and every daemon start)."""
    db = open_readonly(path)
    try:
        return scan_rows(db)
    finally:
        db.close()


class Journal:
    """Append-only input log. One writer (the daemon); readers may replay at any time."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock_fd: int | None = None
        self._secret: bytes | None = None
        self.dropped: list[int] = []  # seqs of the torn record dropped at this open
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
        db = None
        try:
            if existed and not empty:
                scan = inspect(self.path)  # read-only: a journal we must not repair stays untouched
                problem = scan.fatal(self.path)
                if problem is not None:
                    raise JournalError(problem)
                torn, high_seq = scan.torn_tail, scan.high_seq
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(SCHEMA)
            if torn is not None:
                _move_to_dropped(db, torn)
        except sqlite3.DatabaseError as exc:
            if db is not None:
                db.close()
            self._unlock()
            raise JournalError(f"cannot open journal {self.path}: {exc}") from exc
        except BaseException:
            if db is not None:
                db.close()
            self._unlock()
            raise
        self._db = db
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
        row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM inputs").fetchone()
        self._last_seq = max(int(row[0]), high_seq)

    @property
    def last_seq(self) -> int:
        """The highest seq ever given out, a dropped record's included: never reused."""
        return self._last_seq

    def append(self, inp: dict[str, Any], ts: float, cmd_id: str | None = None) -> int:
        """Durably append one input; returns its sequence number once it is on disk."""
        body = json.dumps(inp, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
        seq = self._last_seq + 1
        try:
            self._db.execute(
                "INSERT INTO inputs(seq, ts, cmd_id, body, crc) VALUES (?, ?, ?, ?, ?)",
                (seq, ts, cmd_id, body, _crc(body)),
            )
        except sqlite3.Error as exc:
            raise JournalError(f"cannot append to journal {self.path}: {exc}") from exc
        self._last_seq = seq
        return seq

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
        self._unlock()  # after SQLite is closed: closing an fd of the file drops SQLite's own locks

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None


def _move_to_dropped(db: sqlite3.Connection, bad: BadRecord) -> None:
    """Keep the torn record's bytes (nothing is deleted outright) and its seq (never reused)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("INSERT OR REPLACE INTO dropped(seq, ts, cmd_id, body, crc, dropped_at, reason) "
                   "SELECT seq, ts, cmd_id, CAST(body AS BLOB), crc, ?, ? FROM inputs WHERE seq = ?",
                   (time.time(), bad.reason, bad.seq))
        db.execute("DELETE FROM inputs WHERE seq = ?", (bad.seq,))
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
