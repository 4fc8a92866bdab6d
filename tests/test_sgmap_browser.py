"""The battlefield on 2 phones (docs/rules/sanguosha-map.md), in a real Chromium with the real daemon, a real
Mosquitto and the real panel: Ann rolls, taps a reachable cell to move, taps Bo to attack; Bo's
phone shows the 闪 window with its countdown and dodges; Ann steps onto Bo's cell and offers a
duel; Bo's phone shows the gold at stake and refuses (SG-6: refusing pays the requester).
Screenshots: test-artifacts/ (360x740)."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from gametable.testing.recorder import Recorder
from tests.helpers.browser import PHONE, shot
from tests.sgmap_helpers import tap_cell, tiny_map

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]

ERRORS: list[str] = []


def phone(browser, url: str):
    page = browser.new_context(**PHONE).new_page()
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda err: ERRORS.append(str(err)))
    page.goto(url)
    return page


def new_game() -> dict:
    setup = {"dice": [1, 3], "generals": {"1": "simayi", "2": "caocao"},
             "positions": {"1": [2, 2], "2": [2, 4]}, "gold": {"1": 0, "2": 3},
             "hands": {"1": ["strike-1"], "2": ["dodge-1"]}, "decks": {"action": ["dodge-5", "dodge-6"]}}
    return {"id": f"sg-browser-{uuid.uuid4().hex[:10]}", "type": "new_game", "game": "sanguosha_map",
            "players": [{"seat": 1, "name": "Ann", "team": "A"}, {"seat": 2, "name": "Bo", "team": "B"}],
            "seed": 2, "options": {"map": tiny_map(), "setup": setup, "timeout_s": 30}}


def seated_phones(stack, browser, broker, game: dict):
    """Start ``game`` on the daemon, then Ann's and Bo's phones take seats 1 and 2."""
    rec = Recorder(broker.host, broker.port, "gametable/t1/cmd/result")
    try:
        assert rec.command("t1", game)["ok"]
    finally:
        rec.close()
    ann, bo = (phone(browser, stack.url + "/join") for _ in range(2))
    for seat, page in ((1, ann), (2, bo)):
        page.click(f"#seat-{seat}")
        page.locator("#board").wait_for()
    return ann, bo


def test_two_phones_move_attack_dodge_and_a_refused_duel(stack, browser, broker):
    ERRORS.clear()
    ann, bo = seated_phones(stack, browser, broker, new_game())
    table = phone(browser, stack.url + "/table")
    table.locator("#castle-A").wait_for()
    assert table.inner_text("#castle-A") == "20" and table.locator(".sg-cell").count() == 8 * 9

    # SG-3: Ann rolls 3; her reachable cells show their cost; a tap moves her by the cheapest path
    ann.click("button[data-move=roll]")
    ann.locator('.sg-cell.reach[data-cell="2,3"] .sg-cost').wait_for()
    assert ann.inner_text('.sg-cell[data-cell="2,3"] .sg-cost') == "1"
    assert ann.inner_text('.sg-cell[data-cell="1,4"] .sg-cost') == "3"
    assert bo.locator(".sg-cell.reach").count() == 0  # not Bo's turn
    shot("sgmap-ann-reach.png", ann)
    tap_cell(ann, "2,3")  # the path and its cost show first (docs/phones.md)
    ann.click("#sg-go")
    stack.wait(lambda: stack.daemon.public_state()["players"][0]["cell"] == [2, 3], what="Ann moved")

    # SG-4: Bo is in range: tap him to attack; Bo's phone gets the 闪 window with a countdown
    ann.locator('.sg-general.target[data-seat="2"]').wait_for()
    ann.click('.sg-general.target[data-seat="2"]')
    bo.locator("#window[data-kind=dodge]").wait_for()
    assert "Ann attacks Bo with 1 杀" in bo.inner_text("#window-text")
    assert 25 <= int(bo.inner_text("#seconds-left")) <= 30
    shot("sgmap-bo-dodge.png", bo)
    bo.click("button[data-move=dodge]")
    stack.wait(lambda: stack.daemon.public_state()["window"] is None, what="dodged")
    assert stack.daemon.public_state()["players"][1]["health"] == 3

    # SG-6: Ann steps onto Bo's cell and offers a duel; Bo sees the gold at stake and refuses
    ann.locator('.sg-cell.reach[data-cell="2,4"]').wait_for()
    tap_cell(ann, "2,4")
    ann.click("#sg-go")
    ann.locator("button[data-move=request_duel]").wait_for()
    ann.click("button[data-move=request_duel]")
    bo.locator("#window[data-kind=duel]").wait_for()
    assert "refusing costs 1 gold" in bo.inner_text("#window-text")
    assert "Refuse (pay 1 gold)" in bo.inner_text("#moves")
    shot("sgmap-bo-duel.png", bo)
    bo.click("button[data-move=refuse]")
    stack.wait(lambda: stack.daemon.public_state()["fight"] is None, what="duel refused")
    state = stack.daemon.public_state()
    assert [p["gold"] for p in state["players"]] == [1, 2]
    expect(ann.locator("#my-gold")).to_have_text("1")
    expect(table.locator("text=Bo refuses the duel and pays 1").first).to_be_visible()
    shot("sgmap-table.png", table, full=True)
    assert not ERRORS, ERRORS


def test_the_fight_result_form_and_its_confirmation(stack, browser, broker):
    """SG-8.11: Bo accepts Ann's duel; Ann enters on her phone that side A won with her health at 1;
    Bo's phone confirms; Bo is knocked out and pays Ann (SG-7)."""
    ERRORS.clear()
    game = new_game()
    game["options"]["setup"]["positions"] = {"1": [2, 4], "2": [2, 4]}
    game["options"]["setup"]["gold"] = {"1": 0, "2": 0}
    ann, bo = seated_phones(stack, browser, broker, game)
    ann.click("button[data-move=roll]")
    ann.locator("button[data-move=request_duel]").wait_for()
    ann.click("button[data-move=request_duel]")
    bo.locator("#window[data-kind=duel]").wait_for()
    assert bo.locator("button[data-move=refuse]").count() == 0  # no gold: Bo cannot refuse (SG-8.7)
    bo.click("button[data-move=accept]")
    ann.locator("#fight-result").wait_for()
    ann.select_option("#sg-winner", "A")
    ann.fill('[data-health="1"]', "1")
    shot("sgmap-ann-result.png", ann)
    ann.click("button[data-action=sg-result]")
    bo.locator("#window[data-kind=confirm]").wait_for()
    assert "side A wins" in bo.inner_text("#window-text")
    bo.click("button[data-move=confirm]")
    stack.wait(lambda: stack.daemon.public_state()["fight"] is None, what="result confirmed")
    ann_p, bo_p = stack.daemon.public_state()["players"]
    assert bo_p["knocked_out"] and ann_p["health"] == 1
    assert ann_p["gold"] == 0 and bo_p["gold"] == 0  # Bo had nothing to pay (never negative)
    assert not ERRORS, ERRORS
