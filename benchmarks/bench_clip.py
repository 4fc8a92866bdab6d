"""Strike clips (docs/camera.md "Clips", docs/performance.md): CPU time to draw and encode one
strike's clip and its size, over strikes of the tune split's ``mixed`` condition (100–200 fps,
640×480 and up, every factor drawn), through the same path as ``gametable camera analyse --clip``.

The phone's clip (the first frame on a phone after a camera question) is not built yet, so
``clip_first_frame_ms_p95`` is not printed.
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from benchmarks import bench_camera as bc
from sensors.camera.calibration import Recalibrator
from sensors.camera.clip import write_clip
from sensors.camera.params import TrackParams
from sensors.camera.tracking import StrikeTracker
from sensors.virtual.camera import conditions as cond
from sensors.virtual.camera.record import record_strike

STRIKES = 20


def run(strikes: int = STRIKES) -> dict[str, float]:
    pool_rng = random.Random("clip/rigs")
    pool = [cond.draw_rig(pool_rng, "mixed", "tune") for _ in range(2)]
    recals = [Recalibrator(bc._MARKERS) for _ in pool]
    cpu_ms: list[float] = []
    sizes: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(strikes):
            d = bc.matrix_draw("tune", "mixed", i, pool[i % 2])
            rec, frames, _truth = record_strike(d.table, d.coin, d.vx, d.vy, d.conditions.rig, d.coins,
                                                conditions=d.conditions)
            cal = bc.calibrated(recals[i % 2], rec, frames)
            if cal is None:
                continue
            tracker = StrikeTracker(cal, rec.coins, d.coin, strike_t=rec.strike_t,
                                    params=TrackParams(camera_height_mm=rec.camera_height_mm))
            times = [t for _f, t in rec.frames]
            for t, image in zip(times, frames, strict=True):
                tracker.feed(t, image)
            result = tracker.result()
            out = Path(tmp) / f"s{i}.webm"
            t0 = time.process_time()
            write_clip(out, zip(times, frames, strict=True), tracker, result,
                       {c: info.colour for c, info in rec.coins.items()})
            cpu_ms.append((time.process_time() - t0) * 1000)
            sizes.append(float(out.stat().st_size))
    return {
        "clip_encode_ms_per_strike": sum(cpu_ms) / max(1, len(cpu_ms)),
        "clip_bytes_p95": bc._percentile(sizes, 0.95),
        "clip_strikes": float(len(sizes)),
    }


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value:.3f}")
