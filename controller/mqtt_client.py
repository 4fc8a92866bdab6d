"""Every long-lived MQTT client of the table, set up in one place (docs/architecture.md "MQTT").

The daemon's bridge, the panel's link, the command client, the simulator's table and the venue's
service and auto-start differ only in what is chosen here: the client id, MQTT v5 (message expiry, controller.command_client) or a persistent v3.1.1
session (the daemon's queued commands), the last will, how fast paho reconnects, the broker
credentials and the keepalive. TCP_NODELAY is always on. No client of the table uses TLS (the
broker listens on the table's own LAN: hardware_docs/mosquitto/README.md).
"""

from __future__ import annotations

import socket
from typing import Any

import paho.mqtt.client as mqtt


def no_delay(client: mqtt.Client) -> None:
    """Send each MQTT packet at once (TCP_NODELAY). Without it Nagle's algorithm holds the second
    small packet of a burst (PUBACK then cmd/result) until the broker's delayed ACK: +40 ms a hop."""

    def opened(c: Any, userdata: Any, sock: Any) -> None:
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except (OSError, AttributeError):  # not a TCP socket (e.g. websockets): nothing to tune
            pass

    client.on_socket_open = opened


def mqtt_client(client_id: str, *, reconnect_s: tuple[float, float] | None = None, username: str | None = None,
                password: str | None = None, v5: bool = False, persistent: bool = False,
                offline_will: str | None = None, max_queued: int = 0) -> mqtt.Client:
    """A client ready for :func:`connect_in_background`.

    ``reconnect_s`` is paho's (first, longest) wait between reconnects (None: paho's own, 1 to
    120 s); ``persistent`` keeps the
    broker session across disconnects (v3.1.1 ``clean_session=False``); ``offline_will`` is a topic
    the broker sets to ``offline`` (QoS 1, retained) when the connection dies; ``max_queued``
    bounds paho's outgoing queue (0: unbounded). Credentials only when a user name is given.
    """
    session: dict[str, Any] = {"clean_session": False} if persistent else {}
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                         protocol=mqtt.MQTTv5 if v5 else mqtt.MQTTv311, **session)
    if username:
        client.username_pw_set(username, password)
    if offline_will is not None:
        client.will_set(offline_will, "offline", qos=1, retain=True)
    if reconnect_s is not None:
        first, longest = reconnect_s
        client.reconnect_delay_set(min_delay=first, max_delay=longest)  # type: ignore[arg-type]  # paho hints int, but the delays are only compared and slept: a float works
    if max_queued:
        client.max_queued_messages_set(max_queued)
    no_delay(client)
    return client


def connect_in_background(client: mqtt.Client, host: str, port: int, keepalive: int) -> None:
    """Connect on paho's network thread, which keeps reconnecting by itself; the callbacks say
    when the connection is up."""
    client.connect_async(host, port, keepalive=keepalive)
    client.loop_start()
