"""A real MQTT test client that records every message and waits for the one a test expects."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt

from controller.mqtt_client import mqtt_client


@dataclass
class Message:
    topic: str
    payload: bytes
    retain: bool

    def json(self) -> Any:
        return json.loads(self.payload.decode())


class Recorder:
    def __init__(self, host: str, port: int, subscribe: str = "#", *, username: str | None = None,
                 password: str | None = None) -> None:
        self.messages: list[Message] = []
        self._cond = threading.Condition()
        self.client = mqtt_client(f"test-{uuid.uuid4().hex[:8]}", username=username, password=password)
        self._subscribed = threading.Event()
        self.client.on_connect = lambda c, u, f, r, p: c.subscribe(subscribe, qos=1)
        self.client.on_subscribe = lambda *a: self._subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect(host, port)
        self.client.loop_start()
        if not self._subscribed.wait(10):
            raise RuntimeError("test client could not subscribe")

    def _on_message(self, client: Any, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        with self._cond:
            self.messages.append(Message(msg.topic, bytes(msg.payload), bool(msg.retain)))
            self._cond.notify_all()

    def wait_for(self, topic: str, predicate: Callable[[Message], bool] = lambda m: True,
                 timeout: float = 10.0, start: int = 0) -> Message:
        """Block until a message on ``topic`` satisfies ``predicate`` (real I/O, bounded)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for m in self.messages[start:]:
                    if m.topic == topic and predicate(m):
                        return m
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    seen = [(m.topic, m.payload[:120]) for m in self.messages[-10:]]
                    raise TimeoutError(f"no message on {topic} matched; last seen: {seen}")
                self._cond.wait(remaining)

    def publish(self, topic: str, payload: Any, qos: int = 1) -> None:
        data = payload if isinstance(payload, str | bytes) else json.dumps(payload)
        self.client.publish(topic, data, qos=qos).wait_for_publish(5)

    def command(self, table: str, cmd: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        """Publish a command and wait for its ``cmd/result``."""
        start = len(self.messages)
        self.publish(f"gametable/{table}/cmd", cmd)
        msg = self.wait_for(f"gametable/{table}/cmd/result", lambda m: m.json().get("id") == cmd.get("id"),
                            timeout, start=start)
        return msg.json()

    def close(self) -> None:
        self.client.disconnect()  # first, so the network loop wakes and stops at once
        self.client.loop_stop()
