"""`strike_to_state_p99_ms`: a striker frame written to the pty → the new state received on MQTT.

The whole `gametable run` path: virtual base station (pty) → StrikerLink → Hardware → Daemon
(journal, durable) → Mosquitto → a subscriber. Aim < 10 ms here.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from gametable.broker import start_broker
from gametable.testing.recorder import Recorder
from gametable.testing.table import start_table

NEW = {"type": "new_game", "game": "coinwar", "mode": "ffa", "seed": 3,
       "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}], "order": [1, 2]}
END = {"type": "end_turn"}


def run(rounds: int = 200) -> dict[str, float]:
    broker = start_broker()
    latencies = []
    with tempfile.TemporaryDirectory() as tmp:
        table = start_table(broker, Path(tmp) / "j.sqlite", table_id="bench", serial=True, heartbeat_s=1.0,
                            phone=False, game=NEW)
        daemon, base = table.daemon, table.base
        phone = Recorder(broker.host, broker.port, "gametable/bench/state")  # the state alone, as a screen
        try:
            for _ in range(rounds):
                seat = daemon.public_state()["turn"]["seat"]
                start_index = len(phone.messages)
                t0 = time.perf_counter()
                base.strike(f"s{seat}")
                phone.wait_for("gametable/bench/state",
                               lambda m, s=seat: (m.json().get("turn") or {}).get("strikes") == 1
                               and m.json()["turn"]["seat"] == s, start=start_index)
                latencies.append((time.perf_counter() - t0) * 1000)
                daemon.submit({"type": "shot", "seat": seat, "coin": f"c{seat}", "dead": [], "flown": [],
                               "contacts": []})
                daemon.submit({**END, "seat": seat})
        finally:
            phone.close()
            table.stop()
            broker.stop()
    latencies.sort()
    return {
        "strike_to_state_p50_ms": latencies[len(latencies) // 2],
        "strike_to_state_p99_ms": latencies[int(len(latencies) * 0.99) - 1],
    }
