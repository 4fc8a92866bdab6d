"""Tell systemd the daemon is ready and alive (``Type=notify`` + ``WatchdogSec`` in gametable.service).

Why not a library: the protocol is one datagram on a Unix socket named by ``$NOTIFY_SOCKET``.
Outside systemd (tests, ``gametable sim``) every call is a harmless no-op returning False.
Usage in the daemon::

    sd_notify.notify("READY=1")            # once MQTT, beams and the link are up
    dog = sd_notify.Watchdog(clock); dog.start()   # pings every WatchdogSec/2 on the injected clock
    ...; dog.stop(); sd_notify.notify("STOPPING=1")
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Mapping

from controller.clock import Clock


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
