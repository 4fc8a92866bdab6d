"""Football's teams and the table log (docs/phones.md), on 360x640 phones in a real Chromium with the
real daemon, a real Mosquitto and the real panel: each phone's badge is its team's, with the team's
pattern and shape (A: stripes ▲, B: ring ■), never a seat colour that contradicts the team's coins;
the line under it has no empty "· ·"; the log shows the current game only, not the lines of the
game played before it. Screenshots: test-artifacts/football-*.png."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from gametable.testing.games import coup_game
from gametable.testing.recorder import Recorder
from tests.helpers.browser import phone_page, shot

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]

ERRORS: list[str] = []


def command(broker, cmd: dict) -> dict:
    rec = Recorder(broker.host, broker.port, "gametable/t1/cmd/result")
    try:
        return rec.command("t1", {"id": f"football-{uuid.uuid4().hex}", **cmd})
    finally:
        rec.close()


def test_football_badges_are_the_teams_with_a_shape_and_the_log_is_this_games(stack, browser, broker):
    # an earlier game: Coup, with one move in the log
    assert command(broker, coup_game(cid=f"coup-{uuid.uuid4().hex[:8]}"))["ok"]
    assert command(broker, {"type": "move", "seat": 1, "move": "income", "args": {}})["ok"]
    table = phone_page(browser, stack.url + "/table", ERRORS)
    expect(table.locator("#log")).to_contain_text("Ann gets 1 coin")
    # then Football: seat 1 (blue would be seat 2's colour) plays for team B
    players = [{"seat": 1, "name": "Ann", "team": "B"}, {"seat": 2, "name": "Bo", "team": "A"}]
    assert command(broker, {"type": "new_game", "game": "coinwar", "mode": "football", "players": players,
                            "order": [1, 2], "seed": 7})["ok"]
    ann = phone_page(browser, stack.url + "/join", ERRORS)
    ann.click("#seat-1")
    badge = ann.locator("#my-coin > .coin")
    expect(badge).to_have_class("coin team-B big ")
    expect(badge.locator(".shape")).to_have_text("■")
    about = ann.inner_text("#my-coin-about")
    assert "· ·" not in about and "team B" in about and "ring ■" in about, about
    shot("football-ann-badge.png", ann)

    expect(table.locator("#log")).to_contain_text("New game")
    assert "Ann gets 1 coin" not in table.inner_text("#log")  # the Coup lines stay with the Coup game
    expect(table.locator("#turn-banner .coin.team-B")).to_be_visible()  # Ann's turn: her team's badge
    expect(table.locator("#players .coin.team-A .shape")).to_have_text("▲")
    expect(table.locator("#players .coin.team-B .shape")).to_have_text("■")
    shot("football-table.png", table, full=True)
    assert not ERRORS, ERRORS
