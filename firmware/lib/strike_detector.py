"""Detect striker hits from accelerometer samples (pure logic; MicroPython and CPython).

Why this shape: gravity and slow tilting (picking the striker up) must not count, so each axis
goes through a first-order high-pass filter and only the magnitude of what remains matters. A
hit is a spike of that magnitude over ``threshold_g``; its peak is taken over a short window,
and a refractory window after it swallows the ringing of the pen-refill so one hit is one strike.

Setting the striker down also makes a spike over the threshold. It differs in direction: a strike
pushes the striker along the table (across gravity), setting it down stops it along gravity.
With ``vertical_max`` set, a spike whose peak points within acos(vertical_max) of the gravity
direction measured just before it is not a strike (tests/vectors/strikes.json has recorded-shape
set-down traces). The refractory window still follows it, so its ringing is swallowed too.
"""

import math

MIN_RATE_HZ = 500


class StrikeDetector:
    """Feed samples in g with their device time in ms; ``feed`` returns ``(peak_g, t_ms)`` once per hit."""

    def __init__(self, rate_hz=1000, threshold_g=2.5, refractory_ms=120, peak_window_ms=8, cutoff_hz=5.0,
                 vertical_max=None):
        if rate_hz < MIN_RATE_HZ:
            raise ValueError(f"rate_hz must be at least {MIN_RATE_HZ} (a hit lasts a few ms)")
        if threshold_g <= 0:
            raise ValueError("threshold_g must be positive")
        if refractory_ms < peak_window_ms:
            raise ValueError("refractory_ms must be at least peak_window_ms")
        if not 0 < cutoff_hz < rate_hz / 2:
            raise ValueError("cutoff_hz must be between 0 and half the sample rate")
        if vertical_max is not None and not 0 < vertical_max <= 1:
            raise ValueError("vertical_max must be between 0 and 1 (a cosine), or None")
        rc = 1.0 / (2 * math.pi * cutoff_hz)
        dt = 1.0 / rate_hz
        self.alpha = rc / (rc + dt)
        self.threshold = threshold_g
        self.refractory_ms = refractory_ms
        self.peak_window_ms = peak_window_ms
        self._prev = None  # last raw sample (x, y, z)
        self._hp = [0.0, 0.0, 0.0]
        self._peak = 0.0
        self._start = None  # device ms when the current spike crossed the threshold
        self._quiet_until = None  # refractory: no new hit before this device ms
        self.last_magnitude = 0.0
        self.vertical_max = vertical_max
        self._gravity = (0.0, 0.0, 1.0)  # low-passed acceleration when the spike began
        self._peak_v = (0.0, 0.0, 0.0)  # the high-passed vector at the peak
        self.rejected = 0  # spikes along gravity (set-downs) that were not strikes
        # the last spike whose peak window closed: (peak_g, start_ms, |cos| to gravity, rejected);
        # for tools that tune the detector from recorded traces (gametable striker-trace)
        self.last_spike = None

    def feed(self, ax, ay, az, t_ms):
        """One sample; returns ``(peak_g, start_ms)`` when a hit's peak window closes, else None."""
        a = self.alpha
        hp = self._hp
        prev = self._prev
        if prev is None:
            self._prev = (ax, ay, az)
            return None
        hp[0] = a * (hp[0] + ax - prev[0])
        hp[1] = a * (hp[1] + ay - prev[1])
        hp[2] = a * (hp[2] + az - prev[2])
        self._prev = (ax, ay, az)
        mag = math.sqrt(hp[0] * hp[0] + hp[1] * hp[1] + hp[2] * hp[2])
        self.last_magnitude = mag
        if self._start is not None:
            if mag > self._peak:
                self._peak = mag
                self._peak_v = (hp[0], hp[1], hp[2])
            if t_ms - self._start >= self.peak_window_ms:
                start = self._start
                self._start = None
                self._quiet_until = start + self.refractory_ms
                along = self._along_gravity()
                if self.vertical_max is not None and along > self.vertical_max:
                    self.rejected += 1
                    self.last_spike = (self._peak, start, along, True)
                    return None
                self.last_spike = (self._peak, start, along, False)
                return (self._peak, start)
            return None
        if mag >= self.threshold and (self._quiet_until is None or t_ms >= self._quiet_until):
            self._start = t_ms
            self._peak = mag
            self._peak_v = (hp[0], hp[1], hp[2])
            # raw minus high-passed = the low-passed part: gravity (plus the slow hand motion)
            self._gravity = (ax - hp[0], ay - hp[1], az - hp[2])
        return None

    def _along_gravity(self):
        """|cos| of the angle between the peak's direction and gravity (1: straight down or up)."""
        g = self._gravity
        v = self._peak_v
        ng = math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2])
        nv = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
        if ng < 0.3 or nv == 0:
            return 0.0  # free fall or no direction: cannot tell, count the hit
        return abs(g[0] * v[0] + g[1] * v[1] + g[2] * v[2]) / (ng * nv)

    def busy(self, t_ms):
        """True while a hit is being measured or its refractory window runs (do not sleep now)."""
        return self._start is not None or (self._quiet_until is not None and t_ms < self._quiet_until)
