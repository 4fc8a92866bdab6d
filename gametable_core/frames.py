"""Striker serial protocol 1 (docs/architecture.md, "Frame contract"): encode and stream-decode frames.

A frame on the wire is ``COBS(payload ‖ CRC16(payload)) ‖ 0x00``: COBS removes every zero byte
from the body so 0x00 can only mean "end of frame", which is what lets the reader resynchronise
after any garbage by simply waiting for the next 0x00. The CRC is CRC-16/CCITT-FALSE, big-endian.
The payload is a UTF-8 JSON object with ``t``, ``id`` and ``seq`` plus the fields of its type.

The decoder never raises on bad input: every rejected frame becomes a :class:`FrameError` with a
specific ``kind`` and a one-line message, and decoding carries on at the next delimiter.
"""

from __future__ import annotations

import binascii
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TypeGuard

PROTOCOL = 1
MAX_FRAME = 512  # encoded bytes between two delimiters; longer runs are dropped until the next 0x00
SEQ_MOD = 2**32

# The kinds a rejected frame can have (also used by tests/vectors/frames.json).
ERROR_KINDS = ("cobs", "short", "crc", "json", "field", "oversize")


class CobsError(ValueError):
    """The bytes between two delimiters are not valid COBS."""


@dataclass(frozen=True)
class FrameError:
    """One rejected frame: ``kind`` is one of :data:`ERROR_KINDS`; ``raw`` the bytes dropped."""

    kind: str
    message: str
    raw: bytes = b""

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


# --- CRC and COBS -------------------------------------------------------------------------------

def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xorout).

    ``binascii.crc_hqx`` is exactly this polynomial without reflection, in C, so it is both
    correct (``b"123456789"`` → 0x29B1) and fast enough for 50k frames/s.
    """
    return binascii.crc_hqx(data, 0xFFFF)


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result contains no 0x00 byte.

    Canonical form (as in the reference C encoder): a zero-free run is cut into 254-byte groups
    coded 0xFF, and no empty group is written after a final 0xFF group.
    """
    out = bytearray()
    blocks = data.split(b"\x00")
    last = len(blocks) - 1
    for i, block in enumerate(blocks):
        full_group = False
        while len(block) >= 254:
            out.append(0xFF)
            out += block[:254]
            block = block[254:]
            full_group = True
        if block or i < last or not full_group:
            out.append(len(block) + 1)
            out += block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Inverse of :func:`cobs_encode`; raises :class:`CobsError` naming what is wrong."""
    n = len(data)
    if n and data[0] == n and 0 not in data:
        return bytes(data[1:])  # one group spanning the whole frame: the usual short frame
    out = bytearray()
    i = 0
    while i < n:
        code = data[i]
        if code == 0:
            raise CobsError(f"zero byte inside COBS data at offset {i}")
        end = i + code
        if end > n:
            raise CobsError(f"COBS group at offset {i} needs {code - 1} bytes, only {n - i - 1} left")
        block = data[i + 1 : end]
        if 0 in block:
            raise CobsError(f"zero byte inside COBS data at offset {i + 1 + block.index(0)}")
        out += block
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


# --- encoding -----------------------------------------------------------------------------------

def encode_raw(payload: bytes) -> bytes:
    """Frame arbitrary payload bytes (tests use it to send well-framed but hostile JSON)."""
    return cobs_encode(payload + crc16(payload).to_bytes(2, "big")) + b"\x00"


def encode(payload: dict[str, Any]) -> bytes:
    """Frame a payload dict as compact JSON (the firmware writes the same bytes)."""
    return encode_raw(json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


# --- payload validation -------------------------------------------------------------------------

def _is_int(v: Any) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    return (_is_int(v) or isinstance(v, float)) and math.isfinite(v)


# type → (field, checker, description) the type requires; extra fields are allowed (forward compatible)
_TYPE_FIELDS: dict[str, tuple[tuple[str, Any, str], ...]] = {
    "hello": (
        ("fw", lambda v: isinstance(v, str) and 0 < len(v) <= 32, "a version string"),
        ("proto", lambda v: _is_int(v) and 0 <= v < SEQ_MOD, "an integer protocol version"),
    ),
    "strike": (
        ("g", lambda v: _is_num(v) and 0 <= v <= 1000, "a peak acceleration in g from 0 to 1000"),
        ("ms", lambda v: _is_int(v) and 0 <= v < 2**63, "device milliseconds, a non-negative integer"),
    ),
    "hb": (("bat", lambda v: _is_num(v) and 0 <= v <= 10, "a battery voltage from 0 to 10"),),
}
KNOWN_TYPES = frozenset(_TYPE_FIELDS)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in a frame")


# one decoder for all frames: json.loads(..., parse_constant=...) would build a new one per call
_JSON = json.JSONDecoder(parse_constant=_reject_constant)


def parse_payload(payload: bytes) -> dict[str, Any] | FrameError:
    """Check a CRC-verified payload: UTF-8 JSON object with valid common and type fields.

    Unknown ``t`` values pass with only the common fields checked, so newer firmware can add
    frame types without breaking this reader (the link ignores them but still counts ``seq``).
    """
    obj = _decode(payload)
    if isinstance(obj, FrameError) or _fast_ok(obj):
        return obj
    if not isinstance(obj, dict):
        return FrameError("json", f"payload must be a JSON object, got {type(obj).__name__}", payload)
    return _check_fields(obj, payload) or obj


def _decode(payload: bytes) -> Any:
    """The payload's JSON value, or the FrameError saying why it has none."""
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError as exc:
        return FrameError("json", f"payload is not UTF-8 (byte 0x{payload[exc.start]:02x} at {exc.start})", payload)
    try:
        return _JSON.decode(text)
    except (ValueError, RecursionError) as exc:
        return FrameError("json", f"payload is not valid JSON: {str(exc).splitlines()[0][:80]}", payload)


