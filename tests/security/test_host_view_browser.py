"""On the host screen (Chromium): the 0000 warning, sharing a seat, freeing a seat."""

from __future__ import annotations

import pytest

from controller.daemon import Daemon
from gametable_core.config import parse
from tests.helpers.browser import PHONE, shot
from tests.security.conftest import rotating_pin_attack
from web_panel.server import PanelServer

pytestmark = [pytest.mark.mqtt, pytest.mark.browser, pytest.mark.usefixtures("close_contexts")]


def test_host_screen_warns_about_0000_shares_and_frees_seats(broker, browser, tmp_path):
    config = parse({"table_id": "t1", "mqtt": {"host": broker.host, "port": broker.port},
                    "journal": {"path": str(tmp_path / "j.sqlite")}, "panel": {"host": "127.0.0.1"}})
    daemon = Daemon(config)
    daemon.start()
    panel = PanelServer(config, port=0).start()  # the PIN left at 0000
    try:
        assert panel.link.connected.wait(10)
        host = browser.new_context(**PHONE).new_page()
        host.set_default_timeout(10_000)
        host.goto(panel.url + "/host")
        host.wait_for_function("() => S.online && Object.keys(S.games).length > 0")  # no redraw lands mid-tap
        host.fill("#pin", "0000")
        host.click("#unlock")
        host.locator("#pin-warning").filter(has_text="The table PIN is 0000").wait_for()
        ann = browser.new_context(**PHONE).new_page()
        ann.set_default_timeout(10_000)
        ann.goto(panel.url + "/join")
        ann.click("#seat-1")
        host.locator("[data-action=release][data-seat='1']").wait_for()
        assert host.locator("#share-seats button").all_inner_texts() == [f"Seat {s}" for s in range(2, 7)]
        host.click("#share-seats [data-seat='2']")
        host.locator("#toast").filter(has_text="Seat 2 may now be taken").wait_for()
        assert panel.app.extensions["gametable"]["seats"].is_open_for_shared(2)
        shot("host-phones-share.png", host)
        host.click("[data-action=release][data-seat='1']")
        host.locator("#share-seats [data-seat='1']").wait_for()  # seat 1 is free again
        assert panel.app.extensions["gametable"]["seats"].taken() == []
    finally:
        panel.stop()
        daemon.stop()


def test_the_tables_own_screen_shows_a_pin_lockout_lifts_it_and_the_host_link_opens_the_host_screen(stack, browser):
    """On the table's own screen (Chromium on loopback): the lockout card, its button,
    the host link's QR code; the link (``/host#key=…``) opens the host screen in one step."""
    rotating_pin_attack(stack, 150)
    screen = browser.new_context(**PHONE).new_page()
    screen.set_default_timeout(10_000)
    screen.goto(stack.url + "/host")
    screen.locator("#pin-lockout").filter(has_text="PIN login is locked after 100 wrong PINs").wait_for()
    screen.locator("#host-qr").wait_for()
    shot("host-pin-lockout.png", screen)
    screen.click("#lift-lockout")
    screen.locator("#toast").filter(has_text="PIN login unlocked").wait_for()
    screen.locator("#pin-lockout").wait_for(state="detached")
    assert stack.panel.app.extensions["gametable"]["login"].report()["locked"] is False
    phone = browser.new_context(**PHONE).new_page()
    phone.set_default_timeout(10_000)
    phone.goto(stack.url + "/host#key=" + stack.panel.app.extensions["gametable"]["login"].key)
    phone.locator("#conn").filter(has_text="host · live").wait_for()
    assert "#key=" not in phone.url  # the key is dropped from the address bar once used


def test_a_redraw_between_typing_the_pin_and_tapping_unlock_keeps_the_pin(stack, browser):
    """The host screen redraws whenever the table's state arrives; one landing after the PIN is typed
    (the tap on Unlock moves the focus off the field first) must not wipe it, or the tap sends an
    empty PIN, which counts as a wrong one."""
    from gametable.testing.panel import PIN

    host = browser.new_context(**PHONE).new_page()
    host.set_default_timeout(10_000)
    host.goto(stack.url + "/host")
    host.wait_for_function("() => S.online && Object.keys(S.games).length > 0")
    host.fill("#pin", PIN)
    host.evaluate("() => { document.activeElement.blur(); render(); }")  # the state lands as the focus leaves
    assert host.input_value("#pin") == PIN
    host.click("#unlock")
    host.locator("#conn").filter(has_text="host · live").wait_for()
    assert stack.panel.app.extensions["gametable"]["login"].report()["wrong_pins"] == 0
