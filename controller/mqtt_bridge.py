"""The MQTT side of the daemon: the topic contract of docs/architecture.md (names: controller.topics).

paho-mqtt keeps reconnecting by itself with a capped backoff; every (re)connect re-announces
``online`` and calls ``on_connected`` so the daemon republishes its retained topics.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from controller.mqtt_client import connect_in_background, mqtt_client
from controller.topics import Topics, daemon_client_id, private_topic

log = logging.getLogger("gametable.mqtt")


def topics(table_id: str) -> dict[str, str]:
    """The daemon's topics by name (built by controller.topics, the one place that names them)."""
    t = Topics(table_id)
    return {"base": t.base, "status": t.status, "state": t.state, "events": t.events, "cmd": t.cmd,
            "result": t.result, "leds": t.leds, "sensors": t.sensors, "games": t.games,
            "sync": t.sync, "results": t.results}


def dumps(payload: Any) -> str:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


class MqttBridge:
    """One MQTT connection for the daemon: last will, commands in, retained state out."""

    def __init__(
        self,
        table_id: str,
        host: str,
        port: int,
        on_command: Callable[[bytes], None],
        on_connected: Callable[[], None] | None = None,
        *,
        username: str | None = None,
        password: str | None = None,
        keepalive: int = 15,
        client_id: str | None = None,
        on_sync: Callable[[bytes], None] | None = None,
    ) -> None:
        self.table_id = table_id
        self.topics = topics(table_id)
        self.host, self.port, self.keepalive = host, port, keepalive
        self._on_command = on_command
        self._on_connected = on_connected
        self._on_sync = on_sync  # a venue's request for the finished games it missed (bridged in)
        self.connected = threading.Event()
        # set once the broker acknowledged the `cmd` subscription: from then on no command is missed
        # (CONNACK alone is not enough: a command published before the SUBACK is dropped)
        self.subscribed = threading.Event()
        self._cmd_sub_mid: int | None = None
        self.disconnects = 0  # times the broker connection was lost (a takeover shows up here)
        # A persistent session (clean_session=False, fixed client id): while the daemon is down
        # (crash, restart, Wi-Fi drop) the broker keeps its `cmd` subscription and queues QoS 1
        # commands for it, delivered when it reconnects. Commands are acknowledged (PUBACK) only
        # after they are journalled, so one that is in flight at a crash is delivered again, and
        # duplicate ids make that harmless. Clients still retry (controller.command_client):
        # a broker restart without persistence forgets the session.
        if not username:
            log.warning("no broker password configured: anyone who reaches the broker can take over the "
                        "daemon's client id and write commands (hardware_docs/mosquitto/README.md)")
        self.client = mqtt_client(
            # Unguessable without the broker password, so nobody else can take it over (and kick
            # the daemon off the broker): controller.topics.daemon_client_id.
            client_id or daemon_client_id(table_id, password),
            username=username, password=password, persistent=True,
            offline_will=self.topics["status"], reconnect_s=(0.1, 2), max_queued=10000)
        self.client.on_connect = self._handle_connect
        self.client.on_disconnect = self._handle_disconnect
        self.client.on_message = self._handle_message
        self.client.on_subscribe = self._handle_subscribe

    def start(self) -> None:
        connect_in_background(self.client, self.host, self.port, self.keepalive)

    def stop(self) -> None:
        if self.connected.is_set():
            info = self.client.publish(self.topics["status"], "offline", qos=1, retain=True)
            try:
                info.wait_for_publish(timeout=2)
            except (RuntimeError, ValueError):
                pass
        self.client.disconnect()
        self.client.loop_stop()

    def wait_connected(self, timeout: float) -> bool:
        """True once connected *and* subscribed to ``cmd`` (a command sent now is answered)."""
        return self.subscribed.wait(timeout)

    # --- paho callbacks ----------------------------------------------------------------------
    def _handle_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.error("broker %s:%s refused the connection: %s", self.host, self.port, reason)
            return
        log.info("connected to broker %s:%s", self.host, self.port)
        self._cmd_sub_mid = client.subscribe(self.topics["cmd"], qos=1)[1]
        if self._on_sync:
            client.subscribe(self.topics["sync"], qos=1)
        client.publish(self.topics["status"], "online", qos=1, retain=True)
        self.connected.set()
        if self._on_connected:
            self._on_connected()

    def _handle_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, reasons: Any, props: Any) -> None:
        if mid == self._cmd_sub_mid:
            if any(getattr(r, "is_failure", False) for r in reasons):
                log.error("the broker refused the daemon's subscription to %s (ACL?)", self.topics["cmd"])
                return
            self.subscribed.set()

    def _handle_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self.connected.clear()
        self.subscribed.clear()
        self.disconnects += 1
        log.warning("disconnected from broker (%s); reconnecting", reason)

    def _handle_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic == self.topics["cmd"]:
            try:
                self._on_command(bytes(message.payload))  # paho types it bytes | bytearray; it is bytes
            except Exception:  # never let one command kill the network thread
                log.exception("command handler failed")
        elif message.topic == self.topics["sync"] and self._on_sync:
            try:
                self._on_sync(bytes(message.payload))
            except Exception:
                log.exception("sync handler failed")

    # --- publishing --------------------------------------------------------------------------
    def publish(self, topic: str, payload: Any, *, qos: int = 0, retain: bool = False) -> None:
        data = payload if isinstance(payload, str | bytes) else dumps(payload)
        self.client.publish(topic, data, qos=qos, retain=retain)

    def publish_state(self, state: Any) -> None:
        self.publish(self.topics["state"], state if state is not None else {"game": None}, qos=1, retain=True)

    def publish_event(self, event: Any) -> None:
        self.publish(self.topics["events"], event, qos=0)

    def publish_private(self, seat: int, view: Any) -> None:
        self.publish(private_topic(self.table_id, seat), view, qos=1, retain=True)

    def clear_private(self, seat: int) -> None:
        self.client.publish(private_topic(self.table_id, seat), b"", qos=1, retain=True)

    def publish_result(self, result: dict[str, Any]) -> None:
        self.publish(self.topics["result"], result, qos=1)

    def publish_leds(self, plan: Any) -> None:
        self.publish(self.topics["leds"], plan, qos=1, retain=True)

    def publish_sensor(self, kind: str, payload: Any) -> None:
        self.publish(f"{self.topics['sensors']}/{kind}", payload, qos=0)
