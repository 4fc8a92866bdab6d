"""Proof of the game contract, panel part: a game that lives only under ``tests/``
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
from gametable.testing.panel import PIN
from gametable.testing.table import start_stack
from tests.games import taketurns
from tests.helpers.browser import PHONE, shot, start_from_lobby

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]

VIEW = Path(taketurns.__file__).parent / "phone"


@pytest.fixture
def registered():
    registry()  # the built-in games first, then ours beside them
    register(taketurns)
    yield taketurns
    unregister("taketurns")


@pytest.fixture
def plugin_stack(registered, broker, tmp_path):
    s = start_stack(broker, str(tmp_path / "journal.sqlite"), game_views={"taketurns": VIEW})
    yield s
    s.stop()


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
    host.fill("#opt-timeout_s", "5")
    host.fill("#opt-pile", "5")
    start_from_lobby(host)
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
    assert 0 <= int(bo.inner_text("#tt-seconds")) <= 6  # the table's 5 s, give or take the phone's tick
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
    table.locator("#log").filter(has_text="Time is up: the take stands").wait_for(timeout=15_000)
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


def test_a_game_without_a_phone_view_is_still_played_from_the_panels_own_screens(registered, broker, browser,
                                                                                  tmp_path):
    """No phone/ folder given: /games/taketurns/view.js is a 404, and the panel's generic screens
    offer the seat's legal moves of the game's declared phone inputs, sent exactly as listed."""
    stack = start_stack(broker, str(tmp_path / "journal.sqlite"))
    try:
        assert stack.daemon.submit({"type": "new_game", "game": "taketurns", "id": "tt-new-1", "seed": 1,
                                    "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}],
                                    "options": {"timeout_s": 30}})["ok"]
        errors: list[str] = []
        statuses: dict[str, int] = {}
        pages = []
        for seat in (1, 2):
            page = browser.new_context(**PHONE).new_page()
            page.set_default_timeout(10_000)
            page.on("pageerror", lambda err: errors.append(str(err)))
            page.on("response", lambda resp: statuses.setdefault(resp.url.split("/", 3)[-1], resp.status))
            page.goto(stack.url + "/join")
            page.click(f"#seat-{seat}")
            pages.append(page)
        ann, bo = pages
        ann.get_by_role("button", name="take · count 2").click()
        bo.get_by_role("button", name="pass").click()
        table = browser.new_context(**PHONE).new_page()
        table.goto(stack.url + "/table")
        table.locator("#log").filter(has_text="Bo lets it stand").wait_for(timeout=10_000)
        assert stack.daemon.public_state()["pile"] == 5
        assert statuses.get("games/taketurns/view.js") == 404 and ann.locator("#tt-pile").count() == 0
        assert errors == []
    finally:
        stack.stop()
