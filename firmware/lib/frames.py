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
FW_VERSION = "1.3.0"
MAX_FRAME = 512
SEQ_MOD = 4294967296  # 2**32
MAX_PEERS = 8  # strikers one base station accepts (a peers frame stays far below MAX_FRAME)
MAX_PAIR_S = 600  # longest pairing window the Pi may open, seconds
MIN_THR = 1.0  # strike thresholds the host may set from the bring-up page (tune), g
MAX_THR = 16.0  # the MPU-6050 reads at most 16 g
MIN_RSSI = -127  # dBm, as ESP-NOW's peers_table reports it
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


def hb_payload(sender, seq, bat, thr=None):
    """Heartbeat; a 1.2.0 striker adds ``thr``, the strike threshold it uses (an extra field: the
    contract allows extra fields in known types, older readers ignore it)."""
    if not 0 <= bat <= 10:
        raise ValueError("bat must be from 0 to 10 volts")
    extra = ""
    if thr is not None:
        if not is_thr(thr):
            raise ValueError("thr must be from 1.0 to 16.0 g with at most 2 decimals")
        extra = ',"thr":' + num(thr)
    return ('{"t":"hb","id":' + _name(sender, "id") + ',"seq":' + _seq(seq) + ',"bat":' + num(bat) + extra
            + "}").encode()


def tune_payload(seq, sid, thr, sender="base"):
    """Pi → base (``sender`` "pi") and base → striker (ESP-NOW unicast): "use ``thr`` g as your
    strike threshold from now on" (firmware 1.2.0; the striker stores it on flash)."""
    if not is_thr(thr):
        raise ValueError("thr must be from 1.0 to 16.0 g with at most 2 decimals")
    return ('{"t":"tune","id":' + _name(sender, "id") + ',"seq":' + _seq(seq) + ',"sid":' + _name(sid, "sid")
            + ',"thr":' + num(thr) + "}").encode()


def radio_payload(seq, rssi, sender="base"):
    """Base → Pi once a second: ``{striker id: RSSI in dBm}`` of the paired strikers heard lately."""
    parts = []
    for sid in sorted(rssi):
        v = rssi[sid]
        if not _is_int(v) or not MIN_RSSI <= v <= 0:
            raise ValueError("rssi must be whole dBm from -127 to 0")
        parts.append(_name(sid, "striker id") + ":" + str(v))
    return ('{"t":"radio","id":' + _name(sender, "id") + ',"seq":' + _seq(seq) + ',"rssi":{'
            + ",".join(parts) + "}}").encode()


def sleep_payload(sender, seq, bat, why="idle"):
    """Striker → Pi: "I am going to deep sleep by design" (the Pi must not call it a fault)."""
    if not 0 <= bat <= 10:
        raise ValueError("bat must be from 0 to 10 volts")
    return ('{"t":"sleep","id":' + _name(sender, "id") + ',"seq":' + _seq(seq) + ',"bat":' + num(bat)
            + ',"why":' + _name(why, "why") + "}").encode()


def mac_hex(mac):
    """6 MAC bytes → 12 lowercase hex digits, the form every pairing frame uses."""
    if len(mac) != 6:
        raise ValueError("a MAC address has 6 bytes")
    return "".join(f"{b:02x}" for b in mac)


def mac_bytes(text):
    """12 hex digits → 6 MAC bytes; raises ValueError for anything else."""
    if not isinstance(text, str) or len(text) != 12:
        raise ValueError("mac must be 12 hex digits")
    return bytes(int(text[i:i + 2], 16) for i in range(0, 12, 2))


def pair_req_payload(sender, seq, g, fw=FW_VERSION):
    """Unpaired striker → any base (ESP-NOW broadcast) when waved: "pair me"."""
    if not 0 <= g <= 1000:
        raise ValueError("g must be from 0 to 1000")
    return ('{"t":"pair_req","id":' + _name(sender, "id") + ',"seq":' + _seq(seq) + ',"g":' + num(g)
            + ',"fw":' + _name(fw, "fw") + "}").encode()


