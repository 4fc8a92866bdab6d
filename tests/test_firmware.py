"""Firmware logic (firmware/lib) under CPython and under REAL MicroPython, against the shared vectors.

The MicroPython run uses the official WebAssembly port (npm @micropython/micropython-webassembly-pyscript)
under Node; `make deps` installs it with `npm ci --prefix firmware/test_runner`.
"""

from __future__ import annotations

import importlib
import json
import math
import random
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games.coinwar.sensing import strike_input
from gametable.testing.pty import PtyPair, wait_for
from gametable_core.clock import FakeClock
from gametable_core.frames import FrameDecoder, encode
from sensors.striker_link import StrikerLink

ROOT = Path(__file__).resolve().parents[1]
LIB = ROOT / "firmware" / "lib"
RUNNER = ROOT / "firmware" / "test_runner"
VECTORS = ROOT / "tests" / "vectors"
STRIKES = json.loads((VECTORS / "strikes.json").read_text())


def _fw(name: str):
    """Import a firmware/lib module the way the ESP32 does (flat names on sys.path)."""
    if str(LIB) not in sys.path:
        sys.path.insert(0, str(LIB))
    return importlib.import_module(name)


fw_frames = _fw("frames")
fw_cobs = _fw("cobs")
StrikeDetector = _fw("strike_detector").StrikeDetector
StrikerCore = _fw("striker_core").StrikerCore
battery_volts = _fw("striker_core").battery_volts
BaseCore = _fw("base_core").BaseCore


# --- the shared vectors, in both interpreters ---------------------------------------------------

def test_firmware_lib_passes_vectors_under_cpython():
    proc = subprocess.run(
        [sys.executable, str(RUNNER / "check_vectors.py"), str(VECTORS)],
        env={"PYTHONPATH": str(LIB), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1].startswith("OK ") and "(cpython)" in proc.stdout
    assert "recorded traces" in proc.stdout  # tests/vectors/recorded/*.json (traces from real strikers) ran too


def test_firmware_lib_passes_vectors_under_real_micropython():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed (make deps installs nodejs)")
    if not (RUNNER / "node_modules" / "@micropython" / "micropython-webassembly-pyscript").is_dir():
        pytest.fail("MicroPython for Node is missing: run `make deps` (npm ci --prefix firmware/test_runner)")
    proc = subprocess.run(
        [node, str(RUNNER / "run.mjs"), str(LIB), str(VECTORS), str(RUNNER / "check_vectors.py")],
        cwd=RUNNER, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "(micropython)" in proc.stdout and "FAIL" not in proc.stdout and "recorded traces" in proc.stdout


def test_hardware_mains_compile():
    for main in ("striker/main.py", "striker/striker_app.py", "striker/mpu6050.py", "striker/config.py",
                 "striker/record_trace.py", "base_station/main.py", "base_station/base_app.py"):
        compile((ROOT / "firmware" / main).read_text(), main, "exec")


# --- the hardware glue (striker_app, base_app) on recording stand-in hardware -------------------

def _micropython(script: str, *extra: Path) -> subprocess.CompletedProcess:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed (make deps installs nodejs)")
    return subprocess.run(
        [node, str(RUNNER / "run.mjs"), str(LIB), str(VECTORS), str(RUNNER / script), *map(str, extra), str(RUNNER)],
        cwd=RUNNER, capture_output=True, text=True, timeout=120,
    )


def _cpython(script: str, extra: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(RUNNER / script)],
        env={"PYTHONPATH": f"{LIB}:{extra}:{RUNNER}", "PATH": "/usr/bin:/bin"},
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )


def test_striker_sleeps_wakes_on_gpio3_and_rearms_every_time_under_real_micropython():
    """Latch read before any MPU write, re-armed before every sleep, GPIO wake on the C3
    (timed polls on MicroPython < 1.27), plus watchdog/recovery, unicast/pairing, sleep frame."""
    proc = _micropython("check_striker.py", ROOT / "firmware" / "striker")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "(micropython)" in proc.stdout and "FAIL" not in proc.stdout


def test_striker_app_checks_also_pass_under_cpython(tmp_path):
    proc = _cpython("check_striker.py", ROOT / "firmware" / "striker", tmp_path)
    assert proc.returncode == 0 and "OK" in proc.stdout, proc.stdout + proc.stderr


def test_base_station_allow_list_pairing_and_recovery_under_real_micropython():
    proc = _micropython("check_base.py", ROOT / "firmware" / "base_station")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "(micropython)" in proc.stdout and "FAIL" not in proc.stdout


def test_base_app_checks_also_pass_under_cpython(tmp_path):
    proc = _cpython("check_base.py", ROOT / "firmware" / "base_station", tmp_path)
    assert proc.returncode == 0 and "OK" in proc.stdout, proc.stdout + proc.stderr


def test_the_wake_pin_is_one_the_esp32_c3_can_wake_from():
    """C3 deep-sleep GPIO wake: GPIO0-5 only; not the battery ADC pin, not strapping GPIO2."""
    config = (ROOT / "firmware" / "striker" / "config.py").read_text()
    ns: dict = {}
    exec(compile(config, "config.py", "exec"), ns)
    assert ns["MPU_INT"] in (1, 3, 4, 5) and ns["MPU_INT"] != ns["BAT_ADC"]
    assert ns["ID"] is None  # one firmware for every striker: pairing happens on the panel


# --- cross-implementation properties: firmware writes, Pi reads, and back -----------------------

sender_ids = st.from_regex(r"[a-z][a-z0-9]{0,7}", fullmatch=True)
seqs = st.integers(0, 2**32 - 1)


@settings(max_examples=150, deadline=None)
@given(sender_ids, seqs, st.floats(0, 1000, allow_nan=False), st.integers(0, 2**40))
def test_property_firmware_strike_frame_decodes_on_the_pi(sid, seq, g, ms):
    wire = fw_frames.frame(fw_frames.strike_payload(sid, seq, g, ms))
    [p] = FrameDecoder().feed(wire)
    assert p["t"] == "strike" and p["id"] == sid and p["seq"] == seq and p["ms"] == ms
    assert abs(p["g"] - g) <= 0.005 + 1e-9


@settings(max_examples=150, deadline=None)
@given(sender_ids, seqs, st.floats(0, 10, allow_nan=False))
def test_property_pi_encoded_hb_equals_firmware_bytes_for_2_decimal_values(sid, seq, bat):
    bat = round(bat, 2)
    fw_wire = fw_frames.frame(fw_frames.hb_payload(sid, seq, bat))
    pi_wire = encode({"t": "hb", "id": sid, "seq": seq, "bat": bat})
    assert fw_wire == pi_wire
    assert fw_frames.decode(pi_wire[:-1]) == {"t": "hb", "id": sid, "seq": seq, "bat": bat}


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=600))
def test_property_firmware_cobs_roundtrip(data):
    enc = fw_cobs.encode(data)
    assert 0 not in enc and fw_cobs.decode(enc) == data


