"""Send commands to a table over MQTT so that none is ever silently lost.

MQTT QoS 1 alone does not guarantee that a command reaches the daemon: a message published while
the daemon is restarting (or before it has re-subscribed after a broker restart) is dropped by the
broker without telling anyone. So a client must keep the command's ``id`` and publish it again
until a ``cmd/result`` with that id arrives. The daemon answers a repeated id with the first
result (``"duplicate": true``) and never applies it twice, which makes the retry safe.

:class:`CommandClient` is that rule in code, for tools, bots, the soak test and the panel.

The other half of the rule: **a command the sender gave up on must never apply later**. A client
that reported "the table did not answer" to its user must not have the command delivered afterwards by a queue somewhere:

- paho's queue: while the broker is unreachable nothing is published (paho would keep it and send it
  on reconnect), and on every reconnect whatever paho still holds from before is dropped
  (:func:`forget_unsent`) - a command still waited for is published again by its own retry loop;
- the broker's queue (the daemon's persistent session while the daemon is down): every command is
  published with an MQTT v5 message expiry that ends before the sender's deadline
  (:func:`expiry_for`), so Mosquitto discards it instead of delivering it late.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from controller.mqtt_client import connect_in_background, mqtt_client
from controller.topics import Topics
from controller.topics import client_id as random_client_id

# Mosquitto counts expiry in whole seconds of its own clock (a message expires in (n, n+1] s), so
# a command must expire a full second before the sender gives up: published only while at least
# MIN_LEFT_S of its wait is left, with an expiry of (seconds left - 1), rounded down.
MIN_LEFT_S = 2.0


def expiry_for(seconds_left: float) -> Properties | None:
    """MQTT v5 PUBLISH properties whose message expiry ends before ``seconds_left`` run out;
    None when too little is left to publish at all."""
    if seconds_left < MIN_LEFT_S:
        return None
    props = Properties(PacketTypes.PUBLISH)
    props.MessageExpiryInterval = int(seconds_left - 1)
    return props


def forget_unsent(client: mqtt.Client) -> int:
    """Drop every QoS>0 message paho still holds from before a reconnect (call in ``on_connect``)."""
    return len(client.drop_out_messages())


class CommandTimeout(TimeoutError):
    """No result for a command after every retry; the command may or may not be applied."""


class CommandClient:
    """One MQTT connection that publishes commands and waits for their results, retrying."""

    def __init__(self, host: str, port: int, table_id: str, *, client_id: str | None = None,
                 username: str | None = None, password: str | None = None) -> None:
        self.table_id = table_id
        names = Topics(table_id)
        self.cmd_topic = names.cmd
        self.result_topic = names.result
        self.sends = 0  # publishes, retries included (for soak statistics)
        self.dropped = 0  # publishes skipped or forgotten because the broker was unreachable
        self._results: dict[str, dict[str, Any]] = {}
        self._cond = threading.Condition()
        self._subscribed = threading.Event()
        # MQTT v5 for message expiry (expiry_for); reconnecting fast, a tool waits for it
        self.client = mqtt_client(client_id or random_client_id("cmd", table_id), username=username,
                                  password=password, v5=True, reconnect_s=(0.05, 0.5))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = lambda *a: self._subscribed.clear()
        self.client.on_subscribe = lambda *a: self._subscribed.set()
        self.client.on_message = self._on_message
        connect_in_background(self.client, host, port, keepalive=10)

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if not reason.is_failure:
            self.dropped += forget_unsent(client)  # never deliver late what was sent before the outage
            client.subscribe(self.result_topic, qos=1)

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            result = json.loads(msg.payload.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return
        if isinstance(result, dict) and isinstance(result.get("id"), str | int):
            with self._cond:
                self._results[str(result["id"])] = result
                self._cond.notify_all()

    def wait_ready(self, timeout: float = 10.0) -> bool:
        """True once connected and subscribed to results (so no result can be missed)."""
        return self._subscribed.wait(timeout)

    def publish(self, cmd: dict[str, Any], *, expiry_s: float | None = None) -> bool:
        """Publish once (QoS 1), no waiting; False (and nothing queued) while the broker is unreachable.

        With ``expiry_s`` the broker discards the command if it cannot deliver it in time
        (:func:`expiry_for`); without, it keeps it for the daemon's session as long as that lives.
        """
        props = None
        if expiry_s is not None:
            props = expiry_for(expiry_s)
            if props is None:
                return False
        if not self.client.is_connected():
            self.dropped += 1
            return False
        self.sends += 1
        self.client.publish(self.cmd_topic, json.dumps(cmd, separators=(",", ":")), qos=1, properties=props)
        return True

    def result(self, cid: Any) -> dict[str, Any] | None:
        with self._cond:
            return self._results.get(str(cid))

    def send(self, cmd: dict[str, Any], *, retry_s: float = 1.0, timeout: float = 30.0) -> dict[str, Any]:
        """Publish ``cmd`` (it must carry an ``id``) until its result arrives; return the result.

        Each retry reuses the same id, so the daemon applies the command at most once. Each publish
        expires before ``timeout`` runs out, so a command that raised :class:`CommandTimeout`
        (after ``timeout`` seconds without any result) is never applied afterwards.
        """
        if cmd.get("id") is None:
            raise ValueError("a command needs a client-chosen 'id' to be retried safely")
        key = str(cmd["id"])
        with self._cond:
            self._results.pop(key, None)
        deadline = time.monotonic() + timeout
        while True:
            self._subscribed.wait(max(0.0, deadline - time.monotonic()))
            self.publish(cmd, expiry_s=deadline - time.monotonic())
            retry_at = min(deadline, time.monotonic() + retry_s)
            with self._cond:
                while key not in self._results:
                    remaining = retry_at - time.monotonic()
                    if remaining <= 0:
                        break
                    self._cond.wait(remaining)
                if key in self._results:
                    return self._results.pop(key)
            if time.monotonic() >= deadline:
                raise CommandTimeout(f"no result for command {key!r} after {timeout:g} s")

    def close(self) -> None:
        self.client.disconnect()  # first, so the network thread wakes and loop_stop is quick
        self.client.loop_stop()
