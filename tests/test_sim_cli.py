"""`gametable sim` as `make demo` and the tests run it: the whole product on the virtual table."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from dataclasses import replace
from pathlib import Path

import pytest

from gametable.broker import free_port

ROOT = Path(__file__).resolve().parent.parent


def _config(tmp_path: Path) -> tuple[Path, int]:
    port = free_port()
    cfg = tmp_path / "sim.toml"
    cfg.write_text(f'table_id = "simtest"\n[journal]\npath = "{tmp_path / "j.sqlite"}"\n'
                   f'[panel]\nhost = "127.0.0.1"\nport = {port}\npin = "2468"\n')
    return cfg, port


@pytest.mark.parametrize("mode, bots", [("ffa", 3), ("teams", 4)])
def test_headless_bot_game_reaches_a_winner_through_the_whole_stack(tmp_path, mode, bots):
    cfg, _ = _config(tmp_path)
    r = subprocess.run([sys.executable, "-m", "gametable.cli", "sim", "--config", str(cfg), "--headless",
                        "--bots", str(bots), "--mode", mode, "--speed", "1000", "--seed", "4"],
                       capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    final = json.loads(r.stdout.strip().splitlines()[-1])
    assert final["mode"] == mode and final["phase"] == "over" and final["winner"]


def test_demo_mode_serves_the_panel_and_a_bot_game_until_stopped(tmp_path):
    cfg, port = _config(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "gametable.cli", "sim", "--config", str(cfg), "--bots", "2",
                             "--no-browser", "--speed", "50"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        page = None
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as resp:
                    page = resp.read().decode()
                break
            except OSError:
                time.sleep(0.2)
        assert page is not None and "<html" in page.lower()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert proc.returncode == 0


def test_headless_coup_bots_print_a_finished_game(tmp_path):
    """`gametable sim --headless --bots 3 --game coup`: the bot runner plays Coup to its winner (CP-5.4)."""
    cfg, _ = _config(tmp_path)
    r = subprocess.run([sys.executable, "-m", "gametable.cli", "sim", "--config", str(cfg), "--headless",
                        "--bots", "3", "--game", "coup", "--seed", "4"],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    final = json.loads(r.stdout.strip().splitlines()[-1])
    assert final["game"] == "coup" and final["phase"] == "over" and len(final["winner"]) == 1
    assert "hand" not in final  # the printed state is the public one: no hidden card



def test_a_real_tables_config_runs_on_the_virtual_table_as_it_is(tmp_path):
    """A builder tries their table's config on the virtual table: the shipped template (lgpio, no
    strikers, no base station port yet -- `gametable run` refuses it) plays a bot game in the sim,
    whose own base station carries the strikers."""
    shipped = (ROOT / "controller" / "data" / "default-table.toml").read_text()
    port = free_port()
    cfg = tmp_path / "table.toml"
    cfg.write_text(shipped.replace('table_id = "table1"', 'table_id = "builder"')
                   + f'\n[journal]\npath = "{tmp_path / "j.sqlite"}"\n'
                   + f'[panel]\nhost = "127.0.0.1"\nport = {port}\npin = "2468"\n')
    r = subprocess.run([sys.executable, "-m", "gametable.cli", "sim", "--config", str(cfg), "--headless",
                        "--bots", "2", "--speed", "1000", "--seed", "4"],
                       capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert r.returncode == 0, (r.stdout[-1000:], r.stderr[-2000:])
    final = json.loads(r.stdout.strip().splitlines()[-1])
    assert final["phase"] == "over" and final["winner"]
    run = subprocess.run([sys.executable, "-m", "gametable.cli", "run", "--config", str(cfg)],
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 78 and "no [striker] port" in run.stdout + run.stderr


def test_the_private_broker_never_takes_the_port_the_panel_will_bind(monkeypatch):
    """`gametable sim` starts its broker before the panel binds its port: had the kernel handed the
    panel's (still unbound) port to the broker, the panel could not serve and the sim exited 1."""
    import socket as real_socket

    from gametable import broker as broker_mod
    from gametable_core.config import load

    panel_port = free_port()
    handed = [panel_port]  # the kernel's next free port: the one the panel is promised

    class FirstHandsOutThePanelsPort(real_socket.socket):
        def bind(self, address):
            super().bind((address[0], handed.pop(0) if handed and address[1] == 0 else address[1]))

    monkeypatch.setattr(broker_mod.socket, "socket", FirstHandsOutThePanelsPort)
    config = load(None)
    config = replace(config, panel=replace(config.panel, port=panel_port), mqtt=replace(config.mqtt, host=""))
    config, broker = broker_mod.ensure_broker(config)
    try:
        assert broker is not None and broker.port != panel_port and config.mqtt.port == broker.port
    finally:
        broker.close()
