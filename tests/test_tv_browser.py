"""The shared screen at 1920x1080 (docs/phones.md), a TV or the Pi's own monitor, in a real Chromium
with the real daemon, a real Mosquitto and the real panel, for every game: the board takes the wide
left column, the log (and the players, where the board is something else) stands beside it, the
page does not scroll sideways, and the log's text is large enough to read from 3 m (about 28 px).
Screenshots: test-artifacts/tv-*.png."""

from __future__ import annotations

import json
import uuid

import pytest

from gametable.testing.games import coup_game
from gametable.testing.recorder import Recorder
from tests.helpers.browser import SEEN_JS, drawn_box, shot
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


# Every visible text's drawn size (its computed size times the page's zoom: app.css draws the TV
# page 1.5x) and how far the page reaches, as the room sees it.
TV_MEASURE = """() => {
  const zoom = parseFloat(getComputedStyle(document.body).zoom) || 1;
""" + SEEN_JS + """  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    if (!n.textContent.trim() || !p || !seen(p) || p.closest('.toast, dialog:not([open])')) continue;
    const drawn = parseFloat(getComputedStyle(p).fontSize) * zoom;
    if (drawn < 24 - 0.01) small.push(`${p.tagName.toLowerCase()}#${p.id}.${p.className} "${n.textContent.trim().slice(0, 24)}" ${drawn.toFixed(1)}px`);
  }
  return {small, height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth};
}"""

COINS = {"coins": {"c1": [80.0, 60.0], "c2": [345.0, 560.0]}, "off": [], "moving": False}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_tv_view_fills_1920x1080_without_scrolling_and_reads_from_3_m(stack, browser, broker, game):
    """docs/phones.md "The shared screen": for every game the whole table view fits 1920x1080 (no
    scrolling either way), every text is drawn at 24 px or more, and Coin War's drawing of the table
    (coins from the virtual table's sensors/table) takes most of the screen's height."""
    ERRORS.clear()
    body, board_sel = GAMES[game]
    rec = Recorder(broker.host, broker.port, "gametable/t1/cmd/result")
    try:
        assert rec.command("t1", {**body, "type": "new_game", "id": f"tvfit-{uuid.uuid4().hex}"})["ok"]
        if game == "coinwar":
            rec.client.publish("gametable/t1/sensors/table", json.dumps(COINS), qos=1, retain=True).wait_for_publish(5)
        page = browser.new_context(**TV).new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda err: ERRORS.append(str(err)))
        page.goto(stack.url + "/table")
        board_sel = "#board" if game == "coinwar" else board_sel
        page.locator(".tv-main " + board_sel).first.wait_for()
        page.locator(".tv-side #log li").first.wait_for()
        if game == "coinwar":  # the drawing sized to its column (Board.resize on its first frame)
            page.wait_for_function("() => { const c = document.querySelector('#board');"
                                   " return c && Math.abs(c.width - c.clientWidth * devicePixelRatio) <= 2; }")
        shot(f"tv-fit-{game}.png", page)
        found = page.evaluate(TV_MEASURE)
        assert not found["small"], "\n".join(found["small"])
        assert found["height"] <= 1080 and found["width"] <= 1920, found
        board = drawn_box(page.locator(board_sel).first)
        assert board["y"] + board["height"] <= 1080 + 1, board
        if game == "coinwar":
            assert board["height"] >= 0.7 * 1080, board
    finally:
        if game == "coinwar":
            rec.client.publish("gametable/t1/sensors/table", b"", qos=1, retain=True).wait_for_publish(5)
        rec.close()
    assert not ERRORS, ERRORS