def test_firmware_builders_reject_bad_values_with_one_line_errors():
    with pytest.raises(ValueError, match="seq must be"):
        fw_frames.hb_payload("s1", 2**32, 3.9)
    with pytest.raises(ValueError, match="id may only use"):
        fw_frames.hb_payload('s"1', 1, 3.9)
    with pytest.raises(ValueError, match="bat must be"):
        fw_frames.hb_payload("s1", 1, 11)
    with pytest.raises(ValueError, match="rate_hz must be at least 500"):
        StrikeDetector(rate_hz=400)


# --- strike detector properties -----------------------------------------------------------------

def _trace(rnd: random.Random, rate: int, ms: int, hits: list[tuple[int, float]], noise: float) -> list[tuple]:
    out = []
    for i in range(rate * ms // 1000):
        t = i * 1000 / rate
        x, y, z = 0.0, 0.0, 1.0
        for start, amp in hits:
            dt = t - start
            if dt >= 0:
                v = amp * math.exp(-dt / 6) * math.cos(2 * math.pi * 150 * dt / 1000)
                x, y = x + 0.6 * v, y + 0.8 * v
        out.append((x + rnd.gauss(0, noise), y + rnd.gauss(0, noise), z + rnd.gauss(0, noise)))
    return out


def _detect(samples, rate: int) -> list[tuple[float, int]]:
    det = StrikeDetector(rate, **STRIKES["detector"])
    events = []
    for i, s in enumerate(samples):
        ev = det.feed(*s, (i * 1000) // rate)
        if ev:
            events.append(ev)
    return events


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.floats(3.5, 20), min_size=1, max_size=4),
    st.lists(st.integers(130, 400), min_size=4, max_size=4),
    st.sampled_from([500, 1000, 1600]),
    st.integers(0, 2**16),
)
def test_property_each_separated_hit_is_one_strike_with_its_peak(amps, gaps, rate, seed):
    hits, t = [], 50
    step = 1000 / rate
    for amp, gap in zip(amps, gaps, strict=False):
        hits.append((math.ceil(t / step) * step, amp))  # a hit starts on a sample, as it does for real
        t += gap
    events = _detect(_trace(random.Random(seed), rate, t + 100, hits, 0.03), rate)
    assert len(events) == len(hits)
    for (peak, at), (start, amp) in zip(events, hits, strict=True):
        assert abs(peak - amp) <= 0.15 * amp + 0.2
        assert abs(at - start) <= 1


@settings(max_examples=25, deadline=None)
@given(st.floats(0.0, 0.3), st.integers(0, 2**16))
def test_property_noise_and_gravity_alone_never_strike(noise, seed):
    assert _detect(_trace(random.Random(seed), 1000, 1000, [], noise), 1000) == []


def _tilted_trace(rnd: random.Random, gravity: tuple, direction: tuple, amp: float, at: int) -> list[tuple]:
    out = []
    for t in range(at + 200):
        x, y, z = gravity
        dt = t - at
        if dt >= 0:
            v = amp * math.exp(-dt / 4) * math.cos(2 * math.pi * 220 * dt / 1000)
            x, y, z = x + direction[0] * v, y + direction[1] * v, z + direction[2] * v
        out.append((x + rnd.gauss(0, 0.02), y + rnd.gauss(0, 0.02), z + rnd.gauss(0, 0.02)))
    return out


def _unit(v: tuple) -> tuple:
    n = math.sqrt(sum(c * c for c in v))
    return tuple(c / n for c in v)


