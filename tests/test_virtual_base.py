"""VirtualBaseStation → real pty → StrikerLink: the path `gametable sim` uses for strikes."""

from __future__ import annotations

import pytest

from controller.games.coinwar.sensing import strike_input
from gametable.testing.pty import wait_for
from sensors.striker_link import StrikerLink
from sensors.virtual.virtual_base import VirtualBaseStation


@pytest.fixture
def rig(fake_clock):
    base = VirtualBaseStation(fake_clock, ["s1", "s3"], bat=3.9)
    frames: list[dict] = []
    events: list[dict] = []
    link = StrikerLink(base.path, 115200, fake_clock, frames.append, events.append)
    link.start()
    wait_for(lambda: link.is_open, what="open")
    base.start()
    yield base, link, frames, events
    link.stop()
    base.close()


def _delivered(link: StrikerLink, n: int) -> None:
    wait_for(lambda: link.stats()["delivered"] >= n, what=f"{n} frames")


def test_hello_heartbeats_and_a_strike_reach_the_link_as_a_seat_input(rig):
    base, link, frames, events = rig
    _delivered(link, 4)  # hello + base hb + 2 striker hbs
    assert frames[0] == {"t": "hello", "id": "base", "seq": 0, "fw": "virtual-1.0.0", "proto": 1}
    sent = base.strike("s3", g=7.25)
    _delivered(link, 5)
    assert frames[-1] == sent
    assert strike_input(frames[-1], {"s3": 3}) == {"type": "strike", "seat": 3}
    assert [e["event"] for e in events if e["event"] in ("proto_mismatch", "lost", "frame_error")] == []


def test_heartbeats_keep_strikers_from_going_silent(rig, fake_clock):
    base, link, frames, events = rig
    for second in range(1, 11):
        fake_clock.advance(0.5)  # a heartbeat round, then let the real pty carry it
        _delivered(link, 4 + 3 * second)
    assert [e for e in events if e["event"] == "silent"] == []
    assert link.stats()["lost"] == 0


def test_low_battery_and_noise_are_reported(rig, fake_clock):
    base, link, frames, events = rig
    _delivered(link, 4)
    base.set_battery("s1", 3.3)
    base.write_raw(b"\x13\x37garbage\x00")
    fake_clock.advance(0.5)
    _delivered(link, 7)
    assert any(e["event"] == "low_battery" and e["id"] == "s1" for e in events)
    assert link.stats()["errors"] == {"cobs": 1}


def test_unknown_striker_and_bad_g_are_refused(fake_clock):
    base = VirtualBaseStation(fake_clock, ["s1"])
    try:
        with pytest.raises(ValueError, match="unknown virtual striker 's9'"):
            base.strike("s9")
        with pytest.raises(ValueError, match="g must be from 0 to 1000"):
            base.strike("s1", g=-1)
        assert base.sent == []
    finally:
        base.close()


def test_closing_the_virtual_base_looks_like_an_unplug(rig):
    base, link, frames, events = rig
    _delivered(link, 4)
    base.close()
    wait_for(lambda: any(e["event"] == "port_lost" for e in events), what="port_lost")


def test_nobody_reading_never_blocks_the_clock(fake_clock):
    base = VirtualBaseStation(fake_clock, ["s1", "s2", "s3", "s4", "s5", "s6"])
    try:
        base.start()
        fake_clock.advance(600)  # 10 minutes of heartbeats into a pty nobody reads
        assert base.dropped_bytes > 0
    finally:
        base.close()
