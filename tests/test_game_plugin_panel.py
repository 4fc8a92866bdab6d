"""Proof of the game contract, panel part (issue 11): a game that lives only under ``tests/``
(Take Turns, ``tests/games/taketurns``: two players take 1-3 tokens in turn, the other may doubt
within a reaction window, and the table's deadline closes it) is registered and played end to end
through the REAL daemon, a real Mosquitto and the served panel in Chromium — its lobby entry from
the retained ``games`` topic, its log lines from its own words on ``events``, its phone screens
from its own ``phone/view.js``, its own inputs from the phones. No file of the daemon or the panel
knows it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.games import register, registry, unregister
from tests.games import taketurns
from tests.helpers.browser import PHONE, shot
from tests.helpers.panel import PIN, start_stack

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]

VIEW = Path(taketurns.__file__).parent / "phone"


@pytest.fixture
def plugin_stack(broker, tmp_path):
    registry()  # the built-in games first, then ours beside them
    register(taketurns)
    s = start_stack(broker, str(tmp_path / "journal.sqlite"), game_views={"taketurns": VIEW})
    try:
        yield s
    finally:
        s.stop()
        unregister("taketurns")


def test_a_game_living_only_under_tests_is_played_on_the_phones_end_to_end(plugin_stack, browser):
    stack = plugin_stack
    errors: list[str] = []
    fetched: list[str] = []

    def phone(path: str):
        page = browser.new_context(**PHONE).new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.on("request", lambda req: fetched.append(req.url))
        page.goto(stack.url + path)
        return page

    # The lobby lists the game from the daemon's retained games topic; the host sets it up.
    host = phone("/host")
    host.fill("#pin", PIN)
    host.click("#unlock")
    host.locator("#lobby").wait_for()
    host.select_option("#game", "taketurns")
    host.locator("#start").filter(has_text="Take Turns").wait_for()
    host.uncheck("[data-lobby=include][data-seat='3']")
    host.click("[data-action=lobby-set][data-key=orderMode][data-value=manual]")
    host.fill("#name-1", "Ann")
    host.fill("#name-2", "Bo")
    host.fill("#opt-timeout_s", "2")
    host.fill("#opt-pile", "5")
    host.click("#start")
    host.locator("#turn-banner").filter(has_text="Ann's turn").wait_for()
    assert stack.daemon.public_state()["game"] == "taketurns"

    ann, bo, table = phone("/join"), phone("/join"), phone("/table")
    ann.click("#seat-1")
    bo.click("#seat-2")
    ann.locator("#tt-moves").wait_for()  # the game's own screen, from its own view.js
    bo.locator("#tt-pile").wait_for()
    assert any(url.endswith("/games/taketurns/view.js") for url in fetched)

    # Ann takes 2; only Bo may doubt, with the table's countdown; Bo doubts: one token goes back.
    ann.click("#tt-take-2")
    bo.locator("#tt-claim").filter(has_text="Ann took — doubt?").wait_for()
    assert 0 <= int(bo.inner_text("#tt-seconds")) <= 2
    assert ann.locator("#tt-doubt").count() == 0
    shot("plugin-bo-may-doubt.png", bo)
    bo.click("#tt-doubt")
    table.locator("#log").filter(has_text="Bo doubts: one token goes back").wait_for()
    bo.locator("#tt-moves").wait_for()
    assert table.inner_text("#tt-count") == "4"

    # Bo takes 1; the host pauses and resumes the countdown (any game's deadline); then nobody
    # answers and the daemon's deadline closes the window: the take stands.
    bo.click("#tt-take-1")
    ann.locator("#tt-doubt").wait_for()
    host.click("#tt-pause")
    host.locator("#tt-paused").wait_for()
    host.click("#tt-resume")
    host.locator("#tt-pause").wait_for()
    table.locator("#log").filter(has_text="Time is up: the take stands").wait_for(timeout=8_000)
    ann.locator("#tt-moves").wait_for()
    assert table.inner_text("#tt-count") == "3"

    # Ann takes the last 3 tokens and wins.
    ann.click("#tt-take-3")
    for page in (ann, bo, table, host):
        page.locator("#turn-banner").filter(has_text="Game over").wait_for()
    table.locator("#log").filter(has_text="Ann takes 3").wait_for()
    table.locator("#log").filter(has_text="Game over: Ann wins").wait_for()
    shot("plugin-table-over.png", table, full=True)
    assert stack.daemon.public_state()["winner"] == [1]
    assert errors == []
