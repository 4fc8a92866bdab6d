"""Nobody on the LAN can kick the daemon off the broker.

Mosquitto disconnects a client when another connects with the same client id. With the shipped
config (hardware_docs/mosquitto) the daemon's id carries a suffix derived from its password, so an
anonymous client - or one with a wrong password - that connects again and again as the table's
public name ``gametable-daemon-<table_id>`` takes over nothing: every command is still answered and
the table never goes offline.
"""

from __future__ import annotations

import uuid

import pytest

from controller.command_client import CommandClient
from controller.topics import Topics, daemon_client_id
from gametable.testing.panel import NEW_GAME
from gametable.testing.recorder import Recorder
from tests.security.mqtt_rig import TABLE, connect_once, wait_until

pytestmark = pytest.mark.mqtt
T = Topics(TABLE)


def _guesses() -> list[tuple[str, dict]]:
    """What an attacker who reads the topics can try: the public name, with and without a user."""
    public = f"gametable-daemon-{TABLE}"
    return [(public, {}), (public + "-", {}), (daemon_client_id(TABLE, None), {}),
            (daemon_client_id(TABLE, "guess"), {}), (public, {"username": "daemon", "password": "guess"}),
            (public, {"username": "panel", "password": "guess"})]


def test_takeover_attempts_with_the_public_daemon_name_never_disconnect_the_daemon(table):
    panel = CommandClient(table.broker.host, table.broker.port, TABLE, **table.creds("panel"))
    watcher = Recorder(table.broker.host, table.broker.port, T.status, **table.creds("viewer"))  # reads status
    try:
        assert panel.wait_ready(10)
        assert panel.send({**NEW_GAME, "id": f"g-{uuid.uuid4().hex}"}, timeout=10)["ok"]
        before = table.daemon.bridge.disconnects
        for round_ in range(5):
            for cid, creds in _guesses():
                connect_once(table.broker, cid, **creds)
            # the daemon still answers at once after every wave of attempts
            result = panel.send({"type": "end_turn", "seat": 1 + round_ % 2, "id": f"e-{uuid.uuid4().hex}"},
                                retry_s=5, timeout=5)
            assert result["id"].startswith("e-")
        assert table.daemon.bridge.disconnects == before
        assert table.daemon.bridge.connected.is_set()
        assert [m.payload for m in watcher.messages if m.topic == T.status] == [b"online"]
    finally:
        panel.close()
        watcher.close()


def test_a_viewer_cannot_fake_the_tables_status_or_state(table):
    anon = Recorder(table.broker.host, table.broker.port, f"{T.base}/#", **table.creds("viewer"))
    try:
        anon.wait_for(T.status, lambda m: m.payload == b"online")
        for topic, payload in ((T.status, "offline"), (T.state, '{"game":"fake"}'), (T.result, '{"id":"x"}')):
            anon.client.publish(topic, payload, qos=1, retain=True).wait_for_publish(5)
        late = Recorder(table.broker.host, table.broker.port, f"{T.base}/#", **table.creds("viewer"))  # retained now
        try:
            late.wait_for(T.status)
            late.wait_for(T.state)
            assert [m.payload for m in late.messages if m.topic == T.status] == [b"online"]
            assert all(b"fake" not in m.payload for m in late.messages)
        finally:
            late.close()
    finally:
        anon.close()


def test_the_daemons_client_id_is_stable_per_password_and_unguessable_without_it():
    assert daemon_client_id(TABLE, "pw") == daemon_client_id(TABLE, "pw")  # its persistent session
    assert daemon_client_id(TABLE, "pw") != daemon_client_id(TABLE, "pw2")
    assert daemon_client_id(TABLE, "pw") != daemon_client_id("t2", "pw")
    assert "pw" not in daemon_client_id(TABLE, "pw").removeprefix(f"gametable-daemon-{TABLE}")


def test_the_attack_is_real_a_client_with_the_daemons_actual_id_would_kick_it(table):
    """Control: the takeover the test above defends against does happen to whoever knows the id."""
    real = table.daemon.bridge.client._client_id.decode()
    assert real != f"gametable-daemon-{TABLE}"
    before = table.daemon.bridge.disconnects
    connect_once(table.broker, real, **table.creds("daemon"))
    assert wait_until(lambda: table.daemon.bridge.disconnects > before)
    assert wait_until(table.daemon.bridge.connected.is_set)  # and it comes back by itself
