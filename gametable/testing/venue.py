"""A venue on real Mosquitto processes: the venue broker and table brokers bridged into it, with
exactly the files ``gametable venue-setup`` writes (gametable/venue/setup.py)."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from controller.daemon import Daemon
from gametable.broker import Broker, _hand_to_mosquitto, _spawn, free_port, start_table_broker
from gametable.testing.netcut import NetCut
from gametable.testing.table import start_table
from gametable.venue.setup import VenueSetup, bridge_conf, build, table_user, write


@dataclass
class VenueBroker:
    broker: Broker
    setup: VenueSetup

    def login(self, user: str) -> dict[str, str]:
        return {"username": user, "password": self.setup.passwords[user]}


def start_venue_broker(tables: list[str]) -> VenueBroker:
    port = free_port()
    workdir = Path(tempfile.mkdtemp(prefix="gametable-venue-"))
    workdir.chmod(0o755)  # Mosquitto started as root drops to its own user
    setup = build(tables, "127.0.0.1", port, etc=workdir / "venue", persistence=workdir / "venue",
                  bind="127.0.0.1")
    write(setup, workdir)
    _hand_to_mosquitto(workdir / "venue", *(workdir / "venue").iterdir())
    conf = workdir / "venue" / "venue.conf"
    return VenueBroker(Broker("127.0.0.1", port, _spawn(conf, port), conf), setup)


@dataclass
class BridgedTable:
    """One table: its own Mosquitto (shipped config and ACL), its daemon, and its bridge to the
    venue through a cuttable link (a Wi-Fi drop between the table and the venue)."""

    table_id: str
    broker: Broker
    link: NetCut
    daemon: Daemon

    def panel_login(self) -> dict[str, str]:
        return {"username": "panel", "password": self.broker.users["panel"]}

    def close(self) -> None:
        self.daemon.stop()
        self.broker.close()
        self.link.close()


def bridged_table(venue: VenueBroker, table_id: str, journal: Path) -> BridgedTable:
    link = NetCut(venue.broker.host, venue.broker.port)
    broker = start_table_broker()
    password = venue.setup.passwords[table_user(table_id)]
    broker.conf.write_text(broker.conf.read_text() + bridge_conf(table_id, "127.0.0.1", link.port, password, "1 1"))
    broker.restart()
    try:
        table = start_table(broker, journal, table_id=table_id, phone=False, config={
            "mqtt": {"username": "daemon", "password": broker.users["daemon"]}})
    except BaseException:
        broker.close()
        link.close()
        raise
    return BridgedTable(table_id, broker, link, table.daemon)