def paired_payload(seq, sid, sender="base", pmk=None, lmk=None):
    """Base → striker (ESP-NOW unicast): "you are on my allow-list as ``sid``; send to me".

    Firmware 1.3.0: while the host pairs it, with the table's ESP-NOW keys (``pmk``, ``lmk``: 32 hex
    digits each) — the only frame that carries them, sent in the clear once (firmware.md "Encryption").
    """
    extra = ""
    if pmk is not None or lmk is not None:
        if not (is_key(pmk) and is_key(lmk)):
            raise ValueError("pmk and lmk must be 32 lowercase hex digits each")
        extra = ',"pmk":"' + pmk + '","lmk":"' + lmk + '"'
    return ('{"t":"paired","id":' + _name(sender, "id") + ',"seq":' + _seq(seq) + ',"sid":'
            + _name(sid, "sid") + extra + "}").encode()


def _is_hex(v, n):
    """``n`` lowercase hex digits (a MAC: 12, a key: 32)."""
    if not isinstance(v, str) or len(v) != n:
        return False
    for ch in v:
        if ch not in "0123456789abcdef":
            return False
    return True


def is_key(v):
    """An ESP-NOW key (PMK or LMK, 16 bytes) as the frames write it: 32 lowercase hex digits."""
    return _is_hex(v, 32)


def key_bytes(text):
    """32 hex digits → the 16 key bytes ``espnow`` takes; raises ValueError for anything else."""
    if not is_key(text):
        raise ValueError("a key is 32 lowercase hex digits")
    return bytes(int(text[i:i + 2], 16) for i in range(0, 32, 2))


def unpaired_payload(seq, sender="base"):
    """Base → striker (ESP-NOW unicast): "you are not on my allow-list"; the striker forgets me."""
    return ('{"t":"unpaired","id":' + _name(sender, "id") + ',"seq":' + _seq(seq) + "}").encode()


def pair_seen_payload(seq, sid, mac, g, sender="base"):
    """Base → Pi while the pairing window is open: a waved, not yet allowed striker."""
    return ('{"t":"pair_seen","id":' + _name(sender, "id") + ',"seq":' + _seq(seq) + ',"sid":'
            + _name(sid, "sid") + ',"mac":"' + mac_hex(mac_bytes(mac)) + '","g":' + num(min(max(g, 0.0), 1000.0))
            + "}").encode()


def pairing_payload(seq, s, sender="base"):
    """Base → Pi: the pairing window is open for ``s`` more seconds (0: closed)."""
    return ('{"t":"pairing","id":' + _name(sender, "id") + ',"seq":' + _seq(seq) + ',"s":' + str(int(s))
            + "}").encode()


def peers_payload(seq, peers, sender="base"):
    """Base → Pi: the allow-list stored on the base, ``{mac_hex: striker id}`` sorted by MAC."""
    parts = []
    for mac in sorted(peers):
        parts.append('"' + mac_hex(mac_bytes(mac)) + '":' + _name(peers[mac], "striker id"))
    return ('{"t":"peers","id":' + _name(sender, "id") + ',"seq":' + _seq(seq) + ',"peers":{'
            + ",".join(parts) + "}}").encode()


def frame(payload):
    """Wrap payload bytes: COBS(payload + CRC16 big-endian) + 0x00."""
    crc = crc16(payload)
    return cobs.encode(bytes(payload) + bytes([crc >> 8, crc & 0xFF])) + b"\x00"


def wire(payload):
    """A frame as the serial line carries it: 0x00 first, then ``frame(payload)``.

    The leading delimiter ends whatever line noise (or boot banner) came before, so the first frame
    after noise is not glued to it and lost; the reader skips the empty frame between two 0x00
    (hardware_docs/serial_protocol.md, "Frame"). The frame itself is unchanged.
    """
    return b"\x00" + frame(payload)


# --- decoding (tests, and the base station's sanity check of what a striker sent) -------------

def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v):
    return (_is_int(v) or isinstance(v, float)) and v - v == 0  # rejects inf and nan


def is_thr(v):
    """A strike threshold the striker accepts: 1.0 to 16.0 g, at most 2 decimals (float32-safe)."""
    if not _is_num(v) or not MIN_THR <= v <= MAX_THR:
        return False
    return abs(v * 100 - round(v * 100)) < 0.01