@settings(max_examples=40, deadline=None)
@given(st.tuples(st.floats(-1, 1), st.floats(-1, 1), st.floats(0.2, 1)), st.floats(3.5, 16),
       st.floats(0, 2 * math.pi), st.integers(0, 2**16))
def test_property_issue_11_set_down_spikes_along_gravity_never_strike_and_strikes_across_it_do(g, amp, phi, seed):
    """However the striker is held, a spike along gravity (setting it down) is no strike; one across it is."""
    gravity = _unit(g)
    # a unit vector across gravity: any vector minus its gravity part
    a = (math.cos(phi), math.sin(phi), 0.3)
    dot = sum(x * y for x, y in zip(a, gravity, strict=True))
    rest = tuple(x - dot * y for x, y in zip(a, gravity, strict=True))
    if math.sqrt(sum(c * c for c in rest)) < 0.2:  # a happened to point along gravity
        rest = (gravity[1], -gravity[0], 0.0) if abs(gravity[2]) < 0.9 else (1.0, 0.0, -gravity[0] / gravity[2])
    across = _unit(rest)
    rnd = random.Random(seed)
    assert _detect(_tilted_trace(rnd, gravity, gravity, amp, 300), 1000) == []
    hits = _detect(_tilted_trace(rnd, gravity, across, amp, 300), 1000)
    assert len(hits) == 1 and hits[0][1] == 300


# --- the striker and base station cores ---------------------------------------------------------

def test_striker_heartbeat_is_at_least_1_hz_and_seq_wraps():
    core = StrikerCore("s2", StrikeDetector(1000), hb_interval_ms=500, seq=2**32 - 2)
    sent = [p for now in range(0, 3001) if (p := core.tick(now, 3.9)) is not None]
    decoded = [fw_frames.check_payload(p) for p in sent]
    assert len(decoded) == 7  # 0, 500, ..., 3000 ms
    assert [d["seq"] for d in decoded] == [2**32 - 2, 2**32 - 1, 0, 1, 2, 3, 4]
    assert all(d == {"t": "hb", "id": "s2", "seq": d["seq"], "bat": 3.9, "thr": 2.5} for d in decoded)


def test_striker_refuses_a_heartbeat_slower_than_1_hz():
    with pytest.raises(ValueError, match="at least 1 Hz|at most 1000"):
        StrikerCore("s2", StrikeDetector(1000), hb_interval_ms=1500)


def test_striker_sleeps_only_after_idle_time_and_not_while_measuring():
    core = StrikerCore("s2", StrikeDetector(1000), idle_sleep_ms=1000)
    core.tick(0, 3.9)
    assert not core.should_sleep(999)
    assert core.should_sleep(1000)


def test_battery_divider_math():
    assert battery_volts(1_950_000, 2.0) == pytest.approx(3.9)


S1_MAC = bytes.fromhex("348518000001")


def test_base_station_rejects_radio_garbage_and_impersonation():
    base = BaseCore(peers={"348518000001": "s1"})
    assert base.radio(b"\x00\x01garbage", S1_MAC) is None
    assert base.radio(b'{"t":"hb","id":"base","seq":1,"bat":5.0}', S1_MAC) is None
    assert base.radio(b'{"t":"strike","id":"s1","seq":1,"g":"x","ms":1}', S1_MAC) is None
    assert base.radio(b'{"t":"hb","id":"s2","seq":1,"bat":3.9}', S1_MAC) is None  # s1's MAC speaking for s2
    assert base.radio(b'{"t":"paired","id":"s1","seq":1,"sid":"s1"}', S1_MAC) is None  # radio-only types
    assert base.rejected == 5 and base.forwarded == 0


def test_base_station_forwards_only_allowed_macs_and_bounds_what_strangers_cost():
    """On the base: a thousand strangers cost a bounded table and no frame to the Pi."""
    base = BaseCore(peers={"348518000001": "s1"})
    for i in range(1000):
        mac = bytes([2, 0, 0, 0, i // 256, i % 256])
        assert base.radio(fw_frames.hb_payload(f"x{i}", 0, 3.9), mac, i) is None
        assert base.radio(fw_frames.pair_req_payload(f"x{i}", 0, 5.0), mac, i) is None  # window closed
    assert base.unknown == 1000 and len(base._replied) <= 16 and len(base.replies) <= 1000
    assert base.radio(fw_frames.hb_payload("s1", 0, 3.9), S1_MAC, 0) is not None


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.from_regex(r"[0-9a-f]{12}", fullmatch=True), sender_ids, max_size=8).filter(
    lambda d: len(set(d.values())) == len(d)), seqs)
def test_property_pi_peers_set_is_understood_by_the_base_and_echoed(peers, seq):
    """The Pi's frame (gametable_core.frames.encode) → the base's reader → the base's peers frame → the Pi's decoder."""
    cmd = encode({"t": "peers_set", "id": "pi", "seq": seq, "peers": peers})
    [payload] = fw_frames.Unframer().feed(cmd)
    base = BaseCore()
    out = base.command(payload, 0)
    [echo] = FrameDecoder().feed(out)
    assert echo["t"] == "peers" and echo["peers"] == peers and base.peers == peers
    assert {m.hex() for m, *_ in base.replies} == set(peers)
    assert base.dirty == bool(peers)  # stored only if it changed
    base.dirty, base.replies = False, []
    base.command(payload, 5000)  # the Pi repeats the list after a hello: nothing to store or tell
    assert not base.dirty and base.replies == []


