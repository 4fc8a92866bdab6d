"""Bang! on four phones, in a real Chromium with the real daemon, Mosquitto and panel.

A stacked table (BG-8.14 ``options.setup``): Ann, the Sheriff, taps her Duel, sees Bo lit at
distance 1 and challenges him; Bo answers with a BANG! from his phone, Ann takes the hit from hers.
Then Ann's Gatling: Bo (empty hand) is hit at once (BG-8.6), Cy answers with Missed!, Di takes it
(BG-8.5, one window at a time clockwise). The table page shows the ring, the Sheriff's star, life,
hand counts and the log, and never a hand. Screenshots: test-artifacts/bang-*.png.
"""

from __future__ import annotations

import pytest

from gametable.testing.recorder import Recorder
from tests.helpers.browser import PHONE, shot, start_from_lobby

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]
ERRORS: list[str] = []
NEW_GAME = {
    "type": "new_game", "id": "bang-browser-1", "game": "bang", "seed": 2,
    "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"},
                {"seat": 4, "name": "Di"}],
    "options": {"timeout_s": 60, "setup": {
        "roles": {"1": "sheriff", "2": "outlaw", "3": "outlaw", "4": "renegade"},
        "characters": {"1": "sid_ketchum", "2": "vulture_sam", "3": "willy_the_kid", "4": "slab_the_killer"},
        "hands": {"1": ["duel-QD", "gatling-10H"], "2": ["bang-8D"], "3": ["missed-2S"], "4": ["beer-6H"]},
        "deck": ["stagecoach-9S", "stagecoach-9S-2"]}},
}


def phone(browser, url):
    page = browser.new_context(**PHONE).new_page()
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda err: ERRORS.append(str(err)))
    page.goto(url)
    return page


def life(stack, seat):
    return next(p for p in stack.daemon.public_state()["players"] if p["seat"] == seat)["life"]


def test_four_phones_play_a_duel_and_a_gatling(stack, browser, broker):
    rec = Recorder(broker.host, broker.port, "gametable/t1/cmd/result")
    try:
        assert rec.command("t1", NEW_GAME)["ok"]
    finally:
        rec.close()
    phones = {}
    for seat in (1, 2, 3, 4):
        phones[seat] = phone(browser, stack.url + "/join")
        phones[seat].click(f"#seat-{seat}")
        phones[seat].locator("#my-cards").wait_for()
    ann, bo, cy, di = (phones[s] for s in (1, 2, 3, 4))
    table = phone(browser, stack.url + "/table")
    table.locator("#ring-1").wait_for()

    # your role: tap to reveal (the Sheriff's is public anyway); hand cards with suit and rank
    assert "Tap to see your role" in bo.inner_text("#my-role")
    bo.click("#my-role")
    assert "Outlaw" in bo.inner_text("#my-role")
    labels = ann.locator("#my-cards .bg-card").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert labels == ["Duel Q♦", "Gatling 10♥", "Stagecoach 9♠", "Stagecoach 9♠"]
    assert "★" in table.inner_text("#ring-1") and "Bo" in table.inner_text("#ring-2")
    assert "Duel" not in table.inner_text("body") and "Missed" not in table.inner_text("body")

    # the Duel: tapping it lights the targets with their distance
    ann.click("[data-card='duel-QD']")
    ann.locator("#ring-2.target").wait_for()
    assert "distance 1" in ann.inner_text("#ring-2") and "distance 2" in ann.inner_text("#ring-3")
    shot("bang-duel-targets.png", ann)
    ann.click("text=Play → Bo (distance 1)")
    bo.locator("#window.mine").wait_for()
    assert "Duel with Ann" in bo.inner_text("#window-text") and bo.locator("#seconds-left").is_visible()
    shot("bang-duel-window.png", bo)
    bo.click("#window button:has-text('BANG!')")
    ann.locator("#window.mine").wait_for()
    ann.click("#window button:has-text('Take it')")
    table.locator("#log").get_by_text("Ann loses 1 life (4 left)").wait_for()
    assert life(stack, 1) == 4 and life(stack, 2) == 4

    # the Gatling: one window at a time, clockwise; Bo's empty hand is hit at once
    ann.click("[data-card='gatling-10H']")
    ann.click("#moves button:has-text('Play')")
    cy.locator("#window.mine").wait_for()
    assert life(stack, 2) == 3 and "Gatling at you" in cy.inner_text("#window-text")
    cy.click("#window button:has-text('Missed!')")
    di.locator("#window.mine").wait_for()
    shot("bang-gatling-window.png", di)
    di.click("#window button:has-text('Take it')")
    table.locator("#log").get_by_text("Di loses 1 life (3 left)").wait_for()
    assert [life(stack, s) for s in (1, 2, 3, 4)] == [4, 3, 4, 3]
    shot("bang-table.png", table, full=True)
    assert "Beer" not in table.inner_text("#players")  # Di's hand never reaches the table page
    ann.click("#moves button:has-text('End turn')")
    bo.locator("#turn-banner").filter(has_text="YOUR TURN").wait_for()
    assert not ERRORS, ERRORS


def test_the_lobby_starts_bang_around_the_ring_even_with_random_order_bg8_2(stack, browser):
    from gametable.testing.panel import PIN

    host = phone(browser, stack.url + "/host")
    host.fill("#pin", PIN)
    host.click("#unlock")
    host.locator("#lobby").wait_for()
    host.select_option("#game", "bang")
    for seat in (4, 6):
        host.check(f"[data-lobby=include][data-seat='{seat}']")
    host.locator("#start").filter(has_text="5 players").wait_for()
    start_from_lobby(host)  # the order mode is still "Random": Bang! keeps the seats' ring
    host.locator("#turn-banner").wait_for()
    state = stack.daemon.public_state()
    assert state["game"] == "bang" and state["ring"] == [1, 2, 3, 4, 6]
    sheriff = next(p for p in state["players"] if p.get("role") == "sheriff")
    assert state["turn"]["seat"] == sheriff["seat"]
    assert not ERRORS, ERRORS
