"""`strike_to_state_p99_ms`: a striker frame written to the pty → the new state received on MQTT.

The whole `gametable run` path: virtual base station (pty) → StrikerLink → Hardware → Daemon
(journal, durable) → Mosquitto → a subscriber. Aim < 10 ms here.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.daemon import Daemon
from controller.hardware import Hardware
from gametable.broker import start_broker
from gametable.testing.recorder import Recorder
from gametable_core.clock import SystemClock
from gametable_core.config import parse
from sensors.virtual.virtual_base import VirtualBaseStation

NEW = {"type": "new_game", "game": "coinwar", "mode": "ffa", "seed": 3,
       "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}], "order": [1, 2]}
END = {"type": "end_turn"}


def run(rounds: int = 200) -> dict[str, float]:
    broker = start_broker()
    clock = SystemClock()
    base = VirtualBaseStation(clock, ["s1", "s2"], hb_interval_s=1.0)
    with tempfile.TemporaryDirectory() as tmp:
        config = parse({"table_id": "bench", "mqtt": {"host": broker.host, "port": broker.port},
                        "journal": {"path": str(Path(tmp) / "j.sqlite")},
                        "striker": {"port": base.path}, "strikers": {"s1": 1, "s2": 2}})
        daemon = Daemon(config, clock)
        daemon.start()
        daemon.bridge.wait_connected(10)
        hardware = Hardware(config, clock, daemon, pin_factory=MockFactory(pin_class=MockPWMPin))
        hardware.start()
        base.start()
        phone = Recorder(broker.host, broker.port, "gametable/bench/state")
        latencies = []
        try:
            daemon.submit(NEW)
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
            hardware.stop()
            base.close()
            daemon.stop()
            broker.stop()
    latencies.sort()
    return {
        "strike_to_state_p50_ms": latencies[len(latencies) // 2],
        "strike_to_state_p99_ms": latencies[int(len(latencies) * 0.99) - 1],
    }
