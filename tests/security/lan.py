"""A hostile LAN on loopback: phones and attackers with their own 127.x.y.z addresses.

Linux routes all of 127.0.0.0/8 to the loopback interface, so each client can bind its own source
address and the panel sees distinct "phones". 127.0.0.1 is the table's own screen (exempt from the
per-address caps), so the tests' phones and attackers use other addresses. Every attack helper is
bounded in sockets and time.
"""

from __future__ import annotations

import json
import socket
import time
from typing import Any

from gametable.testing.panel import Http


def lan(n: int, net: int = 0) -> str:
    """The ``n``-th address of a pretend LAN (never 127.0.0.1)."""
    return f"127.{10 + net}.{n // 250}.{n % 250 + 2}"


class Phone(Http):
    """A cookie-keeping HTTP client from its own address (the rig's ``Http``), with its live stream."""

    def __init__(self, port: int, address: str, *, host_header: str | None = None) -> None:
        super().__init__(port, address, host_header=host_header or f"127.0.0.1:{port}")

    def stream(self, timeout: float = 10) -> Stream:
        return Stream(self.port, self.address, self._headers(), timeout)


class Stream:
    """One raw SSE connection; ``events()`` reads what has arrived, ``wait_for`` an event name."""

    def __init__(self, port: int, address: str, headers: dict[str, str], timeout: float = 10) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(address, 0))
        head = "".join(f"{k}: {v}\r\n" for k, v in headers.items() if v)
        self.sock.sendall(f"GET /api/stream HTTP/1.1\r\n{head}Accept: text/event-stream\r\n\r\n".encode())
        self.buf = b""
        self.status = int(self._read_until(b"\r\n\r\n", timeout).split(b" ", 2)[1])

    def _read_until(self, marker: bytes, timeout: float) -> bytes:
        deadline = time.monotonic() + timeout
        while marker not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {marker!r} on the stream")
            self.sock.settimeout(left)
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the stream was closed")
            self.buf += chunk
        head, _, self.buf = self.buf.partition(marker)
        return head

    def wait_for(self, event: str, timeout: float = 10) -> Any:
        """The data of the next ``event`` frame (earlier frames are skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            frame = self._read_until(b"\n\n", max(0.01, deadline - time.monotonic()))
            lines = frame.split(b"\n")
            if lines[0] == f"event: {event}".encode():
                return json.loads(lines[1][6:])

    def events_until(self, event: str, timeout: float = 10) -> list[tuple[str, Any]]:
        """Every (event, data) frame up to and including the next ``event`` frame."""
        deadline = time.monotonic() + timeout
        seen: list[tuple[str, Any]] = []
        while not seen or seen[-1][0] != event:
            lines = self._read_until(b"\n\n", max(0.01, deadline - time.monotonic())).split(b"\n")
            if lines[0].startswith(b"event: "):
                seen.append((lines[0][7:].decode(), json.loads(lines[1][6:])))
        return seen

    def close(self) -> None:
        self.sock.close()


def open_streams(port: int, addresses: list[str], per_address: int, timeout: float = 10) -> list[socket.socket]:
    """Stream flood: ``per_address`` raw stream requests from each address (not read)."""
    socks = []
    for address in addresses:
        for _ in range(per_address):
            s = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(address, 0))
            s.sendall(f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            socks.append(s)
    return socks


def slowloris(port: int, addresses: list[str], per_address: int) -> list[socket.socket]:
    """Half-open requests: a head that never ends (each socket sends one header line)."""
    socks = []
    for address in addresses:
        for _ in range(per_address):
            s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(address, 0))
            s.sendall(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            socks.append(s)
    return socks


OPEN = -1


def statuses(socks: list[socket.socket], timeout: float = 10) -> list[int | None]:
    """The HTTP status each socket got (None: closed without an answer; OPEN: no answer by the end)."""
    out: list[int | None] = []
    deadline = time.monotonic() + timeout
    for s in socks:
        data = b""
        try:
            while b"\r\n" not in data:
                s.settimeout(max(0.01, deadline - time.monotonic()))
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
        except TimeoutError:
            out.append(OPEN)
            continue
        except OSError:
            pass
        out.append(int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else None)
    return out


def close_all(socks: list[socket.socket]) -> None:
    for s in socks:
        try:
            s.close()
        except OSError:
            pass
