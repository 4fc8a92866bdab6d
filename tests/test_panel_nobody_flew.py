"""A real table rarely proves that no coin flew, so CW-8 asks "which coins
flew?" after almost every strike; the striker's phone answers it with one tap ("Nobody flew",
shown first). Real Chromium, the real daemon and Mosquitto."""

from __future__ import annotations

import pytest

from gametable.testing.panel import NEW_GAME
from gametable.testing.recorder import Recorder
from tests.helpers.browser import PHONE, shot

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]


def test_cw8_the_striker_answers_which_coins_flew_with_one_tap(stack, browser, broker):
    stack.daemon.submit({**NEW_GAME, "id": "game-nobody-flew"})
    ann = browser.new_context(**PHONE).new_page()
    ann.set_default_timeout(10_000)
    ann.goto(stack.url + "/join")
    ann.click("#seat-1")
    ann.locator("#turn-banner").filter(has_text="YOUR TURN").wait_for()

    # the beams saw the goal stay empty but cannot prove that nothing flew
    sensors = Recorder(broker.host, broker.port, "gametable/t1/cmd/result")
    try:
        res = sensors.command("t1", {"type": "shot", "seat": 1, "coin": "c1", "dead": [], "flown": None,
                                     "contacts": [], "id": "sensor-flown-unknown"})
    finally:
        sensors.close()
    assert res["ok"] is True
    question = stack.daemon.public_state()["questions"][0]
    assert question["kind"] == "flown"
    card = ann.locator("#question")
    card.wait_for()
    # the one-tap answer comes before the coins to pick
    first = card.locator("button").first
    assert first.get_attribute("id") == "answer-none" and first.inner_text() == "Nobody flew"
    shot("phone-nobody-flew.png", ann)
    first.click()
    card.wait_for(state="detached")
    state = stack.daemon.public_state()
    assert state["questions"] == []
    assert all(p["alive"] for p in state["players"])  # nobody flew: no foul (CW-6)
