"""The hostile-LAN phase of ``make soak``: phones play through the panel under attack.

The real ``gametable run --no-hardware`` (daemon + panel in one process) behind a real Mosquitto.
Two seated phones play Coin War through ``POST /api/cmd`` from their own loopback addresses while
an attacker process (its own addresses, bounded in sockets and time) keeps up:

- slowloris: 200 half-open request heads, re-opened whenever the panel cuts them;
- stream floods: 200 never-read streams from 25 addresses, and 60 more from a single address;
- PIN guessing: random PINs from 20 addresses, as fast as the panel answers;
- forged requests: commands without a seat and host commands without the PIN.

Meanwhile a fresh host phone unlocks now and then (it must never be locked out). At the end, from
the journal: inputs lost (a command the phone was told succeeded that is not in the journal, or no
answer at all), duplicates applied, hostile inputs applied (must all be 0), and whether a PIN
guess ever opened the host screen.
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import random
import re
import socket
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from gametable.broker import free_port, start_broker
from gametable.testing.daemon_proc import DaemonProcess

TABLE = "lan"
PIN = "583920"
PLAYERS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}]


class LanPhone:
    """A cookie-keeping client from its own address (one request per connection)."""

    def __init__(self, port: int, address: str) -> None:
        self.port, self.address, self.cookies = port, address, {}
        self.request("GET", "/api/info")

    def request(self, method: str, path: str, body: Any = None, timeout: float = 10) -> tuple[int, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout, source_address=(self.address, 0))
        headers = {"Host": f"127.0.0.1:{self.port}",
                   "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        data = None
        if body is not None:
            data = json.dumps(body)
            headers.update({"Content-Type": "application/json", "X-CSRF-Token": self.cookies.get("gt_csrf", "")})
        try:
            conn.request(method, path, data, headers=headers)
            resp = conn.getresponse()
            payload = resp.read()
            for h in resp.headers.get_all("Set-Cookie") or []:
                name, _, rest = h.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        finally:
            conn.close()
        try:
            return resp.status, json.loads(payload)
        except ValueError:
            return resp.status, {}

    def post(self, path: str, body: Any) -> tuple[int, dict]:
        return self.request("POST", path, body)


def _attack(port: int, stop_at: float, seed: int, results: Any) -> None:
    """The attacker process: keeps every attack going until ``stop_at``; puts its counts on ``results``."""
    rnd = random.Random(seed)
    counts: Counter[str] = Counter()
    plan = ([("slow", f"127.80.0.{i % 20 + 2}") for i in range(200)]
            + [("stream", f"127.81.0.{i // 8 + 2}") for i in range(200)]
            + [("flood", "127.82.0.2") for _ in range(60)])
    socks: list[socket.socket | None] = [None] * len(plan)
    guessers = [LanPhone(port, f"127.83.0.{i + 2}") for i in range(20)]
    forger = LanPhone(port, "127.84.0.2")
    n = 0
    while time.time() < stop_at:
        for i, (kind, address) in enumerate(plan):
            s = socks[i]
            alive = s is not None
            if s is not None and kind == "slow":
                try:
                    alive = s.recv(4096) != b""
                except BlockingIOError:
                    pass
                except OSError:
                    alive = False
            elif s is not None and kind == "flood":  # refused ones are answered and closed
                try:
                    alive = not s.recv(4096).startswith(b"HTTP/1.1 503") and alive
                except BlockingIOError:
                    pass
                except OSError:
                    alive = False
            if s is not None and not alive:
                s.close()
            if not alive:
                try:
                    s = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(address, 0))
                    s.sendall(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " if kind == "slow"
                              else b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    s.setblocking(False)
                    socks[i] = s
                    counts["sockets opened"] += 1
                except OSError:
                    socks[i] = None
        for phone in guessers:
            n += 1
            guess = f"{rnd.randrange(10 ** 6):06d}"
            if guess == PIN:
                continue
            status, _ = phone.post("/api/host/unlock", {"id": f"evil-pin-{n:08d}", "pin": guess})
            counts["PIN guesses"] += 1
            counts["PIN guesses paused (429)"] += status == 429
            counts["PINs guessed right"] += status == 200
        for path, body in (("/api/cmd", {"id": f"evil-cmd-{n:08d}", "type": "end_turn", "seat": 1, "confirm": True}),
                           ("/api/host/cmd", {"id": f"evil-host-{n:08d}", "type": "undo"}),
                           ("/api/seat/claim", {"id": f"evil-seat-{n:08d}", "seat": 1})):
            status, _ = forger.post(path, body)
            counts["forged requests"] += 1
            counts["forged requests accepted"] += status == 200
        time.sleep(0.1)
    for s in socks:
        if s is not None:
            s.close()
    results.put(dict(counts))


def _wait_panel(port: int, proc: DaemonProcess, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.alive():
        try:
            LanPhone(port, "127.70.0.9")
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the panel did not answer; see {proc.log}")


def _join_code(port: int) -> str:
    """The join code, read from the table's own screen (loopback) as a person at the table scans it."""
    _, info = LanPhone(port, "127.0.0.1").request("GET", "/api/info")
    return str(info["join_url"]).split("?code=", 1)[1]


def _host_key(daemon: DaemonProcess) -> str:
    """The host link's key, from the console (the daemon's log): PIN login may be paused by the guessers."""
    match = re.search(r"panel host link [^:]*: \S+/host#key=(\S+)", daemon.log_text())
    if not match:
        raise RuntimeError(f"no host link on the console; see {daemon.log}")
    return match.group(1)


