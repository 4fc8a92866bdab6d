"""Seated phones under load, on a real ``gametable run`` (referee and panel as it ships them).

- ``seated_p95_ms_quiet``: a seated phone's move (``POST /api/cmd`` end_turn) -> the new state on
  that phone's own stream, p95 of 60 moves 0.25 s apart (a quick player), nothing else going on.
- ``seated_p95_ratio_under_get_flood``: the same p95 while 50 LAN addresses flood unauthenticated
  ``GET /api/info`` inside every per-address cap (8 requests in progress each), over the quiet p95
  measured just before it (``seated_p95_ms_quiet_before_flood``). Aim <= 2.
- ``seated_p95_ratio_with_2000_spectators``: the same while 2,000 spectator streams (250 addresses
  x 8, the caps) are open and drained once a second, over the quiet p95 just before it. Aim <= 2.

The load comes from a separate process (its own interpreter), from its own loopback addresses.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks.soak_hostile_lan import LanPhone
from gametable.broker import free_port, start_broker
from gametable.testing.daemon_proc import DaemonProcess

PIN = "24681357"
MOVES = 60
PACE_S = 0.25  # between two moves: a quick player's pace (every stream gets each move's frames)
WARMUP = 5
FLOOD_ADDRESSES, FLOOD_PER_ADDRESS = 50, 8
SPECTATOR_ADDRESSES, SPECTATORS_PER_ADDRESS = 250, 8
PLAYERS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"}]


class _OwnStream:
    """A seated phone's own stream: the arrival time of every ``state`` frame, read by a thread."""

    def __init__(self, phone: LanPhone) -> None:
        self.sock = socket.create_connection(("127.0.0.1", phone.port), timeout=60, source_address=(phone.address, 0))
        cookie = "; ".join(f"{k}={v}" for k, v in phone.cookies.items())
        self.sock.sendall(f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:{phone.port}\r\nCookie: {cookie}\r\n\r\n".encode())
        self.states: list[tuple[float, dict]] = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        buf = b""
        try:
            while chunk := self.sock.recv(65536):
                now = time.perf_counter()
                buf += chunk
                while b"\n\n" in buf:
                    frame, _, buf = buf.partition(b"\n\n")
                    lines = frame.split(b"\n")
                    if lines[0] == b"event: state":
                        data = next((line[6:] for line in lines if line.startswith(b"data: ")), b"null")
                        with self.cond:
                            self.states.append((now, json.loads(data) or {}))
                            self.cond.notify_all()
        except OSError:
            pass

    def wait_turn(self, after: int, seat: int, timeout: float = 30) -> float:
        """Arrival time of the first state after index ``after`` whose turn is not ``seat``'s."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for when, state in self.states[after:]:
                    if ((state.get("turn") or {}).get("seat")) not in (None, seat):
                        return when
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"seat {seat}'s move never reached its own stream")
                self.cond.wait(left)

    def close(self) -> None:
        self.sock.close()


def _seated_p95(phones: dict[int, LanPhone], streams: dict[int, _OwnStream], tag: str, moves: int = MOVES) -> float:
    with streams[1].cond:
        seat, trips = (streams[1].states[-1][1].get("turn") or {}).get("seat") or 1, []
    for i in range(moves + WARMUP):
        stream = streams[seat]
        with stream.cond:
            mark = len(stream.states)
        t0 = time.perf_counter()
        status, body = phones[seat].request("POST", "/api/cmd", {"id": f"bench-{tag}-{i:04d}-{time.time_ns()}",
                                                                 "type": "end_turn", "confirm": True})
        if status != 200:
            raise RuntimeError(f"seat {seat}'s move refused: {status} {body}")
        arrived = stream.wait_turn(mark, seat)
        if i >= WARMUP:
            trips.append((arrived - t0) * 1000)
        seat = seat % 3 + 1
        time.sleep(PACE_S)
    trips.sort()
    return trips[min(len(trips) - 1, int(0.95 * (len(trips) - 1) + 0.5))]


# --- the load (its own process) ---------------------------------------------------------------
async def _flood_one(port: int, address: str, stop_at: float, counts: dict[str, int]) -> None:
    while time.time() < stop_at:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
        except OSError:
            await asyncio.sleep(0.05)
            continue
        try:
            while time.time() < stop_at:
                writer.write(f"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
                head = await reader.readuntil(b"\r\n\r\n")
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), 0)
                await reader.readexactly(length)
                counts["gets"] += 1
                if b"keep-alive" not in head.lower():
                    break
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()


def _spectate(port: int, stop_at: float, ready: Any) -> None:
    """2,000 spectator streams (the caps), drained once a second: what the panel pays for serving
    them, not what this process would pay to be 2,000 phones (each a device of its own)."""
    socks = []
    for a in range(SPECTATOR_ADDRESSES):
        for _ in range(SPECTATORS_PER_ADDRESS):
            s = socket.create_connection(("127.0.0.1", port), timeout=30,
                                         source_address=(f"127.92.{a // 250}.{a % 250 + 2}", 0))
            s.sendall(f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            if not s.recv(65536).startswith(b"HTTP/1.1 200"):  # its snapshot (one by one: phones trickle in)
                raise RuntimeError("a spectator stream was refused")
            s.setblocking(False)
            socks.append(s)
    ready.set()
    while time.time() < stop_at:
        time.sleep(1.0)
        for s in socks:
            try:
                while s.recv(1 << 20):
                    pass
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                pass


def _load(kind: str, port: int, stop_at: float, ready: Any) -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    if kind == "spectators":
        _spectate(port, stop_at, ready)
        return
    counts = {"gets": 0}

    async def flood() -> None:
        tasks = [asyncio.create_task(_flood_one(port, f"127.91.{a // 250}.{a % 250 + 2}", stop_at, counts))
                 for a in range(FLOOD_ADDRESSES) for _ in range(FLOOD_PER_ADDRESS)]
        await asyncio.sleep(2.0)
        ready.set()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(flood())


def _under(kind: str, port: int, phones: dict[int, LanPhone], streams: dict[int, _OwnStream]) -> float:
    ctx = multiprocessing.get_context("spawn")
    ready = ctx.Event()
    stop_at = time.time() + 240
    load = ctx.Process(target=_load, args=(kind, port, stop_at, ready), daemon=True)
    load.start()
    try:
        if not ready.wait(120):
            raise RuntimeError(f"the {kind} load never got going")
        p95 = _seated_p95(phones, streams, kind)
    finally:
        load.terminate()
        load.join(10)
    return p95


def run() -> dict[str, float]:
    workdir = Path(tempfile.mkdtemp(prefix="gametable-bench-seated-"))
    broker = start_broker()
    port = free_port()
    table = DaemonProcess(workdir, broker.host, broker.port, "bench", panel={"port": port, "pin": PIN})
    out: dict[str, float] = {}
    streams: dict[int, _OwnStream] = {}
    try:
        table.start()
        deadline = time.monotonic() + 60
        host = None
        while host is None:
            try:
                host = LanPhone(port, "127.90.0.2")
            except OSError:
                if time.monotonic() > deadline or not table.alive():
                    raise RuntimeError(f"the panel never answered; see {table.log}") from None
                time.sleep(0.2)
        assert host.request("POST", "/api/host/unlock", {"id": f"bench-unlock-{time.time_ns()}", "pin": PIN})[0] == 200
        status, body = host.request("POST", "/api/host/cmd", {"id": f"bench-game-{time.time_ns()}", "type": "new_game",
                                                              "game": "coinwar", "mode": "ffa", "players": PLAYERS,
                                                              "order": [1, 2, 3], "seed": 1})
        if status != 200:
            raise RuntimeError(f"new game refused: {body}")
        join = LanPhone(port, "127.0.0.1").request("GET", "/api/info")[1]["join_url"]
        code = join.split("?code=", 1)[1] if "?code=" in join else None
        phones = {}
        for seat in (1, 2, 3):
            phones[seat] = LanPhone(port, f"127.90.0.{seat + 2}")
            claim = {"id": f"bench-claim-{seat}-{time.time_ns()}", "seat": seat, **({"code": code} if code else {})}
            assert phones[seat].request("POST", "/api/seat/claim", claim)[0] == 200
            streams[seat] = _OwnStream(phones[seat])
        # Each load against a quiet run just before it: the machine's other work drifts meanwhile.
        for kind, name in (("flood", "under_get_flood"), ("spectators", "with_2000_spectators")):
            quiet = _seated_p95(phones, streams, f"quiet-{kind}")
            loaded = _under(kind, port, phones, streams)
            out.setdefault("seated_p95_ms_quiet", round(quiet, 2))
            out[f"seated_p95_ms_quiet_before_{kind}"] = round(quiet, 2)
            out[f"seated_p95_ms_{name}"] = round(loaded, 2)
            out[f"seated_p95_ratio_{name}"] = round(loaded / quiet, 2)
    finally:
        for stream in streams.values():
            stream.close()
        table.terminate()
        broker.close()
    return out


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value}", file=sys.stdout)
