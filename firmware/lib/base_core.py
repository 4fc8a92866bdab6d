"""What the base station decides, without touching hardware (MicroPython and CPython).

It says ``hello`` at boot (followed by its allow-list), sends its own heartbeat (so the Pi
notices a hung base station even while the USB port stays open), and forwards each ESP-NOW
message from a **paired** striker as one protocol 1 frame — only after checking it is a
well-formed payload whose ``id`` is the one paired with that MAC, so radio garbage, a
neighbouring table's strikers and impostors never reach the Pi. The striker's own ``id`` and
``seq`` pass through untouched.

Pairing (hardware_docs/serial_protocol.md, "Pairing"): the Pi opens a pairing window
(``pair_open``); an unpaired striker that is waved broadcasts ``pair_req``; the base reports it
as ``pair_seen``; the host taps a seat and the Pi sends the whole allow-list (``peers_set``).
The base stores it, answers with ``peers`` and tells each newly allowed striker ``paired`` over
the radio. Every table this keeps per sender is bounded.
"""

from frames import (
    FW_VERSION,
    MAX_PEERS,
    PROTO,
    SEQ_MOD,
    FrameError,
    check_payload,
    frame,
    hb_payload,
    hello_payload,
    mac_bytes,
    mac_hex,
    pair_seen_payload,
    paired_payload,
    pairing_payload,
    peers_payload,
    unpaired_payload,
)

MAX_PAYLOAD = 250  # an ESP-NOW message is at most 250 bytes
USB_SUPPLY_V = 5.0  # the base station is USB powered; its heartbeat reports the nominal supply
RECENT = 16  # senders remembered for rate limits (oldest forgotten first)
SEEN_EVERY_MS = 250  # at most one pair_seen per striker this often
REPLY_EVERY_MS = 1000  # at most one paired/unpaired answer per MAC this often
RADIO_ONLY = ("paired", "unpaired", "pair_open", "peers_set")  # never forwarded from a striker


class BaseCore:
    def __init__(self, fw=FW_VERSION, hb_interval_ms=1000, proto=PROTO, peers=None):
        if hb_interval_ms > 1000:
            raise ValueError("hb_interval_ms must be at most 1000 (the protocol wants >= 1 Hz)")
        self.fw = fw
        self.proto = proto
        self.hb_interval_ms = hb_interval_ms
        self.seq = 0  # frames to the Pi: +1 each, so the Pi sees no gap
        self.radio_seq = 0  # paired/unpaired answers over the radio count separately
        self._next_hb = None
        self.peers = dict(peers or {})  # mac hex → striker id
        self.pair_until = None  # device ms when the pairing window closes
        self.replies = []  # (mac bytes, payload) for the radio: paired / unpaired
        self.dirty = False  # the allow-list changed: the caller stores it
        self._seen = {}  # mac hex → ms of the last pair_seen
        self._replied = {}  # mac hex → ms of the last paired/unpaired answer
        self.forwarded = 0
        self.rejected = 0
        self.unknown = 0  # well-formed frames from MACs not on the allow-list
        self.last_error = None

    def _next_seq(self):
        seq = self.seq
        self.seq = (seq + 1) % SEQ_MOD
        return seq

    def boot(self):
        """The frame to write first: hello with firmware and protocol version (seq 0)."""
        self.seq = 0
        return frame(hello_payload(self._next_seq(), self.fw, proto=self.proto))

    def peers_frame(self):
        """The allow-list as stored here (after boot, and after every change)."""
        return frame(peers_payload(self._next_seq(), self.peers))

    def tick(self, now_ms):
        """The base station's heartbeat frame when due (plus "pairing closed" when it ends), else None."""
        out = b""
        if self.pair_until is not None and now_ms >= self.pair_until:
            self.pair_until = None
            out += frame(pairing_payload(self._next_seq(), 0))
        if self._next_hb is None or now_ms >= self._next_hb:
            self._next_hb = now_ms + self.hb_interval_ms
            out += frame(hb_payload("base", self._next_seq(), USB_SUPPLY_V))
        return out or None

    def _reject(self, kind):
        self.rejected += 1
        self.last_error = kind
        return None

    def _limited(self, table, key, now_ms, every_ms):
        """True if ``key`` was served less than ``every_ms`` ago; else remember now (bounded table)."""
        last = table.get(key)
        if last is not None and now_ms - last < every_ms:
            return True
        if last is None and len(table) >= RECENT:
            oldest = None
            for k in table:
                if oldest is None or table[k] < table[oldest]:
                    oldest = k
            del table[oldest]
        table[key] = now_ms
        return False

    def _reply(self, mac, payload_fn, now_ms):
        if not self._limited(self._replied, mac_hex(mac), now_ms, REPLY_EVERY_MS):
            self.radio_seq = (self.radio_seq + 1) % SEQ_MOD
            self.replies.append((bytes(mac), payload_fn(self.radio_seq)))

    def radio(self, msg, mac, now_ms=0):
        """An ESP-NOW message from ``mac`` → the frame to write to the Pi, or None."""
        if len(msg) > MAX_PAYLOAD:
            return self._reject("oversize")
        try:
            payload = check_payload(msg)
        except FrameError as exc:
            return self._reject(exc.kind)
        sid = payload["id"]
        if sid == "base":
            return self._reject("field")  # a striker must not impersonate the base station
        key = mac_hex(mac)
        t = payload["t"]
        if t == "pair_req":
            if self.peers.get(key) == sid:
                self._reply(mac, lambda seq: paired_payload(seq, sid), now_ms)  # it forgot us: remind it
                return None
            if self.pair_until is None or now_ms >= self.pair_until:
                return None  # not pairing now: ignore quietly
            if self._limited(self._seen, key, now_ms, SEEN_EVERY_MS):
                return None
            return frame(pair_seen_payload(self._next_seq(), sid, key, payload["g"]))
        paired_as = self.peers.get(key)
        if paired_as is None:
            self.unknown += 1
            self._reply(mac, unpaired_payload, now_ms)  # it thinks it is ours: tell it otherwise
            return None
        if paired_as != sid:
            return self._reject("id")  # a paired MAC speaking for another striker
        if t in RADIO_ONLY:
            return self._reject("field")
        self.forwarded += 1
        return frame(bytes(msg))

    def command(self, payload, now_ms=0):
        """A checked payload from the Pi → the frames to write back (b"" if none)."""
        if payload.get("id") != "pi":
            return b""
        t = payload["t"]
        if t == "pair_open":
            s = payload["s"]
            self.pair_until = now_ms + s * 1000 if s else None
            return frame(pairing_payload(self._next_seq(), s))
        if t == "peers_set":
            new = payload["peers"]
            if len(new) > MAX_PEERS:
                return b""
            for key in self.peers:
                if key not in new:
                    self._reply(mac_bytes(key), unpaired_payload, now_ms)
            for key in new:
                if self.peers.get(key) != new[key]:
                    self._replied.pop(key, None)
                    sid = new[key]
                    self._reply(mac_bytes(key), lambda seq, sid=sid: paired_payload(seq, sid), now_ms)
            if new != self.peers:
                self.peers = dict(new)
                self.dirty = True  # stored only when it changed: the Pi repeats the list after every hello
            return self.peers_frame()
        return b""  # unknown commands are ignored (forward compatible)
