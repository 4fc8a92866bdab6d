"""Coup on the phones, end to end: real Mosquitto, the real daemon (journal with fsync) and the served panel.

- ``coup_tap_to_all_phones_p95_ms``: a phone's move (``POST /api/cmd``, answered once the daemon
  accepted it) -> the new public state read on all three seats' SSE streams (p95 over every move).
- ``coup_moves_per_s``: moves applied per second through that whole path, one phone at a time.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from gametable.broker import start_broker
from gametable.testing.games import coup_game
from gametable.testing.panel import Http, SseStream
from gametable.testing.table import start_stack
from web_panel.server import PanelServer

MOVES = 15  # five incomes each for three players: nobody reaches the forced coup at 10 coins (CP-2.1)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _wait_until_panel_offers(panel: PanelServer, seat: int, move: str, timeout: float = 10.0) -> None:
    """Bounded poll (real I/O) until the panel has the state and ``seat``'s private view offering
    ``move``: a tap before that is refused by the panel, which has not seen the game yet."""
    deadline = time.monotonic() + timeout
    while True:
        legal = (panel.link.private_view(seat) or {}).get("legal")
        if isinstance(legal, dict):
            legal = legal.get("moves")
        public = panel.link.public_state() or {}
        if public.get("phase") == "playing" and any(isinstance(m, dict) and m.get("move") == move
                                                     for m in legal or []):
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"the panel never offered {move!r} to seat {seat}")
        time.sleep(0.001)


def run() -> dict[str, float]:
    broker = start_broker()
    workdir = Path(tempfile.mkdtemp(prefix="gametable-bench-coup-"))
    stack = None
    streams: list[SseStream] = []
    try:
        stack = start_stack(broker, str(workdir / "journal.sqlite"))
        daemon, panel = stack.daemon, stack.panel
        phones = {}
        for seat in (1, 2, 3):
            phones[seat] = Http(panel.port)
            assert phones[seat].post("/api/seat/claim", {"id": f"bench-claim-{seat}", "seat": seat})[0] == 200
        streams = [SseStream(panel.port, phones[s].cookies) for s in (1, 2, 3)]
        assert daemon.submit(coup_game("bench-coup", timeout_s=600), source="bench")["ok"]
        latencies: list[float] = []
        started = time.perf_counter()
        for n in range(MOVES):  # income: no reaction window, so each tap resolves at once (CP-2)
            seat = daemon.public_state()["turn"]["seat"]
            _wait_until_panel_offers(panel, seat, "income")  # its MQTT cache lags the daemon a little
            marks = [len(s.frames) for s in streams]
            t0 = time.perf_counter()
            status, body = phones[seat].post("/api/cmd", {"id": f"bench-move-{n:05d}", "type": "move",
                                                          "move": "income", "args": {}})
            assert status == 200, body
            for stream, mark in zip(streams, marks, strict=True):
                stream.wait(lambda e, d: e == "state", what="the new state", start=mark)
            latencies.append((time.perf_counter() - t0) * 1000)
        elapsed = time.perf_counter() - started
        return {"coup_tap_to_all_phones_p95_ms": round(_percentile(latencies, 0.95), 2),
                "coup_moves_per_s": round(MOVES / elapsed, 1)}
    finally:
        for s in streams:
            s.close()
        if stack is not None:
            stack.stop()
        broker.close()
        shutil.rmtree(workdir, ignore_errors=True)
