"""The shared screen at 1920x1080 (docs/phones.md), a TV or the Pi's own monitor, in a real Chromium
with the real daemon, a real Mosquitto and the real panel, for every game: the board takes the wide
left column, the log (and the players, where the board is something else) stands beside it, the
page does not scroll sideways, and the log's text is large enough to read from 3 m (about 28 px).
Screenshots: test-artifacts/tv-*.png."""

from __future__ import annotations

import uuid

import pytest

from gametable.testing.games import coup_game
from gametable.testing.recorder import Recorder
from tests.helpers.browser import drawn_box, shot
from tests.sgmap_helpers import tiny_map

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]

TV = {"viewport": {"width": 1920, "height": 1080}, "device_scale_factor": 1}
NAMES = ["Ann", "Bo", "Cy", "Di"]
ERRORS: list[str] = []


def players(n: int, teams: bool = False) -> list[dict]:
    return [{"seat": s, "name": NAMES[s - 1], **({"team": "AB"[(s - 1) % 2]} if teams else {})} for s in range(1, n + 1)]


GAMES = {
    # game: (new_game body, the board's selector)
    "coinwar": ({"game": "coinwar", "mode": "ffa", "players": players(2), "order": [1, 2], "seed": 3}, "#players"),
    "coup": (coup_game(), "#players"),
    "bang": ({"game": "bang", "mode": "classic", "players": players(4), "order": [1, 2, 3, 4], "seed": 3}, ".bg-ring"),
    "sanguosha_map": ({"game": "sanguosha_map", "mode": "battle", "players": players(2, teams=True), "seed": 3,
                       "options": {"map": tiny_map()}}, "#sg-viewport"),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_tv_layout_board_large_players_and_log_beside_it(stack, browser, broker, game):
    ERRORS.clear()
    body, board_sel = GAMES[game]
    rec = Recorder(broker.host, broker.port, "gametable/t1/cmd/result")
    try:
        assert rec.command("t1", {**body, "type": "new_game", "id": f"tv-{uuid.uuid4().hex}"})["ok"]
    finally:
        rec.close()
    page = browser.new_context(**TV).new_page()
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda err: ERRORS.append(str(err)))
    page.goto(stack.url + "/table")
    page.locator(".tv-main " + board_sel).first.wait_for()
    page.locator(".tv-side #log li").first.wait_for()
    shot(f"tv-{game}.png", page)
    board, side = drawn_box(page.locator(board_sel).first), drawn_box(page.locator(".tv-side"))
    main = drawn_box(page.locator(".tv-main"))
    assert main["width"] >= 1920 * 0.6, main  # the wide column
    assert board["width"] >= 560, board  # a big board (the ring and the map as tall as the screen allows)
    assert game not in ("bang", "sanguosha_map") or board["height"] >= 0.5 * 1080, board
    assert board["y"] + board["height"] <= 1080 + 1, board  # the whole board on the screen
    assert side["x"] >= main["x"] + main["width"] and side["y"] < 300, (main, side)  # beside it, at the top
    line = drawn_box(page.locator("#log li").first)
    size = page.eval_on_selector("#log li", "e => parseFloat(getComputedStyle(e).fontSize)")
    assert size * 1.5 >= 27 or line["height"] >= 36, (size, line)  # the page is drawn 1.5 x (app.css .tv)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920
    assert not ERRORS, ERRORS