def test_base_seq_to_the_pi_has_no_gaps_while_it_answers_strikers_over_the_radio():
    """The Pi counts the base's seq: radio answers (paired/unpaired) must not use it up."""
    base = BaseCore(peers={"348518000001": "s1"})
    out = base.boot() + base.peers_frame() + base.tick(0)
    for i in range(5):  # strangers get "unpaired" answers
        assert base.radio(fw_frames.hb_payload("x", i, 3.9), bytes([9, 0, 0, 0, 0, i]), 0) is None
    out += base.command({"t": "peers_set", "id": "pi", "seq": 0, "peers": {"348518000002": "s2"}}, 0)
    out += base.tick(1000)
    assert len(base.replies) == 7  # 5 unpaired, 1 unpaired (s1 removed), 1 paired (s2)
    assert [p["seq"] for p in FrameDecoder().feed(out)] == [0, 1, 2, 3, 4]


def test_pi_commands_out_of_range_are_rejected_by_the_base():
    reader = fw_frames.Unframer()
    bad = [
        {"t": "pair_open", "id": "pi", "seq": 1, "s": 601},
        {"t": "peers_set", "id": "pi", "seq": 2, "peers": {f"{i:012x}": f"s{i}" for i in range(9)}},
        {"t": "peers_set", "id": "pi", "seq": 3, "peers": {"00000000000g": "s1"}},
        {"t": "peers_set", "id": "pi", "seq": 4, "peers": {"000000000001": "s1", "000000000002": "s1"}},
    ]
    assert reader.feed(b"".join(encode(p) for p in bad)) == [] and reader.errors == 4


@settings(max_examples=100, deadline=None)
@given(sender_ids, seqs, st.floats(0, 10, allow_nan=False), st.sampled_from(["idle", "low_battery"]))
def test_property_firmware_sleep_frame_decodes_on_the_pi_byte_identical(sid, seq, bat, why):
    bat = round(bat, 2)
    fw_wire = fw_frames.frame(fw_frames.sleep_payload(sid, seq, bat, why))
    assert fw_wire == encode({"t": "sleep", "id": sid, "seq": seq, "bat": bat, "why": why})
    [p] = FrameDecoder().feed(fw_wire)
    assert p == {"t": "sleep", "id": sid, "seq": seq, "bat": bat, "why": why}


def test_pairing_frames_match_the_pi_encoder_byte_for_byte():
    """serial_protocol.md documents these bytes; the Pi's json encoder writes the same."""
    cases = [
        (fw_frames.pair_seen_payload(3, "st-1a2b3c", "3485181a2b3c", 6.2),
         {"t": "pair_seen", "id": "base", "seq": 3, "sid": "st-1a2b3c", "mac": "3485181a2b3c", "g": 6.2}),
        (fw_frames.pairing_payload(4, 60), {"t": "pairing", "id": "base", "seq": 4, "s": 60}),
        (fw_frames.peers_payload(5, {"3485181a2b3c": "st-1a2b3c", "348518000001": "s1"}),
         {"t": "peers", "id": "base", "seq": 5, "peers": {"348518000001": "s1", "3485181a2b3c": "st-1a2b3c"}}),
    ]
    for fw_payload, pi_dict in cases:
        assert fw_frames.frame(fw_payload) == encode(pi_dict)
        assert FrameDecoder().feed(fw_frames.frame(fw_payload)) == [pi_dict]


@contextmanager
def _pi_link():
    """StrikerLink on a real pty: (pty, link, frames delivered, events), stopped and closed after."""
    pty = PtyPair()
    frames_seen: list[dict] = []
    events: list[dict] = []
    link = StrikerLink(pty.path, 115200, FakeClock(), frames_seen.append, events.append)
    link.start()
    try:
        wait_for(lambda: link.is_open, what="open")
        yield pty, link, frames_seen, events
    finally:
        link.stop()
        pty.close()


def test_firmware_to_pi_end_to_end_over_a_real_pty():
    """Base station + striker logic write real frames into a pty; StrikerLink turns them into seat inputs."""
    with _pi_link() as (pty, link, frames_seen, events):
        base = BaseCore(peers={"348518000003": "s3"})
        s3_mac = bytes.fromhex("348518000003")
        pty.write(b"MicroPython v1.27 on ESP32C3\r\n>>> ")  # the boot banner is garbage to the decoder
        pty.write(b"\x00" + base.boot() + base.tick(0))
        case = next(c for c in STRIKES["cases"] if c["name"] == "two_hits_300ms_apart")
        striker = StrikerCore("s3", StrikeDetector(case["rate_hz"], **STRIKES["detector"]))
        for i, smp in enumerate(case["samples"]):
            now = i * 1000 // case["rate_hz"]
            for payload in (striker.sample(*smp, now), striker.tick(now, 3.41)):
                if payload is not None:
                    pty.write(base.radio(payload, s3_mac))
        wait_for(lambda: len(frames_seen) == 6, what="hello, base hb, 2 strikes, 2 striker hbs")
        inputs = [strike_input(f, {"s3": 3}) for f in frames_seen]
        assert [i for i in inputs if i] == [{"type": "strike", "seat": 3}] * 2
        assert [e["event"] for e in events if e["event"] in ("hello", "low_battery", "lost")] == [
            "hello", "low_battery"
        ]
        stats = link.stats()
        assert stats["lost"] == 0 and stats["duplicates"] == 0 and stats["senders"]["s3"]["bat"] == 3.41


