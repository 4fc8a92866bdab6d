"""Check firmware/lib against tests/vectors/*.json — runs under CPython AND MicroPython.

Usage: the caller puts firmware/lib on sys.path and sets VECTORS_DIR (a global injected by the
Node runner, or sys.argv[1] under CPython). Prints one line per failure and a summary line
"OK <n> checks" or "FAIL <k> of <n> checks"; exits non-zero on failure under CPython.
"""

import json
import os
import sys

import cobs
import frames
from crc16 import crc16

_results = {"n": 0, "fail": 0}


def check(ok, what):
    _results["n"] += 1
    if not ok:
        _results["fail"] += 1
        print("FAIL " + what)


def unhex(text):
    return bytes.fromhex(text)


def load(dirname, name):
    with open(dirname + "/" + name) as f:
        return json.loads(f.read())


def check_frames(doc):
    _check_crc_cobs(doc)
    _check_good(doc)
    _check_bad(doc)
    _check_bad_firmware(doc)
    _check_stream(doc)


def _check_crc_cobs(doc):
    for c in doc["crc16"]:
        got = crc16(c["ascii"].encode())
        check(got == c["crc"], "crc16({!r}) = 0x{:04X}, expected 0x{:04X}".format(c["ascii"], got, c["crc"]))
    for c in doc["cobs"]:
        data = unhex(c["data"])
        enc = cobs.encode(data)
        check(enc.hex() == c["encoded"], "cobs.encode({}...) = {}...".format(c["data"][:16], enc.hex()[:16]))
        check(cobs.decode(unhex(c["encoded"])) == data, "cobs.decode({}...)".format(c["encoded"][:16]))


def _check_good(doc):
    for g in doc["good"]:
        wire = unhex(g["hex"])
        try:
            payload = frames.decode(wire[:-1])
            check(payload == g["payload"], "decode {} gave {!r}".format(g["name"], payload))
        except frames.FrameError as exc:
            check(False, "decode {} raised {}".format(g["name"], exc))
        b = g["build"]
        if b is None:
            continue
        built = frames.frame(_build_payload(b, g["payload"]))
        check(built == wire, "build {} gave {}, expected {}".format(g["name"], built.hex(), g["hex"]))


def _build_payload(b, payload):
    """The payload a vector's ``build`` entry describes, made by the firmware's own builders."""
    kind = b["kind"]
    if kind == "hello":
        return frames.hello_payload(b["seq"], b["fw"], proto=b.get("proto", 1))
    if kind == "strike":
        return frames.strike_payload(b["id"], b["seq"], b["g"], b["ms"])
    if kind == "sleep":
        return frames.sleep_payload(b["id"], b["seq"], b["bat"], b["why"])
    if kind == "pair_req":
        return frames.pair_req_payload(b["id"], b["seq"], b["g"], fw=payload["fw"])  # the vector's firmware
    if kind == "pair_seen":
        return frames.pair_seen_payload(b["seq"], b["sid"], b["mac"], b["g"])
    if kind == "pairing":
        return frames.pairing_payload(b["seq"], b["s"])
    if kind == "peers":
        return frames.peers_payload(b["seq"], b["peers"])
    if kind == "paired":
        return frames.paired_payload(b["seq"], b["sid"])
    if kind == "unpaired":
        return frames.unpaired_payload(b["seq"])
    if kind == "tune":
        return frames.tune_payload(b["seq"], b["sid"], b["thr"], sender=b["sender"])
    if kind == "radio":
        return frames.radio_payload(b["seq"], b["rssi"])
    return frames.hb_payload(b["id"], b["seq"], b["bat"], b.get("thr"))


def _check_bad(doc):
    for bad in doc["bad"]:
        wire = unhex(bad["hex"])
        try:
            got = frames.decode(wire[:-1])
            check(False, "bad frame {} decoded to {!r}".format(bad["name"], got))
        except frames.FrameError as exc:
            check(exc.kind == bad["error"], "bad frame {}: kind {}, expected {} ({})".format(bad["name"], exc.kind, bad["error"], exc.message))


def _check_bad_firmware(doc):
    for bad in doc["bad_firmware"]["cases"]:
        try:
            got = frames.decode(unhex(bad["hex"])[:-1])
            check(False, "firmware accepted {} as {!r}".format(bad["name"], got))
        except frames.FrameError as exc:
            check(exc.kind == bad["error"], "bad_firmware {}: kind {}".format(bad["name"], exc.kind))


def _check_stream(doc):
    # the stream, split on delimiters the simple way (the firmware has no streaming reader)
    got = []
    for body in unhex(doc["stream"]["hex"]).split(b"\x00")[:-1]:
        if not body:
            continue
        try:
            got.append({"payload": frames.decode(body)})
        except frames.FrameError as exc:
            got.append({"error": exc.kind})
    check(got == doc["stream"]["expect"], f"stream decoded to {got!r}")


