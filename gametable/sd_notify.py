"""Tell systemd the daemon is ready and alive (``Type=notify`` + ``WatchdogSec`` in gametable.service).

Why not a library: the protocol is one datagram on a Unix socket named by ``$NOTIFY_SOCKET``.
Outside systemd (tests, ``gametable sim``) every call is a harmless no-op returning False.
Usage in the daemon::

    sd_notify.notify("READY=1")            # once MQTT, beams and the link are up
    dog = sd_notify.Watchdog(clock, healthy=sd_notify.DaemonHealth(daemon, clock))
    dog.start()   # pings every WatchdogSec/2 on the injected clock, only while the daemon is healthy
    ...; dog.stop(); sd_notify.notify("STOPPING=1")
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, Mapping
from typing import Any

from gametable_core.clock import Clock

log = logging.getLogger("gametable.sd_notify")


def notify(message: str, env: Mapping[str, str] | None = None) -> bool:
    """Send ``message`` (e.g. ``READY=1``) to systemd; False when not running under systemd."""
    env = os.environ if env is None else env
    address = env.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # abstract namespace socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.setblocking(False)  # a full queue must not hang the caller (e.g. the watchdog tick)
            sock.connect(address)
            sock.sendall(message.encode("utf-8"))
        return True
    except OSError:
        return False


def watchdog_period(env: Mapping[str, str] | None = None) -> float | None:
    """Seconds between pings (half of WatchdogSec), or None when no watchdog is armed for us."""
    env = os.environ if env is None else env
    usec = env.get("WATCHDOG_USEC")
    pid = env.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        value = int(usec)
    except ValueError:
        return None
    return value / 2_000_000 if value > 0 else None


class Watchdog:
    """Ping ``WATCHDOG=1`` on the injected clock. Only ping while the main loop is healthy:
    pass ``healthy`` (e.g. "the MQTT loop and the journal answered recently") to stop pinging,
    so systemd restarts a daemon that is alive but stuck."""

    def __init__(self, clock: Clock, env: Mapping[str, str] | None = None,
                 healthy: Callable[[], bool] = lambda: True) -> None:
        self._clock = clock
        self._env = os.environ if env is None else env
        self._healthy = healthy
        self._cancel: Callable[[], None] | None = None
        self.period = watchdog_period(self._env)
        self.pings = 0

    def start(self) -> bool:
        """Begin pinging; False (and nothing scheduled) when systemd armed no watchdog."""
        if self.period is None:
            return False
        self._tick()
        return True

    def _tick(self) -> None:
        if self._healthy() and notify("WATCHDOG=1", self._env):
            self.pings += 1
        assert self.period is not None
        self._cancel = self._clock.call_later(self.period, self._tick)

    def stop(self) -> None:
        if self._cancel is not None:
            self._cancel()
            self._cancel = None


class DaemonHealth:
    """The watchdog's ``healthy`` probe for a running daemon: True only while all three hold:

    - the main loop answers: the daemon's input lock (every input goes through it) is free within
      ``lock_timeout_s`` -- a submit stuck on a hung disk, a deadlock or a busy loop fails this;
    - the journal answers a query (a vanished SD card or a closed database fails this);
    - the MQTT link is up, or has been down for less than ``mqtt_grace_s`` (a broker restart is
      normal; a link that never comes back is worth a process restart).

    Why a probe and not a bare timer: a timer thread keeps ticking in a hung process, so systemd
    would never restart it. ``reason`` says why the last probe failed (logged once per outage).
    """

    def __init__(self, daemon: Any, clock: Clock, *, lock_timeout_s: float = 5.0,
                 mqtt_grace_s: float = 60.0) -> None:
        self._daemon = daemon
        self._clock = clock
        self._lock_timeout = lock_timeout_s
        self._grace = mqtt_grace_s
        self._down_since: float | None = None
        self.reason: str | None = None

    def __call__(self) -> bool:
        reason = self._problem()
        if reason is not None and self.reason is None:
            log.error("watchdog: not pinging systemd: %s", reason)
        self.reason = reason
        return reason is None

    def _problem(self) -> str | None:
        if not self._daemon.responsive(self._lock_timeout):
            return f"the daemon's main loop or journal did not answer within {self._lock_timeout:g} s"
        bridge = getattr(self._daemon, "bridge", None)
        if bridge is None:
            return None  # no broker configured: nothing to watch
        now = self._clock.now()
        if bridge.connected.is_set():
            self._down_since = None
            return None
        if self._down_since is None:
            self._down_since = now
        if now - self._down_since >= self._grace:
            return f"the MQTT link has been down for {now - self._down_since:.0f} s"
        return None
