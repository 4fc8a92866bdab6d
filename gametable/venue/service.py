"""``gametable venue --config venue.toml``: one process that subscribes to the venue broker,
stores every finished game and serves the venue board.

Stateless apart from its database: the live tables come back from the broker's retained topics,
so two services (each its own ``[mqtt] client_id``) may run behind one database.
"""

from __future__ import annotations

import argparse
import json
import logging
import secrets
import signal
import sys
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt

from controller.mqtt_client import connect_in_background, mqtt_client
from controller.topics import ROOT
from gametable.venue.board import Changes, create_board
from gametable.venue.board_server import BoardServer
from gametable.venue.config import VenueConfig, VenueConfigError, load
from gametable.venue.ingest import Venue
from gametable.venue.operator import Operator
from gametable.venue.profiles import Profiles
from gametable.venue.scheduler import Scheduler
from gametable.venue.setup import BRIDGED, LINK, OFFER, RESULTS, SYNC
from gametable.venue.staff import Staff
from gametable.venue.store import Store

log = logging.getLogger("gametable.venue")
SUBSCRIBED = ("state", "events", "status", LINK, RESULTS)
assert set(SUBSCRIBED) - {LINK} <= set(BRIDGED)
SCHEDULE_S = 0.5  # how often waiting matches look for a free table (and at once on a change)
SYNC_S = 300.0  # besides every comeback, ask each table this often for what it finished (a last net)


class VenueService:
    def __init__(self, config: VenueConfig, clock: Any = time.time) -> None:
        self.config = config
        self.venue = Venue(Store(config.database_url), clock)
        self.venue.known(list(config.tables))
        self.scheduler = Scheduler(self.venue.store, clock)
        self.profiles = Profiles(self.venue.store, clock)
        self.operator = Operator(self.venue.store, clock)
        self.staff = Staff(self.venue.store, clock)
        self.venue.on_finished.append(self._on_finished)
        self.venue.ask = self._ask
        self.venue.seated = self.scheduler.profiles_of
        self._asks = 0
        self._ask_prefix = f"{config.client_id}-{secrets.token_hex(6)}"  # ids never repeat across runs
        self.host_key = self.venue.store.setting("host_key", lambda: secrets.token_urlsafe(18))
        self._offers: dict[str, str] = {}  # table id -> the offer payload last published there
        self._stop = threading.Event()
        self._wake = threading.Event()
        self.changes = Changes()
        self.connected = threading.Event()
        # A persistent session: what finishes while the service restarts waits for it at the broker.
        # Back within 2 s of the broker's return (paho's own backoff reached 2 minutes: every table
        # showed offline meanwhile).
        self.client = mqtt_client(config.client_id, username=config.mqtt_username,
                                  password=config.mqtt_password, persistent=True, reconnect_s=(0.1, 2))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = lambda *a: self.connected.clear()
        self.client.on_message = self._on_message
        self.server: BoardServer | None = None

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.error("venue broker refused the service: %s", reason)
            return
        client.subscribe([(f"{ROOT}/+/{kind}", 1) for kind in SUBSCRIBED])
        self.connected.set()
        self.venue.reconnected()  # what finished while the service was away comes from the journals

    def _ask(self, table_id: str, after: int) -> None:
        """``gametable/T/sync``: the table answers on ``results`` (controller/finished_games.py)."""
        self._asks += 1
        self.client.publish(f"{ROOT}/{table_id}/{SYNC}", json.dumps({"id": f"{self._ask_prefix}-{self._asks}",
                                                                      "after": after}), qos=1)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        try:
            self.venue.on_message(message.topic, bytes(message.payload))
        except Exception:  # a bad message or a database hiccup must not stop the service
            log.exception("venue: message on %s not handled", message.topic)
        if not message.topic.endswith("/events"):
            self._wake.set()  # a table's state or link changed: it may have become free
        self.changes.notify()

    def _on_finished(self, key: str, outcome: Any) -> None:
        if self.scheduler.on_finished(key, outcome):
            log.info("tournament match decided by %s", key)
            self._wake.set()

    def schedule(self) -> None:
        """Offer waiting matches to free tables and withdraw decided ones (retained, QoS 1)."""
        with self.venue._lock:
            live = dict(self.venue.tables)
            offers = self.scheduler.assign(live)
        for table in self.scheduler.idle_tables():
            offers.append((table, None))
        for table, payload in offers:
            body = "" if payload is None else json.dumps(payload)
            if self._offers.get(table, "") == body:
                continue
            self._offers[table] = body
            self.client.publish(f"{ROOT}/{table}/{OFFER}", body, qos=1, retain=True)
        self.changes.notify()

    def _schedule_loop(self) -> None:
        next_sync = time.monotonic() + SYNC_S
        while not self._stop.is_set():
            self._wake.wait(SCHEDULE_S)
            self._wake.clear()
            if self.connected.is_set() and time.monotonic() >= next_sync:
                next_sync = time.monotonic() + SYNC_S
                self.venue.reconnected()
            if self.connected.is_set():
                try:
                    self.schedule()
                except Exception:
                    log.exception("venue: scheduling failed")

    def start(self) -> VenueService:
        connect_in_background(self.client, self.config.mqtt_host, self.config.mqtt_port, keepalive=15)
        if self.config.schedule:
            threading.Thread(target=self._schedule_loop, name="venue-schedule", daemon=True).start()
        app = create_board(self.venue, self.config, self.changes, self.scheduler, self.host_key, self._wake.set,
                           self.profiles, self.operator, self.staff)
        self.server = BoardServer(app, self.config.board_host, self.config.board_port).start()
        return self

    @property
    def board_url(self) -> str:
        assert self.server is not None
        return f"http://{self.config.board_host}:{self.server.port}"

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self.server is not None:
            self.server.stop()
        self.client.disconnect()
        self.client.loop_stop()
        self.venue.store.engine.dispose()


def run(args: argparse.Namespace) -> int:
    try:
        config = load(args.config)
    except VenueConfigError as exc:
        print(f"venue: {exc}", file=sys.stderr)
        return 2
    service = VenueService(config).start()
    print(f"venue board on {service.board_url} (TV layout: {service.board_url}/tv)\n"
          f"venue host key (keep it private): {service.host_key}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    service.stop()
    return 0
