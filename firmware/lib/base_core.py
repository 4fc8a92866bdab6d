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

Tuning (firmware 1.2.0, serial_protocol.md "Frames added in firmware 1.2.0"): the Pi's ``tune``
names a paired striker and a threshold; the base sends it to that striker only, over acknowledged
unicast with retries, and remembers the wanted value until the striker's heartbeat (its ``thr``
field) says it uses it — a striker asleep when the host pressed Set gets it again the moment it
wakes. Once a second the base reports each paired striker's RSSI (``radio``).
"""

from frames import (
    FW_VERSION,
    MAX_PEERS,
    PROTO,
    SEQ_MOD,
    FrameError,
    check_payload,
    hb_payload,
    hello_payload,
    is_thr,
    mac_bytes,
    mac_hex,
    pair_seen_payload,
    paired_payload,
    pairing_payload,
    peers_payload,
    radio_payload,
    tune_payload,
    unpaired_payload,
    wire,
)
from keys import striker_lmk, table_pmk

MAX_PAYLOAD = 250  # an ESP-NOW message is at most 250 bytes
USB_SUPPLY_V = 5.0  # the base station is USB powered; its heartbeat reports the nominal supply
RECENT = 16  # senders remembered for rate limits (oldest forgotten first)
SEEN_EVERY_MS = 250  # at most one pair_seen per striker this often
REPLY_EVERY_MS = 1000  # at most one paired/unpaired answer per MAC this often
RADIO_ONLY = ("paired", "unpaired", "pair_open", "peers_set", "tune", "radio")  # never forwarded from a striker
TUNE_TRIES = 5  # acknowledged unicast attempts per tune (as a striker sends its strikes)
TUNE_RETRY_MS = 40
RADIO_EVERY_MS = 1000  # the RSSI report to the Pi


class BaseCore:
    def __init__(self, fw=FW_VERSION, hb_interval_ms=1000, proto=PROTO, peers=None, secret=None):
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
        # ESP-NOW encryption (firmware 1.3.0, firmware.md "Encryption"): the table's secret from the
        # Pi, and what it gives (keys.py): the PMK and each paired striker's own LMK (hex). No secret
        # (a 1.2.0 Pi, or nothing paired from the panel yet): every striker is heard in the clear
        self.secret = None
        self.pmk = None
        self.keys = {}  # mac hex → lmk hex
        self._keyed(secret)
        # (mac bytes, payload, in the clear) for the radio: paired / unpaired. "In the clear": the
        # paired frame that hands a striker its keys; everything else goes over the peer entry as is
        self.replies = []
        self.dirty = False  # the allow-list changed: the caller stores it
        self._seen = {}  # mac hex → ms of the last pair_seen
        self._replied = {}  # mac hex → ms of the last paired/unpaired answer
        self.forwarded = 0
        self.rejected = 0
        self.unknown = 0  # well-formed frames from MACs not on the allow-list
        self.last_error = None
        self.wanted = {}  # mac hex → threshold the Pi asked for, until the striker's hb reports it
        self.tunes = []  # [mac hex, payload, tries left, due ms]: at most one per paired striker
        self._retuned = {}  # mac hex → ms of the last re-send prompted by a heartbeat
        self._next_radio = None

    def _keyed(self, secret, peers=None):
        """Set the secret and derive from it the keys of every peer on the list (``peers``: the new one)."""
        self.secret = secret
        self.pmk = table_pmk(secret) if secret is not None else None
        macs = self.peers if peers is None else peers
        self.keys = {mac: striker_lmk(secret, mac) for mac in macs} if secret is not None else {}

    def _next_seq(self):
        seq = self.seq
        self.seq = (seq + 1) % SEQ_MOD
        return seq

    def boot(self):
        """The frame to write first: hello with firmware and protocol version (seq 0)."""
        self.seq = 0
        return wire(hello_payload(self._next_seq(), self.fw, proto=self.proto))

    def peers_frame(self):
        """The allow-list as stored here (after boot, and after every change)."""
        return wire(peers_payload(self._next_seq(), self.peers))

    def tick(self, now_ms):
        """The base station's heartbeat frame when due (plus "pairing closed" when it ends), else None."""
        out = b""
        if self.pair_until is not None and now_ms >= self.pair_until:
            self.pair_until = None
            out += wire(pairing_payload(self._next_seq(), 0))
        if self._next_hb is None or now_ms >= self._next_hb:
            self._next_hb = now_ms + self.hb_interval_ms
            out += wire(hb_payload("base", self._next_seq(), USB_SUPPLY_V))
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

    def _reply(self, mac, payload_fn, now_ms, clear=False):
        if not self._limited(self._replied, mac_hex(mac), now_ms, REPLY_EVERY_MS):
            self.radio_seq = (self.radio_seq + 1) % SEQ_MOD
            self.replies.append((bytes(mac), payload_fn(self.radio_seq), clear))

    def _pairing_open(self, now_ms):
        return self.pair_until is not None and now_ms < self.pair_until

    def _tell_paired(self, mac, sid, now_ms, with_keys):
        """``paired``; with the keys (in the clear) only when asked to and the Pi gave this striker one."""
        key = mac_hex(mac)
        lmk = self.keys.get(key)
        if with_keys and lmk is not None and self.pmk is not None:
            pmk = self.pmk
            self._reply(mac, lambda seq: paired_payload(seq, sid, pmk=pmk, lmk=lmk), now_ms, True)
        else:
            self._reply(mac, lambda seq: paired_payload(seq, sid), now_ms)

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
                # it forgot us: remind it; its keys only while the host pairs (anyone can send this
                # pair_req with a paired striker's MAC and id, and the keys go in the clear)
                self._tell_paired(mac, sid, now_ms, self._pairing_open(now_ms))
                return None
            if not self._pairing_open(now_ms):
                return None  # not pairing now: ignore quietly
            if self._limited(self._seen, key, now_ms, SEEN_EVERY_MS):
                return None
            return wire(pair_seen_payload(self._next_seq(), sid, key, payload["g"]))
        paired_as = self.peers.get(key)
        if paired_as is None:
            self.unknown += 1
            self._reply(mac, unpaired_payload, now_ms)  # it thinks it is ours: tell it otherwise
            return None
        if paired_as != sid:
            return self._reject("id")  # a paired MAC speaking for another striker
        if t in RADIO_ONLY:
            return self._reject("field")
        if t == "hb" and key in self.wanted:
            self._reconcile(key, sid, payload.get("thr"), now_ms)
        self.forwarded += 1
        return wire(bytes(msg))

    # --- tuning (firmware 1.2.0) ---------------------------------------------------------------

    def _queue_tune(self, key, sid, thr, now_ms):
        for item in self.tunes:
            if item[0] == key:
                self.tunes.remove(item)
                break
        self.radio_seq = (self.radio_seq + 1) % SEQ_MOD
        self.tunes.append([key, tune_payload(self.radio_seq, sid, thr), TUNE_TRIES, now_ms])

    def _reconcile(self, key, sid, thr, now_ms):
        """A heartbeat from a striker we have a wanted threshold for."""
        want = self.wanted[key]
        if thr is None:
            return  # a striker older than 1.2.0 does not say; nothing to compare
        if abs(thr - want) < 0.005:
            del self.wanted[key]  # it uses it: done
            return
        for item in self.tunes:
            if item[0] == key:
                return  # still being sent
        if not self._limited(self._retuned, key, now_ms, REPLY_EVERY_MS):
            self._queue_tune(key, sid, want, now_ms)  # it was asleep or missed it: again

    def next_tune(self, now_ms):
        """(mac bytes, payload) of the tune to send now (acknowledged unicast), or None."""
        for item in self.tunes:
            if now_ms >= item[3]:
                return mac_bytes(item[0]), item[1]
        return None

    def tune_sent(self, mac, acked, now_ms):
        """The radio's answer for ``next_tune``: done when acknowledged, else retried a few times."""
        key = mac_hex(mac)
        for item in self.tunes:
            if item[0] == key:
                item[2] -= 1
                if acked or item[2] <= 0:
                    self.tunes.remove(item)  # out of tries: its next heartbeat brings it back
                else:
                    item[3] = now_ms + TUNE_RETRY_MS
                return

    def radio_due(self, now_ms):
        return self._next_radio is None or now_ms >= self._next_radio

    def radio_frame(self, now_ms, rssi):
        """The ``radio`` report: ``rssi`` is ``{mac hex: dBm}`` (espnow peers_table); only paired
        strikers are named, by their id."""
        self._next_radio = now_ms + RADIO_EVERY_MS
        named = {}
        for key in rssi:
            sid = self.peers.get(key)
            r = rssi[key]
            if sid is not None and isinstance(r, int):
                named[sid] = max(-127, min(0, r))
        return wire(radio_payload(self._next_seq(), named))

    def command(self, payload, now_ms=0):
        """A checked payload from the Pi → the frames to write back (b"" if none)."""
        if payload.get("id") != "pi":
            return b""
        t = payload["t"]
        if t == "pair_open":
            s = payload["s"]
            self.pair_until = now_ms + s * 1000 if s else None
            return wire(pairing_payload(self._next_seq(), s))
        if t == "peers_set":
            return self._peers_set(payload["peers"], now_ms, payload.get("key"))
        if t == "tune":
            self._tune(payload["sid"], payload["thr"], now_ms)
            return b""  # nothing to say: the striker's heartbeat reports what it uses
        return b""  # unknown commands are ignored (forward compatible)

    def _peers_set(self, new, now_ms, secret=None):
        """The Pi's whole allow-list (and, from 1.3.0, the table's secret): store it, tell added and
        removed strikers (a new one, or every one when the secret is new, gets its keys), answer with peers."""
        if len(new) > MAX_PEERS:
            return b""
        for key in self.peers:
            if key not in new:
                self._reply(mac_bytes(key), unpaired_payload, now_ms)
        rekeyed = secret != self.secret
        self._keyed(secret, new)
        for key in new:
            if self.peers.get(key) != new[key] or rekeyed:
                self._replied.pop(key, None)
                self._tell_paired(mac_bytes(key), new[key], now_ms, True)
        if rekeyed:
            self.dirty = True
        for key in list(self.wanted):
            if new.get(key) != self.peers.get(key):
                del self.wanted[key]  # unpaired or another striker now: its tuning is void
        self.tunes = [item for item in self.tunes if new.get(item[0]) == self.peers.get(item[0])]
        if new != self.peers:
            self.peers = dict(new)
            self.dirty = True  # stored only when it changed: the Pi repeats the list after every hello
        return self.peers_frame()

    def _tune(self, sid, thr, now_ms):
        """Relay to the named striker if it is paired here; otherwise dropped (the Pi checks first and says why)."""
        for key in self.peers:
            if self.peers[key] == sid and is_thr(thr):
                self.wanted[key] = thr
                self._retuned.pop(key, None)
                self._queue_tune(key, sid, thr, now_ms)
