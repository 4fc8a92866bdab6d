from __future__ import annotations

import pytest

from controller.command_client import CommandClient
from tests.faults.rig import TABLE, Rig
from tests.helpers.daemon_proc import DaemonProcess
from tests.helpers.mqtt_client import Recorder
from tests.helpers.play import Bot


@pytest.fixture
def rig(broker, tmp_path):
    """The whole stack, running: broker, daemon subprocess (online), phone recorder, bot client."""
    phone = Recorder(broker.host, broker.port, f"gametable/{TABLE}/#")
    daemon = DaemonProcess(tmp_path / "table", broker.host, broker.port, TABLE)
    cc = CommandClient(broker.host, broker.port, TABLE)
    assert cc.wait_ready(10)
    r = Rig(broker, daemon, phone, cc, Bot(seed=7))
    r.start_daemon()
    yield r
    daemon.terminate()
    cc.close()
    phone.close()
