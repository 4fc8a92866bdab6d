"""The battlefield played on 360x640 phones (docs/phones.md), in a real Chromium with the real daemon,
a real Mosquitto and the real panel, on the built-in 9x13 map: the whole map fits the phone, fingers
pinch it larger and the zoom buttons do the same; a legend names the cell kinds; a tap on a cell
shows the path and its cost before the move; the log says the cell in words; the general who is
hit sees the loss on his own phone (here in Chinese); the boss window is answered from a phone.
Screenshots: test-artifacts/sgmap-360-*.png."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from gametable.testing.recorder import Recorder
from tests.helpers.browser import drawn_box, phone_page, shot
from tests.sgmap_helpers import tap_cell, tiny_map

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]

ERRORS: list[str] = []


def phone(browser, url: str, locale: str = "en-GB"):
    return phone_page(browser, url, ERRORS, locale=locale)


def start(broker, options: dict, players: list[dict]) -> None:
    rec = Recorder(broker.host, broker.port, "gametable/t1/cmd/result")
    try:
        assert rec.command("t1", {"id": f"sg-phone-{uuid.uuid4().hex[:10]}", "type": "new_game", "game": "sanguosha_map",
                                  "players": players, "seed": 3, "options": options})["ok"]
    finally:
        rec.close()


def seated(browser, stack, seats: dict[int, str]):
    pages = {}
    for seat, locale in seats.items():
        page = phone(browser, stack.url + "/join", locale)
        page.click(f"#seat-{seat}")
        page.locator("#board").wait_for()
        pages[seat] = page
    return pages


def pinch(page, centre: tuple[float, float], start_gap: float, end_gap: float, steps: int = 6) -> None:
    """Two fingers spread apart on the screen (Chromium's own touch input, as a phone sends it)."""
    cdp = page.context.new_cdp_session(page)
    x, y = centre

    def points(gap: float) -> list[dict]:
        return [{"x": x - gap / 2, "y": y, "id": 0}, {"x": x + gap / 2, "y": y, "id": 1}]

    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points(start_gap)})
    for i in range(1, steps + 1):
        cdp.send("Input.dispatchTouchEvent",
                 {"type": "touchMove", "touchPoints": points(start_gap + (end_gap - start_gap) * i / steps)})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_sg_map_at_360px_whole_map_zoom_legend_path_and_losses(stack, browser, broker):
    ERRORS.clear()
    setup = {"dice": [1, 3], "generals": {"1": "simayi", "2": "caocao"}, "positions": {"1": [4, 5], "2": [4, 8]},
             "hands": {"1": ["strike-1"], "2": ["strike-2"]}}
    start(broker, {"setup": setup, "timeout_s": 30},
          [{"seat": 1, "name": "Ann", "team": "A"}, {"seat": 2, "name": "Bo", "team": "B"}])
    pages = seated(browser, stack, {1: "en-GB", 2: "zh-CN"})
    ann, bo = pages[1], pages[2]

    # the whole 9x13 map is on the screen at first, its tokens readable, the legend under it
    viewport = drawn_box(ann.locator("#sg-viewport"))
    assert viewport["x"] >= 0 and viewport["x"] + viewport["width"] <= 360
    assert ann.locator("#sg-board .sg-cell").count() == 9 * 13
    last = drawn_box(ann.locator('.sg-cell[data-cell="8,12"]'))
    assert last["x"] + last["width"] <= viewport["x"] + viewport["width"] + 1
    assert float(ann.eval_on_selector('.sg-general[data-seat="1"] b', "e => parseFloat(getComputedStyle(e).fontSize)")) >= 11
    legend = ann.locator("#sg-legend")
    for kind in ("Castle A", "Road", "Boss point", "Wall (only a horse jumps it)"):
        expect(legend).to_contain_text(kind)
    expect(bo.locator("#sg-legend")).to_contain_text("道路")  # Bo's phone reads Chinese
    expect(ann.locator("#me")).to_contain_text("Simayi")  # generals by name, pinyin capitalised
    shot("sgmap-360-whole-map.png", ann, full=True)

    # zoom: the + button, then two fingers; ⤢ brings the whole map back
    ann.click("#sg-zoom-in")
    expect(ann.locator("#sg-board")).to_have_attribute("data-zoom", "1.5")
    cell = drawn_box(ann.locator("#sg-viewport"))
    pinch(ann, (cell["x"] + cell["width"] / 2, cell["y"] + cell["height"] / 2), 60, 160)
    ann.wait_for_function("() => +document.getElementById('sg-board').dataset.zoom > 2.5")
    assert drawn_box(ann.locator('.sg-cell[data-cell="4,6"]'))["width"] >= 44  # a fingertip's size
    shot("sgmap-360-pinched.png", ann)
    ann.click("#sg-zoom-fit")
    expect(ann.locator("#sg-board")).to_have_attribute("data-zoom", "1")

    # SG-8.3: a tap shows the path and its cost; "Move here" moves; the log says where in words
    ann.click("button[data-move=roll]")
    ann.locator('.sg-cell.reach[data-cell="4,7"]').wait_for()
    tap_cell(ann, "4,7")  # a whole-map cell is under 44 px: the first tap zooms in on it
    expect(ann.locator("#sg-path")).to_contain_text("2 steps, costs 2 of your 3 movement")
    assert ann.locator(".sg-cell.on-path").count() == 2
    expect(ann.locator("#sg-pick-place")).to_contain_text("the road (row 5, column 8)")
    shot("sgmap-360-path.png", ann, full=True)
    assert stack.daemon.public_state()["players"][0]["cell"] == [4, 5]  # nothing moved yet
    ann.click("#sg-go")
    stack.wait(lambda: stack.daemon.public_state()["players"][0]["cell"] == [4, 7], what="Ann moved")

    # SG-4: Ann strikes Bo from the move buttons; Bo has no 闪 and passes: his phone shows the loss
    ann.locator('button[data-move=attack]').first.click()
    bo.locator("#window[data-kind=dodge]").wait_for()
    bo.click("button[data-move=pass]")
    stack.wait(lambda: stack.daemon.public_state()["players"][1]["health"] < 4, what="Bo hit")
    loss = bo.locator("#my-loss")
    expect(loss).to_be_visible()
    expect(loss).to_contain_text("−1 ♥")
    assert drawn_box(loss)["y"] < 640  # where he looks: on the screen, not below the fold
    shot("sgmap-360-bo-loss-zh.png", bo)
    table = phone(browser, stack.url + "/table")
    expect(table.locator("#log")).to_contain_text("Ann moves to the road (row 5, column 8), 2 movement")
    assert "[4, 7]" not in table.inner_text("#log")
    assert not ERRORS, ERRORS


