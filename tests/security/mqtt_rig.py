"""A table on a real Mosquitto set up exactly as shipped (hardware_docs/mosquitto): the daemon and
the panel with their own passwords, a viewer allowed to read the public topics only, no anonymous clients."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from controller.daemon import Daemon
from gametable.broker import Broker, start_table_broker
from gametable.testing.table import start_table

TABLE = "t1"


@dataclass
class SecuredTable:
    broker: Broker
    daemon: Daemon

    def creds(self, user: str) -> dict[str, str]:
        return {"username": user, "password": self.broker.users[user]}


def start_secured_table(journal: Path) -> SecuredTable:
    """The rig's table (no phone: an anonymous one is refused) on the shipped broker set-up."""
    broker = start_table_broker()
    try:
        table = start_table(broker, journal, table_id=TABLE, phone=False, config={
            "mqtt": {"keepalive": 5, "username": "daemon", "password": broker.users["daemon"]}})
    except BaseException:
        broker.close()
        raise
    return SecuredTable(broker, table.daemon)


def connect_once(broker: Broker, client_id: str, *, username: str | None = None, password: str | None = None,
                 timeout: float = 5.0) -> Any:
    """Open one MQTT connection as ``client_id`` and return the broker's CONNACK reason (bounded)."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id)
    if username:
        client.username_pw_set(username, password)
    got = threading.Event()
    reasons: list[Any] = []

    def on_connect(c: Any, u: Any, f: Any, reason: Any, p: Any) -> None:
        reasons.append(reason)
        got.set()

    client.on_connect = on_connect
    client.on_disconnect = lambda *a: got.set()
    try:
        client.connect(broker.host, broker.port, keepalive=5)
    except OSError as exc:
        return exc
    client.loop_start()
    got.wait(timeout)
    client.disconnect()
    client.loop_stop()
    return reasons[0] if reasons else None


def wait_until(predicate: Callable[[], bool], timeout: float = 10.0) -> bool:
    """Poll real I/O state (another thread's connection) until ``predicate`` holds; bounded."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)
    return True
