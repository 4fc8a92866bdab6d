"""The one place that builds MQTT topic names and client ids (docs/architecture.md, "MQTT (contract)").

The daemon's bridge, the panel's link, the virtual table, the command client, bots and tools all
take their topic strings from here, so the contract is written down once. Standard library only:
the panel and small tools import it without pulling in any engine.

| topic                          | retained | QoS |
| gametable/T/status             | yes      | 1   | online / offline (offline is the last will)
| gametable/T/state              | yes      | 1   | public state
| gametable/T/events             | no       | 0   | each accepted input and its visible effects
| gametable/T/seat/S/private     | yes      | 1   | seat S's private view (ACL: panel only)
| gametable/T/cmd                | no       | 1   | commands in
| gametable/T/cmd/result         | no       | 1   | {"id", "ok", "error"?}
| gametable/T/sensors/...        | no*      | 0*  | diagnostics (sensors/table: the virtual table's coins)
| gametable/T/leds               | yes      | 1   | what each seat LED shows
| gametable/T/games              | yes      | 1   | the games this table offers (describe())
| gametable/T/sim/flick(/result) | no       | 1/0 | the virtual table's flicks from the panel
| gametable/T/sync               | no       | 1   | venue only: "send the games finished after seq N"
| gametable/T/results            | no       | 1   | venue only: the answer (controller/finished_games.py)

* retained at QoS 1: sensors/walk, pairing, strikers, journal, waiting; at QoS 0: sensors/table
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

ROOT = "gametable"
OFFER = "offer"  # gametable/<id>/offer: the venue's next match for this table (bridged in, retained)
SYNC = "sync"  # gametable/<id>/sync: the venue asks for the finished games it missed (bridged in)
RESULTS = "results"  # gametable/<id>/results: the table's answer from its journal (bridged out)


def base(table_id: str) -> str:
    return f"{ROOT}/{table_id}"


def private_topic(table_id: str, seat: int | str) -> str:
    return f"{base(table_id)}/seat/{seat}/private"


@dataclass(frozen=True)
class Topics:
    """Every topic of one table, by name."""

    table_id: str

    @property
    def base(self) -> str:
        return base(self.table_id)

    @property
    def status(self) -> str:
        return f"{self.base}/status"

    @property
    def state(self) -> str:
        return f"{self.base}/state"

    @property
    def offer(self) -> str:
        """The venue's match offer for this table (controller/venue_offer.py), retained."""
        return f"{self.base}/{OFFER}"

    @property
    def sync(self) -> str:
        return f"{self.base}/{SYNC}"

    @property
    def results(self) -> str:
        return f"{self.base}/{RESULTS}"

    @property
    def events(self) -> str:
        return f"{self.base}/events"

    @property
    def cmd(self) -> str:
        return f"{self.base}/cmd"

    @property
    def result(self) -> str:
        return f"{self.base}/cmd/result"

    @property
    def leds(self) -> str:
        return f"{self.base}/leds"

    @property
    def games(self) -> str:
        return f"{self.base}/games"

    @property
    def sensors(self) -> str:
        return f"{self.base}/sensors"

    def sensor(self, kind: str) -> str:
        return f"{self.base}/sensors/{kind}"

    @property
    def sensors_all(self) -> str:
        return f"{self.base}/sensors/#"

    @property
    def sim_table(self) -> str:
        """The virtual table's coin positions (retained, QoS 0)."""
        return f"{self.base}/sensors/table"

    @property
    def sim_flick(self) -> str:
        return f"{self.base}/sim/flick"

    @property
    def sim_flick_result(self) -> str:
        return f"{self.base}/sim/flick/result"

    def private(self, seat: int | str) -> str:
        return private_topic(self.table_id, seat)

    @property
    def private_all(self) -> str:
        return f"{self.base}/seat/+/private"

    @property
    def everything(self) -> str:
        return f"{self.base}/#"

    def relative(self, topic: str) -> str | None:
        """``gametable/T/seat/2/private`` -> ``seat/2/private``; None for another table's topic."""
        prefix = self.base + "/"
        return topic[len(prefix):] if topic.startswith(prefix) else None


def topics(table_id: str) -> Topics:
    return Topics(table_id)


# --- client ids ----------------------------------------------------------------------------------
# Mosquitto disconnects a client when another one connects with the same client id. A fixed,
# guessable id (the table id is public in every topic) lets anyone on the LAN kick the daemon off
# the broker again and again. So: the daemon's id carries a suffix derived from
# its broker password (stable across restarts, which its persistent session needs; unknowable
# without the password); every other client takes a random id per connection.

def daemon_client_id(table_id: str, password: str | None) -> str:
    """The daemon's stable, unguessable client id (an HMAC of the table id under its password)."""
    if not password:  # an open broker: anyone may write cmd anyway; nothing secret to derive from
        return f"gametable-daemon-{table_id}"
    tag = hmac.new(password.encode("utf-8"), f"client-id:{table_id}".encode(), hashlib.sha256).hexdigest()[:24]
    return f"gametable-daemon-{table_id}-{tag}"


def client_id(role: str, table_id: str) -> str:
    """A fresh random client id for a non-persistent client (panel, sim, bots, tools)."""
    return f"gametable-{role}-{table_id}-{secrets.token_hex(8)}"


__all__ = ["OFFER", "RESULTS", "ROOT", "SYNC", "Topics", "base", "client_id", "daemon_client_id", "private_topic", "topics"]
