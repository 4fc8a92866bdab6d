"""A virtual base station: a real pty that speaks protocol 1 like the ESP32 on the USB port.

Why: ``gametable sim`` and integration tests should drive the *same* serial path as the table
(``StrikerLink`` opening a port and decoding frames), not a shortcut. Open a
``VirtualBaseStation``, give ``.path`` to ``StrikerLink`` as the port, call ``strike("s3")``
when a virtual striker hits. It says ``hello`` first and sends heartbeats for itself and each
striker on the injected clock, so the link sees healthy, non-silent strikers.
"""

from __future__ import annotations

import os
import threading
import tty
from collections.abc import Callable, Iterable
from typing import Any

from gametable_core.clock import Clock
from gametable_core.frames import PROTOCOL, SEQ_MOD, encode

FW_VERSION = "virtual-1.0.0"


class VirtualBaseStation:
    """Write protocol 1 frames into a pty whose slave end is ``path``."""

    def __init__(self, clock: Clock, strikers: Iterable[str] = (), *, bat: float = 4.0,
                 hb_interval_s: float = 0.5) -> None:
        self._clock = clock
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # binary-clean before anyone opens it
        os.set_blocking(self._master, False)  # nobody reading must not block the clock's timers
        self.dropped_bytes = 0
        self.path = os.ttyname(self._slave)
        self._strikers = list(dict.fromkeys(strikers))
        self._bat = {sid: bat for sid in self._strikers}
        self._seq: dict[str, int] = {}
        self._hb_interval = hb_interval_s
        self._cancel: Callable[[], None] | None = None
        self._lock = threading.Lock()
        self._closed = False
        self.sent: list[dict[str, Any]] = []

    def start(self) -> None:
        """Say hello (as the real base station does at boot) and start the heartbeats."""
        self._seq["base"] = 0
        self._send({"t": "hello", "id": "base", "seq": self._next("base"), "fw": FW_VERSION, "proto": PROTOCOL})
        self._heartbeat()

    def _heartbeat(self) -> None:
        if self._closed:
            return
        self._send({"t": "hb", "id": "base", "seq": self._next("base"), "bat": 5.0})
        for sid in self._strikers:
            self._send({"t": "hb", "id": sid, "seq": self._next(sid), "bat": self._bat[sid]})
        self._cancel = self._clock.call_later(self._hb_interval, self._heartbeat)

    def strike(self, striker: str, g: float = 6.0) -> dict[str, Any]:
        """A hit on a virtual striker; returns the frame payload sent."""
        if striker not in self._bat:
            raise ValueError(f"unknown virtual striker {striker!r} (known: {', '.join(self._strikers) or 'none'})")
        if not 0 <= g <= 1000:
            raise ValueError(f"g must be from 0 to 1000, got {g}")
        frame = {"t": "strike", "id": striker, "seq": self._next(striker), "g": round(float(g), 2),
                 "ms": int(self._clock.now() * 1000)}
        self._send(frame)
        return frame

    def set_battery(self, striker: str, volts: float) -> None:
        """Change what a striker's next heartbeats report (to exercise low-battery handling)."""
        if striker not in self._bat:
            raise ValueError(f"unknown virtual striker {striker!r}")
        self._bat[striker] = round(float(volts), 2)

    def write_raw(self, data: bytes) -> None:
        """Put arbitrary bytes on the line (noise, truncated frames) for robustness tests."""
        with self._lock:
            self._write(data)

    def _next(self, sender: str) -> int:
        seq = self._seq.get(sender, 0)
        self._seq[sender] = (seq + 1) % SEQ_MOD
        return seq

    def _send(self, payload: dict[str, Any]) -> None:
        with self._lock:
            if self._closed:
                return
            self._write(encode(payload))
            self.sent.append(payload)

    def _write(self, data: bytes) -> None:
        # like a USB CDC device with no host reading: when the buffer is full, bytes are lost
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._master, view):]
            except BlockingIOError:
                self.dropped_bytes += len(view)
                return

    def close(self) -> None:
        """Stop the heartbeats and remove the pty (a reader sees the port go away)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._cancel is not None:
                self._cancel()
            for fd in (self._master, self._slave):
                try:
                    os.close(fd)
                except OSError:
                    pass
