"""Deep JSON, DNS rebinding, malformed requests, against the real panel."""

from __future__ import annotations

import json
import socket

import pytest

from tests.security.conftest import commands, host_of, seated, start_game
from tests.security.lan import Phone, lan, statuses
from web_panel.app import lan_address

pytestmark = pytest.mark.mqtt


def test_3000_deep_json_is_a_400_and_publishes_nothing(stack, wire):
    host = host_of(stack)
    start_game(stack, host)
    ann = seated(stack, 1)
    start = len(wire.messages)
    deep = b'{"id":"deep-json-0001","type":"end_turn","x":' + b"[" * 3000 + b"]" * 3000 + b"}"
    status, body = ann.post("/api/cmd", None, raw=deep)
    assert (status, body["error"]) == (400, "the request body is nested too deeply")
    assert commands(wire, start) == []
    assert ann.post("/api/cmd", {"id": "after-deep-json", "type": "end_turn", "confirm": True}) == (200, {"ok": True})


def test_a_rebound_host_name_reaches_nothing(stack, wire):
    """DNS rebinding: a page on evil.example whose name now points at the table."""
    evil = Phone(stack.panel.port, lan(0), host_header=f"evil.example:{stack.panel.port}")
    for path in ("/api/info", "/api/stream", "/qr.svg", "/"):
        status, body = evil.get(path)
        assert status == 421 and b"unknown host name 'evil.example:" in body
    evil.cookies["gt_csrf"] = "x" * 32
    status, body = evil.post("/api/seat/claim", {"id": "rebind-claim-1", "seat": 1})
    assert status == 421
    assert json.loads(Phone(stack.panel.port, lan(1)).get("/api/info")[1])["taken"] == []
    assert commands(wire) == []


def test_join_url_names_the_table_never_a_foreign_host(stack):
    port = stack.panel.port
    info = json.loads(Phone(port, lan(0), host_header=f"localhost:{port}").get("/api/info")[1])
    assert info["join_url"] == f"http://{lan_address() or 'localhost'}:{port}/join"
    ours = lan_address()
    if ours:  # the table's own LAN address is accepted and reflected
        info = json.loads(Phone(port, lan(0), host_header=f"{ours}:{port}").get("/api/info")[1])
        assert info["join_url"] == f"http://{ours}:{port}/join"
    p = Phone(port, lan(0))
    p.host_header = f"203.0.113.9:{port}"  # an address that is not this machine's
    assert p.get("/api/info")[0] == 421


@pytest.mark.parametrize("raw, status", [
    (b"GARBAGE\r\n\r\n", 400),
    (b"GET / HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n", 505),
    (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + b"a" * 20_000 + b"\r\n\r\n", 431),
    (b"GET / HTTP/1.1\r\nHost : 127.0.0.1\r\n\r\n", 400),
    (b"POST /api/cmd HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -5\r\n\r\n", 400),
    (b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: 1\nHost: evil.example\r\n\r\n", 400),
    (b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: gt_seat=\x00x\r\n\r\n", 400),
])
def test_malformed_requests_get_a_clear_status_and_are_closed(stack, raw, status):
    s = socket.create_connection(("127.0.0.1", stack.panel.port), timeout=5, source_address=(lan(0), 0))
    try:
        s.sendall(raw)
        assert statuses([s]) == [status]
    finally:
        s.close()
    assert Phone(stack.panel.port, lan(0)).get("/api/info")[0] == 200


def test_head_of_the_stream_answers_and_holds_nothing(stack):
    """A HEAD on /api/stream must not turn into a stream that holds a worker thread for ever."""
    for _ in range(40):  # one after another, more than the panel's worker threads (24)
        s = socket.create_connection(("127.0.0.1", stack.panel.port), timeout=5, source_address=(lan(0), 0))
        try:
            s.sendall(f"HEAD /api/stream HTTP/1.1\r\nHost: 127.0.0.1:{stack.panel.port}\r\n\r\n".encode())
            assert statuses([s]) == [200]
        finally:
            s.close()
    assert len(stack.panel.link.hub) == 0
    assert Phone(stack.panel.port, lan(1)).get("/api/info")[0] == 200


def test_a_client_that_half_closes_after_its_request_still_gets_the_answer(stack):
    s = socket.create_connection(("127.0.0.1", stack.panel.port), timeout=5, source_address=(lan(0), 0))
    try:
        s.sendall(f"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:{stack.panel.port}\r\n\r\n".encode())
        s.shutdown(socket.SHUT_WR)
        data = b""
        while chunk := s.recv(65536):  # the panel answers, then closes
            data += chunk
    finally:
        s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200") and json.loads(body)["table"] == "t1"
