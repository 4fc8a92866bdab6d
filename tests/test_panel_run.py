"""`gametable run` serves the panel next to the daemon (host/port from [panel])."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from gametable.testing.daemon_proc import panel_port

pytestmark = pytest.mark.mqtt


def test_gametable_run_serves_the_panel_and_stops_on_sigterm(broker, tmp_path):
    port = panel_port()  # below the ephemeral range: never the daemon's own MQTT source port
    conf = tmp_path / "table.toml"
    conf.write_text(f'table_id = "t9"\n[mqtt]\nhost = "{broker.host}"\nport = {broker.port}\n'
                    f'[journal]\npath = "{tmp_path / "j.sqlite"}"\n[panel]\nhost = "127.0.0.1"\nport = {port}\n')
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen([sys.executable, "-m", "gametable.cli", "run", "--config", str(conf)], cwd=root,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        info = None
        deadline = time.monotonic() + 30
        # bounded wait (a real process on a busy machine) until the panel answers with the games the
        # daemon published on its retained games topic
        while not (info and info.get("games")) and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=1) as resp:
                    info = json.loads(resp.read())
            except OSError:
                pass
            time.sleep(0.05)
        assert info is not None, "the panel never answered"
        assert info["table"] == "t9" and "coinwar" in info["games"]
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
