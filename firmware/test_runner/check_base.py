"""The base station's real base_app.py on recording stand-in hardware (MicroPython and CPython).

The Pi's side is played with protocol 1 frames written to the fake USB input; the strikers'
side with ESP-NOW messages in the fake radio inbox. Prints "OK <n> checks" or the failures.
"""

import sys

import fakehw
import frames
from tally import Tally

_tally = Tally()
S1 = b"\x34\x85\x18\x00\x00\x01"
NEW = b"\x34\x85\x18\x1a\x2b\x3c"
STRANGER = b"\x10\x20\x30\x40\x50\x60"


check = _tally.check


def fresh(sim, peers):
    sim.install()
    for name in ("base_app",):
        if name in sys.modules:
            del sys.modules[name]
    import base_app

    if peers is None:
        try:
            import os

            os.remove(base_app.PEERS_FILE)
        except OSError:
            pass
    else:
        base_app.save_peers(peers)
    base_app.usb_io = sim.usb
    return base_app


def from_base(sim):
    """Decode everything the base wrote to USB so far (and clear it)."""
    out = []
    for body in bytes(sim.usb_out).split(b"\x00"):
        if body:
            out.append(frames.decode(body))
    sim.usb_out = bytearray()
    return out


def pi_sends(sim, payload):
    text = "{" + ",".join(f'"{k}":{_json(payload[k])}' for k in payload) + "}"
    sim.usb_in.extend(frames.frame(text.encode()))


def _json(v):
    import json

    return json.dumps(v).replace(" ", "")


def scenario_boot_forward_and_pair():
    sim = fakehw.Sim()
    app = fresh(sim, {"348518000001": "s1"})
    sim.inbox.append((S1, frames.strike_payload("s1", 5, 6.5, 1000)))
    sim.inbox.append((STRANGER, frames.strike_payload("s9", 1, 6.5, 1000)))
    sim.inbox.append((S1, frames.hb_payload("s2", 6, 3.9)))  # s1's MAC speaking for s2
    sim.run_for(3000 + 200)
    check(sim.boot(app) == "stop", "base runs until the scenario ends")
    got = from_base(sim)
    check(sim.kbd_intr and sim.kbd_intr[0] == (3000, -1), f"Ctrl-C is switched off after the 3 s window: {sim.kbd_intr!r}")
    check([p["t"] for p in got[:2]] == ["hello", "peers"] and got[1]["peers"] == {"348518000001": "s1"},
          f"hello then the stored allow-list: {got[:2]!r}")
    strikes = [p for p in got if p["t"] == "strike"]
    check(strikes == [{"t": "strike", "id": "s1", "seq": 5, "g": 6.5, "ms": 1000}],
          f"only the paired striker's strike is forwarded: {strikes!r}")
    told = [a for a in sim.air if a[1] == STRANGER]
    check(len(told) == 1 and told[0][2]["t"] == "unpaired", f"the stranger is told it is not paired: {told!r}")
    check(sim.wdt_feeds > 0 and sim.wdt_timeout_ms == 5000, "the watchdog runs and is fed")

    # pairing from the Pi: open the window, see the waved striker, send the allow-list
    pi_sends(sim, {"t": "pair_open", "id": "pi", "seq": 0, "s": 30})
    sim.inbox.append((NEW, frames.pair_req_payload("st-1a2b3c", 0, 7.25)))  # before the window: ignored
    sim.inbox.append((NEW, frames.pair_req_payload("st-1a2b3c", 1, 7.25)))
    sim.inbox.append((NEW, frames.pair_req_payload("st-1a2b3c", 2, 7.25)))  # within 250 ms: not again
    sim.run_for(3200)
    check(sim.boot(app, 2) == "stop", "base runs on")
    got = [p for p in from_base(sim) if p["t"] not in ("hello", "hb", "radio")]
    check([p["t"] for p in got] == ["peers", "pairing", "pair_seen"], f"pairing frames: {got!r}")
    check(got[-1].get("sid") == "st-1a2b3c" and got[-1].get("mac") == "3485181a2b3c" and got[-1].get("g") == 7.25,
          f"pair_seen names the striker, its MAC and g: {got[-1]!r}")
    pi_sends(sim, {"t": "pair_open", "id": "pi", "seq": 1, "s": 30})
    pi_sends(sim, {"t": "peers_set", "id": "pi", "seq": 2, "peers": {"348518000001": "s1", "3485181a2b3c": "st-1a2b3c"}})
    sim.usb_in.extend(b"\x01\x02\x03\x03garbage\x00")  # noise, including Ctrl-C bytes
    sim.run_for(3200)
    sim.boot(app, 2)
    got = [p for p in from_base(sim) if p["t"] == "peers"]
    check(got and got[-1]["peers"] == {"348518000001": "s1", "3485181a2b3c": "st-1a2b3c"}, f"new allow-list reported: {got!r}")
    check(app.load_peers()[0] == {"348518000001": "s1", "3485181a2b3c": "st-1a2b3c"}, "and stored on the board")
    told = [a for a in sim.air if a[1] == NEW]
    check(told and told[-1][2] == {"t": "paired", "id": "base", "seq": told[-1][2]["seq"], "sid": "st-1a2b3c"}
          and told[-1][3], f"the new striker is told, waiting for its acknowledgement: {told!r}")
    sim.inbox.append((NEW, frames.hb_payload("st-1a2b3c", 1, 3.8)))
    sim.run_for(3100)
    sim.boot(app, 2)
    check(any(p["t"] == "hb" and p["id"] == "st-1a2b3c" for p in from_base(sim)), "the new striker is forwarded")