def test_new_frames_pass_through_todays_pi_link_without_gaps_or_errors():
    """Forward compatibility over a real pty: a 1.1.0 base's pairing frames and a striker's sleep frame
    cost the Pi no `lost`, no `frame_error`, and the seat mapping of strikes is unchanged."""
    with _pi_link() as (pty, link, frames_seen, events):
        s3_mac = bytes.fromhex("348518000003")
        new_mac = bytes.fromhex("3485181a2b3c")
        base = BaseCore(peers={"348518000003": "s3"})
        out = b"\x00" + base.boot() + base.peers_frame() + base.tick(0)
        out += base.command({"t": "pair_open", "id": "pi", "seq": 0, "s": 60}, 10)
        out += base.radio(fw_frames.pair_req_payload("st-1a2b3c", 0, 6.2), new_mac, 20)
        out += base.command({"t": "peers_set", "id": "pi", "seq": 1,
                             "peers": {"348518000003": "s3", "3485181a2b3c": "st-1a2b3c"}}, 30)
        out += base.radio(fw_frames.strike_payload("st-1a2b3c", 1, 7.0, 40), new_mac, 40)
        out += base.radio(fw_frames.sleep_payload("s3", 0, 3.9), s3_mac, 50)
        out += base.tick(1000)
        pty.write(out)
        wait_for(lambda: link.stats()["frames"] >= 9, what="all 9 frames read")
        stats = link.stats()
        assert stats["frames"] == 9 and stats["lost"] == 0 and stats["duplicates"] == 0
        assert not [e for e in events if e["event"] in ("frame_error", "lost", "callback_error", "seq_reset")]
        assert [strike_input(f, {"st-1a2b3c": 2}) for f in frames_seen if f["t"] == "strike"] == [
            {"type": "strike", "seat": 2}]


# --- firmware 1.2.0: threshold tuning and RSSI -------------------------------------------------

thresholds = st.integers(100, 1600).map(lambda c: c / 100)


@settings(max_examples=150, deadline=None)
@given(sender_ids, seqs, thresholds, st.sampled_from(["pi", "base"]))
def test_property_tune_frames_match_the_pi_encoder_byte_for_byte(sid, seq, thr, sender):
    """The Pi writes ``tune`` with gametable_core.frames.encode; the base decodes it and builds its radio copy
    with the firmware's builder: both give the same bytes for every 2-decimal threshold."""
    fw_wire = fw_frames.frame(fw_frames.tune_payload(seq, sid, thr, sender=sender))
    pi = {"t": "tune", "id": sender, "seq": seq, "sid": sid, "thr": thr}
    assert fw_wire == encode(pi)
    assert fw_frames.Unframer().feed(fw_wire) == [pi]


@settings(max_examples=100, deadline=None)
@given(sender_ids, seqs, st.floats(0, 10, allow_nan=False), thresholds)
def test_property_hb_with_threshold_and_radio_frames_match_the_pi_encoder(sid, seq, bat, thr):
    bat = round(bat, 2)
    assert fw_frames.frame(fw_frames.hb_payload(sid, seq, bat, thr)) == encode(
        {"t": "hb", "id": sid, "seq": seq, "bat": bat, "thr": thr})
    rssi = {sid: -52, "zz": -90}
    assert fw_frames.frame(fw_frames.radio_payload(seq, rssi)) == encode(
        {"t": "radio", "id": "base", "seq": seq, "rssi": dict(sorted(rssi.items()))})


_json_values = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
                            | st.text(max_size=12), lambda c: st.lists(c, max_size=3)
                            | st.dictionaries(st.text(max_size=6), c, max_size=3), max_leaves=6)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["t", "id", "seq", "sid", "thr"]), _json_values, max_size=5),
       st.booleans())
def test_property_the_base_relays_only_good_tunes_for_its_paired_strikers(fields, paired):
    """Random fields never crash the base; a tune with any bad field is dropped whole; a good one
    goes (once) to the MAC of the named striker, and only if that striker is paired here."""
    payload = {"t": "tune", "id": "pi", "seq": 1, "sid": "st-1a2b3c", "thr": 3.0, **fields}
    frame = encode(payload)
    base = BaseCore(peers={"3485181a2b3c": "st-1a2b3c"} if paired else {})
    out = b""
    for p in fw_frames.Unframer().feed(frame):
        out += base.command(p, 0)
    assert out == b""  # nothing to the Pi: the striker's heartbeat says what it uses
    good = (payload["t"] == "tune" and payload["id"] == "pi" and isinstance(payload["seq"], int)
            and not isinstance(payload["seq"], bool) and 0 <= payload["seq"] < 2**32 and payload["sid"] == "st-1a2b3c"
            and fw_frames.is_thr(payload["thr"]))
    sent = base.next_tune(0)
    if good and paired:
        assert sent is not None and sent[0] == bytes.fromhex("3485181a2b3c")
        assert fw_frames.check_payload(sent[1])["thr"] == payload["thr"]
    else:
        assert sent is None and base.wanted == {}


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_property_random_radio_bytes_never_crash_the_striker_or_tune_it(data):
    from_fw = _fw("radio")
    link = from_fw.StrikerRadio("st-1a2b3c", S1_MAC)
    assert link.receive(S1_MAC, data) in (None, "paired", "unpaired", "tune")
    assert link.tune_thr is None or fw_frames.is_thr(link.tune_thr)


