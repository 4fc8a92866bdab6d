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


@contextmanager
def waited_on(broker, browser, tmp_path, new_game: dict, phones: tuple[int, ...], tag: str):
    """[panel] absent_s (here 1 s): ``new_game`` started with a seat no phone holds and no bot plays,
    ``phones`` seated, the host unlocked. Yields the stack, the host's page and a command sender."""
    from gametable.testing.table import start_stack

    stack = start_stack(broker, str(tmp_path / "journal.sqlite"), absent_s=1.0, keepalive_s=0.3)
    rec = Recorder(broker.host, broker.port, "gametable/t1/cmd/result")
    try:
        def send(cmd: dict) -> None:
            assert rec.command("t1", {"id": f"{tag}-{uuid.uuid4().hex}", **cmd})["ok"]

        send(new_game)
        for seat in phones:
            phone_page(browser, stack.url + "/join", ERRORS).click(f"#seat-{seat}")
        host = unlocked_host(browser, stack, ERRORS)
        yield stack, host, send
    finally:
        rec.close()
        for ctx in list(browser.contexts):
            ctx.close()
        stack.stop()


def test_a_coup_turn_waited_on_too_long_offers_a_bot_or_the_end_not_a_skip(broker, browser, tmp_path):
    """CP-3.1: a Coup turn is always an action, so after [panel] absent_s the host may hand Cy's seat
    to a bot or end the game, and no "skip" is offered; the bot takes the seat and nobody waits."""
    from gametable.testing.games import coup_game

    with waited_on(broker, browser, tmp_path, coup_game(cid="x"), (1, 2), "waited-coup") as (stack, host, send):
        send({"type": "move", "seat": 1, "move": "income", "args": {}})
        send({"type": "move", "seat": 2, "move": "income", "args": {}})  # Cy's turn: no phone holds it
        choices = host.locator("#waited-choices")
        expect(choices).to_be_visible()
        expect(host.locator("#waited-bot-3")).to_be_visible()
        expect(host.locator("#waited-end")).to_be_visible()
        expect(host.locator("#waited-skip-3")).to_have_count(0)
        shot("unfilled-waited-coup.png", host)
        host.click("#waited-bot-3")
        stack.wait(lambda: (stack.daemon.public_state() or {}).get("bots") == [3], what="seat 3 handed to a bot")
        expect(host.locator("#waiting-seat")).to_have_count(0)
        assert not ERRORS, ERRORS


def test_sg_a_battlefield_turn_waited_on_is_skipped_and_the_game_goes_on(broker, browser, tmp_path):
    """The battlefield: after [panel] absent_s the host skips Bo's turn (rolled and ended for him,
    journalled as skip_seat); the log says so and it is Ann's turn again."""
    game = {"type": "new_game", "game": "sanguosha_map", "seed": 9,
            "players": [{"seat": 1, "name": "Ann", "team": "A"}, {"seat": 2, "name": "Bo", "team": "B"}]}
    with waited_on(broker, browser, tmp_path, game, (1,), "waited-sg") as (stack, host, send):
        send({"type": "move", "seat": 1, "move": "roll"})
        send({"type": "move", "seat": 1, "move": "end_turn"})  # Bo's turn: no phone holds it
        skip = host.locator("#waited-skip-2")
        expect(skip).to_have_text("Skip their turn")
        shot("unfilled-waited-battlefield.png", host)
        skip.click()
        stack.wait(lambda: (stack.daemon.public_state() or {}).get("turn", {}).get("seat") == 1, what="Ann's turn")
        table = phone_page(browser, stack.url + "/table", ERRORS)
        expect(table.locator("#log")).to_contain_text("The host ended Bo's turn (no phone held the seat)")
        assert any(i["type"] == "skip_seat" and i["seat"] == 2 for i in stack.daemon.table.inputs)
        assert not ERRORS, ERRORS


def test_the_host_ends_a_game_that_waited_too_long(broker, browser, tmp_path):
    """"Wait longer" puts the choice off for as long again; then End the game (asked once more), and
    the game is aborted for everyone."""
    from gametable.testing.games import coup_game

    with waited_on(broker, browser, tmp_path, coup_game(cid="x"), (1, 2), "waited-end") as (stack, host, send):
        send({"type": "move", "seat": 1, "move": "income", "args": {}})
        send({"type": "move", "seat": 2, "move": "income", "args": {}})
        host.click("#waited-wait")
        expect(host.locator("#waited-choices")).to_have_count(0)
        expect(host.locator("#waited-choices")).to_be_visible()  # asked again after absent_s more
        host.click("#waited-end")
        host.click("#confirm-yes")
        stack.wait(lambda: (stack.daemon.public_state() or {}).get("phase") == "aborted", what="the game aborted")
        expect(host.locator("#turn-banner")).to_contain_text("Game aborted")
        assert not ERRORS, ERRORS
