"""Build (and, for tests and tools, decode) protocol 1 frames on the ESP32.

Frame = COBS(payload + CRC16(payload)) + 0x00, payload = compact UTF-8 JSON written by hand
with a fixed key order and number format, so MicroPython (float32 on the ESP32) and CPython
produce byte-identical frames — tests/vectors/frames.json pins those bytes.
Runs on MicroPython and CPython alike (no typing, no dataclasses, %-formatting only).
"""

import json

import cobs
from crc16 import crc16

PROTO = 1
FW_VERSION = "1.0.0"
MAX_FRAME = 512
SEQ_MOD = 4294967296  # 2**32
_ID_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"


class FrameError(ValueError):
    """A frame that cannot be used; ``kind`` matches the Pi side's error kinds."""

    def __init__(self, kind, message):
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


def _name(value, what):
    if not isinstance(value, str) or not 0 < len(value) <= 32:
        raise ValueError(f"{what} must be a string of 1 to 32 characters")
    for ch in value:
        if ch not in _ID_CHARS:
            raise ValueError(f"{what} may only use letters, digits, '.', '_' and '-'")
    return '"' + value + '"'


def _seq(seq):
    if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq < SEQ_MOD:
        raise ValueError("seq must be an integer from 0 to 2^32-1")
    return str(seq)


def num(x):
    """A number with at most 2 decimals, the shortest way (6.5, 6.0, 3.91)."""
    text = f"{x:.2f}"
    text = text.rstrip("0")
    if text.endswith("."):
        text += "0"
    if text == "-0.0":
        text = "0.0"
    return text


def hello_payload(seq, fw=FW_VERSION, sender="base", proto=PROTO):
    return ('{"t":"hello","id":' + _name(sender, "id") + ',"seq":' + _seq(seq) + ',"fw":' + _name(fw, "fw")
            + ',"proto":' + str(int(proto)) + "}").encode()


def strike_payload(sender, seq, g, ms):
    if not 0 <= g <= 1000:
        raise ValueError("g must be from 0 to 1000")
    if not isinstance(ms, int) or ms < 0:
        raise ValueError("ms must be a non-negative integer")
    return ('{"t":"strike","id":' + _name(sender, "id") + ',"seq":' + _seq(seq) + ',"g":' + num(g)
            + ',"ms":' + str(ms) + "}").encode()


def hb_payload(sender, seq, bat):
    if not 0 <= bat <= 10:
        raise ValueError("bat must be from 0 to 10 volts")
    return ('{"t":"hb","id":' + _name(sender, "id") + ',"seq":' + _seq(seq) + ',"bat":' + num(bat) + "}").encode()


def frame(payload):
    """Wrap payload bytes: COBS(payload + CRC16 big-endian) + 0x00."""
    crc = crc16(payload)
    return cobs.encode(bytes(payload) + bytes([crc >> 8, crc & 0xFF])) + b"\x00"


# --- decoding (tests, and the base station's sanity check of what a striker sent) -------------

def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v):
    return (_is_int(v) or isinstance(v, float)) and v - v == 0  # rejects inf and nan


_FIELDS = {
    "hello": (("fw", lambda v: isinstance(v, str) and 0 < len(v) <= 32),
              ("proto", lambda v: _is_int(v) and 0 <= v < SEQ_MOD)),
    "strike": (("g", lambda v: _is_num(v) and 0 <= v <= 1000),
               ("ms", lambda v: _is_int(v) and 0 <= v < 9223372036854775808)),
    "hb": (("bat", lambda v: _is_num(v) and 0 <= v <= 10),),
}


def _no_constant(name):
    raise ValueError(f"{name} is not allowed")


def check_payload(payload):
    """Parse and check payload bytes; returns the dict or raises FrameError("json"/"field")."""
    try:
        text = bytes(payload).decode("utf-8")
    except Exception:
        raise FrameError("json", "payload is not UTF-8") from None
    try:
        try:
            obj = json.loads(text, parse_constant=_no_constant)  # CPython: NaN/Infinity are errors
        except TypeError:
            obj = json.loads(text)  # MicroPython: no keyword, and it rejects NaN itself
    except Exception:
        raise FrameError("json", "payload is not valid JSON") from None
    if not isinstance(obj, dict):
        raise FrameError("json", "payload must be a JSON object")
    t = obj.get("t")
    if not isinstance(t, str) or not t:
        raise FrameError("field", "field 't' must be a non-empty string")
    sid = obj.get("id")
    if not isinstance(sid, str) or not 0 < len(sid) <= 32:
        raise FrameError("field", "field 'id' must be a sender id string")
    seq = obj.get("seq")
    if not _is_int(seq) or not 0 <= seq < SEQ_MOD:
        raise FrameError("field", "field 'seq' must be an integer from 0 to 2^32-1")
    for name, ok in _FIELDS.get(t, ()):
        if name not in obj:
            raise FrameError("field", f"{t} frame is missing field '{name}'")
        if not ok(obj[name]):
            raise FrameError("field", f"{t} field '{name}' has a bad value")
    return obj


def decode(body):
    """Decode one frame body (without its 0x00) to the payload dict, or raise FrameError."""
    if len(body) > MAX_FRAME:
        raise FrameError("oversize", f"frame of {len(body)} bytes exceeds {MAX_FRAME}")
    try:
        data = cobs.decode(body)
    except ValueError as exc:
        raise FrameError("cobs", str(exc)) from None
    if len(data) < 3:
        raise FrameError("short", f"frame decodes to {len(data)} bytes")
    payload = data[:-2]
    sent = (data[-2] << 8) | data[-1]
    got = crc16(payload)
    if sent != got:
        raise FrameError("crc", f"CRC mismatch: frame says 0x{sent:04X}, payload gives 0x{got:04X}")
    return check_payload(payload)
