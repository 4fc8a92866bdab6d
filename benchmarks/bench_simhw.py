"""The virtual table on the real sensor code, in real time (gametable/sim_rig.py).

`run()` returns {"metric": value}; `make bench` prints them. Flicks straight through the goal's
point beams (short pulses) on the real Daemon (no MQTT), pty striker base station, MockFactory beams:

- ``simhw_strike_latency_ms_median`` / ``_max``: striker frame written to the pty -> the daemon
  accepted the seat's ``strike`` (pty, StrikerLink thread, Hardware, engine, journal);
- ``simhw_beam_edges_delivered_ratio``: debounced edges out of the BeamBank / pin changes the
  physics drove (1.0 = no pulse lost to the debounce at real-time speed);
- ``simhw_observer_truth_agreement``: strikes whose observed dead/flown facts agree with the physics
  (``None`` = "cannot tell" agrees);
- ``simhw_realtime_ratio``: simulated strike seconds per wall second while flicking (1.0 = real time).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from controller.daemon import Daemon
from controller.games.coinwar.virtual_table import compare_with_truth
from gametable.sim_rig import SimHardware
from gametable.sim_table import VirtualTable
from gametable_core.clock import SystemClock
from gametable_core.config import parse

LANES = (-14.0, -7.0, 0.0, 7.0, 14.0)  # mm beside the goal's axis: short and long beam pulses


def run(flicks: int = 10, seed: int = 7) -> dict[str, float]:
    clock = SystemClock()
    with tempfile.TemporaryDirectory() as tmp:
        config = parse({"journal": {"path": str(Path(tmp) / "journal.sqlite")}})
        rig = SimHardware(config, clock)
        daemon = Daemon(rig.config, clock)
        daemon.start(connect=False)
        delivered = [0]
        diagnostic = daemon.diagnostic

        def count(kind: str, payload: Any) -> None:
            if kind == "beams" and payload.get("type") == "beam":
                delivered[0] += 1
            diagnostic(kind, payload)

        daemon.diagnostic = count  # type: ignore[method-assign]
        try:
            table = VirtualTable(daemon, clock, seed=seed, rig=rig, settle_s=0.3)
            driven, prev = [0], [frozenset()]
            drive = table.on_blocked

            def counting(new: frozenset[str]) -> None:
                driven[0] += len(new ^ prev[0])
                prev[0] = new
                drive(new)

            table.on_blocked = counting
            sent: list[float] = []
            accepted: list[float] = []
            strike = rig.strike
            rig.strike = lambda seat, g=6.0: (sent.append(time.perf_counter()), strike(seat, g))[1]  # type: ignore[method-assign]
            daemon.add_listener(lambda cmd, st: accepted.append(time.perf_counter()) if cmd.get("type") == "strike" else None)
            players = [{"seat": s, "name": f"P{s}"} for s in (1, 2)]
            table.submit({"type": "new_game", "game": "coinwar", "mode": "ffa", "players": players,
                          "order": [1, 2], "seed": seed})
            table.sync()
            agree = strikes = 0
            sim_s = wall_s = 0.0
            for i in range(flicks):
                st = table.state() or {}
                turn = st["turn"]
                if turn["strikes"] >= st.get("strikes_allowed", 2):
                    table.submit({"type": "end_turn", "seat": turn["seat"]})
                    turn = (table.state() or {})["turn"]
                coin, other = (("c1", "c2") if turn["seat"] == 1 else ("c2", "c1"))
                # straight through the goal's point beams at a lateral offset, stopping near the far rail
                x = 212.5 + LANES[i % len(LANES)]
                for c in (coin, other):
                    table.physics.remove(c)
                table.physics.place(other, 50.0, 300.0)
                table.physics.place(coin, x, 40.0)
                table._beams_to(table.physics.positions())
                t0 = time.perf_counter()
                if not table.flick(coin, 0.0, (2 * 0.30 * 9810.0 * (560.0 - 40.0)) ** 0.5).get("ok"):
                    break
                wall_s += time.perf_counter() - t0
                sim_s += table.last_truth.duration_s
                strikes += 1
                if table.last_observed is not None and all(compare_with_truth(table.last_observed,
                                                                               table.last_truth).values()):
                    agree += 1
            rig.wait_beams(table.vbeams.state)
            latencies = [(a - s) * 1000 for s, a in zip(sent, accepted, strict=False)]
        finally:
            rig.stop()
            daemon.stop()
    return {
        "simhw_strike_latency_ms_median": round(statistics.median(latencies), 2) if latencies else float("nan"),
        "simhw_strike_latency_ms_max": round(max(latencies), 2) if latencies else float("nan"),
        "simhw_beam_edges_delivered_ratio": round(delivered[0] / driven[0], 3) if driven[0] else float("nan"),
        "simhw_observer_truth_agreement": round(agree / strikes, 3) if strikes else float("nan"),
        "simhw_realtime_ratio": round(sim_s / wall_s, 3) if wall_s else float("nan"),
    }


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value}")