def test_only_its_own_base_may_tune_a_striker_and_only_in_range():
    radio = _fw("radio").StrikerRadio("st-1a2b3c", S1_MAC)
    other = bytes.fromhex("aabbccddeeff")
    assert radio.receive(other, fw_frames.tune_payload(1, "st-1a2b3c", 4.0)) is None  # a neighbour's base
    assert radio.receive(S1_MAC, fw_frames.tune_payload(2, "st-other", 4.0)) is None  # another striker's id
    assert radio.receive(S1_MAC, b'{"t":"tune","id":"base","seq":3,"sid":"st-1a2b3c","thr":0.99}') is None
    assert radio.tune_thr is None
    assert radio.receive(S1_MAC, fw_frames.tune_payload(4, "st-1a2b3c", 4.0)) == "tune" and radio.tune_thr == 4.0
    unpaired = _fw("radio").StrikerRadio("st-1a2b3c")
    assert unpaired.receive(S1_MAC, fw_frames.tune_payload(5, "st-1a2b3c", 4.0)) is None


def test_a_tuned_striker_uses_the_new_threshold_at_once_and_reports_it():
    case = next(c for c in STRIKES["cases"] if c["name"] == "two_hits_300ms_apart")
    core = StrikerCore("s3", StrikeDetector(case["rate_hz"], **STRIKES["detector"]))
    assert fw_frames.check_payload(core.tick(0, 3.9))["thr"] == STRIKES["detector"]["threshold_g"]
    assert core.set_threshold(16.0) and not core.set_threshold(16.0)  # the same again: nothing to store
    assert not core.set_threshold(16.5) and not core.set_threshold(0.5) and core.detector.threshold == 16.0
    assert fw_frames.check_payload(core.tick(1, 3.9))["thr"] == 16.0  # at once, not 500 ms later
    strikes = [core.sample(*smp, 2 + i) for i, smp in enumerate(case["samples"])]
    assert [s for s in strikes if s] == []  # the recorded hits are far below 16 g


def test_unpairing_a_striker_cancels_its_pending_tune():
    base = BaseCore(peers={"3485181a2b3c": "st-1a2b3c"})
    base.command({"t": "tune", "id": "pi", "seq": 0, "sid": "st-1a2b3c", "thr": 3.5}, 0)
    assert base.wanted == {"3485181a2b3c": 3.5} and base.next_tune(0) is not None
    base.command({"t": "peers_set", "id": "pi", "seq": 1, "peers": {}}, 10)
    assert base.wanted == {} and base.next_tune(100) is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=80), st.builds(
    lambda sid, thr: encode({"t": "tune", "id": "pi", "seq": 1, "sid": sid, "thr": thr}),
    st.text(max_size=34), st.one_of(st.floats(), st.integers(-5, 40), st.text(max_size=4)))), max_size=12))
def test_property_random_pi_bytes_never_crash_the_base_and_tune_only_in_range(chunks):
    base = BaseCore(peers={"3485181a2b3c": "st-1a2b3c"})
    reader = fw_frames.Unframer()
    for chunk in chunks:
        for payload in reader.feed(chunk):
            base.command(payload, 0)
    for mac, payload in [base.next_tune(0)] if base.next_tune(0) else []:
        assert mac == bytes.fromhex("3485181a2b3c") and fw_frames.is_thr(fw_frames.check_payload(payload)["thr"])
    assert all(fw_frames.is_thr(v) for v in base.wanted.values()) and len(base.tunes) <= 1


# --- a delimiter before every frame: the first frame after line noise is not lost -----------------

noise = st.binary(min_size=1, max_size=40).map(lambda b: b.replace(b"\x00", b"\x01"))


def _every_base_output() -> list[bytes]:
    base = BaseCore(peers={"348518000003": "s3"})
    return [base.boot(), base.peers_frame(), base.tick(0),
            base.radio(fw_frames.strike_payload("s3", 1, 6.5, 40), bytes.fromhex("348518000003"), 40),
            base.command({"t": "pair_open", "id": "pi", "seq": 0, "s": 60}, 50), base.radio_frame(60, {})]


@settings(max_examples=100, deadline=None)
@given(st.lists(noise, min_size=6, max_size=6))
def test_property_each_base_frame_survives_the_line_noise_just_before_it(garbage):
    """Every frame the base writes starts with 0x00, so noise before a frame ends as
    one bad frame of its own; the frame after it arrives (protocol 1 unchanged: the Pi skips the
    empty frame between two delimiters)."""
    outputs = _every_base_output()
    assert all(out.startswith(b"\x00") for out in outputs)
    stream = b"".join(g + out for g, out in zip(garbage, outputs, strict=True))
    decoded = FrameDecoder().feed(stream)
    good = [d for d in decoded if isinstance(d, dict)]
    assert [d["t"] for d in good] == ["hello", "peers", "hb", "strike", "pairing", "radio"]
    assert len(decoded) - len(good) <= 6  # each burst of noise is at most one error, never a lost frame


