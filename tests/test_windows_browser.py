"""Answer windows a beginner can use (docs/phones.md), on 360x640 phones in a real Chromium
with the real daemon, a real Mosquitto and the real panel: the lobby starts every game's window at
the beginners' length (the host may pick the game's regular one or type one); every phone that must
answer shows the countdown on its screen; the phone that tapped the action, scrolled down to
reach it, has the window it opened brought into view; "Done" never covers a button.
Screenshots: test-artifacts/windows-*.png."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from controller.games.players import BEGINNER_WINDOW_S
from tests.helpers.browser import drawn_box, phone_page, shot, unlocked_host

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]

ERRORS: list[str] = []


def on_screen(page, selector: str) -> bool:
    box = drawn_box(page.locator(selector).first)
    return box["y"] >= 0 and box["y"] + box["height"] <= 640


@pytest.mark.parametrize(("game", "regular"), [("coup", 8), ("bang", 15), ("sanguosha_map", 10)])
def test_the_lobby_offers_each_game_a_beginners_window(stack, browser, game, regular):
    host = unlocked_host(browser, stack, ERRORS)
    host.select_option("#game", game)
    expect(host.locator("#opt-timeout_s")).to_have_value(str(BEGINNER_WINDOW_S))
    beginners = host.locator(f"[data-action=lobby-window][data-value='{BEGINNER_WINDOW_S}']")
    expect(beginners).to_have_attribute("aria-pressed", "true")
    host.click(f"[data-action=lobby-window][data-value='{regular}']")  # the game's regular length
    expect(host.locator("#opt-timeout_s")).to_have_value(str(regular))
    host.locator("#opt-timeout_s").scroll_into_view_if_needed()
    shot(f"windows-lobby-{game}.png", host)
    assert BEGINNER_WINDOW_S >= 20 and not ERRORS, ERRORS


def test_coup_from_the_lobby_every_answering_phone_sees_the_beginners_countdown(stack, browser):
    phones = {}
    for seat in (1, 2, 3):
        phones[seat] = phone_page(browser, stack.url + "/join", ERRORS)
        phones[seat].click(f"#seat-{seat}")
    host = unlocked_host(browser, stack, ERRORS)
    host.select_option("#game", "coup")
    host.locator("#start").filter(has_text="3 players").wait_for()
    host.click("#start")  # the window length left at the beginners' default
    state = stack.wait(lambda: (s := stack.daemon.public_state()) and s.get("game") == "coup" and s, what="Coup")
    actor = state["turn"]["seat"]
    page = phones[actor]
    page.locator("[data-move=tax]").wait_for()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the action was below the fold
    page.click("[data-move=tax]")
    stack.wait(lambda: stack.daemon.public_state().get("window"), what="the challenge window")
    window = stack.daemon.public_state()["window"]
    assert window.get("timeout_s", BEGINNER_WINDOW_S) == BEGINNER_WINDOW_S
    # item 7: the phone that tapped sees the window it opened, and "Done" leaves the buttons free
    page.locator("#window").wait_for()
    page.wait_for_function("() => { const b = document.getElementById('window').getBoundingClientRect();"
                           " return b.top >= 0 && b.top < innerHeight; }")
    toast = page.locator("#toast")
    if toast.is_visible():
        assert page.evaluate("getComputedStyle(document.getElementById('toast')).pointerEvents") == "none"
    shot("windows-coup-actor.png", page)
    for seat in (s for s in (1, 2, 3) if s != actor):
        other = phones[seat]
        other.locator("#seconds-left").wait_for()
        left = int(other.inner_text("#seconds-left"))
        assert 20 <= left <= BEGINNER_WINDOW_S, left
        assert on_screen(other, "#seconds-left")
        shot(f"windows-coup-answer-seat{seat}.png", other)
    assert not ERRORS, ERRORS


def test_bang_targets_come_into_view_after_tapping_a_card(stack, browser, broker):
    """BG-8.14 stacked table: the Sheriff taps her Duel (the last card of her hand, at the bottom of
    a 640 px screen); the plays it has, one per target with the distance, are brought on screen."""
    from gametable.testing.recorder import Recorder

    setup = {"roles": {"1": "sheriff", "2": "outlaw", "3": "outlaw", "4": "renegade"},
             "characters": {"1": "sid_ketchum", "2": "vulture_sam", "3": "willy_the_kid", "4": "slab_the_killer"},
             "hands": {"1": ["gatling-10H", "beer-6H", "duel-QD"], "2": ["bang-8D"], "3": ["missed-2S"], "4": []},
             "deck": ["stagecoach-9S", "stagecoach-9S-2"]}
    rec = Recorder(broker.host, broker.port, "gametable/t1/cmd/result")
    try:
        assert rec.command("t1", {"type": "new_game", "id": f"bang-focus-{uuid.uuid4().hex}", "game": "bang", "seed": 2,
                                  "players": [{"seat": s, "name": n} for s, n in enumerate(("Ann", "Bo", "Cy", "Di"), 1)],
                                  "options": {"timeout_s": 60, "setup": setup}})["ok"]
    finally:
        rec.close()
    ann = phone_page(browser, stack.url + "/join", ERRORS)
    ann.click("#seat-1")
    duel = ann.locator("[data-action=bang-card][data-card='duel-QD']")
    duel.scroll_into_view_if_needed()
    duel.click()
    ann.locator("#moves [data-move=play]").first.wait_for()
    ann.wait_for_function("() => { const b = document.getElementById('moves').getBoundingClientRect();"
                          " return b.top >= 0 && (b.bottom <= innerHeight || b.top < innerHeight / 2); }")
    assert on_screen(ann, "#moves [data-move=play]")
    shot("windows-bang-targets.png", ann)
    assert not ERRORS, ERRORS
