"""Base station: ESP32 on the Pi's USB. ESP-NOW in, protocol 1 frames out (and Pi commands in) on USB.

Hardware glue only: the decisions live in lib/base_core.py. The allow-list is stored in
``peers.json`` on the board, so a base station that reboots keeps forwarding its paired
strikers before the Pi says anything; the Pi, the owner of the pairing, sends the whole list
again after every ``hello`` (hardware_docs/serial_protocol.md, "Pairing").

Firmware 1.2.0: the Pi's ``tune`` goes to the named paired striker by acknowledged unicast with
retries (the decisions in base_core), and once a second the base reports the RSSI of each paired
striker it heard in the last RSSI_FRESH_MS, read from ``espnow.ESPNow.peers_table``.

Frames from the Pi may contain the byte 0x03 (Ctrl-C), so the keyboard interrupt is switched off
after a short window at power-on — the window in which ``mpremote`` can still stop this program
to update it — and the ``hello`` comes only after that, so the Pi sends nothing before.
"""

import json
import select
import sys
import time

import espnow
import machine
import micropython
import network
from base_core import BaseCore
from frames import MAX_PEERS, Unframer, is_key, key_bytes, mac_bytes, mac_hex

CHANNEL = 1  # must match the strikers' config.CHANNEL
PEERS_FILE = "peers.json"
BOOT_WINDOW_MS = 3000  # Ctrl-C (mpremote) works this long after a reset
WDT_MS = 5000
MAINTENANCE_WDT_MS = 3600000
UNHEALTHY_AFTER = 50  # failed loop passes in a row after which the watchdog is no longer fed
RSSI_FRESH_MS = 5000  # an RSSI older than this (striker asleep or gone) is not reported


def load_peers():
    """(allow-list, table secret) from ``peers.json``; the file of firmware 1.1/1.2 is the bare list."""
    try:
        with open(PEERS_FILE) as f:
            data = json.loads(f.read())
    except (OSError, ValueError):
        return {}, None
    if isinstance(data, dict) and "peers" in data:
        peers, secret = data.get("peers"), data.get("key")
    else:
        peers, secret = data, None
    if not isinstance(peers, dict) or len(peers) > MAX_PEERS:
        return {}, None
    for key in peers:
        try:
            mac_bytes(key)
        except ValueError:
            return {}, None
    return peers, secret if is_key(secret) else None  # a bad secret: the Pi sends it again after the hello


def save_peers(peers, secret=None):
    with open(PEERS_FILE, "w") as f:
        f.write(json.dumps({"peers": peers, "key": secret}))


class Uptime:
    def __init__(self):
        self._last = time.ticks_ms()
        self.ms = 0

    def now(self):
        t = time.ticks_ms()
        self.ms += time.ticks_diff(t, self._last)
        self._last = t
        return self.ms


def usb_io():
    """(poll object for USB input, stdin buffer, stdout buffer)."""
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    return poller, sys.stdin.buffer, sys.stdout.buffer


def read_available(poller, inp, limit=256):
    data = bytearray()
    while len(data) < limit and poller.poll(0):
        data.extend(inp.read(1))
    return data


def _add_peer(e, mac, lmk_hex):
    """An allowed striker's peer entry: encrypted with its LMK when it has one (firmware 1.3.0)."""
    if lmk_hex is None:
        e.add_peer(mac)
    else:
        e.add_peer(mac, lmk=key_bytes(lmk_hex), encrypt=True)


def sync_peers(e, core, known):
    """ESP-NOW needs a peer entry to send unicast; keep the entries equal to the allow-list and its keys.

    ``known`` is ``{mac hex: lmk hex or None}`` as registered; a new PMK re-registers every peer
    (ESP-NOW encrypts the LMKs with it).
    """
    if core.pmk != known.get("_pmk"):
        if core.pmk is not None:
            e.set_pmk(key_bytes(core.pmk))
        for key in [k for k in known if k != "_pmk"]:
            try:
                e.del_peer(mac_bytes(key))
            except OSError:
                pass
        known.clear()
        known["_pmk"] = core.pmk
    for key in [k for k in known if k != "_pmk"]:
        if key not in core.peers or known[key] != core.keys.get(key):
            try:
                e.del_peer(mac_bytes(key))
            except OSError:
                pass
            del known[key]
    for key in core.peers:
        if key not in known:
            lmk = core.keys.get(key) if core.pmk is not None else None
            try:
                _add_peer(e, mac_bytes(key), lmk)
            except OSError:
                pass  # already a peer
            known[key] = lmk


