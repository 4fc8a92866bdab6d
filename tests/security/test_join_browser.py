"""In Chromium: the table's own screen shows the join QR code; a phone on the LAN that
opens its link sits with one tap, a phone that did not gets told to scan it (and may watch)."""

from __future__ import annotations

import pytest

from gametable.testing.table import start_stack
from gametable_core.clock import FakeClock
from tests.helpers.browser import PHONE, shot
from web_panel.app import lan_address

pytestmark = [pytest.mark.mqtt, pytest.mark.browser, pytest.mark.usefixtures("close_contexts")]


@pytest.fixture
def lan_stack(broker, tmp_path):
    """The panel on every interface: the table's screen on loopback, phones on the LAN address."""
    if lan_address() is None:
        pytest.skip("this machine has no LAN address for a phone to come from")
    s = start_stack(broker, str(tmp_path / "journal.sqlite"), clock=FakeClock(), host="0.0.0.0")
    yield s
    s.stop()


def _page(browser, url: str):
    page = browser.new_context(**PHONE).new_page()
    page.set_default_timeout(10_000)
    page.goto(url)
    return page


def test_a_phone_that_opens_the_tables_qr_link_sits_and_one_that_did_not_is_told_to_scan(lan_stack, browser):
    port = lan_stack.panel.port
    screen = _page(browser, f"http://127.0.0.1:{port}/table")  # the table's own screen
    link = screen.locator("#join-url").filter(has_text="?code=")
    link.wait_for()
    screen.locator("#qr").wait_for()
    shot("table-join-qr.png", screen)
    url = link.inner_text()
    assert url.startswith(f"http://{lan_address()}:{port}/join?code=")
    stranger = _page(browser, f"http://{lan_address()}:{port}/join")  # typed the address, saw no QR code
    stranger.locator("#join-hint").filter(has_text="scan the QR code on the table's screen").wait_for()
    stranger.click("#seat-3")
    stranger.locator("#toast").filter(has_text="taking a seat needs the QR code").wait_for()
    phone = _page(browser, url)  # scanned it
    phone.wait_for_function("() => !location.search.includes('code=')")  # it leaves the address bar (screenshots)
    assert phone.locator("#join-hint").count() == 0
    phone.click("#seat-2")
    phone.locator("#conn").filter(has_text="seat 2 · live").wait_for()
    assert lan_stack.panel.app.extensions["gametable"]["seats"].taken() == [2]
    stranger.goto(f"http://{lan_address()}:{port}/table")  # watching stays open
    stranger.locator("#conn").filter(has_text="live").wait_for()
