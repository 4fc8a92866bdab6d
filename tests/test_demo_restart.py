"""`make demo` (`gametable sim --bots 1`) run twice in a row plays both times.

The real CLI in a subprocess (its own Mosquitto, a free panel port, never 8080) on one journal:
two bots play on the table view until a 360 x 640 phone takes a seat; then that seat plays a bot
and its flick is played. Then the simulator stops and starts again on the same journal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gametable.broker import free_port
from tests.helpers.browser import PHONE_360, flick_on_table_view, shot
from tests.helpers.demo import start_demo

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("close_contexts")]


def _stop(proc: subprocess.Popen) -> str:
    proc.terminate()
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0, out[-3000:]
    return out


def _flick(page) -> None:
    """The phone's player drags their coin back on the table view; the table plays it."""
    page.goto(page.url.split("/", 3)[0] + "//" + page.url.split("/", 3)[2] + "/table")
    page.get_by_text("drag back from your coin").wait_for(timeout=60_000)
    coin = page.evaluate("legalMoves(S.priv).find((m) => m.type === 'shot').coins[0]")
    pos = page.evaluate(f"S.table.coins[{coin!r}]")
    flick_on_table_view(page, pos)


def test_make_demo_twice_in_a_row_plays_both_times(tmp_path, browser):
    port = free_port()
    cfg = tmp_path / "demo.toml"
    cfg.write_text(f'table_id = "demo"\n[journal]\npath = "{tmp_path / "j.sqlite"}"\n'
                   f'[panel]\nhost = "127.0.0.1"\nport = {port}\npin = "2468"\n')
    url = f"http://127.0.0.1:{port}"
    phone = browser.new_context(**PHONE_360).new_page()
    phone.set_default_timeout(30_000)
    for run in (1, 2):
        proc = start_demo(cfg, port)
        try:
            phone.goto(url + "/table")
            # nobody plays yet (run 1) / the phone's seat is kept (run 2): a game is on the table view
            phone.locator("#board").wait_for(timeout=60_000)
            if run == 1:
                phone.locator("#turn-banner").filter(has_text="Bot").wait_for(timeout=60_000)
                shot("demo-bots-playing.png", phone)
                phone.goto(url + "/join")
                phone.click("#seat-1")
            phone.goto(url + "/seat")
            phone.locator("#my-coin").filter(has_text="Seat 1").wait_for(timeout=60_000)
            phone.locator("#turn-banner").filter(has_text="YOUR TURN").wait_for(timeout=60_000)
            _flick(phone)
            shot(f"demo-run-{run}-flicked.png", phone)
        finally:
            out = _stop(proc)
        assert "seat 1 plays against a bot" in out or run == 2, out[-3000:]


def test_the_terminal_shows_the_lan_address_and_a_qr_code_and_a_busy_port_is_one_line(tmp_path):
    """Item 9: the phones' address (LAN, not 127.0.0.1, when there is one) with a QR code to scan;
    no 'resumed from 0 input(s)' on a fresh journal; a busy panel port is one line, not a traceback."""
    import socket

    from web_panel.app import lan_address

    port = free_port()
    cfg = tmp_path / "demo.toml"
    cfg.write_text(f'table_id = "demo"\n[journal]\npath = "{tmp_path / "j.sqlite"}"\n'
                   f'[panel]\nhost = "0.0.0.0"\nport = {port}\npin = "2468"\n')
    out = _stop(start_demo(cfg, port))
    lan = lan_address()
    assert f"phones (same Wi-Fi): http://{lan or '127.0.0.1'}:{port}/join" in out, out[-2000:]
    assert "▀" in out or "█" in out or "▄" in out  # the QR code, drawn with block characters
    assert "resumed from 0 input(s)" not in out
    with socket.socket() as busy:
        # the demo just stopped may leave connections on the port in TIME_WAIT: they must not stop this bind
        busy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        busy.bind(("0.0.0.0", port))
        busy.listen()
        r = subprocess.run([sys.executable, "-m", "gametable.cli", "sim", "--config", str(cfg), "--bots", "1",
                            "--no-browser"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 1
    lines = [line for line in (r.stdout + r.stderr).splitlines() if "Traceback" in line or "cannot serve" in line]
    assert lines == [f"gametable sim: cannot serve the phone panel on 0.0.0.0:{port}: Address already in use "
                     "(is another gametable running? set [panel] port in a --config file)"], r.stdout + r.stderr


@pytest.mark.parametrize("bots, says", [(set(), "(seats 1, 2, 3)"), ({2}, "(seats 1, 3 against a bot)"),
                                        ({2, 3}, "(seat 1 against 2 bots)")])
def test_the_resumed_game_is_described_as_it_is_seated(bots, says, capsys):
    """A restart says who plays on: no "against a bot" for a game of three people."""
    from types import SimpleNamespace

    from gametable.sim_demo import Demo

    table = SimpleNamespace(bots=bots, bot_pause_s=0.0,
                            state=lambda: {"players": [{"seat": 1}, {"seat": 2}, {"seat": 3}]})
    Demo(lambda: [], 1, "coinwar").resume(table)  # type: ignore[arg-type]
    assert says in capsys.readouterr().out