def run_hostile_lan(seconds: float = 20.0, seed: int = 1, workdir: Path | None = None,
                    out: Any = sys.stdout) -> dict[str, float]:
    """Run the phase; returns the figures it prints."""
    workdir = workdir or Path(tempfile.mkdtemp(prefix="gametable-soak-lan-"))
    broker = start_broker()
    port = free_port()
    daemon = DaemonProcess(workdir, broker.host, broker.port, TABLE, panel={"port": port, "pin": PIN})
    ctx = multiprocessing.get_context("spawn")
    results = ctx.Queue()
    attacker = None
    answers: dict[str, int] = {}
    trips: list[float] = []
    host_unlocks = host_locked_out = 0
    try:
        daemon.start()
        _wait_panel(port, daemon)
        host = LanPhone(port, "127.70.0.2")
        assert host.post("/api/host/unlock", {"id": "lan-host-unlock", "pin": PIN})[0] == 200
        status, body = host.post("/api/host/cmd", {"id": "lan-new-game", "type": "new_game", "game": "coinwar",
                                                   "mode": "ffa", "players": PLAYERS, "order": [1, 2], "seed": seed})
        if status != 200:
            raise RuntimeError(f"new game refused: {body}")
        phones = {seat: LanPhone(port, f"127.70.0.{seat + 2}") for seat in (1, 2)}
        code = _join_code(port)
        for seat, phone in phones.items():
            status, body = phone.post("/api/seat/claim", {"id": f"lan-claim-{seat}", "seat": seat, "code": code})
            if status != 200:
                raise RuntimeError(f"seat {seat} refused: {body}")
        time.sleep(0.5)  # the panel has the private views
        attacker = ctx.Process(target=_attack, args=(port, time.time() + seconds, seed, results), daemon=True)
        attacker.start()
        time.sleep(1.0)  # the attack is under way
        seat, i, deadline = 1, 0, time.monotonic() + seconds - 1.5
        while time.monotonic() < deadline:
            i += 1
            rid = f"lan-turn-{i:06d}"
            t0 = time.perf_counter()
            try:
                status, body = phones[seat].post("/api/cmd", {"id": rid, "type": "end_turn", "confirm": True})
            except OSError:
                status, body = 0, {}
            answers[rid] = status
            if status == 200:
                trips.append((time.perf_counter() - t0) * 1000)
                seat = 3 - seat
            elif status == 409 and "turn" in str(body.get("error")):
                seat = 3 - seat
            if i % 20 == 0:  # a host screen opened now (the host link) is never locked out by the guessers
                status, _ = LanPhone(port, f"127.71.{i // 5000}.{i // 20 % 250 + 2}").post(
                    "/api/host/unlock", {"id": f"lan-host-{i:06d}", "key": _host_key(daemon)})
                host_unlocks += 1
                host_locked_out += status != 200
    finally:
        counts: dict[str, int] = {}
        if attacker is not None:
            attacker.join(seconds + 30)
            try:
                counts = results.get(timeout=5)
            except Exception:  # the attacker died: its counts are lost, the checks below still hold
                counts = {}
            if attacker.is_alive():
                attacker.terminate()
        rows = daemon.journal_rows()
        daemon.terminate()
        broker.close()
    ids = Counter(cid for _s, cid, _b in rows if cid is not None)
    ok_ids = [rid for rid, status in answers.items() if status == 200]
    lost = sum(1 for rid in ok_ids if f"panel-{rid}" not in ids) + sum(1 for s in answers.values() if s == 0)
    trips.sort()
    figures = {
        "lan seconds": seconds,
        "lan seated commands": float(len(answers)),
        "lan seated commands applied": float(len(ok_ids)),
        "lan seated cmd p99 ms": round(trips[min(len(trips) - 1, int(0.99 * (len(trips) - 1)))], 1) if trips else -1.0,
        "lan attack sockets opened": float(counts.get("sockets opened", 0)),
        "lan PIN guesses": float(counts.get("PIN guesses", 0)),
        "lan PINs guessed right": float(counts.get("PINs guessed right", 0)),
        "lan forged requests": float(counts.get("forged requests", 0)),
        "lan host unlocks": float(host_unlocks),
        "lan host locked out": float(host_locked_out),
        "lan inputs lost": float(lost),
        "lan duplicates applied": float(sum(n - 1 for n in ids.values() if n > 1)),
        "lan hostile applied": float(sum(1 for cid in ids if "evil" in str(cid))
                                     + counts.get("forged requests accepted", 0)),
    }
    for name, value in figures.items():
        print(f"{name}: {value:g}", file=out)
    print(f"# hostile-LAN journal and daemon log in {workdir}", file=out)
    return figures


def lan_passed(figures: dict[str, float]) -> bool:
    return (figures["lan inputs lost"] == 0 and figures["lan duplicates applied"] == 0
            and figures["lan hostile applied"] == 0 and figures["lan PINs guessed right"] == 0
            and figures["lan host locked out"] == 0 and figures["lan seated commands applied"] > 0)


if __name__ == "__main__":
    ok = lan_passed(run_hostile_lan(float(sys.argv[1]) if len(sys.argv) > 1 else 20.0))
    print("hostile LAN: PASS" if ok else "hostile LAN: FAIL")
    sys.exit(0 if ok else 1)
