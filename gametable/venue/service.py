"""``gametable venue --config venue.toml``: one process that subscribes to the venue broker,
stores every finished game and serves the venue board.

Stateless apart from its database: the live tables come back from the broker's retained topics,
so two services (each its own ``[mqtt] client_id``) may run behind one database.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
from werkzeug.serving import BaseWSGIServer, make_server

from controller.mqtt_bridge import no_delay
from controller.topics import ROOT
from gametable.venue.board import Changes, create_board
from gametable.venue.config import VenueConfig, VenueConfigError, load
from gametable.venue.ingest import Venue
from gametable.venue.setup import BRIDGED, LINK
from gametable.venue.store import Store

log = logging.getLogger("gametable.venue")
SUBSCRIBED = ("state", "events", "status", LINK)
assert set(SUBSCRIBED) - {LINK} <= set(BRIDGED)


class VenueService:
    def __init__(self, config: VenueConfig, clock: Any = time.time) -> None:
        self.config = config
        self.venue = Venue(Store(config.database_url), clock)
        self.venue.known(list(config.tables))
        self.changes = Changes()
        self.connected = threading.Event()
        # A persistent session: what finishes while the service restarts waits for it at the broker.
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=config.client_id, clean_session=False)
        if config.mqtt_username:
            self.client.username_pw_set(config.mqtt_username, config.mqtt_password)
        no_delay(self.client)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = lambda *a: self.connected.clear()
        self.client.on_message = self._on_message
        self.server: BaseWSGIServer | None = None

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.error("venue broker refused the service: %s", reason)
            return
        client.subscribe([(f"{ROOT}/+/{kind}", 1) for kind in SUBSCRIBED])
        self.connected.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        try:
            self.venue.on_message(message.topic, bytes(message.payload))
        except Exception:  # a bad message or a database hiccup must not stop the service
            log.exception("venue: message on %s not handled", message.topic)
        self.changes.notify()

    def start(self) -> VenueService:
        self.client.connect_async(self.config.mqtt_host, self.config.mqtt_port, keepalive=15)
        self.client.loop_start()
        app = create_board(self.venue, self.config, self.changes)
        self.server = make_server(self.config.board_host, self.config.board_port, app, threaded=True)
        threading.Thread(target=self.server.serve_forever, name="venue-board", daemon=True).start()
        return self

    @property
    def board_url(self) -> str:
        assert self.server is not None
        return f"http://{self.config.board_host}:{self.server.server_port}"

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
        self.client.disconnect()
        self.client.loop_stop()
        self.venue.store.engine.dispose()


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("venue", help="the venue service: every table's games, ratings and the venue board")
    p.add_argument("--config", required=True, help="venue.toml (gametable venue-setup writes one)")


def run(args: argparse.Namespace) -> int:
    try:
        config = load(args.config)
    except VenueConfigError as exc:
        print(f"venue: {exc}", file=sys.stderr)
        return 2
    service = VenueService(config).start()
    print(f"venue board on {service.board_url} (TV layout: {service.board_url}/tv)", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    service.stop()
    return 0