def test_the_first_frame_after_line_noise_reaches_the_pi_over_a_real_pty():
    with _pi_link() as (pty, link, frames_seen, events):
        base = BaseCore(peers={"348518000003": "s3"})
        pty.write(base.boot())
        wait_for(lambda: len(frames_seen) == 1, what="hello")
        pty.write(b"\x7f\xfe\x13line noise")  # a glitch on the line, no 0x00 in it
        pty.write(base.radio(fw_frames.strike_payload("s3", 0, 6.5, 40), bytes.fromhex("348518000003"), 40))
        wait_for(lambda: len(frames_seen) == 2, what="the strike after the noise")
        assert frames_seen[1]["t"] == "strike" and frames_seen[1]["seq"] == 0
        assert [e["event"] for e in events if e["event"] == "frame_error"] == ["frame_error"]
        assert link.stats()["lost"] == 0


def test_the_pis_commands_start_with_a_delimiter_too_and_survive_noise_at_the_base():
    import os
    import time

    with _pi_link() as (pty, link, _, _):
        link.send({"t": "pair_open", "s": 60})
        data = b""
        deadline = time.monotonic() + 5
        while data.count(b"\x00") < 2 and time.monotonic() < deadline:
            data += os.read(pty.master, 4096)
        assert data.startswith(b"\x00")
        reader = fw_frames.Unframer()
        assert reader.feed(b"\x03\x7fnoise" + data) == [{"t": "pair_open", "id": "pi", "seq": 0, "s": 60}]
        assert reader.errors == 1


# --- precompiled .mpy: a wake compiles no firmware source -----------------------------------------

def test_the_shipped_mpy_files_match_their_py_sources():
    """``firmware/mpy/*.mpy`` are what `make mpy` builds from today's .py (the truth)."""
    from firmware import build_mpy

    assert build_mpy.stale() == [], "run `make mpy` and commit firmware/mpy/"
    assert sorted(p.stem for p in (ROOT / "firmware" / "mpy").glob("*.mpy")) == sorted(build_mpy.MODULES)


def test_striker_and_base_station_run_from_the_shipped_mpy_under_real_micropython(tmp_path):
    """Every module loads from its .mpy (no source beside it but config.py) and the striker's and the
    base station's stand-in hardware checks pass on the bytecode."""
    shutil.copy(ROOT / "firmware" / "striker" / "config.py", tmp_path / "config.py")
    node = shutil.which("node")
    assert node is not None, "node is not installed (make test-deps installs nodejs)"
    proc = subprocess.run(
        [node, str(RUNNER / "run.mjs"), str(ROOT / "firmware" / "mpy"), str(VECTORS), str(RUNNER / "check_mpy.py"),
         str(tmp_path), str(RUNNER)],
        cwd=RUNNER, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "OK every module from .mpy" in proc.stdout and "FAIL" not in proc.stdout


# --- sleeping between turns: >= 8 h of play on the 250 mAh cell -----------------------------------

def test_a_game_night_under_real_micropython_sends_every_flick_and_lasts_8_hours():
    """The real striker_app with the shipped config deep-sleeps between turns (woken by
    the pick-up, awake while in the hand); the measured awake time per turn and the datasheet
    currents give >= 8 h of play (duty_cycle.py prints the sum hardware_docs/firmware.md shows)."""
    proc = _micropython("duty_cycle.py", ROOT / "firmware" / "striker")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "OK duty cycle (micropython)" in proc.stdout
    turns = [line for line in proc.stdout.splitlines() if line.startswith("TURN")]
    assert len(turns) == 6 and all("end=sleep" in t and "strikes=1" in t for t in turns)
    # a knock on the table wakes a striker lying there; it sends no strike and sleeps again
    knocks = [line for line in proc.stdout.splitlines() if line.startswith("KNOCK")]
    assert len(knocks) == 2 and all("end=sleep" in k and "strikes=0" in k for k in knocks)
    nights = {line.split(" hours=")[0]: line for line in proc.stdout.splitlines() if line.startswith("NIGHT")}
    doc = (ROOT / "hardware_docs" / "firmware.md").read_text(encoding="utf-8")
    for line in nights.values():  # the docs' "A night of play" table is this scenario's output
        handling, knocks_per_min = line.split()[1].split("=")[1], line.split()[2].split("=")[1]
        hours, power_path = line.split()[3].split("=")[1], line.split()[4].split("=")[1]
        assert f"| {handling} s | {knocks_per_min} | {hours} h | {power_path} h |" in doc, line


def test_the_game_night_also_passes_under_cpython(tmp_path):
    proc = _cpython("duty_cycle.py", ROOT / "firmware" / "striker", tmp_path)
    assert proc.returncode == 0 and "OK duty cycle (cpython)" in proc.stdout, proc.stdout + proc.stderr


def test_a_striker_in_the_hand_stays_awake_and_one_on_the_table_sleeps():
    core = StrikerCore("s1", StrikeDetector(1000), idle_sleep_ms=3000, awake_min_ms=6000, motion_g=0.05)
    core.tick(0, 3.9)
    for t in range(0, 10000):  # an 8 Hz, 0.12 g wobble: held in the hand for 10 s
        core.sample(0.12 * math.sin(2 * math.pi * 8 * t / 1000), 0.0, 1.0, t)
        assert not core.should_sleep(t)
    for t in range(10000, 13100):  # put down: asleep 3 s after the last motion
        core.sample(0.0, 0.0, 1.0, t)
    assert not core.should_sleep(12900) and core.should_sleep(13100)
    still = StrikerCore("s1", StrikeDetector(1000), idle_sleep_ms=3000, awake_min_ms=6000, motion_g=0.05)
    still.tick(0, 3.9)
    for t in range(6001):  # woken by a pick-up, then held perfectly still: 6 s to aim all the same
        still.sample(0.0, 0.0, 1.0, t)
    assert not still.should_sleep(5999) and still.should_sleep(6000)


# --- ESP-NOW encryption set at pairing (firmware 1.3.0) -------------------------------------------

hex_keys = st.from_regex(r"[0-9a-f]{32}", fullmatch=True)
macs = st.from_regex(r"[0-9a-f]{12}", fullmatch=True)
fw_keys = _fw("keys")


@settings(max_examples=100, deadline=None)
@given(hex_keys, st.binary(max_size=80))
def test_property_the_firmwares_hmac_is_rfc_2104(secret, msg):
    """keys.py's hand-written HMAC-SHA256 (MicroPython has no hmac module) equals CPython's."""
    import hashlib
    import hmac

    key = bytes.fromhex(secret)
    assert fw_keys.hmac_sha256(key, msg) == hmac.new(key, msg, hashlib.sha256).digest()


def test_the_key_vectors_micropython_checks_are_cpythons_hmac():
    import hashlib
    import hmac

    sys.path.insert(0, str(RUNNER))
    try:
        vectors = importlib.import_module("check_vectors")
    finally:
        sys.path.remove(str(RUNNER))
    secret = bytes.fromhex(vectors.KEYS_SECRET)
    assert hmac.new(secret, b"gametable pmk", hashlib.sha256).hexdigest()[:32] == vectors.KEYS_PMK
    assert hmac.new(secret, b"gametable lmk " + bytes.fromhex("3485181a2b3c"),
                    hashlib.sha256).hexdigest()[:32] == vectors.KEYS_LMK_3485181A2B3C


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(macs, sender_ids, min_size=1, max_size=6).filter(lambda d: len(set(d.values())) == len(d)),
       hex_keys)
