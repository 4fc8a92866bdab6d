"""StrikerLink over a REAL pty pair: bytes in at the master end, frames and diagnostics out."""

from __future__ import annotations

import os
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games.coinwar.sensing import strike_input
from gametable.testing.pty import PtyPair, wait_for
from gametable_core.clock import FakeClock
from gametable_core.frames import encode, encode_raw
from sensors.striker_link import StrikerLink

HELLO = {"t": "hello", "id": "base", "seq": 0, "fw": "1.0.0", "proto": 1}


def strike(sid: str, seq: int, g: float = 6.5, ms: int = 1000) -> dict:
    return {"t": "strike", "id": sid, "seq": seq, "g": g, "ms": ms}


def hb(sid: str, seq: int, bat: float = 3.9) -> dict:
    return {"t": "hb", "id": sid, "seq": seq, "bat": bat}


class Recorder:
    """Collects callbacks from the reader thread."""

    def __init__(self) -> None:
        self.frames: list[dict] = []
        self.events: list[dict] = []
        self.lock = threading.Lock()

    def on_frame(self, f: dict) -> None:
        with self.lock:
            self.frames.append(f)

    def on_event(self, e: dict) -> None:
        with self.lock:
            self.events.append(e)

    def named(self, name: str) -> list[dict]:
        with self.lock:
            return [e for e in self.events if e["event"] == name]


@pytest.fixture
def pty():
    p = PtyPair()
    yield p
    p.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def link(pty, clock):
    rec = Recorder()
    lk = StrikerLink(pty.path, 115200, clock, rec.on_frame, rec.on_event)
    lk.rec = rec  # type: ignore[attr-defined]
    lk.start()
    wait_for(lambda: rec.named("port_opened"), what="port_opened")
    yield lk
    lk.stop()


def send_and_wait(pty: PtyPair, link: StrikerLink, data: bytes, frames: int) -> None:
    """Write bytes, then wait (real I/O) until the link has taken ``frames`` more frames."""
    before = link.stats()["frames"]
    pty.write(data)
    wait_for(lambda: link.stats()["frames"] >= before + frames, what=f"{frames} frame(s)")


def test_valid_frames_arrive_in_order(pty, link):
    frames = [HELLO, strike("s3", 17), hb("s3", 18, 3.91)]
    send_and_wait(pty, link, b"".join(encode(f) for f in frames), 3)
    assert link.rec.frames == frames
    assert link.rec.named("hello")[0]["fw"] == "1.0.0"
    assert link.stats()["senders"]["s3"]["bat"] == 3.91


def test_garbage_between_frames_is_counted_and_frames_survive(pty, link):
    data = b"\xff\xfe\x00" + encode(strike("s1", 1)) + b"noise!\x00\x00" + encode(strike("s1", 2))
    send_and_wait(pty, link, data, 2)
    assert [f["seq"] for f in link.rec.frames] == [1, 2]
    st = link.stats()
    assert st["garbage"] == 2 and st["errors"] == {"cobs": 2}
    assert len(link.rec.named("frame_error")) == 2


def test_bad_crc_is_reported_with_both_values_and_dropped(pty, link):
    good = encode(hb("s2", 5))
    payload = b'{"t":"hb","id":"s2","seq":4,"bat":3.9}'
    from gametable_core.frames import cobs_encode

    bad = cobs_encode(payload + b"\x12\x34") + b"\x00"
    send_and_wait(pty, link, bad + good, 1)
    assert link.rec.frames == [hb("s2", 5)]
    assert link.stats()["crc_errors"] == 1
    msg = link.rec.named("frame_error")[0]["message"]
    assert "0x1234" in msg and "CRC mismatch" in msg


def test_truncated_frame_is_dropped_at_the_next_delimiter(pty, link):
    cut = encode(strike("s1", 1))[:12]
    send_and_wait(pty, link, cut + b"\x00" + encode(strike("s1", 2)), 1)
    assert [f["seq"] for f in link.rec.frames] == [2]
    assert link.stats()["garbage"] + link.stats()["crc_errors"] + link.stats()["errors"].get("json", 0) == 1


