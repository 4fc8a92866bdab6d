"""The host's panel says when the table dropped a torn journal record at its start.

The daemon publishes a retained ``sensors/journal``; the host's phone (real Chromium, real
Mosquitto, real daemon and panel) shows it in the connection line until a sound start clears it.
Players' phones are not bothered with it.
"""

from __future__ import annotations

import sqlite3

import pytest

from controller.journal import Journal
from controller.table import Table
from gametable.testing.panel import NEW_GAME, PIN
from gametable.testing.table import start_stack
from tests.helpers.browser import PHONE, shot

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]


def _torn_journal(path) -> int:
    """A journal whose last record a power cut tore; returns that record's seq."""
    table = Table(Journal(path))
    assert table.submit({**NEW_GAME, "id": "g1"}).ok
    assert table.submit({"type": "strike", "seat": 1, "id": "s1"}).ok
    seq = table.journal.last_seq
    table.journal.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE inputs SET body = substr(body, 1, 5) WHERE seq = ?", (seq,))
    db.commit()
    db.close()
    return seq


def _host(browser, url: str):
    page = browser.new_context(**PHONE).new_page()
    page.set_default_timeout(10_000)
    page.goto(url + "/host")
    page.wait_for_function("() => S.online && Object.keys(S.games).length > 0")  # no redraw lands mid-tap
    page.fill("#pin", PIN)
    page.click("#unlock")
    return page


def host_alone_is_told(broker, browser, path, text: str, word: str, picture: str) -> None:
    """Start the stack on ``path``: the host's connection line shows ``text``; a seat's has no ``word``."""
    stack = start_stack(broker, str(path))
    try:
        host = _host(browser, stack.url)
        host.locator("#conn").filter(has_text=text).wait_for()
        shot(picture, host)
        seat = browser.new_context(**PHONE).new_page()
        seat.goto(stack.url + "/join")
        seat.locator("#conn").filter(has_text="live").wait_for()
        assert word not in seat.inner_text("#conn")
    finally:
        stack.stop()


def test_the_host_is_told_a_torn_record_was_dropped_and_a_sound_start_clears_it(broker, browser, tmp_path):
    path = tmp_path / "journal.sqlite"
    seq = _torn_journal(path)
    host_alone_is_told(broker, browser, path, f"input #{seq} lost in a power cut: check the state", "power cut",
                       "host-journal-torn.png")
    stack = start_stack(broker, str(path))  # the next start finds a sound journal
    try:
        host = _host(browser, stack.url)
        host.locator("#conn").filter(has_text="host · live").wait_for()
        stack.wait(lambda: stack.panel.link.journal is None, what="the cleared notice")
        host.reload()
        host.locator("#conn").filter(has_text="host · live").wait_for()
        assert "power cut" not in host.inner_text("#conn")
    finally:
        stack.stop()
