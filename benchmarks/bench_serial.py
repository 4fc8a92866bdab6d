"""Serial striker link throughput: frames written into a real pty, parsed by StrikerLink's reader.

Measures the whole Pi-side path (pyserial bulk reads → COBS → CRC → JSON → seq bookkeeping →
on_frame) from the first byte written to the last frame delivered. A real table produces a few
dozen frames per second; the headroom shows garbage floods and bursts cannot back the link up.
"""

from __future__ import annotations

import subprocess
import tempfile
import threading
import time

from gametable.testing.pty import PtyPair, wait_for
from gametable_core.clock import SystemClock
from gametable_core.frames import encode
from sensors.striker_link import StrikerLink

FRAMES = 60_000


def run() -> dict[str, float]:
    strikers = [f"s{k}" for k in range(1, 7)]
    wire = b"".join(
        encode({"t": "strike", "id": strikers[i % 6], "seq": i // 6, "g": 6.5, "ms": 1000 + i})
        if i % 3 else encode({"t": "hb", "id": strikers[i % 6], "seq": i // 6, "bat": 3.91})
        for i in range(FRAMES)
    )
    pty = PtyPair()
    done = threading.Event()
    count = 0

    def on_frame(_frame: dict) -> None:
        nonlocal count
        count += 1
        if count == FRAMES:
            done.set()

    # the link's throughput, not its per-striker flood limit (50 frames/s after a burst of 200 on a
    # real table): a 60,000-frame stream from six strikers would be rate-limited after its burst
    link = StrikerLink(pty.path, 115200, SystemClock(), on_frame, lambda _e: None,
                       max_frames_per_s=FRAMES, burst_frames=FRAMES)
    link.start()
    try:
        wait_for(lambda: link.is_open, what="port open")
        with tempfile.NamedTemporaryFile() as f:
            f.write(wire)
            f.flush()
            # the bytes come from another process, as they do from the base station
            start = time.perf_counter()
            writer = subprocess.Popen(["cat", f.name], stdout=pty.master)
            if not done.wait(120):
                writer.kill()
                raise RuntimeError(f"only {count} of {FRAMES} frames arrived")
            elapsed = time.perf_counter() - start
            writer.wait(5)
        stats = link.stats()
        if stats["lost"] or stats["errors"]:
            raise RuntimeError(f"benchmark stream damaged: {stats['lost']} lost, errors {stats['errors']}")
    finally:
        link.stop()
        pty.close()
    return {"serial_frames_per_s": round(FRAMES / elapsed, 1), "serial_parse_cpu_frames_per_s": _cpu_rate(wire)}


def _cpu_rate(wire: bytes) -> float:
    """The same decoder path fed in 4 KB chunks, per CPU second (insensitive to other load)."""
    link = StrikerLink("/dev/null-unused", 115200, SystemClock(), lambda _f: None, lambda _e: None)
    start = time.process_time()
    for i in range(0, len(wire), 4096):
        link.feed(wire[i : i + 4096])
    return round(FRAMES / (time.process_time() - start), 1)


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value}")
