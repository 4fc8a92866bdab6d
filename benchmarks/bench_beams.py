"""Beam latency: mock pin driven → debounced BeamEdge delivered, on the real clock and timers.

The figure includes the 1 ms debounce by design (an edge is only a fact once the level has held
for 1 ms), plus timer-thread wake-up. Run: ``python -m benchmarks.bench_beams``.
"""

from __future__ import annotations

import statistics
import threading
import time

from gametable_core.clock import SystemClock
from gametable_core.config import BeamConfig
from sensors.beams import BeamBank
from sensors.gpio import make_pin_factory

EDGES = 400
BEAMS = 17  # the most the Pi's free GPIO takes; one edge on all of them at once is also measured
SIMULTANEOUS_ROUNDS = 100


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def run() -> dict[str, float]:
    factory = make_pin_factory("mock")
    beams = [BeamConfig(f"b{i}", pin, "point", at=(0.0, 0.0)) for i, pin in enumerate(range(4, 4 + BEAMS))]
    arrived: dict[str, float] = {}
    lock = threading.Lock()
    all_in = threading.Event()
    expected = {"n": 1}

    def on_edge(edge) -> None:
        with lock:
            arrived[edge.beam_id] = time.perf_counter()
            if len(arrived) >= expected["n"]:
                all_in.set()

    bank = BeamBank(beams, SystemClock(), on_edge, pin_factory=factory)
    single: list[float] = []
    together: list[float] = []
    try:
        pin = factory.pin(beams[0].pin)
        for i in range(EDGES):
            with lock:
                arrived.clear()
                all_in.clear()
                expected["n"] = 1
            t0 = time.perf_counter()
            pin.drive_low() if i % 2 == 0 else pin.drive_high()
            if not all_in.wait(1.0):
                raise RuntimeError(f"edge {i} was never delivered")
            single.append((arrived[beams[0].id] - t0) * 1000)
        pins = [factory.pin(b.pin) for b in beams]
        for r in range(SIMULTANEOUS_ROUNDS):
            with lock:
                arrived.clear()
                all_in.clear()
                expected["n"] = len(beams)
            t0 = time.perf_counter()
            for p in pins:
                p.drive_low() if r % 2 == 0 else p.drive_high()
            if not all_in.wait(2.0):
                raise RuntimeError(f"round {r}: only {len(arrived)} of {len(beams)} edges delivered")
            together.append((max(arrived.values()) - t0) * 1000)
    finally:
        bank.close()
    return {
        "beam_edge_to_fact_p50_ms": round(statistics.median(single), 3),
        "beam_edge_to_fact_p99_ms": round(_percentile(single, 0.99), 3),
        "beam_17_at_once_last_fact_p99_ms": round(_percentile(together, 0.99), 3),
    }


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value}")