def test_lost_frames_are_counted_per_sender(pty, link):
    data = b"".join(encode(strike("s1", s)) for s in (10, 11, 15)) + encode(hb("s2", 100)) + encode(hb("s2", 101))
    send_and_wait(pty, link, data, 5)
    lost = link.rec.named("lost")
    assert [(e["id"], e["count"], e["expected_seq"], e["seq"]) for e in lost] == [("s1", 3, 12, 15)]
    st = link.stats()
    assert st["lost"] == 3 and st["senders"]["s1"]["lost"] == 3 and st["senders"]["s2"]["lost"] == 0


def test_duplicates_are_not_passed_on(pty, link):
    a, b = encode(strike("s4", 7)), encode(strike("s4", 8))
    send_and_wait(pty, link, a + a + b + a, 4)
    assert [f["seq"] for f in link.rec.frames] == [7, 8]
    assert link.stats()["duplicates"] == 2
    assert [e["seq"] for e in link.rec.named("duplicate")] == [7, 7]


def test_seq_wraps_at_2_to_the_32_without_loss(pty, link):
    seqs = [2**32 - 2, 2**32 - 1, 0, 1]
    send_and_wait(pty, link, b"".join(encode(hb("s5", s)) for s in seqs), 4)
    assert [f["seq"] for f in link.rec.frames] == seqs
    assert link.stats()["lost"] == 0 and link.stats()["duplicates"] == 0


def test_counter_restart_is_reported_not_counted_as_loss(pty, link):
    send_and_wait(pty, link, b"".join(encode(hb("s5", s)) for s in (500, 501, 0, 1)), 4)
    assert [f["seq"] for f in link.rec.frames] == [500, 501, 0, 1]
    assert link.rec.named("seq_reset")[0]["last_seq"] == 501
    assert link.stats()["lost"] == 0


def test_huge_frame_is_dropped_and_reading_resumes(pty, link):
    huge = encode_raw(b'{"t":"hb","id":"s1","seq":1,"bat":3.9,"pad":"' + b"x" * 5000 + b'"}')
    send_and_wait(pty, link, huge + encode(hb("s1", 2)), 1)
    assert [f["seq"] for f in link.rec.frames] == [2]
    assert link.stats()["errors"] == {"oversize": 1}


@pytest.mark.parametrize(
    "raw",
    [
        b"[1,2,3]",
        b'{"t":"hb","id":"s1","seq":{"deep":[[[[[]]]]]},"bat":3}',
        b'{"t":"strike","id":"s1","seq":1,"g":"hard","ms":1}',
        b'{"t":"hb","id":"s1","seq":1,"bat":3.9',
        b'{"t":"hb","id":"\xff\xfe","seq":1,"bat":3.9}',
        b"[" * 250 + b"]" * 250,
    ],
    ids=["array", "nested", "wrong_type", "truncated_json", "non_utf8", "deep_nesting"],
)
def test_hostile_json_changes_nothing(pty, link, raw):
    send_and_wait(pty, link, encode_raw(raw) + encode(hb("s1", 9)), 1)
    assert link.rec.frames == [hb("s1", 9)]
    assert sum(link.stats()["errors"].values()) == 1
    assert set(link.stats()["senders"]) == {"s1"}


def test_unknown_type_is_ignored_but_its_seq_counts(pty, link):
    data = encode(hb("s1", 1)) + encode({"t": "future", "id": "s1", "seq": 2, "x": 1}) + encode(hb("s1", 3))
    send_and_wait(pty, link, data, 3)
    assert [f["seq"] for f in link.rec.frames] == [1, 3]
    assert link.stats()["lost"] == 0 and link.stats()["ignored_unknown"] == 1


def test_protocol_mismatch_is_reported(pty, link):
    send_and_wait(pty, link, encode({**HELLO, "fw": "2.0.0", "proto": 2}), 1)
    ev = link.rec.named("proto_mismatch")
    assert ev and ev[0]["proto"] == 2 and ev[0]["expected"] == 1


