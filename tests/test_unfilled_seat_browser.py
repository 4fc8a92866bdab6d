"""A seat nobody plays (docs/phones.md), on 360x640 phones in a real Chromium with the real daemon, a
real Mosquitto and the real panel: Start with a seat that no phone holds and no bot plays asks the
host what to do with it (bots play it, or wait for its phone); waiting, the table says whom the game
waits for and how that phone joins, instead of freezing without a hint; with a bot there is nothing
to wait for. Screenshots: test-artifacts/unfilled-*.png."""

from __future__ import annotations

import uuid
from contextlib import contextmanager

import pytest
from playwright.sync_api import expect

from gametable.testing.recorder import Recorder
from tests.helpers.browser import phone_page, shot, unlocked_host

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]

ERRORS: list[str] = []


def lobby_with_seat_3_empty(browser, stack):
    for seat in (1, 2):
        phone_page(browser, stack.url + "/join", ERRORS).click(f"#seat-{seat}")
    host = unlocked_host(browser, stack, ERRORS)
    host.select_option("#game", "coup")
    host.locator("#joined-2").wait_for()
    host.check("[data-lobby=include][data-seat='3']")
    host.locator("#start").filter(has_text="3 players").wait_for()
    host.click("#start")
    dialog = host.locator("#unfilled")
    expect(dialog).to_be_visible()
    expect(host.locator("#unfilled-text")).to_have_text("Seat 3 has no phone yet.")
    return host


def play_until_seat_3s_turn(broker, stack) -> None:
    """Income for whoever is before seat 3 (CP-3.1), sent as a phone would."""
    rec = Recorder(broker.host, broker.port, "gametable/t1/cmd/result")
    try:
        for _ in range(3):
            seat = stack.daemon.public_state()["turn"]["seat"]
            if seat == 3:
                return
            assert rec.command("t1", {"id": f"unfilled-{uuid.uuid4().hex}", "type": "move", "seat": seat,
                                      "move": "income", "args": {}})["ok"]
    finally:
        rec.close()
    assert stack.daemon.public_state()["turn"]["seat"] == 3


def test_starting_with_an_unfilled_seat_asks_and_waiting_says_whom_for(stack, browser, broker):
    host = lobby_with_seat_3_empty(browser, stack)
    shot("unfilled-asks.png", host)
    host.click("#unfilled-wait")
    stack.wait(lambda: (s := stack.daemon.public_state()) and s.get("game") == "coup", what="Coup")
    play_until_seat_3s_turn(broker, stack)
    table = phone_page(browser, stack.url + "/table", ERRORS)
    waiting = table.locator("#waiting-seat")
    expect(waiting).to_contain_text("Waiting for Seat 3: no phone holds the seat")
    expect(host.locator("#waiting-seat")).to_contain_text("scan the QR code")
    shot("unfilled-waiting-table.png", table)
    # the phone comes: the hint goes
    phone_page(browser, stack.url + "/join", ERRORS).click("#seat-3")
    expect(waiting).to_have_count(0)
    assert not ERRORS, ERRORS


def test_a_bot_for_the_unfilled_seat_leaves_nothing_to_wait_for(stack, browser, broker):
    host = lobby_with_seat_3_empty(browser, stack)
    host.click("#unfilled-bot")
    stack.wait(lambda: (s := stack.daemon.public_state()) and s.get("game") == "coup", what="Coup")
    stack.wait(lambda: any(e.get("bots") == [3] for e in stack.panel.link.log), what="the bot seat in the log")
    play_until_seat_3s_turn(broker, stack)  # (no simulator here: the bot seat simply has the turn)
    table = phone_page(browser, stack.url + "/table", ERRORS)
    table.locator("#turn-banner").wait_for()
    expect(table.locator("#waiting-seat")).to_have_count(0)
    assert not ERRORS, ERRORS


@contextmanager
def bo_gone(broker, browser, tmp_path, tag: str):
    """[panel] absent_s (here 1 s): a Coup game at Bo's turn, three phones, the host unlocked; then
    Bo's phone closes and the host is told. Yields the stack and the host's page."""
    from gametable.testing.games import coup_game
    from gametable.testing.table import start_stack

    stack = start_stack(broker, str(tmp_path / "journal.sqlite"), absent_s=1.0, keepalive_s=0.3)
    try:
        rec = Recorder(broker.host, broker.port, "gametable/t1/cmd/result")
        try:
            assert rec.command("t1", coup_game(cid=f"{tag}-{uuid.uuid4().hex[:8]}"))["ok"]
            assert rec.command("t1", {"id": f"{tag}-{uuid.uuid4().hex}", "type": "move", "seat": 1,
                                      "move": "income", "args": {}})["ok"]  # Bo's turn next
        finally:
            rec.close()
        phones = {s: phone_page(browser, stack.url + "/join", ERRORS) for s in (1, 2, 3)}
        for seat, page in phones.items():
            page.click(f"#seat-{seat}")
            page.locator("#my-cards").wait_for()
        host = unlocked_host(browser, stack, ERRORS)
        phones[2].context.close()  # Bo's phone is gone
        expect(host.locator("#absent-seat")).to_contain_text("A phone is gone: Bo")
        yield stack, host
    finally:
        for ctx in list(browser.contexts):
            ctx.close()
        stack.stop()


def test_a_phone_gone_longer_than_the_table_setting_is_named_to_the_host(broker, browser, tmp_path):
    """[panel] absent_s (here 1 s): Bo's phone closes mid-game; the host is told and frees the seat;
    then the table says the game waits for a phone for Bo's seat. Bo's new phone takes it again."""
    with bo_gone(broker, browser, tmp_path, "absent") as (stack, host):
        prompt = host.locator("#absent-seat")
        shot("unfilled-absent-host.png", host)
        host.click("#absent-free-2")
        table = phone_page(browser, stack.url + "/table", ERRORS)
        expect(table.locator("#waiting-seat")).to_contain_text("Waiting for Bo")
        expect(prompt).to_have_count(0)
        again = phone_page(browser, stack.url + "/join", ERRORS)
        again.click("#seat-2")
        again.locator("#my-cards").wait_for()
        expect(table.locator("#waiting-seat")).to_have_count(0)
        assert not ERRORS, ERRORS


def test_the_host_hands_a_gone_phones_seat_to_a_bot_and_the_game_goes_on(broker, browser, tmp_path):
    """The absent-phone prompt's third answer: "🤖 A bot plays it" sends the daemon's seat_to_bot
    (journalled); the log says so, the public state lists the seat among the bots, nobody waits for
    Bo's phone, and the prompt does not come back."""
    with bo_gone(broker, browser, tmp_path, "tobot") as (stack, host):
        prompt = host.locator("#absent-seat")
        host.click("#absent-bot-2")
        expect(prompt).to_have_count(0)
        table = phone_page(browser, stack.url + "/table", ERRORS)
        expect(table.locator("#log")).to_contain_text("A bot plays for Bo from now on")
        expect(table.locator("#waiting-seat")).to_have_count(0)
        assert stack.daemon.public_state()["bots"] == [2]
        assert [r.input["type"] for r in stack.daemon.journal.records()][-1] == "seat_to_bot"
        shot("unfilled-absent-to-bot.png", host)
        assert not ERRORS, ERRORS
