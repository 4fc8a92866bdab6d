"""The base station's real firmware logic (``firmware/lib/base_core.py``) behind a real pty.

The Pi's link opens ``path`` as it would the ESP32's USB port; what the Pi writes is unframed and
handed to ``BaseCore.command`` (``pair_open``, ``peers_set``) exactly as ``base_app.py`` does, and
what the core answers is written back. ``radio()`` stands for an ESP-NOW message arriving from a
striker's MAC: the core decides whether to forward it, report it (``pair_seen``) or drop it.
Only the radio and the board are missing; every decision is the firmware's own code.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import time
import tty
from pathlib import Path
from typing import Any

LIB = Path(__file__).resolve().parents[2] / "firmware" / "lib"


def fw(name: str) -> Any:
    """Import a firmware/lib module the way the ESP32 does (flat names on sys.path)."""
    if str(LIB) not in sys.path:
        sys.path.insert(0, str(LIB))
    return importlib.import_module(name)


class FirmwareBase:
    """A base station on a pty, running ``BaseCore`` (firmware 1.2.0) on a thread."""

    def __init__(self, peers: dict[str, str] | None = None) -> None:
        self.core = fw("base_core").BaseCore(peers=peers)
        self._frames = fw("frames")
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.path = os.ttyname(self._slave)
        self.commands: list[dict[str, Any]] = []  # every payload the Pi wrote, in order
        self._t0 = time.monotonic()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._unframer = self._frames.Unframer()
        self._radio_seq: dict[str, int] = {}
        self._thread = threading.Thread(target=self._run, name="firmware-base", daemon=True)
        self._thread.start()

    def now_ms(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    def boot(self) -> None:
        """Power-on: ``hello`` then the stored allow-list (``peers``), as base_app.py writes them."""
        with self._lock:
            self._write(self.core.boot() + self.core.peers_frame())

    def _run(self) -> None:
        import select

        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([self._master], [], [], 0.02)
                data = os.read(self._master, 4096) if ready else b""
            except OSError:
                return
            if not data:
                continue
            with self._lock:
                for payload in self._unframer.feed(data):
                    self.commands.append(payload)
                    out = self.core.command(payload, self.now_ms())
                    if out:
                        self._write(out)

    def radio(self, payload: bytes, mac: str) -> None:
        """An ESP-NOW message from ``mac`` (12 hex digits) reaches the base."""
        with self._lock:
            out = self.core.radio(payload, self._frames.mac_bytes(mac), self.now_ms())
            if out:
                self._write(out)

    def _next(self, sid: str) -> int:
        seq = self._radio_seq.get(sid, 0)
        self._radio_seq[sid] = seq + 1
        return seq

    def wave(self, sid: str, mac: str, g: float = 6.5) -> None:
        """An unpaired striker is waved: it broadcasts ``pair_req``."""
        self.radio(self._frames.pair_req_payload(sid, self._next(sid), g), mac)

    def strike(self, sid: str, mac: str, g: float = 7.0) -> None:
        self.radio(self._frames.strike_payload(sid, self._next(sid), g, self.now_ms()), mac)

    def hb(self, sid: str, mac: str, bat: float = 3.9, thr: float | None = None) -> None:
        """A striker's heartbeat (a 1.2.0 striker adds ``thr``, its strike threshold)."""
        self.radio(self._frames.hb_payload(sid, self._next(sid), bat, thr), mac)

    def report_rssi(self, rssi: dict[str, int]) -> None:
        """The base's once-a-second ``radio`` report, from ``{mac: dBm}`` as ESP-NOW's peers_table gives it."""
        with self._lock:
            self._write(self.core.radio_frame(self.now_ms(), rssi))

    def air_tune(self) -> tuple[str, bytes] | None:
        """The ``tune`` the base sends over the radio now (acknowledged by the striker): (mac, payload)."""
        with self._lock:
            item = self.core.next_tune(self.now_ms())
            if item is None:
                return None
            self.core.tune_sent(item[0], True, self.now_ms())
            return item[0].hex(), item[1]

    def tick(self) -> None:
        """The base's own heartbeat (and "pairing closed" when the window ran out)."""
        with self._lock:
            out = self.core.tick(self.now_ms())
            if out:
                self._write(out)

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self._master, view):]

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
