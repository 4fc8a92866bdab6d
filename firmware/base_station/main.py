"""Base station: ESP32 on the Pi's USB. ESP-NOW in, protocol 1 frames out on the USB serial.

Thin on purpose: hello, heartbeat and the payload check live in lib/base_core.py (tested on the
PC and under MicroPython). The MicroPython boot banner on the same USB port is harmless: the
Pi's decoder treats it as garbage and resynchronises at the first 0x00.
"""

import sys
import time

import espnow
import network
from base_core import BaseCore

CHANNEL = 1  # must match the strikers' config.CHANNEL


class Uptime:
    def __init__(self):
        self._last = time.ticks_ms()
        self.ms = 0

    def now(self):
        t = time.ticks_ms()
        self.ms += time.ticks_diff(t, self._last)
        self._last = t
        return self.ms


def main():
    out = sys.stdout.buffer
    sta = network.WLAN(network.STA_IF)
    sta.active(True)
    sta.config(channel=CHANNEL)
    e = espnow.ESPNow()
    e.active(True)
    core = BaseCore()
    clock = Uptime()
    out.write(b"\x00" + core.boot())  # leading 0x00 ends whatever banner text came before
    while True:
        host, msg = e.recv(50)  # ms; returns (None, None) on timeout
        if msg:
            frame = core.radio(msg)
            if frame is not None:
                out.write(frame)
        hb = core.tick(clock.now())
        if hb is not None:
            out.write(hb)


main()
