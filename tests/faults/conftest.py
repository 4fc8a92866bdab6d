from __future__ import annotations

import pytest

from controller.command_client import CommandClient
from gametable.testing.bots import Bot
from gametable.testing.daemon_proc import DaemonProcess
from gametable.testing.netcut import NetCut
from gametable.testing.recorder import Recorder
from tests.faults.rig import TABLE, Rig


def _rig(broker, tmp_path, daemon_port: int | None = None):
    phone = Recorder(broker.host, broker.port, f"gametable/{TABLE}/#")
    phone.client.reconnect_delay_set(0.05, 0.5)
    daemon = DaemonProcess(tmp_path / "table", broker.host, daemon_port or broker.port, TABLE)
    cc = CommandClient(broker.host, broker.port, TABLE)
    assert cc.wait_ready(10)
    r = Rig(broker, daemon, phone, cc, Bot(seed=7))
    r.start_daemon()
    return r


def _close(r: Rig) -> None:
    r.daemon.kill()  # graceful stops are tested elsewhere; this keeps the suite fast
    r.cc.close()
    r.phone.client.disconnect()  # wakes the network thread so close() does not wait for it
    r.phone.close()


@pytest.fixture
def rig(broker, tmp_path):
    """The whole stack, running: broker, daemon subprocess (online), phone recorder, bot client."""
    r = _rig(broker, tmp_path)
    yield r
    _close(r)


@pytest.fixture
def net_rig(broker, tmp_path):
    """As ``rig``, but the daemon reaches the broker through a network that can be cut."""
    net = NetCut(broker.host, broker.port)
    r = _rig(broker, tmp_path, net.port)
    r.net = net
    yield r
    _close(r)
    net.close()