def _is_rssi(v):
    """``{striker id: dBm}``, at most MAX_PEERS entries."""
    if not isinstance(v, dict) or len(v) > MAX_PEERS:
        return False
    for sid in v:
        r = v[sid]
        if not _is_sid(sid) or not _is_int(r) or not MIN_RSSI <= r <= 0:
            return False
    return True


_FIELDS = {
    "hello": (("fw", lambda v: isinstance(v, str) and 0 < len(v) <= 32),
              ("proto", lambda v: _is_int(v) and 0 <= v < SEQ_MOD)),
    "strike": (("g", lambda v: _is_num(v) and 0 <= v <= 1000),
               ("ms", lambda v: _is_int(v) and 0 <= v < 9223372036854775808)),
    "hb": (("bat", lambda v: _is_num(v) and 0 <= v <= 10),),
    "sleep": (("bat", lambda v: _is_num(v) and 0 <= v <= 10),),
    "pair_req": (("g", lambda v: _is_num(v) and 0 <= v <= 1000),),
    "paired": (("sid", lambda v: _is_sid(v)),),
    # Pi → base commands (the base checks them before acting)
    "pair_open": (("s", lambda v: _is_int(v) and 0 <= v <= MAX_PAIR_S),),
    "peers_set": (("peers", lambda v: _is_peers(v)),),
    # firmware 1.2.0: Pi → base → striker, and the base's radio report
    "tune": (("sid", lambda v: _is_sid(v)), ("thr", lambda v: is_thr(v))),
    "radio": (("rssi", lambda v: _is_rssi(v)),),
}
# fields a type may carry; checked when present (a bad one drops the whole frame)
_OPTIONAL = {
    "hb": (("thr", lambda v: is_thr(v)),),
    # firmware 1.3.0: ESP-NOW encryption keys, set at pairing (firmware.md "Encryption")
    "peers_set": (("key", lambda v: is_key(v)),),
    "paired": (("pmk", lambda v: is_key(v)), ("lmk", lambda v: is_key(v))),
}


def _is_sid(v):
    if not isinstance(v, str) or not 0 < len(v) <= 32:
        return False
    for ch in v:
        if ch not in _ID_CHARS:
            return False
    return True


def _is_mac(v):
    return _is_hex(v, 12)


def _is_peers(v):
    """An allow-list: at most MAX_PEERS entries {mac_hex: striker id}, ids unique."""
    if not isinstance(v, dict) or len(v) > MAX_PEERS:
        return False
    seen = []
    for mac in v:
        sid = v[mac]
        if not _is_mac(mac) or not _is_sid(sid) or sid in seen or sid == "base":
            return False
        seen.append(sid)
    return True


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
    _check_type_fields(t, obj)
    return obj


def _check_type_fields(t, obj):
    for name, ok in _FIELDS.get(t, ()):
        if name not in obj:
            raise FrameError("field", f"{t} frame is missing field '{name}'")
        if not ok(obj[name]):
            raise FrameError("field", f"{t} field '{name}' has a bad value")
    for name, ok in _OPTIONAL.get(t, ()):
        if name in obj and not ok(obj[name]):
            raise FrameError("field", f"{t} field '{name}' has a bad value")


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


class Unframer:
    """Split a byte stream (the Pi's commands on the base's USB serial) into checked payloads.

    Garbage and bad frames are counted and dropped; a run longer than MAX_FRAME is dropped up
    to the next 0x00, as on the Pi.
    """

    def __init__(self):
        self._buf = bytearray()
        self._dropping = False
        self.errors = 0

    def feed(self, data):
        out = []
        for b in data:
            if b == 0:
                if self._dropping:
                    self._dropping = False
                elif self._buf:
                    try:
                        out.append(decode(bytes(self._buf)))
                    except FrameError:
                        self.errors += 1
                self._buf = bytearray()
            elif not self._dropping:
                self._buf.append(b)
                if len(self._buf) > MAX_FRAME:
                    self._buf = bytearray()
                    self._dropping = True
                    self.errors += 1
        return out
