"""Slowloris, stream floods and 500 streams never cut a seated phone or the host off.

Real sockets from distinct loopback addresses against the real served panel, daemon and Mosquitto.
Each attack is bounded in sockets and time.
"""

from __future__ import annotations

import pytest

from tests.security.conftest import host_of, seated, start_game
from tests.security.lan import OPEN, Phone, close_all, lan, open_streams, slowloris, statuses
from web_panel.server import REFUSED_STREAM

pytestmark = pytest.mark.mqtt


def _seated_phone_still_plays(stack, phone: Phone, n: int) -> None:
    """The phone's stream gets its private view and the state after its command; the command works."""
    stream = phone.stream()
    try:
        assert stream.status == 200
        assert stream.wait_for("private")["seat"] == 1
        assert phone.post("/api/cmd", {"id": f"ann-end-turn-{n}", "type": "end_turn", "confirm": True}) == \
            (200, {"ok": True})
        assert stream.wait_for("state")["turn"]["seat"] == 2
    finally:
        stream.close()


def test_slowloris_is_cut_and_a_seated_phone_keeps_playing(stack):
    host = host_of(stack)
    start_game(stack, host)
    ann = seated(stack, 1)
    socks = slowloris(stack.panel.port, [lan(i) for i in range(12)], 40)  # 480 half-open requests
    try:
        _seated_phone_still_plays(stack, ann, 1)
        assert Phone(stack.panel.port, lan(5, net=9)).get("/api/info")[0] == 200  # a new phone gets in
        # Each half-open socket was closed to make room, or told 408 at the head deadline (1 s here).
        got = statuses(socks, timeout=5)
        assert OPEN not in got and set(got) <= {408, None}
        assert got.count(None) >= 480 - 12 * 16  # at most 16 waiting sockets per address were kept
    finally:
        close_all(socks)


def test_a_stream_flood_from_one_client_gets_503_and_phones_keep_their_streams(stack):
    host = host_of(stack)
    start_game(stack, host)
    ann = seated(stack, 1)
    socks = open_streams(stack.panel.port, [lan(0)], 120)
    try:
        got = statuses(socks)
        # 8 spectator streams per address; the rest told 503, or closed while waiting (16 per address)
        assert got.count(200) == 8 and set(got) <= {200, 503, None}
        spectator = Phone(stack.panel.port, lan(6, net=9)).stream()
        assert spectator.status == 200 and spectator.wait_for("state")["game"] == "coinwar"
        spectator.close()
        _seated_phone_still_plays(stack, ann, 2)
    finally:
        close_all(socks)


def test_500_streams_leave_ordinary_requests_and_commands_working(stack):
    host = host_of(stack)
    start_game(stack, host)
    ann = seated(stack, 1)
    socks = open_streams(stack.panel.port, [lan(i) for i in range(63)], 8)  # 504 streams
    try:
        assert statuses(socks).count(200) == 504
        stack.wait(lambda: len(stack.panel.link.hub) >= 504, what="504 streams")
        assert Phone(stack.panel.port, lan(7, net=9)).get("/api/info")[0] == 200
        _seated_phone_still_plays(stack, ann, 3)
        assert host.post("/api/host/cmd", {"id": "host-undo-under-load", "type": "undo"}) == (200, {"ok": True})
    finally:
        close_all(socks)


def test_seated_phones_and_the_host_are_admitted_when_spectator_slots_are_full(broker, tmp_path):
    from gametable.testing.table import start_stack
    from web_panel.server import Limits

    s = start_stack(broker, str(tmp_path / "j.sqlite"), limits=Limits(spectator_streams=40))
    try:
        host = host_of(s)
        start_game(s, host)
        ann = seated(s, 1)
        socks = open_streams(s.panel.port, [lan(i) for i in range(5)], 8)  # all 40 spectator slots
        try:
            assert statuses(socks).count(200) == 40
            stranger = Phone(s.panel.port, lan(8, net=9))
            status, body = stranger.get("/api/stream")
            assert status == 503 and REFUSED_STREAM in body.decode()
            host_stream = host.stream()
            assert host_stream.status == 200 and host_stream.wait_for("me")["host"] is True
            host_stream.close()
            _seated_phone_still_plays(s, ann, 4)
        finally:
            close_all(socks)
    finally:
        s.stop()


def test_a_stream_that_stops_reading_is_dropped(broker, tmp_path, wire):
    """A phone that never reads must not make the panel buffer without end; others still get frames."""
    import socket

    from gametable.testing.table import start_stack
    from web_panel.server import Limits

    s = start_stack(broker, str(tmp_path / "j.sqlite"), limits=Limits(stream_buffer_bytes=64 * 1024))
    stuck = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connect: a small window
    stuck.bind((lan(0), 0))
    stuck.connect(("127.0.0.1", s.panel.port))
    try:
        stuck.sendall(f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:{s.panel.port}\r\n\r\n".encode())
        reader = Phone(s.panel.port, lan(1)).stream()
        s.wait(lambda: len(s.panel.link.hub) == 2, what="two streams")
        for i in range(60):  # up to 3 MB the stuck client never reads
            wire.publish("gametable/t1/state", {"game": "coinwar", "phase": "lobby", "n": i, "pad": "x" * 50_000})
            reader.wait_for("state")
            if len(s.panel.link.hub) == 1:
                break
        s.wait(lambda: len(s.panel.link.hub) == 1, what="the stuck stream to be dropped")
        wire.publish("gametable/t1/state", {"game": "coinwar", "phase": "lobby", "n": "after"})
        while reader.wait_for("state")["n"] != "after":  # the reading phone is still served (bounded)
            pass
        reader.close()
    finally:
        stuck.close()
        s.stop()
