"""Panel benchmarks against the real served panel, daemon and Mosquitto.

- ``sse_clients``: SSE streams held open at once (100 phones/screens), each got its snapshot.
- ``state_to_browser_p95_ms``: a state published on MQTT -> the ``state`` event read by each of the
  100 SSE clients (p95 over every client and round).
- ``cmd_roundtrip_p99_ms``: a command published on ``cmd`` -> its ``cmd/result`` (journalled with
  fsync by the real daemon); ``..._with_100_sse`` the same while the panel (in the same process, as
  in ``gametable run``) feeds 100 open streams.
"""

from __future__ import annotations

import json
import selectors
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt

from controller.broker import start_broker
from controller.config import parse
from controller.daemon import Daemon
from controller.mqtt_bridge import no_delay
from web_panel.server import PanelServer

CLIENTS = 100
ROUNDS = 40
WARMUP = 5
COMMANDS = 200
PLAYERS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"}]


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


class SseClients:
    """``n`` raw SSE connections read by one selector thread (so the reader adds no GIL noise)."""

    def __init__(self, port: int, n: int) -> None:
        self.sel = selectors.DefaultSelector()
        self.buffers: dict[socket.socket, bytearray] = {}
        self.seen: dict[int, list[float]] = {}
        self.ready: set[socket.socket] = set()
        self.lock = threading.Lock()
        for _ in range(n):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            s.setblocking(False)
            self.sel.register(s, selectors.EVENT_READ)
            self.buffers[s] = bytearray()
        self.running = True
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while self.running:
            for key, _ in self.sel.select(timeout=0.1):
                sock = key.fileobj
                try:
                    data = sock.recv(65536)
                except BlockingIOError:
                    continue
                if not data:
                    self.sel.unregister(sock)
                    continue
                now = time.perf_counter()
                buf = self.buffers[sock]
                buf += data
                if b"event: me" in buf:
                    self.ready.add(sock)
                while True:
                    i = buf.find(b'"bench_round":')
                    if i < 0:
                        break
                    j = i + len(b'"bench_round":')
                    k = j
                    while k < len(buf) and buf[k:k + 1].isdigit():
                        k += 1
                    if k == len(buf):
                        break
                    with self.lock:
                        self.seen.setdefault(int(buf[j:k]), []).append(now)
                    del buf[:k]
                if len(buf) > 1 << 20:
                    del buf[: len(buf) - 4096]

    def close(self) -> None:
        self.running = False
        self.thread.join(2)
        for s in self.buffers:
            s.close()


def _client(host: str, port: int) -> mqtt.Client:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"bench-{time.monotonic_ns()}")
    no_delay(c)
    c.connect(host, port)
    c.loop_start()
    return c


def _roundtrips(host: str, port: int, pub: mqtt.Client, tag: str) -> float:
    """p99 of ``cmd`` -> ``cmd/result`` for accepted commands (each journalled durably)."""
    results: dict[str, float] = {}
    done = threading.Condition()

    def on_message(c, u, msg):
        data = json.loads(msg.payload)
        with done:
            results[str(data.get("id"))] = time.perf_counter()
            done.notify_all()

    sub = _client(host, port)
    sub.on_message = on_message
    sub.subscribe("gametable/bench/cmd/result", qos=1)
    time.sleep(0.3)
    trips: list[float] = []
    for i in range(COMMANDS):
        cid = f"bench-{tag}-{i}"
        cmd = {"type": "new_game", "game": "coinwar", "mode": "ffa", "players": PLAYERS, "order": [1, 2, 3],
               "seed": i, "id": cid}
        sent = time.perf_counter()
        pub.publish("gametable/bench/cmd", json.dumps(cmd), qos=1)
        with done:
            done.wait_for(lambda cid=cid: cid in results, timeout=5)
        if cid in results and i >= WARMUP:
            trips.append((results[cid] - sent) * 1000)
    sub.disconnect()
    sub.loop_stop()
    return round(_pct(trips, 99), 2) if trips else float("nan")


def run() -> dict[str, float]:
    tmp = Path(tempfile.mkdtemp(prefix="gametable-bench-panel-"))
    broker = start_broker()
    config = parse({"table_id": "bench", "mqtt": {"host": broker.host, "port": broker.port},
                    "journal": {"path": str(tmp / "journal.sqlite")}, "panel": {"host": "127.0.0.1"}})
    daemon = Daemon(config)
    daemon.start()
    daemon.bridge.wait_connected(10)
    panel = PanelServer(config, port=0).start()
    panel.link.connected.wait(10)
    out: dict[str, float] = {}
    pub = _client(broker.host, broker.port)
    out["cmd_roundtrip_p99_ms"] = _roundtrips(broker.host, broker.port, pub, "idle")
    clients = SseClients(panel.port, CLIENTS)
    try:
        deadline = time.monotonic() + 20
        while len(clients.ready) < CLIENTS and time.monotonic() < deadline:
            time.sleep(0.02)
        out["sse_clients"] = float(len(panel.link.hub))
        latencies: list[float] = []
        base = {"game": "coinwar", "mode": "ffa", "phase": "playing", "turn": {"seat": 1, "strikes": 0, "extra": False},
                "players": [dict(p, alive=True, coin=f"c{p['seat']}") for p in PLAYERS], "questions": [],
                "pending_placements": [], "winner": None}
        for r in range(ROUNDS):
            sent = time.perf_counter()
            pub.publish("gametable/bench/state", json.dumps(dict(base, bench_round=r)), qos=1, retain=True)
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                with clients.lock:
                    got = list(clients.seen.get(r, []))
                if len(got) >= len(clients.ready):
                    break
                time.sleep(0.002)
            if r >= WARMUP:  # the first rounds warm caches and thread pools
                latencies += [(t - sent) * 1000 for t in got]
            time.sleep(0.02)
        out["state_to_browser_p95_ms"] = round(_pct(latencies, 95), 2) if latencies else float("nan")

        out["cmd_roundtrip_p99_ms_with_100_sse"] = _roundtrips(broker.host, broker.port, pub, "load")
    finally:
        clients.close()
        pub.disconnect()
        pub.loop_stop()
        panel.stop()
        daemon.stop()
        broker.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return out


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value}")
