"""Doubled request headers and the host-only ``journal`` event, against
the real served panel, daemon and Mosquitto."""

from __future__ import annotations

import socket

import pytest

from gametable.testing.recorder import Recorder
from tests.security.conftest import commands, host_of, seated, start_game
from tests.security.lan import Phone, lan, statuses

pytestmark = pytest.mark.mqtt

JOURNAL_WARNING = {"warning": "1 torn journal record dropped at start", "dropped": [7]}


def _send(stack, raw: bytes) -> list[int | None]:
    s = socket.create_connection(("127.0.0.1", stack.panel.port), timeout=5, source_address=(lan(0), 0))
    try:
        s.sendall(raw)
        return statuses([s])
    finally:
        s.close()


def test_a_second_content_length_is_a_400_and_its_body_is_never_applied(stack, wire):
    host = host_of(stack)
    start_game(stack, host)
    ann = seated(stack, 1)
    body = b'{"id":"smuggled-end-turn","type":"end_turn","confirm":true}'
    start = len(wire.messages)
    cookies = "; ".join(f"{k}={v}" for k, v in ann.cookies.items())
    raw = (f"POST /api/cmd HTTP/1.1\r\nHost: 127.0.0.1:{stack.panel.port}\r\nContent-Type: application/json\r\n"
           f"X-CSRF-Token: {ann.cookies['gt_csrf']}\r\nCookie: {cookies}\r\n"
           f"Content-Length: {len(body)}\r\nContent-Length: 0\r\n\r\n").encode() + body
    s = socket.create_connection(("127.0.0.1", stack.panel.port), timeout=5, source_address=(ann.address, 0))
    try:
        s.sendall(raw)
        data = b""
        while chunk := s.recv(65536):  # answered, then closed
            data += chunk
    finally:
        s.close()
    assert data.startswith(b"HTTP/1.1 400 ") and b"more than one Content-Length header" in data
    assert commands(wire, start) == []
    assert ann.post("/api/cmd", {"id": "after-smuggling", "type": "end_turn", "confirm": True}) == (200, {"ok": True})


@pytest.mark.parametrize("doubled", [
    "Host: 127.0.0.1\r\nHost: evil.example\r\n",
    "Host: 127.0.0.1\r\nhost: 127.0.0.1\r\n",
    "Host: 127.0.0.1\r\nContent-Length: 0\r\ncontent-length: 0\r\n",
])
def test_a_doubled_host_or_content_length_header_is_a_400(stack, doubled):
    assert _send(stack, f"GET /api/info HTTP/1.1\r\n{doubled}\r\n".encode()) == [400]
    assert Phone(stack.panel.port, lan(0)).get("/api/info")[0] == 200  # the panel serves on


def test_a_strangers_stream_never_receives_the_host_only_journal_event(stack, broker):
    host = host_of(stack)
    host_stream = host.stream()
    stranger = Phone(stack.panel.port, lan(5))
    early = stranger.stream()
    assert [e for e, _ in early.events_until("history")].count("journal") == 0  # not in its snapshot
    mqtt = Recorder(broker.host, broker.port, "gametable/t1/sensors/#")
    try:
        mqtt.publish("gametable/t1/sensors/journal", JOURNAL_WARNING)
        assert host_stream.wait_for("journal") is None  # its snapshot: no warning yet
        assert host_stream.wait_for("journal") == JOURNAL_WARNING
        # A later public frame: every stream receives it after the journal's, had it been sent.
        mqtt.publish("gametable/t1/sensors/table", {"coins": {}, "moving": False})
        assert "journal" not in [e for e, _ in early.events_until("table")]
        stack.wait(lambda: stack.panel.link.journal, what="the panel's copy of the warning")
        late = stranger.stream()  # a stream opened now: its snapshot has no journal either
        assert "journal" not in [e for e, _ in late.events_until("history")]
        seat = seated(stack, 2, lan(6))
        seat_stream = seat.stream()
        assert "journal" not in [e for e, _ in seat_stream.events_until("private")]
        again = host.stream()  # the host's snapshot keeps it
        assert dict(again.events_until("journal"))["journal"] == JOURNAL_WARNING
        for s in (late, seat_stream, again):
            s.close()
    finally:
        mqtt.close()
        early.close()
        host_stream.close()
