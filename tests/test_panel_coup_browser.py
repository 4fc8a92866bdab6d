"""Coup on the phones (issue "Coup on the table"), in a real Chromium with the REAL daemon, a real
Mosquitto and the real panel in-process.

The deck is stacked (CP-7 ``options.setup``) so the outcome is known: Ann claims Duke for tax
truthfully, Bo challenges from his phone, Ann shows the Duke (CP-3.2) and Bo turns a card of his
choice face up on his phone (CP-5.1). Every phone follows; no phone but Ann's, and not the table
view, ever shows Ann's hidden cards. A phone that reconnects mid-window gets the right countdown
(issue "Nothing lost"), and the host pauses/resumes it (CP-6). Screenshots: test-artifacts/ (360x740).
"""

from __future__ import annotations

import math
import time

import pytest

from gametable.testing.games import ANN_HAND, BO_HAND, CY_HAND, coup_game
from gametable.testing.panel import PIN
from gametable.testing.recorder import Recorder
from tests.helpers.browser import PHONE, shot

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]

WINDOW_S = 30  # long enough that the window cannot expire during the test; the countdown is still real


ERRORS: list[str] = []


def phone(browser, url: str):
    page = browser.new_context(**PHONE).new_page()
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda err: ERRORS.append(str(err)))  # any script error fails the test
    page.goto(url)
    return page


