"""The simulator's private broker is set up like a real table's.

``gametable sim`` without a ``[mqtt] host`` starts Mosquitto with the shipped config and ACL and
passwords generated for this run: its own daemon and panel work as usual, while any other user of
the machine is refused at CONNECT (no anonymous clients): it never reads a seat's view
or the virtual table's topics, and cannot write a command, nor flood the broker with denied ones.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest

from controller.topics import Topics
from gametable.broker import free_port
from gametable.testing.panel import Http
from tests.security.mqtt_rig import connect_once

pytestmark = [pytest.mark.mqtt, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
T = Topics("simsec")


def _read_until(proc: subprocess.Popen, pattern: str, timeout: float = 60.0) -> re.Match:
    deadline = time.monotonic() + timeout
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line and proc.poll() is not None:
            break
        match = re.search(pattern, line)
        if match:
            return match
    raise AssertionError(f"the sim never printed {pattern!r}")


def _journal(path: Path) -> list[tuple[int, str | None, str]]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return list(db.execute("SELECT seq, cmd_id, body FROM inputs ORDER BY seq"))
    finally:
        db.close()


def _stream_has(port: int, event: str, timeout: float = 20.0) -> bool:
    """The panel's live stream (its own snapshot) carries ``event`` - read through the panel user."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/stream", timeout=timeout) as resp:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = resp.readline().decode("utf-8", "replace")
            if line.strip() == f"event: {event}":
                return True
    return False


def test_the_sims_private_broker_lets_its_own_clients_in_and_refuses_strangers(tmp_path):
    panel_port = free_port()
    cfg = tmp_path / "sim.toml"
    cfg.write_text(f'table_id = "{T.table_id}"\n[journal]\npath = "{tmp_path / "j.sqlite"}"\n'
                   f'[panel]\nhost = "127.0.0.1"\nport = {panel_port}\npin = "2468"\n')
    proc = subprocess.Popen([sys.executable, "-m", "gametable.cli", "sim", "--config", str(cfg), "--bots", "2",
                             "--no-browser", "--speed", "1"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, cwd=ROOT)
    try:
        host, port = _read_until(proc, r"broker ([\d.]+):(\d+)").groups()
        _read_until(proc, r"virtual table running")
        stranger = SimpleNamespace(host=host, port=int(port))  # any other user of the machine, no password
        assert connect_once(stranger, "stranger").is_failure  # refused at CONNECT
        # the panel (its own user) reads the virtual table's coins
        assert _stream_has(panel_port, "table")
        http = Http(panel_port)
        assert http.post("/api/host/unlock", {"id": "unlock-host-1", "pin": "2468"})[0] == 200
        status, body = http.post("/api/host/cmd", {"id": "a-new-game", "type": "new_game", "game": "coinwar",
                                                   "mode": "ffa", "players": [{"seat": 1, "name": "Ann"},
                                                                              {"seat": 2, "name": "Bo"}]})
        assert status == 200, body
        assert "host-a-new-game" in [cid for _seq, cid, _body in _journal(tmp_path / "j.sqlite")]
        with urllib.request.urlopen(f"http://127.0.0.1:{panel_port}/api/info", timeout=5) as resp:
            assert json.loads(resp.read())["status"] == "online"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert proc.returncode == 0
