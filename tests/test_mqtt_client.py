"""The one MQTT client set-up (controller.mqtt_client) against a real Mosquitto: what the daemon,
the panel and the command client rely on it for (docs/architecture.md "MQTT")."""

from __future__ import annotations

import socket
import threading
import uuid

import pytest

from controller.mqtt_client import connect_in_background, mqtt_client
from gametable.testing.recorder import Recorder

pytestmark = pytest.mark.mqtt


def _connected(client) -> threading.Event:
    up = threading.Event()
    client.on_connect = lambda c, u, f, reason, p: up.set() if not reason.is_failure else None
    return up


def _id() -> str:
    return f"test-factory-{uuid.uuid4().hex[:8]}"


def test_every_packet_goes_out_at_once(broker):
    """TCP_NODELAY on the client's socket: a PUBACK and the cmd/result after it are not held
    back by Nagle's algorithm (the +40 ms a hop that controller.mqtt_client names)."""
    client = mqtt_client(_id(), v5=True, reconnect_s=(0.1, 2))
    up = _connected(client)
    connect_in_background(client, broker.host, broker.port, keepalive=10)
    try:
        assert up.wait(10)
        assert client.socket().getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        client.disconnect()
        client.loop_stop()


def test_a_dead_connection_sets_the_offline_will(broker):
    """The daemon's last will: its status goes ``offline`` (retained) when the link dies unannounced."""
    topic = f"gametable/{uuid.uuid4().hex[:6]}/status"
    client = mqtt_client(_id(), persistent=True, offline_will=topic, reconnect_s=(0.1, 2))
    up = _connected(client)
    connect_in_background(client, broker.host, broker.port, keepalive=10)
    assert up.wait(10)
    client.publish(topic, "online", qos=1, retain=True).wait_for_publish(5)
    client.loop_stop()  # no DISCONNECT packet: the broker sees the socket die
    client.socket().shutdown(socket.SHUT_RDWR)
    phone = Recorder(broker.host, broker.port, topic)
    try:
        assert phone.wait_for(topic, lambda m: m.payload == b"offline").retain
    finally:
        phone.close()


def test_a_persistent_session_keeps_what_was_sent_while_the_client_was_away(broker):
    """The daemon's queued commands: a QoS 1 message published while it was disconnected arrives
    when it is back, under the same client id."""
    cid, topic = _id(), f"gametable/{uuid.uuid4().hex[:6]}/cmd"
    got: list[bytes] = []
    arrived = threading.Event()

    def session():
        client = mqtt_client(cid, persistent=True, reconnect_s=(0.1, 2))
        up = _connected(client)
        client.on_message = lambda c, u, m: (got.append(bytes(m.payload)), arrived.set())
        connect_in_background(client, broker.host, broker.port, keepalive=10)
        assert up.wait(10)
        return client

    first = session()
    subscribed = threading.Event()
    first.on_subscribe = lambda *a: subscribed.set()
    first.subscribe(topic, qos=1)
    assert subscribed.wait(10)
    sender = Recorder(broker.host, broker.port, "nothing/here")
    try:
        sender.client.publish(topic, "warm-up", qos=1).wait_for_publish(5)
        assert arrived.wait(10) and got == [b"warm-up"]
        first.disconnect()
        first.loop_stop()
        arrived.clear()
        sender.client.publish(topic, "while-away", qos=1).wait_for_publish(5)
        second = session()
        try:
            assert arrived.wait(10)
            assert got[-1] == b"while-away"
        finally:
            second.disconnect()
            second.loop_stop()
    finally:
        sender.close()
