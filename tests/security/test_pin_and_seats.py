"""The host PIN and seat claims against the real served panel, daemon and Mosquitto."""

from __future__ import annotations

import json
import os
import stat

import pytest

from gametable.testing.panel import PIN
from gametable_core.config import parse
from tests.security.conftest import host_of, join_code, seated, start_game
from tests.security.lan import Phone, lan
from web_panel.security import pin_file, resolve_pin

pytestmark = pytest.mark.mqtt


def _unlock(phone: Phone, pin: str, n: int) -> tuple[int, dict]:
    return phone.post("/api/host/unlock", {"id": f"pin-guess-{n:05d}", "pin": pin})


def test_pin_guessing_from_other_phones_pauses_pins_for_all_but_the_host_link_still_opens(stack):
    guessers = [Phone(stack.panel.port, lan(i)) for i in range(6)]
    n = 0
    for phone in guessers:  # 6 phones x 6 wrong PINs: past the table's budget
        for _ in range(6):
            n += 1
            status, _ = _unlock(phone, "1357", n)
            assert status in (403, 429)
    host = Phone(stack.panel.port, lan(1, net=9))
    status, body = _unlock(host, PIN, 99)  # PIN login pauses for everyone, the host's phone too
    assert status == 429 and body["error"].startswith("too many wrong PINs on this table")
    key = stack.panel.app.extensions["gametable"]["login"].key  # the host link (console, table screen)
    assert host.post("/api/host/unlock", {"id": "host-link-99", "key": key}) == (200, {"ok": True})
    assert "gt_host" in host.cookies


def test_a_guessing_phone_waits_longer_after_each_pause(stack):
    phone = Phone(stack.panel.port, lan(0))
    for i in range(5):
        assert _unlock(phone, "1111", i)[0] == 403
    status, body = _unlock(phone, PIN, 10)  # even the right PIN waits out the pause
    assert (status, body["error"]) == (429, "too many wrong PINs; try again in 60 s")
    stack.panel_clock.advance(61)
    assert _unlock(phone, "2222", 11)[0] == 403  # one more wrong PIN: the pause doubles
    assert _unlock(phone, PIN, 12)[1]["error"] == "too many wrong PINs; try again in 120 s"
    stack.panel_clock.advance(121)
    assert _unlock(phone, PIN, 13) == (200, {"ok": True})


def test_gametable_run_makes_a_random_pin_at_first_start_and_keeps_it(tmp_path, capsys):
    config = parse({"journal": {"path": str(tmp_path / "j.sqlite")}})  # [panel] pin left at 0000
    pin = resolve_pin(config)
    assert pin.isdigit() and len(pin) == 6 and pin != "0000"
    path = pin_file(config)
    assert path.read_text().strip() == pin and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert f"panel host PIN: {pin}" in capsys.readouterr().out  # shown on the console
    assert resolve_pin(config) == pin  # the same at the next start
    chosen = parse({"journal": {"path": str(tmp_path / "j.sqlite")}, "panel": {"pin": "80412795"}})
    assert resolve_pin(chosen) == "80412795"  # a configured (longer) PIN is used as it is


def test_the_default_pin_is_flagged_to_the_host_screen(broker, tmp_path):
    from gametable.testing.table import start_stack

    s = start_stack(broker, str(tmp_path / "j.sqlite"))
    try:
        assert json.loads(Phone(s.panel.port, lan(0)).get("/api/info")[1])["pin_is_default"] is False
    finally:
        s.stop()
    from controller.daemon import Daemon
    from web_panel.server import PanelServer

    config = parse({"table_id": "t1", "mqtt": {"host": broker.host, "port": broker.port},
                    "journal": {"path": str(tmp_path / "k.sqlite")}, "panel": {"host": "127.0.0.1"}})
    daemon = Daemon(config)
    daemon.start()
    panel = PanelServer(config, port=0).start()  # not through serve(): the 0000 PIN stays
    try:
        assert json.loads(Phone(panel.port, lan(0)).get("/api/info")[1])["pin_is_default"] is True
    finally:
        panel.stop()
        daemon.stop()


