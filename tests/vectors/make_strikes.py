"""Regenerate tests/vectors/strikes.json (run: python -m tests.vectors.make_strikes).

Synthetic but physically shaped accelerometer traces (gravity, sensor noise, a hit = a sharp
damped oscillation of the pen refill), each with the strikes a correct detector must report:
count, peak (± tolerance) and start time (± tolerance). Seeded, so the file is reproducible.
Expected peaks come from the trace amplitude, not from running our detector.

The set-down cases (a spike over 2.5 g when the striker is put down used up the turn)
are synthesised too — no trace has been recorded on real hardware yet. Their shape: the hand
lowers the striker (a slow ±0.3 g along gravity over 300 ms), then it lands: a short ring along
gravity (220 Hz, the MPU's 260 Hz bandwidth keeps nothing faster), possibly tilted by the way it
lands on its edge, then rest. A strike pushes the striker along the table, across gravity.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

OUT = Path(__file__).with_name("strikes.json")
DETECTOR = {"threshold_g": 2.5, "refractory_ms": 120, "peak_window_ms": 8, "cutoff_hz": 5.0, "vertical_max": 0.8}


def unit(v: tuple[float, float, float]) -> tuple[float, float, float]:
    n = math.sqrt(sum(c * c for c in v))
    return (v[0] / n, v[1] / n, v[2] / n)


def trace(rate: int, ms: int, hits: list[tuple], seed: int,
          tilt: tuple[int, int] | None = None, noise: float = 0.03,
          gravity: tuple[float, float, float] | None = None, lower: list[int] | None = None) -> list[list[float]]:
    """hits: (start_ms, amplitude_g, ring_hz, decay_ms[, direction]); tilt: rotate gravity 90° over (start, end) ms.

    gravity: a fixed gravity direction in the sensor's frame (the striker held tilted); lower: times
    of landings, each preceded by 300 ms of the hand lowering the striker (along gravity).
    """
    rnd = random.Random(seed)
    out = []
    for i in range(rate * ms // 1000):
        t = i / rate * 1000
        angle = 0.0
        if tilt:
            a, b = tilt
            angle = (math.pi / 2) * min(1.0, max(0.0, (t - a) / (b - a)))
        x, y, z = math.sin(angle), 0.0, math.cos(angle)
        if gravity is not None:
            x, y, z = unit(gravity)
        for land in lower or []:
            if land - 300 <= t < land:
                w = -0.3 * math.sin(2 * math.pi * (t - land + 300) / 300)  # speeds up down, then slows
                gx, gy, gz = unit(gravity or (0.0, 0.0, 1.0))
                x, y, z = x + w * gx, y + w * gy, z + w * gz
        for hit in hits:
            start, amp, hz, decay = hit[:4]
            d = unit(hit[4]) if len(hit) > 4 else (0.8, 0.6, 0.0)
            dt = t - start
            if dt >= 0:
                v = amp * math.exp(-dt / decay) * math.cos(2 * math.pi * hz * dt / 1000)
                x += d[0] * v
                y += d[1] * v
                z += d[2] * v
        out.append([round(x + rnd.gauss(0, noise), 3), round(y + rnd.gauss(0, noise), 3),
                    round(z + rnd.gauss(0, noise), 3)])
    return out


def expect(hits: list[tuple]) -> list[dict]:
    return [{"g": amp, "g_tol": round(0.12 * amp + 0.2, 2), "ms": start, "ms_tol": 2} for start, amp, *_ in hits]


def main() -> None:
    cases = []

    def add(name: str, rate: int, ms: int, hits, counted=None, **kw) -> None:
        cases.append({"name": name, "rate_hz": rate, "samples": trace(rate, ms, hits, seed=len(cases) + 1, **kw),
                      "expect": expect(hits if counted is None else counted)})

    add("quiet_resting_striker", 1000, 400, [])
    add("single_hit_8g", 1000, 300, [(100, 8.0, 300, 6)])
    add("two_hits_300ms_apart", 1000, 600, [(100, 6.0, 300, 6), (400, 10.0, 250, 6)])
    ringing = [(100, 12.0, 200, 40)]
    add("long_ringing_counts_once", 1000, 400, ringing)
    add("tap_below_threshold", 1000, 300, [(100, 1.5, 300, 6)], counted=[])
    add("slow_tilt_is_not_a_hit", 1000, 500, [], tilt=(100, 300))
    double = [(100, 7.0, 300, 6), (150, 7.0, 300, 6)]
    add("second_hit_inside_refractory_ignored", 1000, 400, double, counted=double[:1])
    add("hits_just_after_refractory", 1000, 500, [(100, 7.0, 300, 5), (230, 9.0, 300, 5)])
    add("500hz_sampling", 500, 500, [(100, 9.0, 120, 8), (350, 5.0, 120, 8)])
    # setting the striker down is a spike along gravity, a strike one across it
    down = (0.0, 0.0, 1.0)
    add("set_down_flat_4g", 1000, 700, [(400, 4.0, 220, 3, down)], counted=[], lower=[400], noise=0.01)
    add("set_down_hard_9g", 1000, 700, [(400, 9.0, 220, 2, down)], counted=[], lower=[400], noise=0.01)
    tilted = (0.5, 0.0, 0.866)  # the striker lies 30° tilted in the sensor's frame
    add("set_down_tilted_sensor_5g", 1000, 700, [(400, 5.0, 220, 3, tilted)], counted=[], lower=[400],
        gravity=tilted, noise=0.01)
    edge = (0.42, 0.0, 0.906)  # lands on its edge: 25° off vertical
    add("set_down_on_its_edge_6g", 1000, 700, [(400, 6.0, 220, 3, edge)], counted=[], lower=[400], noise=0.01)
    add("set_down_then_strike", 1000, 900, [(400, 5.0, 220, 3, down), (700, 6.0, 300, 6)],
        counted=[(700, 6.0, 300, 6)], lower=[400])
    add("strike_with_tilted_sensor", 1000, 400, [(100, 6.0, 300, 6, (-0.866, 0.0, 0.5))], gravity=tilted)
    add("strike_30deg_above_horizontal", 1000, 400, [(100, 7.0, 300, 6, (0.866, 0.0, 0.5))])
    doc = {
        "about": "Accelerometer traces (g, [x,y,z] per sample at rate_hz; sample i at i*1000//rate_hz ms) -> "
        "expected strikes. Generated by tests/vectors/make_strikes.py. Shared by Pi-side and firmware tests.",
        "detector": DETECTOR,
        "cases": cases,
    }
    OUT.write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
