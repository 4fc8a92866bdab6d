"""CW-5.6 on the phone: the striker's seat withdraws a strike the table did not see,
with the real daemon, Mosquitto and panel (HTTP), and on a 360 x 640 phone (Chromium)."""

from __future__ import annotations

import pytest

from gametable.testing.panel import NEW_GAME, PIN, Http
from tests.helpers.browser import PHONE_360, shot

pytestmark = pytest.mark.mqtt


def _started(stack) -> None:
    host = Http(stack.panel.port)
    assert host.post("/api/host/unlock", {"id": "unlock-host-w", "pin": PIN})[0] == 200
    body = {**{k: v for k, v in NEW_GAME.items() if k != "type"}, "type": "new_game", "id": "start-game-w"}
    assert host.post("/api/host/cmd", body) == (200, {"ok": True})
    stack.wait(lambda: stack.panel.link.private_view(3), what="private views")


def _phone(stack, seat: int) -> Http:
    phone = Http(stack.panel.port)
    assert phone.post("/api/seat/claim", {"id": f"claim-w-{seat}", "seat": seat}) == (200, {"ok": True, "seat": seat})
    return phone


def _legal(stack, seat: int) -> list[dict]:
    return (stack.panel.link.private_view(seat) or {}).get("legal") or []


def _seat_1_phone(stack, browser):
    """The game started and seat 1 claimed on a 360 x 640 phone."""
    _started(stack)
    page = browser.new_context(**PHONE_360).new_page()
    page.set_default_timeout(20_000)
    page.goto(stack.url + "/join")
    page.click("#seat-1")
    page.locator("#turn-banner, #my-coin").first.wait_for()
    return page


def _strike(stack, cid: str) -> None:
    assert stack.daemon.submit({"type": "strike", "seat": 1, "id": cid}, source="striker")["ok"]
    stack.wait(lambda: {"type": "withdraw"} in _legal(stack, 1), what="the withdraw move on seat 1's phone")


def test_cw_5_6_only_the_strikers_phone_withdraws_and_only_while_the_strike_is_in_flight(stack):
    _started(stack)
    ann, bo = _phone(stack, 1), _phone(stack, 2)
    assert ann.post("/api/cmd", {"id": "ann-wd-early", "type": "withdraw"}) == \
        (409, {"ok": False, "error": "you cannot withdraw now"})
    _strike(stack, "strike-w-1")
    assert bo.post("/api/cmd", {"id": "bo-wd-ann-1", "type": "withdraw"}) == \
        (409, {"ok": False, "error": "you cannot withdraw now"})
    assert ann.post("/api/cmd", {"id": "ann-wd-ok-1", "type": "withdraw"}) == (200, {"ok": True})
    stack.wait(lambda: not stack.daemon.public_state()["striking"], what="the strike withdrawn")
    assert stack.daemon.public_state()["turn"] == {"seat": 1, "strikes": 0, "extra": False}
    stack.wait(lambda: {"type": "withdraw"} not in _legal(stack, 1), what="the withdraw move gone")
    assert ann.post("/api/cmd", {"id": "ann-wd-again", "type": "withdraw"}) == \
        (409, {"ok": False, "error": "you cannot withdraw now"})


@pytest.mark.browser
@pytest.mark.usefixtures("close_contexts")
def test_cw_5_6_the_strikers_phone_shows_a_withdraw_button_while_the_strike_is_in_flight(stack, browser):
    page = _seat_1_phone(stack, browser)
    assert page.locator("#withdraw-strike").count() == 0
    _strike(stack, "strike-w-2")
    button = page.locator("#withdraw-strike")
    button.wait_for()
    assert button.inner_text() == "Withdraw strike (the table saw nothing)"
    shot("coinwar-withdraw-360.png", page)
    button.click()
    page.locator("#toast").filter(has_text="Strike withdrawn").wait_for()
    button.wait_for(state="detached")
    assert stack.daemon.public_state()["turn"] == {"seat": 1, "strikes": 0, "extra": False}


def _unseen_shot(stack, cid: str) -> None:
    """What a real table's observer submits after a set-down spike: no beam edge, so "who flew"
    is unknown and asked (CW-8), and the shot says no beam saw it (CW-5.6)."""
    shot_input = {"type": "shot", "seat": 1, "coin": "c1", "dead": [], "flown": None, "contacts": [],
                  "beam_edges": 0, "id": cid}
    assert stack.daemon.submit(shot_input, source="observer")["ok"]
    stack.wait(lambda: stack.daemon.public_state()["questions"], what="the 'which coins flew?' question")
    stack.wait(lambda: {"type": "withdraw"} in _legal(stack, 1), what="the withdraw move after the shot")


def test_cw_5_6_the_strikers_phone_withdraws_a_shot_no_beam_saw_while_who_flew_is_asked(stack):
    _started(stack)
    ann, bo = _phone(stack, 1), _phone(stack, 2)
    assert stack.daemon.submit({"type": "strike", "seat": 1, "id": "strike-w-3"}, source="striker")["ok"]
    _unseen_shot(stack, "shot-w-3")
    assert bo.post("/api/cmd", {"id": "bo-wd-ann-3", "type": "withdraw"}) == \
        (409, {"ok": False, "error": "you cannot withdraw now"})
    assert ann.post("/api/cmd", {"id": "ann-wd-ok-3", "type": "withdraw"}) == (200, {"ok": True})
    stack.wait(lambda: not stack.daemon.public_state()["questions"], what="the question gone with the strike")
    state = stack.daemon.public_state()
    assert state["turn"] == {"seat": 1, "strikes": 0, "extra": False} and state["striking"] is False


@pytest.mark.browser
@pytest.mark.usefixtures("close_contexts")
def test_cw_5_6_the_question_screen_offers_the_striker_a_withdraw_button(stack, browser):
    page = _seat_1_phone(stack, browser)
    assert stack.daemon.submit({"type": "strike", "seat": 1, "id": "strike-w-4"}, source="striker")["ok"]
    _unseen_shot(stack, "shot-w-4")
    page.locator("#question").wait_for()
    page.locator("#answer-none").wait_for()  # "Nobody flew" stays one tap away
    button = page.locator("#withdraw-strike")
    button.wait_for()
    assert button.inner_text() == "Withdraw strike (the table saw nothing)"
    assert page.locator("#question #withdraw-strike").count() == 1  # on the question, under "Nobody flew"
    assert page.locator("#moves #withdraw-strike").count() == 0  # and only there
    button.scroll_into_view_if_needed()
    shot("coinwar-withdraw-after-shot-360.png", page)
    button.click()
    page.locator("#toast").filter(has_text="Strike withdrawn").wait_for()
    page.locator("#question").wait_for(state="detached")
    assert stack.daemon.public_state()["turn"] == {"seat": 1, "strikes": 0, "extra": False}