def test_sg6_the_boss_window_is_answered_from_a_phone(stack, browser, broker):
    """SG-6: Ann challenges side B's boss from its door; Cy, her side's general on the same door
    with 2 gold, gets the join window on his phone with its countdown and joins; Ann's phone then
    shows the result form."""
    ERRORS.clear()
    setup = {"dice": [1, 2], "generals": {"1": "simayi", "2": "caocao", "3": "zhangliao", "4": "sunquan"},
             "positions": {"1": [2, 5], "2": [7, 6], "3": [2, 5], "4": [7, 7]}, "gold": {"1": 2, "2": 0, "3": 3, "4": 0}}
    start(broker, {"map": tiny_map(), "setup": setup, "timeout_s": 30},
          [{"seat": 1, "name": "Ann", "team": "A"}, {"seat": 2, "name": "Bo", "team": "B"},
           {"seat": 3, "name": "Cy", "team": "A"}, {"seat": 4, "name": "Di", "team": "B"}])
    pages = seated(browser, stack, {1: "en-GB", 3: "en-GB"})
    ann, cy = pages[1], pages[3]
    ann.click("button[data-move=roll]")
    ann.locator("button[data-move=challenge_boss]").wait_for()
    ann.click("button[data-move=challenge_boss]")
    cy.locator("#window[data-kind=boss_join]").wait_for()
    expect(cy.locator("#window-text")).to_contain_text("Ann challenges the boss")
    assert 20 <= int(cy.inner_text("#seconds-left")) <= 30
    assert drawn_box(cy.locator("button[data-move=join_boss]"))["y"] < 640  # the answer is on the screen
    shot("sgmap-360-cy-boss-join.png", cy)
    cy.click("button[data-move=join_boss]")
    ann.locator("#fight-result").wait_for()
    state = stack.daemon.public_state()
    assert state["fight"]["joiners"] == [3] and state["players"][2]["gold"] == 1
    shot("sgmap-360-ann-boss-result.png", ann, full=True)
    assert not ERRORS, ERRORS
