"""What the base station decides, without touching hardware (MicroPython and CPython).

It says ``hello`` at boot, sends its own heartbeat (so the Pi notices a hung base station even
while the USB port stays open), and forwards each ESP-NOW message from a striker as one
protocol 1 frame — but only after checking it is a well-formed payload, so radio garbage never
reaches the Pi. The striker's own ``id`` and ``seq`` pass through untouched.
"""

from frames import FW_VERSION, PROTO, SEQ_MOD, FrameError, check_payload, frame, hb_payload, hello_payload

MAX_PAYLOAD = 250  # an ESP-NOW message is at most 250 bytes
USB_SUPPLY_V = 5.0  # the base station is USB powered; its heartbeat reports the nominal supply


class BaseCore:
    def __init__(self, fw=FW_VERSION, hb_interval_ms=1000, proto=PROTO):
        if hb_interval_ms > 1000:
            raise ValueError("hb_interval_ms must be at most 1000 (the protocol wants >= 1 Hz)")
        self.fw = fw
        self.proto = proto
        self.hb_interval_ms = hb_interval_ms
        self.seq = 0
        self._next_hb = None
        self.forwarded = 0
        self.rejected = 0
        self.last_error = None

    def _next_seq(self):
        seq = self.seq
        self.seq = (seq + 1) % SEQ_MOD
        return seq

    def boot(self):
        """The frame to write first: hello with firmware and protocol version (seq 0)."""
        self.seq = 0
        return frame(hello_payload(self._next_seq(), self.fw, proto=self.proto))

    def tick(self, now_ms):
        """The base station's heartbeat frame when due, else None."""
        if self._next_hb is not None and now_ms < self._next_hb:
            return None
        self._next_hb = now_ms + self.hb_interval_ms
        return frame(hb_payload("base", self._next_seq(), USB_SUPPLY_V))

    def radio(self, msg):
        """An ESP-NOW message from a striker → the frame to write, or None if it is rejected."""
        if len(msg) > MAX_PAYLOAD:
            self.rejected += 1
            self.last_error = "oversize"
            return None
        try:
            payload = check_payload(msg)
        except FrameError as exc:
            self.rejected += 1
            self.last_error = exc.kind
            return None
        if payload["id"] == "base":
            self.rejected += 1  # a striker must not impersonate the base station
            self.last_error = "field"
            return None
        self.forwarded += 1
        return frame(bytes(msg))
