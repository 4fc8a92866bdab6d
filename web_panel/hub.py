"""Fan-out of live updates to Server-Sent-Events clients.

Two kinds of stream. Under the panel's own server (:mod:`web_panel.server`) one *sink* (its event
loop) holds every stream and writes each frame to all of its sockets itself: one writer, no thread
per phone. Under any other WSGI server (or Flask's test client) each stream owns a bounded queue
read by its worker thread. Either way the MQTT thread never blocks on a slow phone (a stuck
client is dropped; its EventSource reconnects and resyncs from the snapshot it gets on connect).
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

KEEPALIVE_S = 15.0
QUEUE_SIZE = 256
HOST_ONLY = 0  # as the ``seat`` of a frame: for the host's streams only (no seat is numbered 0)


def sse_frame(event: str, data: Any) -> bytes:
    """One SSE message; JSON never contains a raw newline, so one ``data:`` line suffices."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'), ensure_ascii=False)}\n\n".encode()


@dataclass(eq=False)
class Subscriber:
    """One open stream: which seat's private view it may receive (None: public only)."""

    seat: int | None
    host: bool = False
    queue: queue.Queue = field(default_factory=lambda: queue.Queue(QUEUE_SIZE))
    closed: bool = False


class Sink(Protocol):
    """A server that writes frames to its own streams (thread-safe methods, called from any thread)."""

    def deliver(self, frame: bytes, seat: int | None) -> None: ...
    def close_seat(self, seat: int) -> None: ...
    def close_all(self) -> None: ...
    def __len__(self) -> int: ...


class Hub:
    """Thread-safe registry of open streams, with a cap so threads stay for ordinary requests."""

    def __init__(self, max_clients: int = 200) -> None:
        self.max_clients = max_clients
        self._subs: set[Subscriber] = set()
        self._sinks: list[Sink] = []
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._subs) + sum(len(s) for s in self._sinks)

    def __bool__(self) -> bool:  # a Hub is always "there", however many streams it has
        return True

    def attach_sink(self, sink: Sink) -> None:
        with self._lock:
            self._sinks.append(sink)

    def detach_sink(self, sink: Sink) -> None:
        with self._lock:
            if sink in self._sinks:
                self._sinks.remove(sink)

    def add(self, seat: int | None, host: bool = False) -> Subscriber | None:
        with self._lock:
            if len(self._subs) >= self.max_clients:
                return None
            sub = Subscriber(seat, host)
            self._subs.add(sub)
            return sub

    def remove(self, sub: Subscriber) -> None:
        with self._lock:
            self._subs.discard(sub)
        sub.closed = True
        try:
            sub.queue.put_nowait(b"")  # wake its stream so the worker thread is freed now
        except queue.Full:
            pass

    def close_seat(self, seat: int) -> None:
        """A seat changed hands: end its open streams so the old phone gets no more private views."""
        with self._lock:
            subs = [s for s in self._subs if s.seat == seat]
            sinks = list(self._sinks)
        for sub in subs:
            self.remove(sub)
        for sink in sinks:
            sink.close_seat(seat)

    def close_all(self) -> None:
        with self._lock:
            subs = list(self._subs)
            sinks = list(self._sinks)
        for sub in subs:
            self.remove(sub)
        for sink in sinks:
            sink.close_all()

    def publish(self, event: str, data: Any, seat: int | None = None) -> None:
        """Send to every stream, or only to the streams of ``seat`` (private views), or with
        ``seat=HOST_ONLY`` only to the host's streams (what only the host may read)."""
        frame = sse_frame(event, data)
        with self._lock:
            targets = [s for s in self._subs
                       if seat is None or (s.host if seat == HOST_ONLY else s.seat == seat)]
            sinks = list(self._sinks)
        for sink in sinks:  # one hand-over per frame, however many phones the sink serves
            sink.deliver(frame, seat)
        for sub in targets:
            try:
                sub.queue.put_nowait(frame)
            except queue.Full:  # a stuck client: drop it; it reconnects and resyncs
                self.remove(sub)

    def stream(self, sub: Subscriber, snapshot: list[bytes], keepalive_s: float = KEEPALIVE_S) -> Iterator[bytes]:
        """The response body: a retry hint, the snapshot, then live frames and keepalives."""
        try:
            yield b"retry: 1500\n\n" + b"".join(snapshot)
            while not sub.closed:
                try:
                    frame = sub.queue.get(timeout=keepalive_s)
                except queue.Empty:
                    yield b": keepalive\n\n"
                    continue
                if sub.closed:
                    break
                # One write for everything queued meanwhile (state + log + private arrive together):
                # fewer thread switches and socket writes when 100 streams wake at once.
                frames = [frame]
                while len(frames) < 64:
                    try:
                        frames.append(sub.queue.get_nowait())
                    except queue.Empty:
                        break
                yield b"".join(frames)
        finally:
            self.remove(sub)
