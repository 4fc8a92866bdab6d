"""Send commands to a table over MQTT so that none is ever silently lost.

MQTT QoS 1 alone does not guarantee that a command reaches the daemon: a message published while
the daemon is restarting (or before it has re-subscribed after a broker restart) is dropped by the
broker without telling anyone. So a client must keep the command's ``id`` and publish it again
until a ``cmd/result`` with that id arrives. The daemon answers a repeated id with the first
result (``"duplicate": true``) and never applies it twice, which makes the retry safe.

:class:`CommandClient` is that rule in code, for tools, bots, the soak test and the panel.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from typing import Any

import paho.mqtt.client as mqtt

from controller.mqtt_bridge import no_delay


class CommandTimeout(TimeoutError):
    """No result for a command after every retry; the command may or may not be applied."""


class CommandClient:
    """One MQTT connection that publishes commands and waits for their results, retrying."""

    def __init__(self, host: str, port: int, table_id: str, *, client_id: str | None = None,
                 username: str | None = None, password: str | None = None) -> None:
        self.table_id = table_id
        self.cmd_topic = f"gametable/{table_id}/cmd"
        self.result_topic = f"gametable/{table_id}/cmd/result"
        self.sends = 0  # publishes, retries included (for soak statistics)
        self._results: dict[str, dict[str, Any]] = {}
        self._cond = threading.Condition()
        self._subscribed = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                                  client_id=client_id or f"cmd-{uuid.uuid4().hex[:10]}")
        if username:
            self.client.username_pw_set(username, password)
        no_delay(self.client)
        self.client.reconnect_delay_set(min_delay=0.05, max_delay=0.5)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = lambda *a: self._subscribed.clear()
        self.client.on_subscribe = lambda *a: self._subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect_async(host, port, keepalive=10)
        self.client.loop_start()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if not reason.is_failure:
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

    def publish(self, cmd: dict[str, Any]) -> None:
        """Publish once (QoS 1; paho queues it while offline); no waiting."""
        self.sends += 1
        self.client.publish(self.cmd_topic, json.dumps(cmd, separators=(",", ":")), qos=1)

    def result(self, cid: Any) -> dict[str, Any] | None:
        with self._cond:
            return self._results.get(str(cid))

    def send(self, cmd: dict[str, Any], *, retry_s: float = 1.0, timeout: float = 30.0) -> dict[str, Any]:
        """Publish ``cmd`` (it must carry an ``id``) until its result arrives; return the result.

        Each retry reuses the same id, so the daemon applies the command at most once.
        Raises :class:`CommandTimeout` after ``timeout`` seconds without any result.
        """
        if cmd.get("id") is None:
            raise ValueError("a command needs a client-chosen 'id' to be retried safely")
        key = str(cmd["id"])
        with self._cond:
            self._results.pop(key, None)
        deadline = time.monotonic() + timeout
        while True:
            self._subscribed.wait(max(0.0, deadline - time.monotonic()))
            self.publish(cmd)
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