def scenario_errors():
    sim = fakehw.Sim()
    app = fresh(sim, None)
    sim.recv_error = OSError(-12389, "ESP_ERR_ESPNOW_IF")
    sim.run_for(3500)
    check(sim.boot(app) == "stop", "an ESP-NOW error does not stop the base station")
    check(sum(1 for p in from_base(sim) if p["t"] == "hb") >= 1, "heartbeats go on")
    sim.recv_error = RuntimeError("a bug")
    sim.run_for(5000)
    check(sim.boot(app) == "reset", "an unexpected exception resets the board instead of stopping at the REPL")


def scenario_tune_relayed_to_its_striker_and_rssi_reported():
    """Firmware 1.2.0: the Pi's tune reaches only the named paired striker, with retries until acknowledged,
    again when its heartbeat shows the old value; bad tunes are dropped whole; RSSI once a second."""
    sim = fakehw.Sim()
    tries = []

    def lossy(mac, payload):
        if payload and payload["t"] == "tune":
            tries.append(mac)
            return len(tries) >= 3  # the first two copies are lost
        return True

    sim.acks = lossy
    sim.rssi = {NEW: -52, S1: -81, STRANGER: -40}
    app = fresh(sim, {"348518000001": "s1", "3485181a2b3c": "st-1a2b3c"})
    pi_sends(sim, {"t": "tune", "id": "pi", "seq": 0, "sid": "st-unknown", "thr": 3.0})  # not paired here
    pi_sends(sim, {"t": "tune", "id": "pi", "seq": 1, "sid": "st-1a2b3c", "thr": 16.5})  # out of range
    pi_sends(sim, {"t": "tune", "id": "pi", "seq": 2, "sid": "st-1a2b3c", "thr": 3.125})  # 3 decimals
    pi_sends(sim, {"t": "tune", "id": "pi", "seq": 3, "sid": "st-1a2b3c"})  # no threshold
    pi_sends(sim, {"t": "tune", "id": "base", "seq": 4, "sid": "st-1a2b3c", "thr": 3.0})  # not from the Pi
    sim.inbox.append((STRANGER, frames.tune_payload(1, "st-1a2b3c", 9.0)))  # a striker must not relay a tune
    pi_sends(sim, {"t": "tune", "id": "pi", "seq": 5, "sid": "st-1a2b3c", "thr": 3.0})
    # the striker slept through it and wakes with its old value; s1 has none wanted
    sim.later = [(4000, NEW, frames.hb_payload("st-1a2b3c", 7, 3.8, 2.5)), (4000, S1, frames.hb_payload("s1", 7, 3.8, 2.5)),
                 (5500, NEW, frames.hb_payload("st-1a2b3c", 8, 3.8, 3.0)),
                 (6000, NEW, frames.hb_payload("st-1a2b3c", 9, 3.8, 2.5))]  # later changed by a reflash: not ours to fight
    sim.run_for(9500)
    check(sim.boot(app) == "stop", "base runs")
    tunes = [a for a in sim.air if a[2] and a[2]["t"] == "tune"]
    first = [a for a in tunes if a[0] < 4000]
    check(len(first) == 3 and all(a[1] == NEW and a[3] for a in first),
          f"bad tunes dropped whole; the good one unicast to st-1a2b3c only, acknowledged, retried: {first!r}")
    check(first and first[-1][2]["sid"] == "st-1a2b3c" and first[-1][2]["thr"] == 3.0 and first[-1][4],
          "the third copy is acknowledged and names the striker and threshold")
    again = [a for a in tunes if 4000 <= a[0] < 5500]
    check(len(again) == 1 and again[0][1] == NEW and again[0][2]["thr"] == 3.0,
          f"a heartbeat with the old threshold brings the tune back (once): {again!r}")
    check([a for a in tunes if a[0] >= 5500] == [], "once the striker reports the value, the base stops")
    got = from_base(sim)
    check(not [p for p in got if p["t"] == "tune"], "a tune from the radio is never forwarded to the Pi")
    hbs = [p for p in got if p["t"] == "hb" and p["id"] == "st-1a2b3c"]
    check([p.get("thr") for p in hbs] == [2.5, 3.0, 2.5], f"heartbeats pass with their thr field: {hbs!r}")
    radios = [p["rssi"] for p in got if p["t"] == "radio"]
    check({"st-1a2b3c": -52, "s1": -81} in radios, f"RSSI of the paired strikers heard, by id, never the stranger's: {radios!r}")
    check(6 <= len(radios) <= 7, f"about once a second: {len(radios)} in 6.5 s")
    check(radios and radios[-1] == {"st-1a2b3c": -52}, f"an RSSI older than 5 s is not reported: {radios!r}")