def test_low_battery_reported_once_then_recovery(pty, link):
    seq = iter(range(100))
    """Below 3.8 V by default: the Schottky power path browns out at a 3.6-3.7 V cell (firmware.md "Power")."""
    send_and_wait(pty, link, b"".join(encode(hb("s3", next(seq), v)) for v in (4.1, 3.75, 3.70, 3.82)), 4)
    assert [e["bat"] for e in link.rec.named("low_battery")] == [3.75]
    assert link.rec.named("battery_ok") == []  # 3.82 is inside the hysteresis band
    send_and_wait(pty, link, encode(hb("s3", next(seq), 3.9)), 1)
    assert [e["bat"] for e in link.rec.named("battery_ok")] == [3.9]
    assert link.stats()["senders"]["s3"]["low_battery"] is False


def test_silence_detection_uses_the_injected_clock(pty, link, clock):
    send_and_wait(pty, link, encode(hb("s3", 1)), 1)
    clock.advance(2.9)  # the link's periodic check runs on the clock's timers
    assert link.rec.named("silent") == []
    clock.advance(0.7)  # checks every 0.5 s: at 3.0 s it is not yet "more than 3 s", at 3.5 s it is
    assert [(e["id"], e["seconds"]) for e in link.rec.named("silent")] == [("s3", 3.5)]
    assert link.check(clock.now() + 10) == []  # reported once
    assert link.stats()["senders"]["s3"]["silent"] is True
    send_and_wait(pty, link, encode(hb("s3", 2)), 1)
    assert [e["id"] for e in link.rec.named("back")] == ["s3"]
    assert link.stats()["senders"]["s3"]["silent"] is False


def test_check_can_be_called_directly_with_any_time(pty, clock):
    rec = Recorder()
    lk = StrikerLink(pty.path, 115200, clock, rec.on_frame, rec.on_event)  # not started: no timers
    lk.feed(encode(hb("s1", 1)))
    assert lk.check(clock.now() + 3.0) == []
    [ev] = lk.check(clock.now() + 3.5)
    assert ev["event"] == "silent" and ev["id"] == "s1" and ev["seconds"] == 3.5


def test_strike_input_maps_striker_to_seat():
    strikers = {"s3": 3, "s1": 1}
    assert strike_input(strike("s3", 1), strikers) == {"type": "strike", "seat": 3}
    assert strike_input(strike("s9", 1), strikers) is None
    assert strike_input(hb("s3", 1), strikers) is None
    assert strike_input(HELLO, strikers) is None


def test_a_failing_consumer_does_not_stop_the_reader(pty, clock):
    rec = Recorder()

    def explode(frame: dict) -> None:
        rec.on_frame(frame)
        raise RuntimeError("consumer bug")

    lk = StrikerLink(pty.path, 115200, clock, explode, rec.on_event)
    lk.start()
    try:
        wait_for(lambda: rec.named("port_opened"), what="open")
        pty.write(encode(hb("s1", 1)) + encode(hb("s1", 2)))
        wait_for(lambda: len(rec.frames) == 2, what="both frames")
        # the reader records each error just after the consumer raised: wait for what is asserted
        wait_for(lambda: len(rec.named("callback_error")) == 2, what="both callback errors")
        assert len(rec.frames) == 2
    finally:
        lk.stop()


def test_missing_port_is_reported_once_and_retried(tmp_path, clock):
    rec = Recorder()
    path = str(tmp_path / "usb-base-station")
    lk = StrikerLink(path, 115200, clock, rec.on_frame, rec.on_event, backoff_s=(0.01, 0.05))
    lk.start()
    pty = PtyPair()
    try:
        wait_for(lambda: rec.named("port_unavailable"), what="port_unavailable")
        os.symlink(pty.path, path)
        wait_for(lambda: rec.named("port_opened"), what="open after the device appears")
        assert len(rec.named("port_unavailable")) == 1
        pty.write(encode(HELLO))
        wait_for(lambda: rec.frames == [HELLO], what="hello")
    finally:
        lk.stop()
        pty.close()


