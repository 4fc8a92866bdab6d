"""The referee and the phone panel run as two processes (gametable/panel_proc.py): a panel that
dies is restarted by the referee; a referee killed with ``kill -9`` takes its panel with it, so the
next start serves again on a free port. The real ``gametable run``, Mosquitto and HTTP."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request
from pathlib import Path

import pytest

from gametable.testing.daemon_proc import DaemonProcess
from gametable.testing.panel import NEW_GAME
from tests.security.lan import Phone
from tests.security.mqtt_rig import wait_until

pytestmark = pytest.mark.mqtt
PIN = "2468"


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (started by any of its threads)."""
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def _gone(pid: int) -> bool:
    try:
        return "zombie" in Path(f"/proc/{pid}/status").read_text().lower()  # exited, not yet reaped
    except OSError:
        return True


def _until(predicate, what: str, timeout: float = 40.0):
    """``predicate()``'s first true value, polled on real processes (bounded)."""
    found: list = []
    assert wait_until(lambda: bool(found.append(predicate()) or found[-1]), timeout), f"timed out waiting for {what}"
    return found[-1]


def _serving(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=2) as resp:
            return json.loads(resp.read())["status"] == "online"
    except OSError:
        return False


def _panel_port(table: DaemonProcess) -> int:
    text = table.config.read_text()
    return int(text.split("[panel]", 1)[1].split("port = ", 1)[1].split("\n", 1)[0])


def _new_game(port: int, tag: str) -> None:
    host = Phone(port, "127.0.0.1")
    assert host.post("/api/host/unlock", {"id": f"unlock-{tag}-{time.time_ns()}", "pin": PIN})[0] == 200
    body = {**NEW_GAME, "id": f"{tag}-{time.time_ns()}"}
    assert host.post("/api/host/cmd", body) == (200, {"ok": True})


@pytest.fixture
def table(broker, tmp_path):
    t = DaemonProcess(tmp_path / "table", broker.host, broker.port, "t1", panel={"pin": PIN})
    yield t
    t.terminate()


def test_the_panel_is_its_own_process_and_the_referee_restarts_it_when_it_dies(table):
    table.start()
    port = _panel_port(table)
    _until(lambda: _serving(port), "the panel")
    panel_pid = _until(lambda: _children(table.pid), "the panel's process")[0]
    assert panel_pid != table.pid
    os.kill(panel_pid, signal.SIGKILL)  # the panel crashes; the referee plays on
    _until(lambda: _children(table.pid) and _children(table.pid)[0] != panel_pid and _serving(port),
           "a new panel process")
    _new_game(port, "after-panel-crash")
    assert table.alive() and "the phone panel process exited" in table.log_text()


def test_kill_9_of_the_referee_takes_its_panel_down_and_a_restart_serves_again(table):
    table.start()
    port = _panel_port(table)
    _until(lambda: _serving(port), "the panel")
    panel_pid = _until(lambda: _children(table.pid), "the panel's process")[0]
    table.kill()
    _until(lambda: _gone(panel_pid), "the orphaned panel to exit")
    assert not _serving(port)
    table.start()  # (a fresh panel port, as after a restart by systemd)
    port = _panel_port(table)
    _until(lambda: _serving(port), "the restarted panel")
    _new_game(port, "after-referee-kill")
    ids = [cid for _seq, cid, _body in table.journal_rows()]
    assert any(str(cid).startswith("host-after-referee-kill") for cid in ids), ids
