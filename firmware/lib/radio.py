"""Where a striker sends, and making sure the frames that matter arrive (MicroPython and CPython).

Why: a broadcasting striker is forwarded by every base station in the room. A paired striker
sends **unicast** to its own base, whose radio acknowledges each frame; strikes and the
"going to sleep" frame are retried until acknowledged (a retry repeats the same bytes, so the
Pi's duplicate check drops a copy whose acknowledgement was lost). Heartbeats are best effort:
the next one is due in 500 ms anyway. An unpaired striker sends nothing but ``pair_req`` when it
is waved, so an unknown striker cannot flood anybody's table.

The radio itself is a callable ``send(mac, payload, sync) -> bool`` (``espnow.ESPNow.send``):
with ``sync=True`` it returns whether the peer acknowledged.
"""

from frames import FrameError, check_payload, mac_hex

BROADCAST = b"\xff\xff\xff\xff\xff\xff"


class StrikerRadio:
    """Queue of reliable frames plus the pairing state (``base`` is None while unpaired)."""

    def __init__(self, my_id, base_mac=None, tries=5, retry_ms=4, max_queue=8, lost_after=3, key=None):
        self.my_id = my_id
        self.base = base_mac
        self.tries = tries
        self.retry_ms = retry_ms
        self.max_queue = max_queue
        self.lost_after = lost_after
        self._queue = []  # [payload, tries_left, due_ms]
        self.unacked = 0  # reliable frames in a row that ran out of tries
        self.sent = 0
        self.acked = 0
        self.retries = 0
        self.failed = 0
        self.dropped = 0
        self.errors = 0
        self.tune_thr = None  # the threshold of the last accepted ``tune`` (the caller applies it)
        # (pmk hex, lmk hex) for ESP-NOW encryption with the base (firmware 1.3.0), or None: in the clear
        self.key = key

    @property
    def paired(self):
        return self.base is not None

    @property
    def lost(self):
        """Paired, but the base has not acknowledged anything for a while (off, replaced, out of range)."""
        return self.base is not None and self.unacked >= self.lost_after

    def pending(self):
        return len(self._queue)

    def reliable(self, payload, now_ms):
        """Queue a frame to be sent until acknowledged (strike, sleep). Unpaired: dropped."""
        if self.base is None:
            self.dropped += 1
            return False
        if len(self._queue) >= self.max_queue:
            self._queue.pop(0)  # the oldest gives way: a stale strike matters least
            self.dropped += 1
        self._queue.append([payload, self.tries, now_ms])
        return True

    def best_effort(self, send, payload):
        """Send once without waiting for the acknowledgement (heartbeats)."""
        if self.base is None:
            return False
        return self._send(send, self.base, payload, False)

    def broadcast(self, send, payload):
        """Send to every base in range once (only ``pair_req``)."""
        return self._send(send, BROADCAST, payload, False)

    def _send(self, send, mac, payload, sync):
        self.sent += 1
        try:
            return bool(send(mac, payload, sync))
        except OSError:  # ESP-NOW out of buffers, radio busy: count it, never stop sampling
            self.errors += 1
            return False

    def pump(self, send, now_ms):
        """Try the oldest due reliable frame once; returns True if one was acknowledged."""
        if not self._queue or self.base is None:
            return False
        item = self._queue[0]
        if now_ms < item[2]:
            return False
        if self._send(send, self.base, item[0], True):
            self._queue.pop(0)
            self.acked += 1
            self.unacked = 0
            return True
        item[1] -= 1
        if item[1] <= 0:
            self._queue.pop(0)
            self.failed += 1
            self.unacked += 1
        else:
            self.retries += 1
            item[2] = now_ms + self.retry_ms
        return False

    def flush(self, send, now_ms, budget_ms=100):
        """Pump until the queue is empty or ``budget_ms`` passed (before deep sleep)."""
        t = now_ms
        while self._queue and self.base is not None and t <= now_ms + budget_ms:
            self._queue[0][2] = t
            self.pump(send, t)
            t += self.retry_ms
        return not self._queue

    def receive(self, mac, msg):
        """A message from the radio → "paired", "unpaired", "tune" or None (the caller persists the change).

        ``paired`` is taken from a base only while we are unpaired or lost, or from our own base,
        and only if it names our id: a neighbour's base cannot take a working striker. ``tune``
        (firmware 1.2.0) only from our own base, naming our id, with a threshold in range
        (``check_payload`` drops the whole message otherwise); its value is in ``tune_thr``.
        """
        try:
            p = check_payload(msg)
        except FrameError:
            return None
        t = p["t"]
        if t == "paired" and p.get("sid") == self.my_id and len(mac) == 6 and mac != BROADCAST:
            if self.base is None or self.lost or bytes(mac) == self.base:
                if "lmk" in p:
                    self.key = (p["pmk"], p["lmk"])  # check_payload: both present, 32 hex digits each
                elif bytes(mac) != self.base:
                    self.key = None  # a base without keys (firmware 1.2.0 on the Pi side)
                self.base = bytes(mac)
                self.unacked = 0
                return "paired"
        elif t == "tune" and self.base is not None and bytes(mac) == self.base and p.get("sid") == self.my_id:
            self.tune_thr = p["thr"]
            return "tune"
        elif t == "unpaired" and self.base is not None and bytes(mac) == self.base:
            self.base = None
            self.key = None
            self._queue = []
            return "unpaired"
        return None

    def stats(self):
        return {"base": mac_hex(self.base) if self.base else None, "sent": self.sent, "acked": self.acked,
                "retries": self.retries, "failed": self.failed, "dropped": self.dropped, "errors": self.errors}
