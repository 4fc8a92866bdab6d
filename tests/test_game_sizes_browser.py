"""Every control a fingertip's size, every text readable and nothing left in English on the game
screens (docs/phones.md "Sizes"), as a seated player sees them: each game's seat and table views in
zh-CN at 360×740 in a real Chromium against the real daemon and panel. Every visible control's tap
target is at least 44×44 px, no visible text is under 12 px (tests/test_panel_sizes_browser.py's
measure), and no visible word is English but the names the players typed and the button that
switches to English."""

from __future__ import annotations

import json
import uuid

import pytest

from gametable.testing.games import coup_game
from gametable.testing.recorder import Recorder
from tests.helpers.browser import english_words, phone_page, shot
from tests.sgmap_helpers import tiny_map
from tests.test_panel_sizes_browser import MEASURE

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]

NAMES = ["Ann", "Bo", "Cy", "Di"]


def _players(n: int, teams: bool = False) -> list[dict]:
    return [{"seat": s, "name": NAMES[s - 1], **({"team": "AB"[(s - 1) % 2]} if teams else {})} for s in range(1, n + 1)]


GAMES = {
    # game: (new_game body, what the seat's screen shows once drawn)
    "coinwar": ({"game": "coinwar", "mode": "ffa", "players": _players(2), "order": [1, 2], "seed": 3}, "#turn-banner"),
    "football": ({"game": "coinwar", "mode": "football", "players": _players(2, teams=True), "order": [1, 2], "seed": 3},
                 "#turn-banner"),
    "coup": (coup_game(), "#turn-banner"),
    "bang": ({"game": "bang", "mode": "classic", "players": _players(4), "order": [1, 2, 3, 4], "seed": 3}, ".bg-ring"),
    "sanguosha_map": ({"game": "sanguosha_map", "mode": "battle", "players": _players(2, teams=True), "seed": 3,
                       "options": {"map": tiny_map()}}, "#sg-viewport"),
    "sanguosha_map_full": ({"game": "sanguosha_map", "mode": "battle", "players": _players(2, teams=True), "seed": 3},
                           "#sg-viewport"),
}
COINS = {"coins": {"c1": [80.0, 60.0], "c2": [345.0, 560.0]}, "off": [], "moving": False}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("route", ["seat", "table"])
def test_game_screens_controls_are_fingertip_sized_and_text_readable(stack, browser, broker, game, route):
    body, drawn = GAMES[game]
    errors: list[str] = []
    rec = Recorder(broker.host, broker.port, "gametable/t1/cmd/result")
    try:
        assert rec.command("t1", {**body, "type": "new_game", "id": f"sizes-{uuid.uuid4().hex}"})["ok"]
        if body["game"] == "coinwar":
            rec.client.publish("gametable/t1/sensors/table", json.dumps(COINS), qos=1, retain=True).wait_for_publish(5)
        page = phone_page(browser, stack.url + "/join", errors, locale="zh-CN")
        page.click("#seat-1")
        page.goto(stack.url + "/" + route)
        page.locator(drawn).first.wait_for()
        found = page.evaluate(MEASURE)
        english = english_words(page, NAMES)
        shot(f"sizes/{game}-{route}.png", page, full=True)
    finally:
        if body["game"] == "coinwar":
            rec.client.publish("gametable/t1/sensors/table", b"", qos=1, retain=True).wait_for_publish(5)
        rec.close()
    assert not found["small"], "\n".join(found["small"])
    assert not found["tiny"], "\n".join(found["tiny"])
    assert not english, "\n".join(english)
    assert not errors, errors
