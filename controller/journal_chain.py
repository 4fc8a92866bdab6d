"""The journal's chain and its anchor: a loss of committed records shows instead of hiding.

Each record stores ``chain = H(previous record's chain, seq, ts, id, body)``, so a record that is
changed, or missing between two others, breaks the chain. A lost *tail* leaves a shorter chain that
is still whole: a cheap SD card that drops synced WAL pages loses the last commits silently. So
after every commit the last record's seq and chain are also written to a small side file, the
anchor (``<journal>.anchor``), which the WAL cannot take with it: a journal that ends before its
anchor lost the records in between (docs/journal.md).

The anchor is two fixed 64-byte slots written alternately in place (``pwrite`` + ``fdatasync``,
one sync per append; no rename, no directory sync): a write torn by a power cut spoils one slot,
and the other still holds the record before, which the journal has.
"""

from __future__ import annotations

import hashlib
import os
import struct
import zlib
from dataclasses import dataclass

GENESIS = bytes(16)  # the "previous chain" of a journal's first chained record
SLOT = 64
MAGIC = b"GTJA"  # gametable journal anchor, format 1
_PACK = struct.Struct(">4sq16s")  # magic, seq, chain; then a CRC32 of those 28 bytes


def link(previous: bytes, seq: int, ts: float, cmd_id: bytes | None, body: bytes) -> bytes:
    """The chain value of one record (16 bytes of BLAKE2b: fast, and no collision by accident),
    over the UTF-8 bytes SQLite stores."""
    h = hashlib.blake2b(previous, digest_size=16)
    h.update(struct.pack(">qd", seq, ts))
    h.update(b"\0" if cmd_id is None else b"\1" + cmd_id + b"\0")
    h.update(body)
    return h.digest()


@dataclass(frozen=True)
class Mark:
    """What the anchor says: the last record committed, and its chain value."""

    seq: int
    chain: bytes


def anchor_path(journal: str) -> str:
    return journal + ".anchor"


def _decode(slot: bytes) -> Mark | None:
    if len(slot) < _PACK.size + 4:
        return None
    head = slot[:_PACK.size]
    if zlib.crc32(head) != int.from_bytes(slot[_PACK.size:_PACK.size + 4], "big"):
        return None
    magic, seq, chain = _PACK.unpack(head)
    return Mark(seq, chain) if magic == MAGIC and seq > 0 else None


def read_anchor(path: str) -> Mark | None:
    """The newest valid slot of the anchor file, or None (no file yet, or both slots bad)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(2 * SLOT)
    except FileNotFoundError:
        return None
    marks = [m for m in (_decode(data[:SLOT]), _decode(data[SLOT:2 * SLOT])) if m is not None]
    return max(marks, key=lambda m: m.seq, default=None)


class Anchor:
    """The writer's open anchor file."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)

    def write(self, mark: Mark) -> None:
        """Durably record ``mark`` (in the slot the previous mark is not in)."""
        self._put(mark.seq % 2, mark)
        os.fdatasync(self._fd)

    def reset(self, mark: Mark) -> None:
        """Both slots say ``mark``: after a loss was recorded, the old higher mark must not linger."""
        self._put(0, mark)
        self._put(1, mark)
        os.fdatasync(self._fd)

    def clear(self) -> None:
        """No mark at all: the journal it named is gone, a new one starts from seq 1."""
        os.ftruncate(self._fd, 0)
        os.fsync(self._fd)

    def _put(self, index: int, mark: Mark) -> None:
        head = _PACK.pack(MAGIC, mark.seq, mark.chain)
        os.pwrite(self._fd, (head + zlib.crc32(head).to_bytes(4, "big")).ljust(SLOT, b"\0"), index * SLOT)

    def close(self) -> None:
        os.close(self._fd)
