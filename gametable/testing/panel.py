"""The panel side of a table: its config, the host PIN, and the phones' HTTP and SSE clients.

The whole table (broker, daemon, panel) is built by gametable/testing/table.py."""

from __future__ import annotations

import http.client
import json
import time
from dataclasses import dataclass
from typing import Any

from gametable.broker import Broker
from gametable_core.config import Config, parse

PIN = "2468"
NEW_GAME = {"type": "new_game", "game": "coinwar", "mode": "ffa", "seed": 3, "order": [1, 2, 3],
            "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"}]}


def panel_config(broker: Broker, journal: str, table_id: str = "t1", **panel: Any) -> Config:
    return parse({"table_id": table_id, "mqtt": {"host": broker.host, "port": broker.port},
                  "journal": {"path": journal},
                  "panel": {"host": "127.0.0.1", "pin": PIN, **panel}})


class Http:
    """A tiny cookie-keeping HTTP client (one phone) speaking to the real served panel; from its
    own loopback ``address`` (127.x.y.z) when a test needs phones the panel tells apart."""

    def __init__(self, port: int, address: str | None = None, *, host_header: str | None = None) -> None:
        self.port, self.address, self.host_header = port, address, host_header
        self.cookies: dict[str, str] = {}
        self.get("/api/info")

    def _conn(self, timeout: float) -> http.client.HTTPConnection:
        source = (self.address, 0) if self.address else None
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout, source_address=source)

    def cookie_header(self) -> str:
        """The ``Cookie`` header this phone sends (for a connection a test opens by hand)."""
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def _headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        out = {"Cookie": self.cookie_header()}
        if self.host_header:
            out["Host"] = self.host_header
        out.update(extra or {})
        return out

    def _keep(self, resp: http.client.HTTPResponse) -> None:
        for header in resp.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            value = rest.split(";", 1)[0]
            if value and "Max-Age=0" not in header and "expires=Thu, 01 Jan 1970" not in header:
                self.cookies[name] = value
            else:
                self.cookies.pop(name, None)

    def get(self, path: str, timeout: float = 10) -> tuple[int, bytes]:
        conn = self._conn(timeout)
        try:
            conn.request("GET", path, headers=self._headers())
            resp = conn.getresponse()
            body = resp.read()
            self._keep(resp)
            return resp.status, body
        finally:
            conn.close()

    def post(self, path: str, body: Any, *, headers: dict[str, str] | None = None,
             raw: bytes | None = None, timeout: float = 15) -> tuple[int, dict[str, Any]]:
        conn = self._conn(timeout)
        try:
            data = raw if raw is not None else json.dumps(body).encode()
            conn.request("POST", path, data, headers=self._headers({
                "Content-Type": "application/json", "X-CSRF-Token": self.cookies.get("gt_csrf", ""),
                **(headers or {})}))
            resp = conn.getresponse()
            payload = resp.read()
            self._keep(resp)
        finally:
            conn.close()
        try:
            return resp.status, json.loads(payload)
        except ValueError:
            return resp.status, {"raw": payload.decode(errors="replace")}


class SseStream:
    """One phone's live stream (``GET /api/stream`` with its cookies), read on a thread into ``frames``.

    Real I/O: the test waits for frames with a bounded poll; ``close()`` ends the connection.
    """

    def __init__(self, port: int, cookies: dict[str, str], path: str = "/api/stream") -> None:
        import http.client
        import threading

        self.frames: list[tuple[str, Any]] = []
        self._lock = threading.Lock()
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.request("GET", path, headers={"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())})
        self.resp = self.conn.getresponse()
        assert self.resp.status == 200, self.resp.status
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        import json

        event = None
        try:
            while True:
                line = self.resp.readline()
                if not line:
                    return
                text = line.decode().rstrip("\n")
                if text.startswith("event: "):
                    event = text[7:]
                elif text.startswith("data: ") and event:
                    with self._lock:
                        self.frames.append((event, json.loads(text[6:])))
                    event = None
        except (OSError, ValueError):
            return

    def wait(self, predicate: Any, timeout: float = 10.0, what: str = "frame", start: int = 0) -> tuple[str, Any]:
        """The first frame from index ``start`` on for which ``predicate(event, data)`` holds."""

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                for frame in self.frames[start:]:
                    if predicate(*frame):
                        return frame
            time.sleep(0.01)
        raise TimeoutError(f"no {what} on the stream; got {[f[0] for f in self.frames][-12:]}")

    def close(self) -> None:
        self.conn.close()


@dataclass
class SimTable:
    """The virtual table (direct path, fast physics) serving the panel's flicks over MQTT."""

    table: Any
    stop_event: Any
    thread: Any

    def stop(self) -> None:
        self.stop_event.set()
        self.thread.join(10)


def start_sim(stack: Any, speed: float = 20.0) -> SimTable:
    """`gametable sim`'s interactive loop on a table's daemon (a :class:`~gametable.testing.table.RigTable`): flicks from phones are played and
    answered on ``sim/flick/result``; coin positions go to ``sensors/table``."""
    import threading

    from gametable.sim_serve import serve
    from gametable.sim_table import VirtualTable
    from gametable_core.clock import SystemClock

    table = VirtualTable(stack.daemon, SystemClock(), seed=5, speed=speed, settle_s=0.2)
    stop = threading.Event()
    thread = threading.Thread(target=serve, args=(table, stack.config, stop), daemon=True)
    thread.start()
    return SimTable(table, stop, thread)
