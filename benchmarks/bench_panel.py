"""Panel benchmarks against the real served panel, daemon and Mosquitto.

- ``sse_clients``: SSE streams held open at once (100 phones/screens), each got its snapshot.
- ``state_to_browser_p95_ms``: a state published on MQTT -> the ``state`` event read by each of the
  100 SSE clients (p95 over every client and round). Aim < 100 ms.
- ``sse_streams_held``: spectator streams (8 per LAN address) that got their snapshot *and* a live
  state afterwards, of 1,000 opened. Aim >= 1,000.
- ``seated_cmd_p99_ms_under_attack``: a seated phone's ``POST /api/cmd`` -> its answer (through the
  real daemon, journalled) while 500 hostile sockets are open (half-open heads kept re-opened,
  unread streams). Aim: a phone does not notice.
- ``idle_cpu_pct``: CPU of a real ``gametable run`` (referee + its panel process) sitting idle,
  in % of one core, from /proc. Aim < 3 %. ``idle_cpu_pct_sim``: the same for ``gametable sim``
  (daemon, panel and the virtual table, no bots).
- ``cmd_roundtrip_p99_ms``: a command published on ``cmd`` -> its ``cmd/result`` (journalled with
  fsync by the real daemon); ``..._with_100_sse`` the same while the panel (in the same process, as
  in ``gametable run``) feeds 100 open streams.

Clients come from their own loopback addresses (127.x.y.z), as phones on a LAN would.
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from controller.daemon import Daemon
from controller.mqtt_client import no_delay
from gametable.broker import free_port, start_broker
from gametable_core.config import parse
from web_panel.server import PanelServer
from web_panel.server.limits import _raise_file_limit

CLIENTS = 100
HELD = 1000
HOSTILE = 500
SEATED_CMDS = 120
IDLE_S = 10.0
ROUNDS = 40
WARMUP = 5
COMMANDS = 200
PLAYERS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"}]


def _addr(i: int, net: int = 0) -> str:
    """The ``i``-th pretend LAN address, 8 clients each (the panel's per-address stream cap)."""
    n = i // 8
    return f"127.{30 + net}.{n // 250}.{n % 250 + 2}"


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


class SseClients:
    """``n`` raw SSE connections read by one selector thread (so the reader adds no GIL noise)."""

    def __init__(self, port: int, n: int, net: int = 0) -> None:
        self.sel = selectors.DefaultSelector()
        self.buffers: dict[socket.socket, bytearray] = {}
        self.seen: dict[int, list[float]] = {}
        self.ready: set[socket.socket] = set()
        self.lock = threading.Lock()
        for i in range(n):
            s = socket.create_connection(("127.0.0.1", port), source_address=(_addr(i, net), 0))
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
                except OSError:  # reset by the panel: that client is gone
                    data = b""
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


BASE_STATE = {"game": "coinwar", "mode": "ffa", "phase": "playing", "turn": {"seat": 1, "strikes": 0, "extra": False},
              "players": [dict(p, alive=True, coin=f"c{p['seat']}") for p in PLAYERS], "questions": [],
              "pending_placements": [], "winner": None}


def _wait_ready(clients: SseClients, n: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while len(clients.ready) < n and time.monotonic() < deadline:
        time.sleep(0.02)


def _state_round(pub: mqtt.Client, clients: SseClients, r: int, timeout: float = 5) -> tuple[float, list[float]]:
    """Publish a state tagged ``r``; wait until every ready client read it (bounded)."""
    sent = time.perf_counter()
    pub.publish("gametable/bench/state", json.dumps(dict(BASE_STATE, bench_round=r)), qos=1, retain=True)
    deadline = time.monotonic() + timeout
    got: list[float] = []
    while time.monotonic() < deadline:
        with clients.lock:
            got = list(clients.seen.get(r, []))
        if len(got) >= len(clients.ready):
            break
        time.sleep(0.002)
    return sent, got


def _streams_held(port: int, pub: mqtt.Client) -> float:
    """Open HELD spectator streams; count those that got the snapshot and then a live state."""
    clients = SseClients(port, HELD, net=40)
    try:
        _wait_ready(clients, HELD, 60)
        _, got = _state_round(pub, clients, 10_000, timeout=10)
        return float(len(got))
    finally:
        clients.close()


def _attack(port: int, stop_at: float, ready: Any) -> None:
    """Keep HOSTILE sockets open on the panel until ``stop_at`` (its own process, so its work does
    not share the panel's GIL): half-open heads from 25 addresses, re-opened when the panel cuts
    them, and never-read streams (8 per address, the panel's cap)."""
    socks: list[socket.socket | None] = [None] * HOSTILE

    def open_one(i: int) -> socket.socket | None:
        stream = i % 2 == 1
        address = f"127.51.0.{i // 16 + 2}" if stream else f"127.50.0.{i % 25 + 2}"
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(address, 0))
            s.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" if stream
                      else b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            s.setblocking(False)
            return s
        except OSError:
            return None

    signalled = False
    while time.time() < stop_at:
        for i, s in enumerate(socks):
            alive = s is not None
            if s is not None:
                try:
                    alive = i % 2 == 1 or s.recv(4096) != b""  # streams are never read
                except BlockingIOError:
                    pass
                except OSError:
                    alive = False
                if not alive:
                    s.close()
            if not alive:
                socks[i] = open_one(i)
        if not signalled and all(s is not None for s in socks):
            ready.set()
            signalled = True
        time.sleep(0.2)
    for s in socks:
        if s is not None:
            s.close()


class _Phone:
    """A seated phone from its own address: cookies and CSRF token, one HTTP request at a time."""

    def __init__(self, port: int, address: str) -> None:
        self.port, self.address, self.cookies = port, address, {}
        self.post("/api/info", None)

    def post(self, path: str, body: dict | None) -> tuple[int, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10, source_address=(self.address, 0))
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        headers = {"Host": f"127.0.0.1:{self.port}", "Cookie": cookie}
        if body is None:
            conn.request("GET", path, headers=headers)
        else:
            conn.request("POST", path, json.dumps(body), headers=dict(
                headers, **{"Content-Type": "application/json", "X-CSRF-Token": self.cookies.get("gt_csrf", "")}))
        resp = conn.getresponse()
        data = resp.read()
        for h in resp.headers.get_all("Set-Cookie") or []:
            name, _, rest = h.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        conn.close()
        return resp.status, (json.loads(data) if data.startswith(b"{") else {})


def _seated_under_attack(panel: PanelServer, daemon: Daemon) -> float:
    """p99 of three seated phones' end_turn round trips while HOSTILE sockets are open."""
    port = panel.port
    host = _Phone(port, "127.60.0.2")
    assert host.post("/api/host/unlock", {"id": "bench-unlock-1", "pin": panel.pin})[0] == 200
    status, body = host.post("/api/host/cmd", {"id": "bench-new-game", "type": "new_game", "game": "coinwar",
                                               "mode": "ffa", "players": PLAYERS, "order": [1, 2, 3], "seed": 1})
    assert status == 200, body
    phones = {}
    code = _Phone(port, "127.0.0.1").post("/api/info", None)[1]["join_url"].split("?code=", 1)[1]  # the table's QR
    for seat in (1, 2, 3):
        phones[seat] = _Phone(port, f"127.60.0.{seat + 2}")
        claim = {"id": f"bench-claim-{seat}", "seat": seat, "code": code}
        assert phones[seat].post("/api/seat/claim", claim)[0] == 200
    deadline = time.monotonic() + 10
    while panel.link.private_view(1) is None and time.monotonic() < deadline:
        time.sleep(0.01)
    ctx = multiprocessing.get_context("spawn")
    ready = ctx.Event()
    attacker = ctx.Process(target=_attack, args=(port, time.time() + 90, ready), daemon=True)
    attacker.start()
    trips: list[float] = []
    try:
        ready.wait(30)
        time.sleep(0.5)
        for i in range(SEATED_CMDS):
            seat = (panel.link.public_state() or {}).get("turn", {}).get("seat") or 1
            t0 = time.perf_counter()
            status, body = phones[seat].post("/api/cmd", {"id": f"bench-end-{i:05d}", "type": "end_turn",
                                                          "confirm": True})
            if status == 200 and i >= WARMUP:
                trips.append((time.perf_counter() - t0) * 1000)
            deadline = time.monotonic() + 5  # the panel's cache follows the daemon's new turn
            while ((panel.link.public_state() or {}).get("turn", {}).get("seat") == seat
                   and time.monotonic() < deadline):
                time.sleep(0.001)
    finally:
        attacker.terminate()
        attacker.join(5)
    return round(_pct(trips, 99), 2) if len(trips) > SEATED_CMDS // 2 else float("nan")


def _cpu_s(pid: int) -> float:
    """CPU seconds of ``pid`` and its living children (``gametable run``'s panel is its own process)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
    children = []
    for task in Path(f"/proc/{pid}/task").glob("*"):  # (a child belongs to the thread that started it)
        try:
            children += (task / "children").read_text().split()
        except OSError:
            pass
    return own + sum(_cpu_s(int(child)) for child in children if Path(f"/proc/{child}").exists())


def idle_cpu_pct(broker_host: str, broker_port: int, seconds: float = IDLE_S, root: Path | None = None,
                 command: tuple[str, ...] = ("run",)) -> float:
    """A real ``gametable run`` (referee + panel process; or ``command``, e.g. ``sim``) idle for ``seconds``:
    CPU in % of one core. (``root``: another checkout to measure, e.g. an older commit.)"""
    tmp = Path(tempfile.mkdtemp(prefix="gametable-bench-idle-"))
    port = free_port()
    conf = tmp / "table.toml"
    conf.write_text(f'table_id = "idle"\n[mqtt]\nhost = "{broker_host}"\nport = {broker_port}\n'
                    f'[journal]\npath = "{tmp / "j.sqlite"}"\n[panel]\nhost = "127.0.0.1"\nport = {port}\n')
    root = root or Path(__file__).resolve().parent.parent
    proc = subprocess.Popen([sys.executable, "-m", "gametable.cli", *command, "--config", str(conf)], cwd=root,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        up = False
        while not up and time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=1):
                    up = True
            except OSError:
                time.sleep(0.1)
        if not up:
            raise RuntimeError(f"gametable {command[0]} did not serve its panel")
        time.sleep(1.0)  # start-up work done
        c0, t0 = _cpu_s(proc.pid), time.monotonic()
        time.sleep(seconds)
        c1, t1 = _cpu_s(proc.pid), time.monotonic()
        if proc.poll() is not None:
            raise RuntimeError(f"gametable {command[0]} stopped while idle")
        return round((c1 - c0) / (t1 - t0) * 100, 2)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(tmp, ignore_errors=True)


def run() -> dict[str, float]:
    _raise_file_limit(8192)  # the clients live in this process too
    tmp = Path(tempfile.mkdtemp(prefix="gametable-bench-panel-"))
    broker = start_broker()
    config = parse({"table_id": "bench", "mqtt": {"host": broker.host, "port": broker.port},
                    "journal": {"path": str(tmp / "journal.sqlite")}, "panel": {"host": "127.0.0.1"}})
    out: dict[str, float] = {}
    for name, command in (("idle_cpu_pct", ("run",)), ("idle_cpu_pct_sim", ("sim", "--no-browser"))):
        try:
            out[name] = idle_cpu_pct(broker.host, broker.port, command=command)
        except Exception as exc:  # keep the other figures
            print(f"# {name} failed: {exc}", file=sys.stderr)
    daemon = Daemon(config)
    daemon.start()
    daemon.bridge.wait_connected(10)
    panel = PanelServer(config, port=0).start()
    panel.link.connected.wait(10)
    pub = _client(broker.host, broker.port)
    out["cmd_roundtrip_p99_ms"] = _roundtrips(broker.host, broker.port, pub, "idle")
    clients = SseClients(panel.port, CLIENTS)
    try:
        _wait_ready(clients, CLIENTS, 20)
        out["sse_clients"] = float(len(panel.link.hub))
        latencies: list[float] = []
        for r in range(ROUNDS):
            sent, got = _state_round(pub, clients, r)
            if r >= WARMUP:  # the first rounds warm caches and thread pools
                latencies += [(t - sent) * 1000 for t in got]
            time.sleep(0.02)
        out["state_to_browser_p95_ms"] = round(_pct(latencies, 95), 2) if latencies else float("nan")
        out["cmd_roundtrip_p99_ms_with_100_sse"] = _roundtrips(broker.host, broker.port, pub, "load")
        clients.close()
        out["sse_streams_held"] = _streams_held(panel.port, pub)
        out["seated_cmd_p99_ms_under_attack"] = _seated_under_attack(panel, daemon)
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
