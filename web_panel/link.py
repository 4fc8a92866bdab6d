"""The panel's own MQTT connection: the only way it talks to the daemon (docs/architecture.md).

It keeps the latest retained payloads (public state, each seat's private view, LEDs, status, the
games the table offers, the virtual table's coin positions) so a phone that (re)connects gets the
full picture at once, forwards every update to the SSE hub (the log lines are the game's own
``words`` from ``events``), and publishes commands, waiting for their ``cmd/result``.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from typing import Any

import paho.mqtt.client as mqtt

from controller.command_client import expiry_for, forget_unsent
from controller.mqtt_client import connect_in_background, mqtt_client
from controller.topics import Topics, client_id
from web_panel.bringup import BringupCache
from web_panel.hub import HOST_ONLY, Hub, sse_frame
from web_panel.loglines import log_entries

log = logging.getLogger("gametable.panel.mqtt")

LOG_SIZE = 60


class TableLink:
    """Subscribes to one table's topics; thread-safe snapshot and command round-trips."""

    def __init__(self, table_id: str, host: str, port: int, hub: Hub | None = None, *,
                 username: str | None = None, password: str | None = None, keepalive: int = 15) -> None:
        self.table_id = table_id
        self.names = Topics(table_id)
        self.base = self.names.base
        self.hub = hub if hub is not None else Hub()  # (an empty Hub is falsy)
        self.host, self.port, self.keepalive = host, port, keepalive
        self.state: dict[str, Any] | None = None
        self.private: dict[int, dict[str, Any]] = {}
        self.leds: Any = None
        self.status = "unknown"
        self.table: dict[str, Any] | None = None  # sensors/table: coin positions (virtual table) or the camera's
        self._virtual = False  # a virtual table publishes sensors/table: its drawing wins over a camera's
        self.journal: dict[str, Any] | None = None  # sensors/journal (retained): a torn record dropped at start
        self.games: dict[str, dict[str, Any]] = {}  # retained games: each game's describe(), by name
        self.offer: dict[str, Any] | None = None  # the venue's match offer for this table (retained)
        self.games_listed = threading.Event()  # set once the daemon's retained games have arrived
        self.bringup = BringupCache()  # sensors/… for the host's bring-up page (GET /api/bringup)
        self.log: deque[dict[str, Any]] = deque(maxlen=LOG_SIZE)
        self.connected = threading.Event()
        self._lock = threading.Lock()
        self._waiters: dict[str, tuple[threading.Event, list[dict[str, Any]]]] = {}
        # MQTT v5 for message expiry: a command the panel reported as failed must never apply later
        # (controller.command_client); a random client id, so nobody can take this one over.
        self.client = mqtt_client(client_id("panel", table_id), username=username, password=password,
                                  v5=True, reconnect_s=(0.1, 2))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe
        self._sub_mid: int | None = None

    # --- lifecycle ---------------------------------------------------------------------------
    def start(self) -> None:
        connect_in_background(self.client, self.host, self.port, self.keepalive)

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.error("broker refused the panel: %s", reason)
            return
        forget_unsent(client)  # commands and flicks from before the outage: their phones were told it failed
        t = self.names
        self._sub_mid = client.subscribe([(t.state, 1), (t.events, 0), (t.private_all, 1), (t.result, 1),
                                          (t.leds, 1), (t.status, 1), (t.sensors_all, 0),
                                          (t.games, 1), (t.sim_flick_result, 0), (t.offer, 1)])[1]

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, reasons: Any, props: Any) -> None:
        # connected = subscribed (SUBACK): from now on no result or state update can be missed
        if mid == self._sub_mid:
            self.connected.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self.connected.clear()

    # --- incoming ----------------------------------------------------------------------------
    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            self.handle(msg.topic, bytes(msg.payload))  # paho types it bytes | bytearray; it is bytes
        except Exception:  # one bad payload must not kill the network thread
            log.exception("bad message on %s", msg.topic)

    def handle(self, topic: str, payload: bytes) -> None:
        """Route one MQTT message into the cache and the hub."""
        rest = topic[len(self.base) + 1:] if topic.startswith(self.base + "/") else None
        if rest is None:
            return
        if rest == "status":
            self.status = payload.decode("utf-8", "replace")
            self.hub.publish("status", self.status)
            return
        if not payload:
            self._cleared(rest)
            return
        self._route(rest, json.loads(payload.decode("utf-8")))

    def _cleared(self, rest: str) -> None:
        """An empty retained message: a seat's private view or the venue's offer (withdrawn)."""
        if rest == "offer":
            self._on_offer(None)
        elif rest.startswith("seat/"):
            seat = _seat_of(rest)
            if seat is not None:
                with self._lock:
                    self.private.pop(seat, None)
                self.hub.publish("private", None, seat=seat)

    def _route(self, rest: str, data: Any) -> None:
        """One decoded message, by its topic below the table's base."""
        if rest == "state":
            with self._lock:
                self.state = data if isinstance(data, dict) and data.get("game") else None
            self.hub.publish("state", self.state)
        elif rest == "events":
            self._on_event(data)
        elif rest.startswith("seat/"):
            self._on_private(rest, data)
        elif rest in ("cmd/result", "sim/flick/result"):  # a flick's outcome carries the flick's id
            self._resolve(data)
        elif rest == "games":
            games = games_by_name(data)
            with self._lock:
                self.games = games
            if games:
                self.games_listed.set()
            self.hub.publish("games", games)
        elif rest == "offer":
            self._on_offer(data)
        elif rest == "leds":
            self.leds = data  # kept for the snapshot; phones do not need every LED change live
        elif rest == "sensors/journal":  # the host's panel shows it
            self.journal = data if isinstance(data, dict) and data.get("warning") else None
            self.hub.publish("journal", self.journal, HOST_ONLY)  # host-only: never a stranger's stream
        elif rest in ("sensors/table", "sensors/coins", "sensors/camera"):  # (coins: the physics branch's first name)
            self._coins(rest, data)
        elif rest.startswith("sensors/"):
            self.bringup.handle(rest[len("sensors/"):], data)

    def _coins(self, rest: str, data: Any) -> None:
        """The coins on the table view: the virtual table's physics, or a real table's camera (CAM-2),
        drawn alike; on the virtual table its own drawing wins over its virtual camera's."""
        if rest != "sensors/camera":
            self._virtual = True
        else:
            self.bringup.handle("camera", data)
            if self._virtual or not isinstance(data, dict) or not isinstance(data.get("coins"), dict):
                return
        self.table = data
        self.hub.publish("table", data)

    def _on_offer(self, data: Any) -> None:
        """The venue's match offer: for the host's banner only (its one tap starts it)."""
        with self._lock:
            self.offer = data if isinstance(data, dict) else None
        self.hub.publish("offer", self.offer, HOST_ONLY)

    def _on_event(self, data: Any) -> None:
        entry = self._log_entry(data)
        if entry:
            with self._lock:
                self.log.append(entry)
            self.hub.publish("log", entry)

    def _on_private(self, rest: str, data: Any) -> None:
        seat = _seat_of(rest)
        if seat is not None:
            with self._lock:
                self.private[seat] = data
            self.hub.publish("private", data, seat=seat)

    def _log_entry(self, event: Any) -> dict[str, Any] | None:
        if not isinstance(event, dict):
            return None
        with self._lock:
            players = list((self.state or {}).get("players") or [])
        entries = log_entries(event, players)
        if not entries:
            return None
        entry = {"seq": event.get("seq"), "ts": event.get("ts"), "lines": [line for line, _ in entries],
                 "says": [msg for _, msg in entries]}  # the lines as messages, for each phone's language
        inp = event.get("input")
        if isinstance(inp, dict) and inp.get("type") == "new_game" and isinstance(inp.get("players"), list):
            # the seats bots play in this game: a seat no phone holds is not "waiting" then (docs/phones.md)
            entry["bots"] = sorted(p["seat"] for p in inp["players"]
                                   if isinstance(p, dict) and p.get("bot") is True and isinstance(p.get("seat"), int))
        return entry

    def _resolve(self, result: Any) -> None:
        if not isinstance(result, dict):
            return
        with self._lock:
            waiter = self._waiters.get(str(result.get("id")))
        if waiter:
            waiter[1].append(result)
            waiter[0].set()

    # --- outgoing ----------------------------------------------------------------------------
    def command(self, cmd: dict[str, Any], timeout: float = 5.0, retry_s: float = 1.0) -> dict[str, Any] | None:
        """Publish a command (QoS 1) and wait for its ``cmd/result``; None if none came in time.

        The same command (same ``id``) is published again every ``retry_s`` until answered: a
        command sent just as the broker restarts can be dropped before the daemon re-subscribes,
        and the daemon answers a repeated id again without applying it twice.

        None means the phone is told the command failed, so it must never apply later: nothing is
        published while the broker is unreachable (paho would queue it), and each publish carries a
        message expiry that ends before ``timeout`` (controller.command_client.expiry_for).
        """
        key = str(cmd["id"])
        done: tuple[threading.Event, list[dict[str, Any]]] = (threading.Event(), [])
        with self._lock:
            self._waiters[key] = done
        payload = json.dumps(cmd, separators=(",", ":"))
        deadline = time.monotonic() + timeout
        try:
            while (remaining := deadline - time.monotonic()) > 0:
                props = expiry_for(remaining)
                if props is not None and self.client.is_connected():
                    self.client.publish(self.names.cmd, payload, qos=1, properties=props)
                if done[0].wait(min(retry_s, remaining)):
                    return done[1][0]
            return done[1][0] if done[1] else None
        finally:
            with self._lock:
                self._waiters.pop(key, None)

    def flick(self, payload: dict[str, Any], timeout: float) -> dict[str, Any] | None:
        """Publish a flick on ``sim/flick`` and wait for the virtual table's ``sim/flick/result`` of
        the same id (its real outcome: refused, or played to rest); None if none came in time (or the
        broker is unreachable: nothing is queued to play later)."""
        key = str(payload["id"])
        done: tuple[threading.Event, list[dict[str, Any]]] = (threading.Event(), [])
        with self._lock:
            self._waiters[key] = done
        try:
            if not self.publish("sim/flick", payload, qos=1):  # once: a flick played twice would be two strikes
                return None
            return done[1][0] if done[0].wait(timeout) else None
        finally:
            with self._lock:
                self._waiters.pop(key, None)

    def publish(self, suffix: str, payload: dict[str, Any], qos: int = 1) -> bool:
        """Fire and forget (e.g. a flick); False, and nothing queued, while the broker is unreachable."""
        if not self.client.is_connected():
            return False
        self.client.publish(f"{self.base}/{suffix}", json.dumps(payload, separators=(",", ":")), qos=qos)
        return True

    # --- snapshot ----------------------------------------------------------------------------
    def snapshot(self, seat: int | None, host: bool = False) -> list[bytes]:
        """Everything a fresh stream needs to draw the whole screen (resync after a reconnect);
        the journal's warning only for the host."""
        with self._lock:
            frames = [sse_frame("status", self.status), sse_frame("games", self.games),
                      sse_frame("state", self.state), sse_frame("history", list(self.log))]
            if self.leds is not None:
                frames.append(sse_frame("leds", self.leds))
            if self.table is not None:
                frames.append(sse_frame("table", self.table))
            if host:  # (null clears a warning the page still shows)
                frames += [sse_frame("journal", self.journal), sse_frame("offer", self.offer)]
            if seat is not None:
                frames.append(sse_frame("private", self.private.get(seat)))
        return frames

    def venue_offer(self) -> dict[str, Any] | None:
        with self._lock:
            return self.offer

    def public_state(self) -> dict[str, Any] | None:
        with self._lock:
            return self.state

    def private_view(self, seat: int) -> dict[str, Any] | None:
        with self._lock:
            return self.private.get(seat)

    def private_views(self) -> dict[int, dict[str, Any]]:
        """Every seat's private view (the panel's own use: whose move a refusal names)."""
        with self._lock:
            return dict(self.private)

    def described_games(self, wait_s: float = 0.0) -> dict[str, dict[str, Any]]:
        """The lobby's games as the daemon last published them (empty until it has). ``wait_s``:
        wait that long for them first -- just after the panel (re)connects, the retained list is a
        moment behind, and a host who taps Start then must not be told the table has no games."""
        if wait_s > 0 and self.connected.is_set():
            self.games_listed.wait(wait_s)
        with self._lock:
            return self.games


def games_by_name(payload: Any) -> dict[str, dict[str, Any]]:
    """``{"games": [describe(), ...]}`` -> ``{name: describe()}`` in the daemon's order."""
    listed = payload.get("games") if isinstance(payload, dict) else None
    if not isinstance(listed, list):
        return {}
    return {g["game"]: g for g in listed if isinstance(g, dict) and isinstance(g.get("game"), str)}


def _seat_of(rest: str) -> int | None:
    parts = rest.split("/")
    if len(parts) == 3 and parts[2] == "private" and parts[1].isdigit():
        return int(parts[1])
    return None
