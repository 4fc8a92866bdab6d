"""The event loop's side: every client socket, admission under the limits, and the one writer of all streams."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import socket
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any, Protocol

from flask import Flask
from werkzeug.wrappers import Request

from web_panel.app import HOST_COOKIE, SEAT_COOKIE
from web_panel.budget import RequestBudget
from web_panel.hub import HOST_ONLY
from web_panel.link import TableLink
from web_panel.security import LOCAL_ADDRESSES
from web_panel.server.bridge import StreamRequest, wsgi_environ
from web_panel.server.limits import Limits
from web_panel.server.parsing import _BadRequest, _parse_head, _Request, _simple_response

log = logging.getLogger("gametable.panel")

STREAM_PATH = "/api/stream"
REFUSED_STREAM = "too many open screens on this table; close one and retry"
SPECTATOR_SLICE = 100  # spectator streams written per turn of the event loop
WAITING, BUSY, STREAM = "waiting", "busy", "stream"


class PanelSide(Protocol):
    """What the loop needs of the running panel (web_panel/server/panel.py)."""

    app: Flask
    link: TableLink
    host_shown: str
    port: int
    absent_s: float

    def call_app(self, environ: dict[str, Any]) -> tuple[str, list[tuple[str, str]], bytes]: ...

    def _soon(self, fn: Callable[..., Any], *args: Any) -> None: ...




class _Conn(asyncio.Protocol):
    """One client socket: read a request, hand it to the app, write the answer; or become a stream."""

    def __init__(self, server: _Loop) -> None:
        self.server = server
        self.transport: asyncio.Transport | None = None
        self.addr, self.port = "?", 0
        self.buf = bytearray()
        self.state = WAITING
        self.timer: asyncio.TimerHandle | None = None
        self.request: _Request | None = None
        self.head_len = -1
        self.seat: int | None = None
        self.host = False
        self.privileged = False
        self.discarded = 0
        self.closed = False
        self.peer_done = False  # the client half-closed after its request: answer, then close
        self.joined_seq = 0  # a spectator stream: the frames broadcast before it started are in its snapshot

    # --- asyncio callbacks --------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername") or ("?", 0)
        self.addr, self.port = str(peer[0]), int(peer[1])
        sock = transport.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:
                pass
        self.server.opened(self)
        if not self.closed:
            self.arm(self.server.limits.head_timeout_s)

    def data_received(self, data: bytes) -> None:
        if self.state == STREAM:  # a stream's client has nothing to say; a flood is cut off
            self.discarded += len(data)
            if self.discarded > 64 * 1024:
                self.close()
            return
        self.buf += data
        if self.state == WAITING:
            self.parse()

    def eof_received(self) -> bool:
        if self.state == BUSY:  # the request is being answered: keep the socket open for the answer
            self.peer_done = True
            return True
        self.close()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.disarm()
        self.server.lost(self)

    # --- helpers ------------------------------------------------------------------------------
    def arm(self, seconds: float) -> None:
        self.disarm()
        self.timer = self.server.loop.call_later(seconds, self.timed_out)

    def disarm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def timed_out(self) -> None:
        self.timer = None
        if self.state == WAITING:
            if self.buf:  # a head that never finished (slowloris): say so, then close
                self.write(_simple_response(408, "the request took too long to arrive"))
            self.close()

    def write(self, data: bytes) -> None:
        if self.transport is not None and not self.closed:
            self.transport.write(data)

    def close(self) -> None:
        if self.transport is not None and not self.closed:
            self.closed = True
            self.disarm()
            self.transport.close()
            self.server.lost(self)

    def abort(self) -> None:
        if self.transport is not None:
            self.closed = True
            self.disarm()
            self.transport.abort()
            self.server.lost(self)

    def refuse(self, status: int, message: str) -> None:
        self.write(_simple_response(status, message))
        self.close()

    # --- reading a request --------------------------------------------------------------------
    def parse(self) -> None:  # noqa: C901 - one pass over the request head: each branch is one HTTP refusal
        limits = self.server.limits
        if self.request is None:
            while self.buf[:2] == b"\r\n":  # stray line ends between requests are allowed
                del self.buf[:2]
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                if len(self.buf) > limits.max_head_bytes:
                    self.refuse(431, "the request head is too large")
                return
            if end > limits.max_head_bytes:
                self.refuse(431, "the request head is too large")
                return
            try:
                self.request = _parse_head(bytes(self.buf[:end]))
            except _BadRequest as exc:
                self.refuse(exc.status, str(exc))
                return
            del self.buf[:end + 4]
            req = self.request
            if req.header("transfer-encoding") is not None:  # the app answers 411; the body is never read
                req.close_after = True
                self.head_len = 0
            else:
                raw = req.header("content-length")
                try:
                    length = int(raw) if raw is not None else 0
                    if length < 0 or (raw is not None and not raw.isdigit()):
                        raise ValueError
                except ValueError:
                    self.refuse(400, "bad Content-Length")
                    return
                req.declared = length
                if length > limits.max_body_bytes:  # the app answers 413 from the header alone
                    req.close_after = True
                    length = 0
                elif length and (req.header("expect") or "").lower() == "100-continue":
                    self.write(b"HTTP/1.1 100 Continue\r\n\r\n")
                self.head_len = length
        req = self.request
        if len(self.buf) < self.head_len:
            return
        req.body = bytes(self.buf[:self.head_len])
        del self.buf[:self.head_len]
        self.request, self.head_len = None, -1
        self.disarm()
        self.state = BUSY
        assert self.transport is not None
        self.transport.pause_reading()
        self.server.dispatch(self, req)

    def next_request(self) -> None:
        """After an answer on a kept-alive connection: wait for the next request (maybe buffered)."""
        self.state = WAITING
        self.server.waiting(self)
        if self.closed:
            return
        assert self.transport is not None
        self.transport.resume_reading()
        self.arm(self.server.limits.idle_timeout_s if not self.buf else self.server.limits.head_timeout_s)
        if self.buf:
            self.parse()



class _Loop:
    """The event loop's side: bookkeeping of connections and streams (loop thread only)."""

    def __init__(self, panel: PanelSide, limits: Limits, keepalive_s: float) -> None:
        self.panel = panel
        self.limits = limits
        self.keepalive_s = keepalive_s
        self.loop = asyncio.new_event_loop()
        self.conns: set[_Conn] = set()
        self.waiting_conns: OrderedDict[_Conn, None] = OrderedDict()  # oldest first
        self.waiting_by_addr: dict[str, OrderedDict[_Conn, None]] = {}
        self.busy_by_addr: dict[str, int] = {}
        self.streams: set[_Conn] = set()
        self.spectator_streams: set[_Conn] = set()
        self.spectators_by_addr: dict[str, int] = {}
        self.spectators = 0
        self.by_seat: dict[int, list[_Conn]] = {}
        self.hosts: list[_Conn] = []
        self.public = concurrent.futures.ThreadPoolExecutor(limits.workers, "gametable-panel")
        self.reserved = concurrent.futures.ThreadPoolExecutor(limits.reserved_workers, "gametable-panel-seat")
        self.frame_seq = 0  # frames broadcast so far; spectators get theirs from a backlog, in slices
        self.spectator_backlog: deque[tuple[int, bytes]] = deque()
        self.spectator_round: tuple[list[tuple[int, bytes]], bytes, list[_Conn]] | None = None
        self.budget = RequestBudget(limits.public_rate, limits.public_burst, self.loop.time())
        self.parked: deque[tuple[_Conn, _Request, StreamRequest | None]] = deque()  # strangers' requests waiting
        self.unpark_timer: asyncio.TimerHandle | None = None
        self.stream_count = 0  # read from other threads (Hub.__len__)
        self.gone_since: dict[int, float] = {}  # seat -> when its last stream closed (loop time)
        self.told_absent: list[int] = []
        self.refused = 0       # connections and requests refused or cut off (for tests and the soak)

    # --- admission ----------------------------------------------------------------------------
    @staticmethod
    def local(addr: str) -> bool:
        return addr in LOCAL_ADDRESSES

    def opened(self, conn: _Conn) -> None:
        self.conns.add(conn)
        if len(self.conns) > self.limits.max_connections and not self._evict_waiting(None):
            self.refused += 1
            conn.abort()
            return
        self.waiting(conn)

    def waiting(self, conn: _Conn) -> None:
        """``conn`` waits for a request: it may be closed to make room for a newer one."""
        self.waiting_conns[conn] = None
        mine = self.waiting_by_addr.setdefault(conn.addr, OrderedDict())
        mine[conn] = None
        if not self.local(conn.addr) and len(mine) > self.limits.client_waiting:
            self._evict_waiting(conn.addr)
        if len(self.waiting_conns) > self.limits.max_waiting:
            self._evict_waiting(None)

    def _evict_waiting(self, addr: str | None) -> bool:
        """Close the oldest waiting connection (of ``addr``, or of anyone); False if none."""
        pool = self.waiting_conns if addr is None else self.waiting_by_addr.get(addr)
        if not pool:
            return False
        victim = next(iter(pool))
        self.refused += 1
        victim.abort()
        return True

    def _unwait(self, conn: _Conn) -> None:
        self.waiting_conns.pop(conn, None)
        mine = self.waiting_by_addr.get(conn.addr)
        if mine is not None:
            mine.pop(conn, None)
            if not mine:
                del self.waiting_by_addr[conn.addr]

    def lost(self, conn: _Conn) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        self._unwait(conn)
        if conn.state == BUSY:
            conn.state = "gone"
            self._done_busy(conn)
        if conn in self.streams:
            self.streams.discard(conn)
            self.stream_count = len(self.streams)
            if conn.seat is not None:
                mine = self.by_seat.get(conn.seat, [])
                if conn in mine:
                    mine.remove(conn)
                if not mine:  # the seat's last stream: its phone is gone from now (tell_absent)
                    self.gone_since.setdefault(conn.seat, self.loop.time())
            if conn in self.hosts:
                self.hosts.remove(conn)
            if conn.seat is None and not conn.host:
                self.spectator_streams.discard(conn)
                self.spectators -= 1
                n = self.spectators_by_addr.get(conn.addr, 1) - 1
                if n:
                    self.spectators_by_addr[conn.addr] = n
                else:
                    self.spectators_by_addr.pop(conn.addr, None)

    def _done_busy(self, conn: _Conn) -> None:
        n = self.busy_by_addr.get(conn.addr, 1) - 1
        if n:
            self.busy_by_addr[conn.addr] = n
        else:
            self.busy_by_addr.pop(conn.addr, None)

    def who(self, req: _Request) -> tuple[int | None, bool]:
        """(seat, host) from the request's cookies: decides the worker pool and the stream caps."""
        raw = req.header("cookie")
        if not raw:
            return None, False
        cookies = Request({"HTTP_COOKIE": raw}).cookies  # parsed as the app will parse them
        ext = self.panel.app.extensions["gametable"]
        return ext["seats"].seat_of(cookies.get(SEAT_COOKIE)), ext["hosts"].valid(cookies.get(HOST_COOKIE))

    # --- requests -----------------------------------------------------------------------------
    def dispatch(self, conn: _Conn, req: _Request) -> None:
        self._unwait(conn)
        conn.seat, conn.host = self.who(req)
        conn.privileged = conn.seat is not None or conn.host
        local = self.local(conn.addr)
        if not local and self.busy_by_addr.get(conn.addr, 0) >= self.limits.client_busy:
            self.refused += 1
            conn.state = "gone"
            conn.refuse(503, "too many requests at once from this address")
            return
        path = req.target.split("?", 1)[0]
        stream: StreamRequest | None = None
        if path == STREAM_PATH and req.method in ("GET", "HEAD"):  # (HEAD: headers only, never a stream)
            if not conn.privileged and (
                    self.spectators >= self.limits.spectator_streams
                    or (not local and self.spectators_by_addr.get(conn.addr, 0) >= self.limits.client_streams)):
                self.refused += 1
                conn.state = "gone"
                conn.write(_simple_response(503, REFUSED_STREAM, extra="Retry-After: 2\r\n"))
                conn.close()
                return
            stream = StreamRequest()
        self.busy_by_addr[conn.addr] = self.busy_by_addr.get(conn.addr, 0) + 1
        if not conn.privileged and not local and (self.parked or not self.budget.take(self.loop.time())):
            self.parked.append((conn, req, stream))  # its turn comes (web_panel/budget.py); it costs nothing meanwhile
            self._arm_unpark()
            return
        self.run_app(conn, req, stream)

    def _arm_unpark(self) -> None:
        if self.unpark_timer is None and self.parked:
            self.unpark_timer = self.loop.call_later(self.budget.wait_s(self.loop.time()), self._unpark)

    def _unpark(self) -> None:
        self.unpark_timer = None
        while self.parked:
            conn, req, stream = self.parked[0]
            if conn.closed or conn.state != BUSY:  # gone meanwhile (lost() did the bookkeeping)
                self.parked.popleft()
                continue
            if not self.budget.take(self.loop.time()):
                break
            self.parked.popleft()
            self.run_app(conn, req, stream)
        self._arm_unpark()

    def run_app(self, conn: _Conn, req: _Request, stream: StreamRequest | None) -> None:
        """Hand the request to a worker thread (a reserved one for seated phones and the host)."""
        pool = self.reserved if conn.privileged else self.public
        environ = wsgi_environ(req, stream, conn.addr, conn.port, self.panel.host_shown, self.panel.port)
        try:
            future = pool.submit(self.panel.call_app, environ)
        except RuntimeError:  # shutting down
            conn.close()
            return
        future.add_done_callback(lambda f: self.panel._soon(self.answer, conn, req, stream, f))

    def answer(self, conn: _Conn, req: _Request, stream: StreamRequest | None,
               future: concurrent.futures.Future) -> None:
        """The app's answer is ready (loop thread): write it, or turn the connection into a stream."""
        if conn.state == BUSY:
            self._done_busy(conn)
        if conn.closed or conn.state != BUSY:
            return
        try:
            status, headers, body = future.result()
        except Exception:
            log.exception("panel request %s %s failed", req.method, req.target)
            conn.refuse(500, "internal error")
            return
        if stream is not None and stream.snapshot is not None and status.startswith("200") and req.method == "GET":
            self.start_stream(conn, status, headers, stream)
            return
        keep = req.keep_alive() and not req.close_after and not conn.peer_done
        head = [f"HTTP/1.1 {status}"]
        for k, v in headers:
            if k.lower() not in ("connection", "content-length", "transfer-encoding"):
                head.append(f"{k}: {v}")
        head.append(f"Content-Length: {len(body)}")
        head.append("Connection: " + ("keep-alive" if keep else "close"))
        conn.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + (b"" if req.method == "HEAD" else body))
        if keep:
            conn.next_request()
        else:
            conn.close()

    # --- streams ------------------------------------------------------------------------------
    def start_stream(self, conn: _Conn, status: str, headers: list[tuple[str, str]], stream: StreamRequest) -> None:
        conn.seat, conn.host = stream.seat, stream.host
        if conn.seat is None and not conn.host:  # the caps, checked again now that it is certain
            if self.spectators >= self.limits.spectator_streams or (
                    not self.local(conn.addr)
                    and self.spectators_by_addr.get(conn.addr, 0) >= self.limits.client_streams):
                self.refused += 1
                conn.write(_simple_response(503, REFUSED_STREAM, extra="Retry-After: 2\r\n"))
                conn.close()
                return
        head = [f"HTTP/1.1 {status}"]
        for k, v in headers:
            if k.lower() not in ("connection", "content-length", "transfer-encoding"):
                head.append(f"{k}: {v}")
        head.append("Connection: close")  # the body runs until either side closes
        assert stream.snapshot is not None
        try:
            snapshot = stream.snapshot()
        except Exception:
            log.exception("panel stream snapshot failed")
            conn.refuse(500, "internal error")
            return
        conn.state = STREAM
        assert conn.transport is not None
        conn.transport.resume_reading()  # to notice a client that goes away
        conn.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + b"retry: 1500\n\n" + b"".join(snapshot))
        self.streams.add(conn)
        self.stream_count = len(self.streams)
        if conn.seat is not None:
            mine = self.by_seat.setdefault(conn.seat, [])
            mine.append(conn)
            if self.gone_since.pop(conn.seat, None) is not None and conn.seat in self.told_absent:
                self.tell_absent()  # the phone is back
            while len(mine) > self.limits.seat_streams:
                mine[0].close()
        if conn.host:  # (a seated host's phone too: it gets the host-only frames)
            self.hosts.append(conn)
            while len(self.hosts) > self.limits.host_streams:
                self.hosts[0].close()
        if conn.seat is None and not conn.host:
            conn.joined_seq = self.frame_seq  # its snapshot holds every frame broadcast until now
            self.spectator_streams.add(conn)
            self.spectators += 1
            self.spectators_by_addr[conn.addr] = self.spectators_by_addr.get(conn.addr, 0) + 1

    def broadcast(self, frame: bytes, seat: int | None) -> None:
        """The one writer: the same bytes to every stream (or to one seat's, or the host's, streams).

        Seated phones and the host get a frame at once; spectators get it in slices of
        ``SPECTATOR_SLICE`` between other work, so 2,000 of them never hold up the next frame of
        a seated phone (``make bench``: ``seated_p95_ratio_with_2000_spectators``)."""
        if seat is None:
            self._write([c for mine in self.by_seat.values() for c in mine], frame)
            self._write([c for c in self.hosts if c.seat is None], frame)
            self.frame_seq += 1
            self.spectator_backlog.append((self.frame_seq, frame))
            if self.spectator_round is None and len(self.spectator_backlog) == 1:
                self.loop.call_soon(self._flush_spectators)
            return
        self._write(list(self.hosts if seat == HOST_ONLY else self.by_seat.get(seat, ())), frame)

    def _flush_spectators(self) -> None:
        """One slice of spectators gets every frame waiting for them in one write; then the loop
        does other work and comes back for the next slice. Frames that arrive meanwhile wait for
        the next round (so each stream gets them in order)."""
        if self.spectator_round is None:
            frames, self.spectator_backlog = list(self.spectator_backlog), deque()
            self.spectator_round = (frames, b"".join(f for _, f in frames), list(self.spectator_streams))
        frames, joined, targets = self.spectator_round
        first = frames[0][0]
        write = self._write_one
        for conn in targets[:SPECTATOR_SLICE]:
            if conn.joined_seq < first:
                write(conn, joined)
            else:  # started during the round: its snapshot already had the older frames
                write(conn, b"".join(f for seq, f in frames if seq > conn.joined_seq))
        rest = targets[SPECTATOR_SLICE:]
        self.spectator_round = (frames, joined, rest) if rest else None
        if rest or self.spectator_backlog:
            self.loop.call_soon(self._flush_spectators)

    def _write(self, targets: list[_Conn], frame: bytes) -> None:
        for conn in targets:
            self._write_one(conn, frame)

    def _write_one(self, conn: _Conn, frame: bytes) -> None:
        transport = conn.transport
        if conn.closed or transport is None or transport.is_closing() or not frame:  # (lost, not yet told)
            return
        transport.write(frame)
        if transport.get_write_buffer_size() > self.limits.stream_buffer_bytes:  # a phone that stopped reading
            conn.abort()

    def keepalive(self) -> None:
        self.broadcast(b": keepalive\n\n", None)
        self.tell_absent()
        self.loop.call_later(self.keepalive_s, self.keepalive)

    def tell_absent(self) -> None:
        """Seats whose phone has had no stream open for ``absent_s`` (docs/phones.md): told to every
        stream (the host's page offers to free the seat) on each change and with each keepalive."""
        now = self.loop.time()
        seats = sorted(s for s, since in self.gone_since.items() if now - since >= self.panel.absent_s)
        if seats or self.told_absent:
            self.panel.link.hub.publish("absent", {"seats": seats})
        self.told_absent = seats

    def close_seat(self, seat: int) -> None:
        for conn in list(self.by_seat.get(seat, ())):
            conn.close()

    def close_streams(self) -> None:
        for conn in list(self.streams):
            conn.close()