def test_unplug_and_replug_at_the_same_by_id_symlink_mid_game(tmp_path, clock):
    rec = Recorder()
    by_id = str(tmp_path / "usb-Espressif_base-if00")
    first = PtyPair()
    os.symlink(first.path, by_id)
    lk = StrikerLink(by_id, 115200, clock, rec.on_frame, rec.on_event, backoff_s=(0.01, 0.05))
    lk.start()
    second = None
    try:
        wait_for(lambda: rec.named("port_opened"), what="open")
        first.write(encode(HELLO) + encode(strike("s1", 1)) + encode(hb("s1", 2)))
        wait_for(lambda: len(rec.frames) == 3, what="frames before unplug")
        # unplug: the device goes away and udev removes its symlink
        first.write(encode(strike("s1", 3))[:6])  # half a frame in flight
        first.close()
        os.unlink(by_id)
        wait_for(lambda: rec.named("port_lost"), what="port_lost")
        assert not lk.is_open or rec.named("port_lost")
        # replug: a new device node appears behind the same symlink
        second = PtyPair()
        os.symlink(second.path, by_id)
        wait_for(lambda: rec.named("port_reopened"), what="port_reopened")
        second.write(encode({**HELLO, "seq": 0}) + encode(strike("s1", 4)))
        wait_for(lambda: len(rec.frames) == 5, what="frames after replug")
        assert [f["t"] for f in rec.frames] == ["hello", "strike", "hb", "hello", "strike"]
        st = lk.stats()
        assert st["reopens"] == 1 and st["port_lost"] >= 1 and st["open"] is True
        assert st["lost"] == 1  # seq 3 never arrived whole
        assert rec.frames[-1] == strike("s1", 4)
    finally:
        lk.stop()
        first.close()
        if second:
            second.close()


def test_stop_closes_the_port(pty, clock):
    rec = Recorder()
    lk = StrikerLink(pty.path, 115200, clock, rec.on_frame, rec.on_event)
    lk.start()
    wait_for(lambda: lk.is_open, what="open")
    lk.stop()
    assert not lk.is_open
    lk.stop()  # idempotent


def test_command_line_monitor_prints_frames_and_events(pty):
    import json
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "sensors.striker_link", pty.path, "--seconds", "1.5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        first = proc.stdout.readline()  # port_opened: the monitor is reading now
        assert json.loads(first)["event"]["event"] == "port_opened"
        pty.write(b"junk\x00" + encode(HELLO) + encode(hb("s2", 1, 3.3)))
        out, err = proc.communicate(timeout=10)
    finally:
        proc.kill()
    lines = [json.loads(line) for line in out.splitlines()]
    assert {"frame": HELLO} in lines and {"frame": hb("s2", 1, 3.3)} in lines
    events = [x["event"]["event"] for x in lines if "event" in x]
    assert "frame_error" in events and "low_battery" in events
    assert json.loads(err.strip().splitlines()[-1])["stats"]["delivered"] == 2


def test_a_garbage_flood_is_counted_but_reported_at_a_bounded_rate(pty, link, clock):
    junk = b"\xff\x01\x00" * 500  # 500 bad frames in one burst
    before = link.stats()["frames"]
    pty.write(junk + encode(hb("s1", 1)))
    wait_for(lambda: link.stats()["frames"] > before, what="the frame after the flood")
    assert sum(link.stats()["errors"].values()) == 500
    assert len(link.rec.named("frame_error")) == 20
    clock.advance(1.0)
    link.check()
    [summary] = link.rec.named("frame_errors_suppressed")
    assert summary["count"] == 480
    assert link.rec.frames == [hb("s1", 1)]


# --- seq bookkeeping as a property (decoder path without a port: the link's own feed()) ----------

@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.lists(st.tuples(st.integers(1, 5), st.booleans()), min_size=1, max_size=40),
)
def test_property_lost_and_duplicate_counts_match_what_was_sent(start, steps):
    """Any run of increasing seqs (with gaps, wrapping at 2^32) with some frames repeated right away:
    every distinct frame is delivered once in order, gaps are counted as lost, repeats as duplicates."""
    clock = FakeClock()
    got: list[dict] = []
    lk = StrikerLink("/nonexistent", 115200, clock, got.append, lambda e: None)
    sent, seq, lost, dups = [], start, 0, 0
    wire = b""
    for i, (gap, repeat) in enumerate(steps):
        if i:
            seq = (seq + gap) % 2**32
            lost += gap - 1
        frame = hb("s1", seq)
        sent.append(frame)
        wire += encode(frame)
        if repeat:
            wire += encode(frame)
            dups += 1
    lk.feed(wire)
    assert got == sent
    st_ = lk.stats()
    assert st_["lost"] == lost and st_["duplicates"] == dups


