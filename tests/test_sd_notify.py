"""controller/sd_notify.py against a real Unix datagram socket standing in for systemd."""

from __future__ import annotations

import os
import socket

import pytest

from controller.sd_notify import Watchdog, notify, watchdog_period


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