SECRET = "000102030405060708090a0b0c0d0e0f"


def scenario_keys_handed_over_at_pairing_and_only_rightly_keyed_frames_forwarded():
    """Firmware 1.3.0 (firmware.md "Encryption"): the Pi's peers_set brings the table's secret; the base
    derives the PMK and the striker's LMK; the new striker gets them once, in the clear; from then on the
    base hears that MAC only when it encrypts with them: a neighbour spoofing the MAC, in the clear or
    with another key, is ignored."""
    import keys

    PMK, LMK = keys.table_pmk(SECRET), keys.striker_lmk(SECRET, "3485181a2b3c")
    sim = fakehw.Sim()
    app = fresh(sim, None)
    pi_sends(sim, {"t": "pair_open", "id": "pi", "seq": 0, "s": 30})
    pi_sends(sim, {"t": "peers_set", "id": "pi", "seq": 1, "peers": {"3485181a2b3c": "st-1a2b3c"}, "key": SECRET})
    sim.run_for(3300)
    check(sim.boot(app) == "stop", "keys: base runs")
    told = [a for a in sim.air if a[1] == NEW]
    check(len(told) == 1 and told[0][2]["t"] == "paired" and told[0][2].get("pmk") == PMK and told[0][2].get("lmk") == LMK
          and told[0][5] is None and told[0][3], f"the new striker gets its keys once, in the clear, acknowledged: {told!r}")
    check(app.load_peers() == ({"3485181a2b3c": "st-1a2b3c"}, SECRET), f"stored: {app.load_peers()!r}")
    key = (frames.key_bytes(PMK), frames.key_bytes(LMK))
    wrong = (frames.key_bytes(PMK), frames.key_bytes("11" * 16))
    from_base(sim)
    sim.inbox.append((NEW, frames.strike_payload("st-1a2b3c", 1, 6.5, 10)))  # the striker's MAC, in the clear
    sim.inbox.append((NEW, frames.strike_payload("st-1a2b3c", 2, 6.5, 20), wrong))  # its MAC, another key
    sim.inbox.append((STRANGER, frames.strike_payload("st-1a2b3c", 3, 6.5, 30), key))  # the keys, another MAC
    sim.inbox.append((NEW, frames.strike_payload("st-1a2b3c", 4, 6.5, 40), key))  # the striker itself
    sim.run_for(3500)
    check(sim.boot(app, 2) == "stop", "rebooted: the stored keys are used")
    strikes = [p for p in from_base(sim) if p["t"] == "strike"]
    check([p["seq"] for p in strikes] == [4] and sim.radio_dropped == 3,
          f"only the rightly keyed strike from the paired MAC is forwarded: {strikes!r}, dropped {sim.radio_dropped}")
    mark = len(sim.air)
    pi_sends(sim, {"t": "tune", "id": "pi", "seq": 2, "sid": "st-1a2b3c", "thr": 3.0})
    sim.run_for(3500)
    sim.boot(app, 2)
    pi_sends(sim, {"t": "peers_set", "id": "pi", "seq": 3, "peers": {}})
    sim.run_for(3500)
    sim.boot(app, 2)
    sent = [(a[2]["t"], a[5]) for a in sim.air[mark:] if a[1] == NEW]
    check(("tune", key) in sent and ("unpaired", key) in sent and all(k == key for _, k in sent),
          f"tune and unpaired go to the striker encrypted: {sent!r}")


def main():
    return _tally.run((
        scenario_boot_forward_and_pair, scenario_errors, scenario_tune_relayed_to_its_striker_and_rssi_reported,
        scenario_keys_handed_over_at_pairing_and_only_rightly_keyed_frames_forwarded,
    ))


if __name__ == "__main__":
    code = main()
    if code:
        sys.exit(code)