def send_replies(e, core, known):
    """paired/unpaired answers: over the striker's peer entry (encrypted once it has keys); a MAC
    not on it is a peer only while we answer it; ``clear`` (the keys) goes unencrypted, once."""
    while core.replies:
        mac, payload, clear = core.replies.pop(0)
        key = mac_hex(mac)
        temp = key not in known
        lmk = known.get(key)
        try:
            if temp:
                e.add_peer(mac)
            elif clear and lmk is not None:
                e.mod_peer(mac, encrypt=False)
            e.send(mac, payload, True)
        except OSError:
            pass  # a striker that does not hear it asks again
        try:
            if temp:
                e.del_peer(mac)
            elif clear and lmk is not None:
                e.mod_peer(mac, lmk=key_bytes(lmk), encrypt=True)
        except OSError:
            pass


def send_tunes(e, core, now):
    """At most one tune per loop pass (each waits ~2 ms for the acknowledgement)."""
    item = core.next_tune(now)
    if item is None:
        return
    mac, payload = item
    try:
        acked = bool(e.send(mac, payload, True))
    except OSError:
        acked = False
    core.tune_sent(mac, acked, now)


def rssi_table(e):
    """``{mac hex: dBm}`` of the peers heard lately (``peers_table`` is {mac: [rssi, time_ms]})."""
    out = {}
    table = getattr(e, "peers_table", None) or {}
    now = time.ticks_ms()
    for mac in table:
        entry = table[mac]
        try:
            if time.ticks_diff(now, entry[1]) <= RSSI_FRESH_MS:
                out[mac_hex(mac)] = int(entry[0])
        except (TypeError, ValueError, IndexError):
            pass
    return out


def run(wdt, e, poller, inp, out):
    peers, secret = load_peers()
    core = BaseCore(peers=peers, secret=secret)
    known = {}
    sync_peers(e, core, known)
    reader = Unframer()
    clock = Uptime()
    out.write(core.boot() + core.peers_frame())  # every frame starts with 0x00: it ends any banner text
    bad = 0
    while True:
        try:
            now = clock.now()
            mac, msg = e.recv(10)  # ms; (None, None) on timeout
            if msg:
                f = core.radio(msg, mac, now)
                if f is not None:
                    out.write(f)
            for payload in reader.feed(read_available(poller, inp)):
                f = core.command(payload, now)
                if f:
                    out.write(f)
            send_replies(e, core, known)  # first: a removed striker is told over its (encrypted) entry
            if core.dirty:
                core.dirty = False
                save_peers(core.peers, core.secret)
                sync_peers(e, core, known)
            send_tunes(e, core, now)
            if core.radio_due(now):
                out.write(core.radio_frame(now, rssi_table(e)))
            f = core.tick(now)
            if f is not None:
                out.write(f)
            bad = 0
        except OSError:
            bad += 1  # radio or USB trouble: keep going
        if bad < UNHEALTHY_AFTER:
            wdt.feed()


def main():
    """Never drops to the REPL on an error: an unexpected exception resets the board."""
    try:
        time.sleep_ms(BOOT_WINDOW_MS)
        micropython.kbd_intr(-1)
        wdt = machine.WDT(timeout=WDT_MS)
        sta = network.WLAN(network.STA_IF)
        sta.active(True)
        sta.config(channel=CHANNEL)
        e = espnow.ESPNow()
        e.active(True)
        poller, inp, out = usb_io()
        run(wdt, e, poller, inp, out)
    except KeyboardInterrupt:
        machine.WDT(timeout=MAINTENANCE_WDT_MS)
        raise
    except Exception:  # noqa: BLE001 - anything else: start again rather than sit at the REPL
        time.sleep_ms(100)
        machine.reset()