def check_strikes(doc):
    for case in doc["cases"]:
        check_case(case, doc["detector"])


def check_recorded(dirname):
    """Traces recorded on a real striker (tests/vectors/recorded/*.json, saved by
    ``gametable striker-trace --save-vector``): each has its own detector settings and sample times."""
    try:
        names = sorted(n for n in os.listdir(dirname) if n.endswith(".json"))
    except OSError:
        return 0  # no recorded traces yet
    for name in names:
        case = load(dirname, name)
        check_case(case, case["detector"])
    return len(names)


def check_case(case, detector):
    from strike_detector import StrikeDetector

    rate = case["rate_hz"]
    det = StrikeDetector(rate, **detector)
    times = case.get("t_ms")  # recorded: the striker's own ms; synthesised: sample i at i*1000//rate
    events = []
    for i, s in enumerate(case["samples"]):
        ev = det.feed(s[0], s[1], s[2], times[i] if times else (i * 1000) // rate)
        if ev is not None:
            events.append(ev)
    exp = case["expect"]
    check(len(events) == len(exp), f"strikes {case['name']}: {len(events)} events, expected {len(exp)} ({events!r})")
    for k in range(min(len(events), len(exp))):
        peak, ms = events[k]
        e = exp[k]
        check(abs(peak - e["g"]) <= e["g_tol"], "strikes {}: peak {:.2f} g, expected {:.2f} +- {:.2f}".format(case["name"], peak, e["g"], e["g_tol"]))
        check(abs(ms - e["ms"]) <= e["ms_tol"], f"strikes {case['name']}: at {ms} ms, expected {e['ms']} +- {e['ms_tol']}")


def check_cores(fdoc, sdoc):
    """The striker and base station decisions, end to end down to wire bytes."""
    from base_core import BaseCore
    from strike_detector import StrikeDetector
    from striker_core import StrikerCore

    hello = [g for g in fdoc["good"] if g["name"] == "hello_base"][0]
    s3_mac = b"\x34\x85\x18\x00\x00\x03"
    base = BaseCore(fw="1.0.0", peers={"348518000003": "s3"})
    check(base.boot().hex() == "00" + hello["hex"], "base boot frame is not 0x00 + the hello_base vector")
    hb0 = base.tick(0)
    check(hb0 is not None and frames.decode(hb0[1:-1])["t"] == "hb", "base heartbeat at boot")
    check(base.tick(999) is None and base.tick(1000) is not None, "base heartbeat every 1000 ms")
    strike = [g for g in fdoc["good"] if g["name"] == "strike_s3"][0]
    payload = frames.strike_payload("s3", 17, 6.5, 123456)
    check(base.radio(payload, s3_mac).hex() == "00" + strike["hex"], "base forwards a paired striker's payload byte-exact, 0x00 first")
    check(base.radio(b'{"t":"hb","id":"s3","seq":1}', s3_mac) is None and base.last_error == "field", "base rejects bad payload")
    check(base.radio(b"\xff" * 300, s3_mac) is None and base.last_error == "oversize", "base rejects oversize")
    check(base.radio(payload, b"\x01\x02\x03\x04\x05\x06") is None and base.unknown == 1, "base drops an unpaired MAC")
    check(base.radio(frames.strike_payload("s4", 1, 6.5, 1), s3_mac) is None and base.last_error == "id",
          "base drops a paired MAC speaking for another striker")
    check_pairing(BaseCore)

    case = [c for c in sdoc["cases"] if c["name"] == "two_hits_300ms_apart"][0]
    rate = case["rate_hz"]
    core = StrikerCore("s3", StrikeDetector(rate, **sdoc["detector"]), seq=4294967295)
    sent = []
    for i, smp in enumerate(case["samples"]):
        now = (i * 1000) // rate
        p = core.sample(smp[0], smp[1], smp[2], now)
        if p is not None:
            sent.append(frames.check_payload(p))
        p = core.tick(now, 3.87)
        if p is not None:
            sent.append(frames.check_payload(p))
    kinds = [p["t"] for p in sent]
    check(kinds.count("strike") == 2, f"striker sent {kinds.count('strike')} strikes, expected 2")
    check(kinds.count("hb") == 2, f"striker sent {kinds.count('hb')} heartbeats in 600 ms, expected 2")
    seqs = [p["seq"] for p in sent]
    check(seqs == [4294967295] + list(range(len(seqs) - 1)), f"striker seqs {seqs} do not wrap cleanly")
    check(not core.should_sleep(600) and core.should_sleep(310000), "striker sleeps only when idle")


def check_pairing(BaseCore):
    """Pi opens pairing, a waved striker is seen, the Pi sends the allow-list, the striker is told."""
    mac = b"\x34\x85\x18\x1a\x2b\x3c"
    base = BaseCore()
    base.boot()
    req = frames.pair_req_payload("st-1a2b3c", 0, 6.2)
    check(base.radio(req, mac, 0) is None, "pair_req outside the pairing window is ignored")
    opened = base.command({"t": "pair_open", "id": "pi", "seq": 0, "s": 30}, 1000)
    check(frames.decode(opened[1:-1]) == {"t": "pairing", "id": "base", "seq": 1, "s": 30}, "pair_open answered with pairing")
    seen = base.radio(req, mac, 2000)
    check(seen is not None and frames.decode(seen[1:-1]) == {"t": "pair_seen", "id": "base", "seq": 2, "sid": "st-1a2b3c",
                                                           "mac": "3485181a2b3c", "g": 6.2}, f"pair_seen frame {seen!r}")
    check(base.radio(req, mac, 2100) is None, "pair_seen at most every 250 ms per striker")
    check(base.radio(req, mac, 2300) is not None, "and again after 250 ms")
    for i in range(40):  # many senders: the rate-limit table stays bounded
        base.radio(frames.pair_req_payload(f"x{i}", 0, 3.0), bytes([2, 0, 0, 0, 0, i]), 2400)
    check(len(base._seen) <= 16, f"rate-limit table bounded: {len(base._seen)}")
    out = base.command({"t": "peers_set", "id": "pi", "seq": 1, "peers": {"3485181a2b3c": "st-1a2b3c"}}, 3000)
    check(frames.decode(out[1:-1])["peers"] == {"3485181a2b3c": "st-1a2b3c"} and base.dirty, "peers_set stored and reported")
    check([(m, frames.check_payload(p)["t"]) for m, p, _ in base.replies] == [(mac, "paired")], f"paired sent: {base.replies!r}")
    check(frames.check_payload(base.replies[0][1])["sid"] == "st-1a2b3c", "paired names the striker id")
    base.replies = []
    hb = frames.hb_payload("st-1a2b3c", 1, 3.9)
    check(base.radio(hb, mac, 3100) == frames.wire(hb), "a newly paired striker is forwarded")
    base.command({"t": "peers_set", "id": "pi", "seq": 2, "peers": {}}, 4000)
    check([frames.check_payload(p)["t"] for m, p, _ in base.replies] == ["unpaired"], "a removed striker is told")
    check(base.radio(hb, mac, 4100) is None, "and no longer forwarded")
    check(base.tick(31000 + 1000) is not None and base.pair_until is None, "pairing window closes by itself")
    check(base.command({"t": "pair_open", "id": "base", "seq": 3, "s": 5}, 0) == b"", "commands only from the Pi")


# HMAC-SHA256 key derivation (lib/keys.py) for the secret 000102…0f: what CPython's hmac module gives
# (tests/test_firmware.py checks these constants against it), so both interpreters agree with it
KEYS_SECRET = "000102030405060708090a0b0c0d0e0f"
KEYS_PMK = "662000df9243147b1012a6ee40ef0d40"
KEYS_LMK_3485181A2B3C = "7e6d35d99e1dbaecabbcb6064ae9aa52"


def check_keys():
    import keys

    check(keys.table_pmk(KEYS_SECRET) == KEYS_PMK, f"table PMK {keys.table_pmk(KEYS_SECRET)}")
    check(keys.striker_lmk(KEYS_SECRET, "3485181a2b3c") == KEYS_LMK_3485181A2B3C,
          f"striker LMK {keys.striker_lmk(KEYS_SECRET, '3485181a2b3c')}")
    check(keys.striker_lmk(KEYS_SECRET, "348518000001") != KEYS_LMK_3485181A2B3C, "each striker its own LMK")


def main(dirname):
    fdoc = load(dirname, "frames.json")
    sdoc = load(dirname, "strikes.json")
    check_frames(fdoc)
    check_strikes(sdoc)
    recorded = check_recorded(dirname + "/recorded")
    check_cores(fdoc, sdoc)
    check_keys()
    impl = sys.implementation.name
    if _results["fail"]:
        print(f"FAIL {_results['fail']} of {_results['n']} checks ({impl}); {recorded} recorded traces")
        return 1
    print(f"OK {_results['n']} checks ({impl}); {recorded} recorded traces")
    return 0


if __name__ == "__main__":
    try:
        vdir = VECTORS_DIR  # noqa: F821 - injected by run.mjs under MicroPython
    except NameError:
        vdir = sys.argv[1]
    code = main(vdir)
    if code:
        sys.exit(code)