# --- unpaired ids, bounded tables, rate limits; a sleeping striker is not silent ------------

def _started(pty, clock, **kw) -> StrikerLink:
    rec = Recorder()
    lk = StrikerLink(pty.path, 115200, clock, rec.on_frame, rec.on_event, **kw)
    lk.rec = rec  # type: ignore[attr-defined]
    lk.start()
    wait_for(lambda: rec.named("port_opened"), what="port_opened")
    return lk


def test_thousands_of_unpaired_ids_cost_no_state_and_a_bounded_number_of_events(pty, clock):
    lk = _started(pty, clock, allowed={"s1", "s2"})
    try:
        flood = b"".join(encode(hb(f"x{i}", 1)) for i in range(5000))
        send_and_wait(pty, lk, flood + encode(hb("s1", 1)), 5001)
        stats = lk.stats()
        assert set(stats["senders"]) == {"s1"}  # only the paired striker is tracked
        assert stats["ignored_unpaired"] == 5000 and len(stats["unpaired"]) <= 16
        assert [f["id"] for f in lk.rec.frames] == ["s1"]
        assert len(lk.rec.named("unpaired")) == 5  # per second of clock time
        clock.advance(1.0)
        send_and_wait(pty, lk, encode(hb("x1", 2)), 1)
        [summary] = lk.rec.named("unpaired_suppressed")
        assert summary["count"] == 4995
        assert len(lk.rec.events) < 20  # what reaches MQTT stays flat however many ids arrive
    finally:
        lk.stop()


def test_without_an_allow_list_the_sender_table_is_still_bounded(pty, clock):
    lk = _started(pty, clock, max_senders=8)
    try:
        send_and_wait(pty, lk, b"".join(encode(hb(f"x{i}", 1)) for i in range(2000)), 2000)
        stats = lk.stats()
        assert len(stats["senders"]) == 8 and stats["ignored_overflow"] == 1992
    finally:
        lk.stop()


def test_one_striker_flooding_the_port_is_rate_limited(pty, clock):
    lk = _started(pty, clock, allowed={"s1"}, max_frames_per_s=50, burst_frames=200)
    try:
        send_and_wait(pty, lk, b"".join(encode(hb("s1", i)) for i in range(1, 1001)), 1000)
        assert len(lk.rec.frames) == 200 and lk.stats()["rate_limited"] == 800
        assert len(lk.rec.named("flooding")) == 1
        clock.advance(1.0)  # the bucket refills: a striker behaving again is heard again
        send_and_wait(pty, lk, encode(strike("s1", 1001)), 1)
        assert lk.rec.frames[-1]["t"] == "strike"
    finally:
        lk.stop()


def test_a_striker_that_said_it_goes_to_sleep_is_not_silent(pty, link, clock):
    sleep = {"t": "sleep", "id": "s3", "seq": 2, "bat": 3.88, "why": "idle"}  # serial_protocol.md
    send_and_wait(pty, link, encode(hb("s3", 1)) + encode(sleep), 2)
    assert [e["id"] for e in link.rec.named("asleep")] == ["s3"]
    clock.advance(60.0)
    assert link.rec.named("silent") == [] and link.stats()["senders"]["s3"]["asleep"] is True
    assert link.stats()["senders"]["s3"]["bat"] == 3.88
    send_and_wait(pty, link, encode(strike("s3", 3)), 1)  # the wake-up strike
    assert [e["id"] for e in link.rec.named("awake")] == ["s3"]
    assert link.rec.frames[-1]["t"] == "strike" and link.stats()["senders"]["s3"]["asleep"] is False
    clock.advance(3.6)  # awake again: silence is a fault again
    assert [e["id"] for e in link.rec.named("silent")] == ["s3"]