def test_property_a_full_table_with_its_secret_fits_one_frame_and_each_striker_gets_its_own_keys(peers, secret):
    """``peers_set`` with six strikers and the table's secret fits one frame (a key per
    striker would not); the base derives the PMK and one LMK per striker; each new striker is told
    ``paired`` with the PMK and its own LMK, in the clear (``True``): the one frame it can read before
    it has them."""
    cmd = encode({"t": "peers_set", "id": "pi", "seq": 2**32 - 1, "peers": peers, "key": secret})
    assert len(cmd) <= fw_frames.MAX_FRAME
    [payload] = fw_frames.Unframer().feed(cmd)
    base = BaseCore()
    base.command(payload, 0)
    assert base.secret == secret and base.pmk == fw_keys.table_pmk(secret)
    assert base.keys == {m: fw_keys.striker_lmk(secret, m) for m in peers} and len(set(base.keys.values())) == len(peers)
    assert len(base.replies) == len(peers)
    for mac, frame_bytes, clear in base.replies:
        told = fw_frames.check_payload(frame_bytes)
        assert clear and told["pmk"] == base.pmk and told["lmk"] == base.keys[mac.hex()] and told["sid"] == peers[mac.hex()]


@pytest.mark.parametrize("bad", ["0" * 31, "A" * 32, "g" * 32, 12345, None])
def test_a_peers_set_with_a_bad_key_is_dropped_whole_by_the_base(bad):
    reader = fw_frames.Unframer()
    cmd = encode({"t": "peers_set", "id": "pi", "seq": 1, "peers": {"3485181a2b3c": "st-1a2b3c"}, "key": bad})
    assert reader.feed(cmd) == [] and reader.errors == 1


def test_outside_the_pairing_window_a_pair_req_never_gets_the_keys():
    """Anyone can broadcast a paired striker's MAC and id in a pair_req; the keys go only while the
    host pairs (the window is open), otherwise the reminder goes over the encrypted peer entry."""
    base = BaseCore(peers={"3485181a2b3c": "st-1a2b3c"}, secret="1" * 32)
    req = fw_frames.pair_req_payload("st-1a2b3c", 0, 6.0)
    base.radio(req, bytes.fromhex("3485181a2b3c"), 0)
    [(_, told, clear)] = base.replies
    assert not clear and "lmk" not in fw_frames.check_payload(told)
    base.replies = []
    base.command({"t": "pair_open", "id": "pi", "seq": 0, "s": 60}, 5000)
    base.radio(req, bytes.fromhex("3485181a2b3c"), 6000)
    [(_, told, clear)] = base.replies
    assert clear and fw_frames.check_payload(told)["lmk"] == fw_keys.striker_lmk("1" * 32, "3485181a2b3c")