def cards_shown(page) -> list[str]:
    """Every playing card drawn on a page (aria-label 'Duke (K)' or 'Duke (K), face up (lost)')."""
    return sorted(page.locator(".cp-card").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"))


def seconds_left(page) -> int:
    return int(page.inner_text("#seconds-left"))


def expected_left(stack) -> float:
    return stack.daemon.public_state()["window"]["deadline"] - time.time()


def assert_countdown(page, stack) -> int:
    """The phone shows the daemon's deadline, rounded up, give or take its 250 ms tick and a second."""
    before = expected_left(stack)
    left = seconds_left(page)
    after = expected_left(stack)
    assert math.ceil(after) - 1 <= left <= math.ceil(before) + 1, (left, before, after)
    return left


def test_cp_3_2_coup_game_through_a_challenge_on_three_phones(stack, browser, broker):
    rec = Recorder(broker.host, broker.port, "gametable/t1/cmd/result")
    try:
        assert rec.command("t1", coup_game(timeout_s=WINDOW_S))["ok"]
    finally:
        rec.close()
    ann, bo, cy = (phone(browser, stack.url + "/join") for _ in range(3))
    for seat, page in ((1, ann), (2, bo), (3, cy)):
        page.click(f"#seat-{seat}")
        page.locator("#my-cards").wait_for()
    table = phone(browser, stack.url + "/table")
    host = phone(browser, stack.url + "/host")
    host.fill("#pin", PIN)
    host.click("#unlock")
    host.locator("#lobby-open").wait_for()

    # CP-1: each phone shows its own two cards with role AND poker rank; coins on every phone.
    assert cards_shown(ann) == ["Captain (10)", "Duke (K)"]
    assert cards_shown(bo) == ["Assassin (Q)", "Contessa (9)"]
    assert cards_shown(cy) == ["Ambassador (J)", "Contessa (9)"]
    assert cards_shown(table) == []  # the table view has no hidden card at all
    assert ann.inner_text("#players [data-seat='1'] .cp-coins b") == "2"
    # Buttons for exactly the legal moves (legal.py): Ann's turn, 2 coins.
    moves = ann.locator("#moves [data-action=move]").evaluate_all(
        "els => els.map(e => e.dataset.move + ' ' + e.dataset.args)")
    assert moves == ['income {}', 'foreign_aid {}', 'tax {}', 'steal {"target":2}', 'steal {"target":3}', 'exchange {}']
    assert bo.locator("#moves").count() == 0 and cy.locator("#moves").count() == 0
    shot("coup-ann-turn.png", ann)

    # Ann claims Duke for tax (truthfully): every phone shows the claim in words and a countdown.
    ann.click("#moves [data-move=tax]")
    claim = "Ann claims Duke (K) to take 3 coins in tax — challenge?"
    for page in (ann, bo, cy, table, host):
        page.locator("#claim-text").filter(has_text=claim).wait_for()
    for page in (bo, cy):
        assert page.locator("#moves [data-action=move]").evaluate_all("els => els.map(e => e.dataset.move)") == \
            ["challenge", "pass"]
    assert ann.locator("#moves").count() == 0  # the claimant has nothing to answer
    assert_countdown(bo, stack)
    shot("coup-bo-challenge-window.png", bo)
    shot("coup-table-claim.png", table)

    # "Nothing lost": Cy's phone reconnects mid-window and shows the right countdown, not a fresh one.
    # (First let the real countdown run a few seconds, so a fresh 30 s countdown could not pass.)
    bo.wait_for_function(f"() => +document.querySelector('#seconds-left').textContent <= {WINDOW_S - 3}")
    cy.reload()
    cy.locator("#seconds-left").wait_for()
    assert assert_countdown(cy, stack) <= WINDOW_S - 3
    # Host pauses (CP-6): every phone says so; a phone reconnecting meanwhile sees it paused too.
    host.click("#pause")
    for page in (ann, bo, cy, table):
        page.locator("#countdown").filter(has_text="Paused").wait_for()
    remaining = stack.daemon.public_state()["window"]["remaining_s"]
    cy.reload()
    cy.locator("#countdown").filter(has_text=f"{int(-(-remaining // 1))} s left when the host resumes").wait_for()
    shot("coup-host-paused.png", host)
    shot("coup-cy-paused.png", cy)
    host.click("#resume")
    cy.locator("#seconds-left").wait_for()
    assert_countdown(cy, stack)
    assert stack.daemon.public_state()["window"].get("paused") is not True

    # Bo challenges from his phone; Ann had the Duke (CP-3.2): Bo must lose an influence.
    bo.click("#moves [data-move=challenge]")
    bo.locator("#moves").filter(has_text="Choose a card to lose").wait_for()
    assert bo.locator("#moves [data-action=move]").evaluate_all("els => els.map(e => e.dataset.args)") == \
        ['{"card":"contessa"}', '{"card":"assassin"}']
    for page in (ann, cy, table):
        page.locator("#pending-choice").filter(has_text="Bo must turn one card face up").wait_for()
        page.locator("#last-challenge").filter(has_text="Ann had Duke (K) — Bo loses an influence").wait_for()
    shot("coup-bo-lose-influence.png", bo)

    # CP-5.1: Bo chooses which card to turn face up, on his phone. Tax then resolves (+3 for Ann).
    bo.click("#moves [data-move=lose_influence][data-args='{\"card\":\"contessa\"}']")
    for page in (ann, bo, cy, table):
        page.locator("#players [data-seat='2'] .cp-card").filter(has_text="Contessa").wait_for()
        page.locator("#players [data-seat='1'] .cp-coins b").filter(has_text="5").wait_for()
    bo.locator("#turn-banner").filter(has_text="YOUR TURN").wait_for()
    for page in (ann, cy, table):
        page.locator("#turn-banner").filter(has_text="Bo's turn").wait_for()
    # Bo's phone: his face-down Assassin, and his lost Contessa (beside his cards and in the players list).
    assert cards_shown(bo) == ["Assassin (Q)", "Contessa (9), face up (lost)", "Contessa (9), face up (lost)"]
    state = stack.daemon.public_state()
    assert [p["coins"] for p in state["players"]] == [5, 2, 2] and state["deck_size"] == 9
    assert table.inner_text("#deck-size") == "9"
    table.locator("#log").filter(has_text="Bo challenges Ann's Duke (K)").wait_for()

    # Ann's hidden cards (Captain and the card she drew after showing the Duke) are on her phone only.
    ann_hand = stack.daemon.seat_view(1)["hand"]
    assert "captain" in ann_hand and len(ann_hand) == 2
    assert cards_shown(ann) == sorted([f"{c.capitalize()} ({r})" for c, r in
                                       ((c, {"duke": "K", "assassin": "Q", "ambassador": "J", "captain": "10",
                                             "contessa": "9"}[c]) for c in ann_hand)]
                                      + ["Contessa (9), face up (lost)"])
    assert cards_shown(cy) == ["Ambassador (J)", "Contessa (9)", "Contessa (9), face up (lost)"]
    assert cards_shown(table) == ["Contessa (9), face up (lost)"]
    for page in (bo, cy, table):
        private = page.evaluate("() => S.priv")
        assert private is None or private["seat"] != 1
        assert "Captain" not in page.inner_text("#players")
    shot("coup-ann-after.png", ann, full=True)
    shot("coup-bo-turn.png", bo)
    shot("coup-table-after.png", table, full=True)
    assert ERRORS == []
    assert BO_HAND and CY_HAND and ANN_HAND  # (the stacked hands the assertions above rely on)
