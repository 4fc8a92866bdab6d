"""Host login cannot be guessed by rotating source addresses.

The attack of the red team, on the real served panel (real daemon, real Mosquitto, a FakeClock
for every pause): wrong PINs from hundreds of loopback addresses (``127.x.y.z``), each waiting out
every pause it is told. Whatever the number of addresses, at most ``lockout_after`` PINs are ever
compared; then PIN login is locked until the table's own screen or its console lifts it (and is
told what happened); the host link opens the host screen all along.
"""

from __future__ import annotations

import argparse
import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametable import host_cli
from gametable.testing.panel import PIN
from gametable_core.clock import FakeClock
from tests.security.conftest import rotating_pin_attack, unlock_with_pin
from tests.security.lan import Phone, lan
from web_panel.host_login import ClientBackoff, HostLogin

LOCKOUT = 100  # HostLogin's default: the most PINs the whole LAN may ever try before a person knows


@pytest.mark.mqtt
def test_pins_from_651_rotating_addresses_lock_host_login_after_100_tries(stack):
    compared, seen = rotating_pin_attack(stack, 651)
    assert compared == LOCKOUT and seen[-1] == 423  # (before: 411 guesses a second, none refused)
    assert 429 in seen  # growing pauses for everyone came before the lockout
    # Locked: even the right PIN, from a fresh address, is refused unchecked; the answer says why.
    status, body = unlock_with_pin(Phone(stack.panel.port, lan(3, net=41)), 999_999, PIN)
    assert status == 423 and "gametable host unlock" in body["error"] and "100 wrong PINs" in body["error"]
    stack.panel_clock.advance(7 * 24 * 3600)  # a lockout does not wear off: a person must lift it
    assert unlock_with_pin(Phone(stack.panel.port, lan(4, net=41)), 999_998, PIN)[0] == 423


@pytest.mark.mqtt
def test_the_tables_own_screen_sees_the_lockout_lifts_it_and_is_told_what_happened(stack):
    rotating_pin_attack(stack, 300)
    stranger = Phone(stack.panel.port, lan(7, net=41))
    info = json.loads(stranger.get("/api/info")[1])
    assert "host_login" not in info and "host_link" not in info  # the LAN is told nothing
    assert stranger.post("/api/host/lift", {"id": "stranger-lifts-1"})[0] == 403
    screen = Phone(stack.panel.port, "127.0.0.1")  # the table's own screen
    assert json.loads(screen.get("/api/info")[1])["host_login"]["locked"] is True
    assert unlock_with_pin(screen, 900_001, PIN) == (200, {"ok": True})  # the table's own screen is never locked out
    status, body = screen.post("/api/host/lift", {"id": "screen-lifts-1"})
    assert status == 200 and body["was"]["locked"] is True
    # each wrong PIN came from another address (round robin over 300, fewer than 300 requests)
    assert (body["was"]["wrong_pins"], body["was"]["addresses"]) == (LOCKOUT, LOCKOUT)
    assert unlock_with_pin(stranger, 900_002, PIN) == (200, {"ok": True})  # PIN login works again


@pytest.mark.mqtt
def test_gametable_host_unlock_on_the_console_lifts_the_lockout(stack, tmp_path):
    rotating_pin_attack(stack, 120)
    conf = tmp_path / "table.toml"
    conf.write_text(f'[panel]\nhost = "127.0.0.1"\nport = {stack.panel.port}\n')
    out = io.StringIO()
    assert host_cli.run(argparse.Namespace(config=str(conf)), out) == 0
    text = out.getvalue()
    assert f"host login was LOCKED: {LOCKOUT} wrong PINs from " in text and " addresses, " in text
    assert "host link (keep it to yourself): http://" in text and "/host#key=" in text
    assert unlock_with_pin(Phone(stack.panel.port, lan(9, net=41)), 900_003, PIN) == (200, {"ok": True})


@pytest.mark.mqtt
def test_the_host_link_opens_the_host_screen_even_while_pins_are_locked(stack):
    rotating_pin_attack(stack, 200)
    screen = Phone(stack.panel.port, "127.0.0.1")
    link = json.loads(screen.get("/api/info")[1])["host_link"]
    assert link.endswith("/host#key=" + stack.panel.app.extensions["gametable"]["login"].key)
    assert screen.get("/qr.svg?of=host")[0] == 200
    phone = Phone(stack.panel.port, lan(11, net=41))
    assert phone.get("/qr.svg?of=host")[0] == 403  # the QR code of the link: the table's screen only
    key = link.rsplit("#key=", 1)[1]
    assert phone.post("/api/host/unlock", {"id": "wrong-link-1", "key": key[:-2] + "xx"})[0] == 403
    assert phone.post("/api/host/unlock", {"id": "host-link-1", "key": key}) == (200, {"ok": True})
    assert phone.post("/api/host/release", {"id": "host-link-acts", "seat": 4})[1]["error"] == \
        "seat 4 is not held by any phone"  # a host session: the host's routes answer it


def test_8200_addresses_times_5_wrong_pins_compare_at_most_the_lockout_budget():
    """The second half of the attack: so many addresses that a per-address memory forgets the first."""
    clock = FakeClock()
    login = HostLogin("493817", clock, client=ClientBackoff(max_clients=4096))
    compared = 0
    for round_ in range(5):
        for i in range(8200):
            verdict = login.check_pin(f"10.{i // 250}.{i % 250}.{round_}", f"{i:06d}")
            if verdict.status == 403:
                compared += 1
            elif verdict.status == 429:
                clock.advance(verdict.retry_s + 0.1)
    assert compared == LOCKOUT and login.report()["locked"]
    assert login.check_pin("10.0.0.9", "493817").status == 423


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5000), st.booleans(), st.floats(0, 4000)), max_size=400))
def test_no_sequence_of_attempts_compares_more_pins_than_the_budget(attempts):
    """Any addresses, any timing, right PIN or not: wrong PINs compared never pass the lockout, and
    the right PIN is never refused unless a pause or the lockout says so."""
    clock = FakeClock()
    login = HostLogin("493817", clock, lockout_after=30, table_free=5)
    wrong = 0
    for address, right, wait in attempts:
        clock.advance(wait)
        verdict = login.check_pin(f"addr-{address}", "493817" if right else "000000")
        wrong += verdict.status == 403
        assert verdict.ok == (right and verdict.status == 200)
        assert verdict.status in (200, 403, 423, 429)
    assert wrong <= 30
