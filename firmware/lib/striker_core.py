"""What a striker decides, without touching hardware (MicroPython and CPython).

The striker main loop only reads the accelerometer, the clock and the battery ADC and sends
what this object returns; keeping the decisions here makes them testable on a PC and under
real MicroPython: when a hit becomes a ``strike`` payload, when a heartbeat is due, how the
sequence counter wraps, and when it is safe to deep-sleep.
"""

from frames import SEQ_MOD, hb_payload, is_thr, pair_req_payload, sleep_payload, strike_payload


def battery_volts(adc_uv, divider=2.0):
    """Battery voltage from the ADC reading in microvolts behind a resistor divider (2.0 = 100k/100k)."""
    return adc_uv * divider / 1000000.0


class StrikerCore:
    """Turn samples and ticks into payloads to send over ESP-NOW.

    ``seq`` survives deep sleep if the caller saves ``seq`` (RTC memory) and passes it back in.
    """

    def __init__(self, sender_id, detector, hb_interval_ms=500, idle_sleep_ms=300000, seq=0, min_g=0.0,
                 awake_min_ms=0, motion_g=None):
        if hb_interval_ms > 1000:
            raise ValueError("hb_interval_ms must be at most 1000 (the protocol wants >= 1 Hz)")
        self.sender_id = sender_id
        self.detector = detector
        self.hb_interval_ms = hb_interval_ms
        self.idle_sleep_ms = idle_sleep_ms
        # sleeping between turns (hardware_docs/firmware.md "Power"): awake at least awake_min_ms after
        # a boot (time to aim after the pick-up that woke it), then asleep idle_sleep_ms after the last
        # hit or the last sample whose high-passed |a| reached motion_g (still in the hand)
        self.awake_min_ms = awake_min_ms
        self.motion_g = motion_g
        self._booted = None
        self.seq = seq % SEQ_MOD
        self.min_g = min_g
        self._next_hb = None
        self._last_activity = None
        self.last_peak = 0.0  # g of the last hit (an unpaired striker sends it in pair_req)

    def _next_seq(self):
        seq = self.seq
        self.seq = (seq + 1) % SEQ_MOD
        return seq

    def sample(self, ax, ay, az, now_ms):
        """One accelerometer sample (g); returns a strike payload when a hit completes, else None."""
        if self._last_activity is None:
            self._last_activity = now_ms
        hit = self.detector.feed(ax, ay, az, now_ms)
        if self.motion_g is not None and self.detector.last_magnitude >= self.motion_g:
            self._last_activity = now_ms  # moving in the hand: a strike may come
        if hit is None:
            return None
        peak, start_ms = hit
        self._last_activity = now_ms
        self.last_peak = min(peak, 1000.0)
        if peak < self.min_g:
            return None
        return strike_payload(self.sender_id, self._next_seq(), min(peak, 1000.0), start_ms)

    def tick(self, now_ms, bat_v):
        """Call often; returns a heartbeat payload when one is due (first one immediately).

        The heartbeat says which strike threshold the detector uses (``thr``, firmware 1.2.0), so the
        host's bring-up page sees a tuning applied, and after every reboot what the flash gave.
        """
        if self._last_activity is None:
            self._last_activity = now_ms
        if self._booted is None:
            self._booted = now_ms
        if self._next_hb is not None and now_ms < self._next_hb:
            return None
        self._next_hb = now_ms + self.hb_interval_ms
        thr = self.detector.threshold
        return hb_payload(self.sender_id, self._next_seq(), max(0.0, min(bat_v, 10.0)),
                          thr if is_thr(thr) else None)

    def set_threshold(self, thr):
        """Use ``thr`` g from the next sample on; True if it changed (the caller stores it).

        Out of range (1.0-16.0 g, 2 decimals) changes nothing. The next heartbeat goes out at once,
        so the Pi sees the new value without waiting for the heartbeat interval.
        """
        if not is_thr(thr):
            return False
        self._next_hb = None
        if abs(self.detector.threshold - thr) < 0.005:
            return False
        self.detector.threshold = thr
        return True

    def should_sleep(self, now_ms):
        """True when no hit or hand motion for ``idle_sleep_ms``, ``awake_min_ms`` since the boot, and no
        hit being measured: deep-sleep to save the battery (moving the striker wakes it)."""
        if self._last_activity is None or self.detector.busy(now_ms):
            return False
        if self._booted is not None and now_ms - self._booted < self.awake_min_ms:
            return False
        return now_ms - self._last_activity >= self.idle_sleep_ms

    def going_to_sleep(self, bat_v, why="idle"):
        """The ``sleep`` payload to send (reliably) just before deep sleep: asleep is not a fault."""
        return sleep_payload(self.sender_id, self._next_seq(), max(0.0, min(bat_v, 10.0)), why)

    def pair_req(self):
        """An unpaired striker was waved: ask any base in pairing mode to take it (with the hit's g)."""
        return pair_req_payload(self.sender_id, self._next_seq(), self.last_peak)
