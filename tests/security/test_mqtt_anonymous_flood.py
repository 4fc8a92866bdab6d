"""Anonymous MQTT clients flooding publishes the ACL denies slowed every
move 12x. The shipped Mosquitto config (hardware_docs/mosquitto) now refuses anonymous clients at
CONNECT, so such a flood is never read into a session, and bounds what any one client may hold.
On a real Mosquitto set up exactly as shipped, with the real daemon."""

from __future__ import annotations

import socket
import struct
import uuid

import pytest

from controller.command_client import CommandClient
from gametable.testing.panel import NEW_GAME
from tests.security.mqtt_rig import TABLE

pytestmark = pytest.mark.mqtt
NOT_AUTHORIZED = 5  # MQTT 3.1.1 CONNACK return code


def _packet(kind: int, body: bytes) -> bytes:
    length, encoded = len(body), b""
    while True:  # MQTT's variable-length "remaining length"
        byte, length = length % 128, length // 128
        encoded += bytes([byte | (0x80 if length else 0)])
        if not length:
            return bytes([kind]) + encoded + body


def _string(text: str) -> bytes:
    return struct.pack("!H", len(text)) + text.encode()


def _connect(client_id: str, user: tuple[str, str] | None = None) -> bytes:
    flags = 0x02 | (0xC0 if user else 0)  # clean session (+ user name and password)
    payload = _string(client_id) + (_string(user[0]) + _string(user[1]) if user else b"")
    return _packet(0x10, _string("MQTT") + bytes([4, flags]) + struct.pack("!H", 30) + payload)


def _publish(topic: str, payload: bytes) -> bytes:
    return _packet(0x30, _string(topic) + payload)  # QoS 0: no answer, the broker just reads it


def _flood(host: str, port: int, n: int) -> tuple[bytes, bool]:
    """One anonymous connection: CONNECT and ``n`` denied publishes in one burst. Returns the
    broker's answer and whether it closed the socket right after it."""
    sock = socket.create_connection((host, port), timeout=5)
    try:
        burst = _connect(f"flood-{uuid.uuid4().hex[:8]}") + b"".join(
            _publish(f"gametable/{TABLE}/cmd", b'{"type":"abort","id":"flood-%d"}' % i) for i in range(n))
        try:
            sock.sendall(burst)
        except (BrokenPipeError, ConnectionResetError):
            pass  # already cut off
        answer = b""
        try:
            while chunk := sock.recv(4096):
                answer += chunk
            closed = True
        except ConnectionResetError:
            closed = True
        except TimeoutError:
            closed = False
        return answer, closed
    finally:
        sock.close()


def test_an_anonymous_flood_is_refused_at_connect_and_never_read(table):
    panel = CommandClient(table.broker.host, table.broker.port, TABLE, **table.creds("panel"))
    try:
        assert panel.wait_ready(10)
        assert panel.send({**NEW_GAME, "id": f"g-{uuid.uuid4().hex}"}, timeout=10)["ok"]
        for _ in range(20):  # twenty strangers, each 2,000 denied publishes behind its CONNECT
            answer, closed = _flood(table.broker.host, table.broker.port, 2000)
            assert answer == bytes([0x20, 2, 0, NOT_AUTHORIZED]) and closed  # CONNACK "not authorized", cut off
            result = panel.send({"type": "end_turn", "seat": 1, "id": f"e-{uuid.uuid4().hex}"}, retry_s=5, timeout=5)
            assert result["ok"] or "turn" in str(result.get("error"))  # the table answers at once
        assert table.daemon.public_state()["phase"] == "playing"  # no flood-N abort was ever applied
    finally:
        panel.close()


def test_a_viewer_logs_in_and_the_broker_bounds_how_many_clients_it_holds(table):
    viewer = ("viewer", table.broker.users["viewer"])
    sockets = []
    try:
        accepted = refused = 0
        for i in range(80):  # max_connections 64 in the shipped config
            sock = socket.create_connection((table.broker.host, table.broker.port), timeout=5)
            sockets.append(sock)
            sock.sendall(_connect(f"viewer-{i}-{uuid.uuid4().hex[:6]}", viewer))
            try:
                answer = sock.recv(4)
            except (ConnectionResetError, TimeoutError):
                answer = b""
            if answer == bytes([0x20, 2, 0, 0]):
                accepted += 1
            else:
                refused += 1
        assert 60 <= accepted <= 64 and refused == 80 - accepted  # (the daemon's own socket may count)
    finally:
        for sock in sockets:
            sock.close()
