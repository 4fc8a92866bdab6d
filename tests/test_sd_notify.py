"""gametable/sd_notify.py against a real Unix datagram socket standing in for systemd."""

from __future__ import annotations

import os
import socket

import pytest

from gametable.sd_notify import Watchdog, notify, watchdog_period


@pytest.fixture
def systemd(tmp_path):
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    yield path, sock
    sock.close()


def test_ready_reaches_systemd(systemd):
    path, sock = systemd
    assert notify("READY=1", {"NOTIFY_SOCKET": path}) is True
    assert sock.recv(100) == b"READY=1"


def test_outside_systemd_notify_is_a_no_op():
    assert notify("READY=1", {}) is False
    assert notify("READY=1", {"NOTIFY_SOCKET": "/nonexistent/socket"}) is False


def test_watchdog_period_is_half_of_watchdogsec():
    assert watchdog_period({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert watchdog_period({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}) == 15.0
    assert watchdog_period({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None  # meant for another process
    assert watchdog_period({}) is None
    assert watchdog_period({"WATCHDOG_USEC": "soon"}) is None


def test_watchdog_pings_on_the_injected_clock_and_stops_when_unhealthy(systemd, fake_clock):
    path, sock = systemd
    healthy = [True]
    dog = Watchdog(fake_clock, {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"}, healthy=lambda: healthy[0])
    assert dog.start() is True
    fake_clock.advance(3.0)  # pings at 0, 1, 2, 3 s
    assert dog.pings == 4
    assert [sock.recv(100) for _ in range(4)] == [b"WATCHDOG=1"] * 4
    healthy[0] = False
    fake_clock.advance(5.0)
    assert dog.pings == 4  # a stuck daemon stops pinging, so systemd restarts it
    dog.stop()


def test_watchdog_does_nothing_without_watchdogsec(fake_clock):
    dog = Watchdog(fake_clock, {})
    assert dog.start() is False
    fake_clock.advance(100)
    assert dog.pings == 0


# --- ping only while the daemon is alive (main loop, journal, MQTT link) -----------------

@pytest.fixture
def drained(systemd):
    """systemd that reads every datagram (a real one does), so the socket queue never fills."""
    import threading

    path, sock = systemd
    got: list[bytes] = []
    stop = threading.Event()

    def drain() -> None:
        sock.settimeout(0.05)
        while not stop.is_set():
            try:
                got.append(sock.recv(100))
            except OSError:
                pass

    t = threading.Thread(target=drain, daemon=True)
    t.start()
    yield path, got
    stop.set()
    t.join(2)


def _advance(clock, seconds: int, dog, got) -> None:
    """Advance one second at a time, letting the drain thread keep up with the pings."""
    import time

    for _ in range(seconds):
        clock.advance(1.0)
        deadline = time.monotonic() + 2
        while len(got) < dog.pings and time.monotonic() < deadline:
            time.sleep(0.002)


def _dog(daemon, clock, path, **kw):
    from gametable.sd_notify import DaemonHealth

    health = DaemonHealth(daemon, clock, lock_timeout_s=0.05, **kw)
    return Watchdog(clock, {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"}, healthy=health), health


def test_watchdog_stops_pinging_while_an_input_is_stuck_in_the_daemon(drained, offline_daemon, fake_clock):
    import threading

    path, _got = drained
    dog, health = _dog(offline_daemon, fake_clock, path)
    dog.start()
    fake_clock.advance(2.0)
    assert dog.pings == 3 and health.reason is None
    held, release = threading.Event(), threading.Event()

    def stuck_submit() -> None:  # e.g. a journal write hanging on a dying SD card
        with offline_daemon._lock:
            held.set()
            release.wait(5)

    t = threading.Thread(target=stuck_submit)
    t.start()
    held.wait(2)
    fake_clock.advance(3.0)
    assert dog.pings == 3  # hung: systemd will restart it
    assert "main loop" in health.reason
    release.set()
    t.join()
    fake_clock.advance(1.0)
    assert dog.pings == 4 and health.reason is None
    dog.stop()


def test_watchdog_stops_pinging_when_the_journal_is_gone(drained, tmp_path, fake_clock):
    from controller.daemon import Daemon
    from gametable_core.config import parse

    path, _got = drained
    d = Daemon(parse({"journal": {"path": str(tmp_path / "j.sqlite")}}), fake_clock)
    d.start(connect=False)
    dog, health = _dog(d, fake_clock, path)
    dog.start()
    assert dog.pings == 1
    d.journal.close()  # the database went away under the daemon
    fake_clock.advance(3.0)
    assert dog.pings == 1 and health.reason is not None
    dog.stop()


def test_watchdog_tolerates_a_short_broker_outage_but_not_a_lasting_one(drained, broker, tmp_path, fake_clock):
    import time

    from controller.daemon import Daemon
    from gametable_core.config import parse

    path, got = drained
    d = Daemon(parse({"table_id": "wd", "mqtt": {"host": broker.host, "port": broker.port},
                      "journal": {"path": str(tmp_path / "j.sqlite")}}), fake_clock)
    d.start()
    try:
        assert d.bridge.wait_connected(10)
        dog, health = _dog(d, fake_clock, path, mqtt_grace_s=30.0)
        dog.start()
        broker.stop()
        deadline = time.monotonic() + 10  # bounded wait for the real TCP link to notice
        while d.bridge.connected.is_set() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not d.bridge.connected.is_set()
        _advance(fake_clock, 20, dog, got)
        assert dog.pings == 21  # a broker restart within the grace keeps the daemon
        _advance(fake_clock, 15, dog, got)
        assert dog.pings == 31 and "MQTT" in health.reason  # the outage was first seen at 1 s: pings end at 30 s
        dog.stop()
    finally:
        d.stop()