def _check_fields(obj: dict[str, Any], payload: bytes) -> FrameError | None:
    """The first wrong common or type field of a frame object, or None when all are right."""
    for name in ("t", "id", "seq"):
        if name not in obj:
            return FrameError("field", f"frame is missing field {name!r}", payload)
    t = obj.get("t")
    if not isinstance(t, str) or not t:
        return FrameError("field", f"field 't' must be a non-empty string, got {_short(t)}", payload)
    sid = obj.get("id")
    if not isinstance(sid, str) or not 0 < len(sid) <= 32:
        return FrameError("field", f"field 'id' must be a sender id string, got {_short(sid)}", payload)
    seq = obj.get("seq")
    if not _is_int(seq) or not 0 <= seq < SEQ_MOD:
        return FrameError("field", f"field 'seq' must be an integer from 0 to 2^32-1, got {_short(seq)}", payload)
    for name, ok, what in _TYPE_FIELDS.get(t, ()):
        if name not in obj:
            return FrameError("field", f"{t} frame from {sid!r} is missing field {name!r}", payload)
        if not ok(obj[name]):
            return FrameError("field", f"{t} field {name!r} must be {what}, got {_short(obj[name])}", payload)
    return None


def _fast_ok(obj: Any) -> bool:
    """The common case (a valid strike or hb) checked inline; anything else takes the full path.

    Accepts a strict subset of what the full checks accept (json gives exact int/float types),
    so errors still come from one place. Worth it: this runs for every frame.
    """
    if type(obj) is not dict:
        return False
    seq, sid, t = obj.get("seq"), obj.get("id"), obj.get("t")
    if type(seq) is not int or not 0 <= seq < SEQ_MOD or type(sid) is not str or not 0 < len(sid) <= 32:
        return False
    if t == "strike":
        g, ms = obj.get("g"), obj.get("ms")
        return (type(g) is float or type(g) is int) and 0 <= g <= 1000 and type(ms) is int and 0 <= ms < 2**63
    if t == "hb":
        bat = obj.get("bat")
        return (type(bat) is float or type(bat) is int) and 0 <= bat <= 10
    return False


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def decode_frame(body: bytes) -> dict[str, Any] | FrameError:
    """Decode the bytes between two delimiters (no 0x00) into a payload dict or an error."""
    if len(body) > MAX_FRAME:
        return FrameError("oversize", f"frame of {len(body)} bytes exceeds {MAX_FRAME}", body)
    try:
        data = cobs_decode(body)
    except CobsError as exc:
        return FrameError("cobs", str(exc), body)
    if len(data) < 3:
        return FrameError("short", f"frame decodes to {len(data)} bytes, need a payload and a 2-byte CRC", body)
    payload, sent = data[:-2], int.from_bytes(data[-2:], "big")
    computed = crc16(payload)
    if sent != computed:
        return FrameError("crc", f"CRC mismatch: frame says 0x{sent:04X}, payload gives 0x{computed:04X}", body)
    return parse_payload(payload)


# --- streaming ----------------------------------------------------------------------------------

class FrameDecoder:
    """Feed arbitrary byte chunks; get back decoded payloads and errors in arrival order.

    Bytes before the first delimiter are treated as a (probably partial) frame and reported,
    which is how the reader resynchronises after joining a stream mid-frame. Empty frames
    (consecutive 0x00, used as a sync preamble) are skipped silently.
    """

    def __init__(self, max_len: int = MAX_FRAME) -> None:
        self.max_len = max_len
        self._buf = bytearray()
        self._dropping = False  # inside an oversized run: discard until the next 0x00
        self._dropped = 0

    def feed(self, chunk: bytes) -> list[dict[str, Any] | FrameError]:
        return list(self._feed(chunk))

    def _feed(self, chunk: bytes) -> Iterator[dict[str, Any] | FrameError]:
        parts = chunk.split(b"\x00")
        # every part but the last was terminated by a delimiter
        for i, part in enumerate(parts):
            terminated = i < len(parts) - 1
            if self._dropping:
                self._dropped += len(part)
                if terminated:
                    self._dropping = False
                    self._dropped = 0
                continue
            if not terminated:
                self._buf += part
                if len(self._buf) > self.max_len:
                    yield FrameError(
                        "oversize",
                        f"more than {self.max_len} bytes without a delimiter; dropping until the next 0x00",
                        bytes(self._buf[:64]),
                    )
                    self._dropped = len(self._buf)
                    self._buf.clear()
                    self._dropping = True
                continue
            if self._buf:
                self._buf += part
                body = bytes(self._buf)
                self._buf.clear()
            else:
                body = part
            if not body:
                continue
            if len(body) > self.max_len:
                yield FrameError("oversize", f"frame of {len(body)} bytes exceeds {self.max_len}", body[:64])
                continue
            yield decode_frame(body)

    @property
    def pending(self) -> int:
        """Bytes buffered for an unfinished frame (a truncated frame stays here until 0x00)."""
        return len(self._buf)