def test_one_seat_per_phone_even_without_its_cookie(stack):
    host = host_of(stack)
    start_game(stack, host)
    ann = seated(stack, 1, lan(0))
    again = Phone(stack.panel.port, lan(0))  # the same phone, cookies cleared (or a private tab)
    status, body = again.post("/api/seat/claim", {"id": "grab-seat-2", "seat": 2, "code": join_code(stack)})
    assert status == 409 and body["error"].startswith("this phone already holds seat 1; one seat per phone")
    assert again.get("/api/info")[0] == 200 and json.loads(again.get("/api/info")[1])["taken"] == [1]
    # It cannot read a free seat's hand either: the stream carries no private view for it.
    stream = again.stream()
    assert stream.wait_for("me") == {"seat": None, "host": False, "taken": [1]}
    stream.close()
    assert ann.post("/api/cmd", {"id": "ann-still-plays", "type": "end_turn", "confirm": True}) == (200, {"ok": True})


def test_the_host_frees_a_seat_and_opens_one_for_a_shared_phone(stack):
    host = host_of(stack)
    start_game(stack, host)
    seated(stack, 1, lan(0))
    shared = Phone(stack.panel.port, lan(0))
    stranger = Phone(stack.panel.port, lan(3))
    assert stranger.post("/api/host/share", {"id": "share-not-host", "seat": 2})[0] == 403
    assert host.post("/api/host/share", {"id": "share-seat-2", "seat": 2}) == (200, {"ok": True, "seat": 2})
    assert shared.post("/api/seat/claim", {"id": "shared-claim-2", "seat": 2}) == (200, {"ok": True, "seat": 2})
    assert shared.post("/api/cmd", {"id": "shared-no-turn", "type": "end_turn", "confirm": True})[1]["error"] == \
        "it is seat 1's turn, not seat 2's"
    # The host frees seat 2: the shared phone loses it; the seat is free for anyone.
    assert host.post("/api/host/release", {"id": "free-seat-2", "seat": 2}) == (200, {"ok": True})
    assert shared.post("/api/cmd", {"id": "shared-freed", "type": "end_turn"})[1]["error"] == \
        "this phone holds no seat; join a seat first"
    assert stranger.post("/api/seat/claim", {"id": "stranger-claim-2", "seat": 2})[0] == 403  # no QR code seen
    assert stranger.post("/api/seat/claim", {"id": "at-table-claim-2", "seat": 2, "code": join_code(stack)})[0] == 200


def test_gametable_run_prints_its_generated_pin_and_the_host_unlocks_with_it(broker, tmp_path):
    import re
    import selectors
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    from gametable.broker import free_port

    port = free_port()
    conf = tmp_path / "table.toml"
    conf.write_text(f'table_id = "t9"\n[mqtt]\nhost = "{broker.host}"\nport = {broker.port}\n'
                    f'[journal]\npath = "{tmp_path / "j.sqlite"}"\n[panel]\nhost = "127.0.0.1"\nport = {port}\n')
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "-m", "gametable.cli", "run", "--config", str(conf), "--no-hardware"],
                            cwd=root, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ)
        out, deadline = b"", time.monotonic() + 20
        while b"panel host PIN:" not in out and time.monotonic() < deadline:
            if sel.select(timeout=0.5):
                out += proc.stdout.read1(4096)
        match = re.search(rb"panel host PIN: (\d{6}) \(new, kept in ", out)
        assert match, out
        pin = match.group(1).decode()
        assert (tmp_path / "j.sqlite.panel-pin").read_text().strip() == pin
        phone = None
        while phone is None and time.monotonic() < deadline:
            try:
                phone = Phone(port, lan(0))
            except OSError:
                time.sleep(0.1)
        assert phone is not None
        assert _unlock(phone, "0000", 1)[0] == 403  # the default PIN does not open it
        assert _unlock(phone, pin, 2) == (200, {"ok": True})
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
