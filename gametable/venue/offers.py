"""The table's side of a venue match offer (gametable/venue/scheduler.py): the ``new_game`` that
starts it, and an auto-start for tables where the venue may start matches by itself.

The offer names the ``new_game`` id, so starting it twice (a retained offer seen again after a
reconnect, a host who taps twice) is answered as a duplicate and never starts a second game.
"""

from __future__ import annotations

import argparse
import json
import logging
import threading
import uuid
from typing import Any

import paho.mqtt.client as mqtt

from controller.games import get_game
from controller.mqtt_client import mqtt_client
from controller.topics import base
from controller.venue_offer import OFFER, OfferError
from controller.venue_offer import new_game_for as offer_new_game

log = logging.getLogger("gametable.venue")


def new_game_for(offer: Any, *, bots: bool = False) -> dict[str, Any]:
    """The ``new_game`` command of a match offer (controller/venue_offer.py), from the game's own describe()."""
    game = offer.get("game") if isinstance(offer, dict) else None
    return offer_new_game(offer, get_game(game).describe() if isinstance(game, str) else {}, bots=bots)


class AutoStart:
    """Starts every offered match at once on this table (its own broker, the panel's login)."""

    def __init__(self, table_id: str, host: str, port: int, username: str | None = None,
                 password: str | None = None, *, bots: bool = False) -> None:
        self.table_id, self.bots = table_id, bots
        self.topic = f"{base(table_id)}/{OFFER}"
        self.client = mqtt_client(f"venue-autostart-{uuid.uuid4().hex}", username=username, password=password)
        self.client.on_connect = lambda c, u, f, r, p: c.subscribe(self.topic, qos=1)
        self.client.on_message = self._on_offer
        self.client.connect_async(host, port)

    def _on_offer(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if not message.payload:
            return  # the offer was withdrawn
        try:
            cmd = new_game_for(json.loads(message.payload), bots=self.bots)
        except (ValueError, OfferError) as exc:
            log.warning("table %s: offer ignored: %s", self.table_id, exc)
            return
        client.publish(f"{base(self.table_id)}/cmd", json.dumps(cmd), qos=1)

    def start(self) -> AutoStart:
        self.client.loop_start()
        return self

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("venue-autostart",
                       help="on a table: start every match the venue offers this table at once")
    p.add_argument("--config", required=True, help="the table's config (its broker and the panel's login)")
    p.add_argument("--bots", action="store_true", help="the table's bots play the offered seats (demos, tests)")


def run(args: argparse.Namespace) -> int:
    from gametable.config_load import load_config, refuse
    from gametable_core.config import ConfigError

    config = load_config(args.config, "gametable venue-autostart")
    if not config.mqtt.host:
        refuse("gametable venue-autostart", args.config,
               ConfigError("config error: mqtt.host: expected the table's own broker, got nothing"))
    auto = AutoStart(config.table_id, config.mqtt.host, config.mqtt.port, config.panel.mqtt_username,
                     config.panel.mqtt_password, bots=args.bots).start()
    print(f"table {config.table_id}: starting the venue's match offers", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    auto.stop()
    return 0
