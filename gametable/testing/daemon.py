"""The real daemon in-process on the test's Mosquitto, with a phone recording its table's topics."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from controller.daemon import Daemon
from gametable.broker import Broker
from gametable.testing.recorder import Recorder
from gametable_core.clock import Clock
from gametable_core.config import parse


@contextmanager
def daemon_and_phone(broker: Broker, journal: str, table_id: str,
                     clock: Clock | None = None) -> Iterator[tuple[Daemon, Recorder]]:
    """The daemon (on ``clock``, a fake one for deadlines) subscribed to ``cmd``, so no command is
    missed, and a :class:`Recorder` of ``gametable/<table_id>/#``; both stopped at the end."""
    config = parse({"table_id": table_id, "mqtt": {"host": broker.host, "port": broker.port},
                    "journal": {"path": journal}})
    daemon = Daemon(config, clock)
    daemon.start()
    phone = Recorder(broker.host, broker.port, f"gametable/{table_id}/#")
    try:
        assert daemon.bridge is not None and daemon.bridge.wait_connected(10)
        yield daemon, phone
    finally:
        phone.close()
        daemon.stop()
