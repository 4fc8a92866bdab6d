"""The venue service end to end on real parts: a table's Mosquitto bridged into the venue broker
(the files of ``gametable venue-setup``), the service storing finished games in SQLite, and its
board in Chromium (gametable/venue; README "Run a venue")."""

from __future__ import annotations

import csv
import http.client
import io
import json
import time
import urllib.request
from datetime import datetime

import pytest

from gametable.testing.games import quick_coup
from gametable.testing.pty import wait_for
from gametable.testing.recorder import Recorder

pytestmark = pytest.mark.mqtt


def _get(service, path: str) -> bytes:
    with urllib.request.urlopen(service.board_url + path, timeout=10) as resp:
        return resp.read()


def _play(table, commands) -> None:
    panel = Recorder(table.broker.host, table.broker.port, "gametable/+/cmd/result", **table.panel_login())
    try:
        for cmd in commands:
            assert panel.command(table.table_id, cmd)["ok"], cmd
    finally:
        panel.close()



def test_a_finished_game_at_a_bridged_table_enters_the_league_and_the_exports(table, service):
    _play(table, quick_coup("venue-g1"))
    wait_for(lambda: service.venue.store.game_count() == 1, 10, "the finished game stored")
    league = json.loads(_get(service, "/api/league"))
    assert [(r["name"], r["played"], r["won"]) for r in league] == [("Ann", 1, 1), ("Bo", 1, 0)]
    games = json.loads(_get(service, "/export/games.json"))
    assert games[0]["key"] == "t1:venue-g1" and games[0]["game"] == "coup"
    rows = list(csv.DictReader(io.StringIO(_get(service, "/export/results.csv").decode())))
    assert [(r["name"], r["rank"]) for r in rows] == [("Ann", "1"), ("Bo", "2")]
    finished = datetime.fromisoformat(rows[0]["finished_at"])  # ISO 8601, UTC: what a spreadsheet reads
    assert finished.tzinfo is not None and abs(finished.timestamp() - time.time()) < 120
    history = json.loads(_get(service, "/api/players/ANN"))
    assert history["won"] == 1 and history["games"][0]["table"] == "t1"


def test_a_table_whose_bridge_drops_shows_offline_and_comes_back(table, service):
    board = lambda: {t["table"]: t for t in json.loads(_get(service, "/api/tables"))["tables"]}  # noqa: E731
    wait_for(lambda: board()["t1"]["online"], 10, "t1 online")
    assert not board()["t2"]["online"]  # known from the config, never connected
    table.link.cut()
    wait_for(lambda: not board()["t1"]["online"], 10, "t1 offline")
    table.link.restore()
    wait_for(lambda: board()["t1"]["online"], 20, "t1 back online")


@pytest.mark.browser
@pytest.mark.usefixtures("close_contexts")
def test_the_board_shows_each_table_live_in_chinese_and_on_the_tv(browser, table, service):
    from playwright.sync_api import expect

    commands = quick_coup("venue-g2", ("Lin", "Wu"))
    _play(table, commands[:2])  # a game under way
    page = browser.new_context().new_page()
    page.goto(service.board_url + "/?lang=zh")
    t1 = page.locator("#table-t1")
    expect(t1.locator(".status")).to_have_text("在线")
    expect(t1.locator("li.turn")).to_contain_text("Lin")  # seat 1 launched a coup; its turn goes on
    expect(t1.locator("li[data-seat=\"1\"] .figures")).to_contain_text("金币 7")
    expect(t1.locator(".game")).to_contain_text("coup")
    expect(t1.locator("a.watch")).to_have_attribute("href", "http://t1.local:8080/table")
    expect(page.locator("#table-t2 .status")).to_have_text("离线")
    _play(table, commands[2:])
    expect(t1.locator("li.won")).to_contain_text("Lin")
    expect(page.locator("#league tbody tr:not(.provisional-head)").first).to_contain_text("Lin")
    tv = browser.new_context().new_page()
    tv.goto(service.board_url + "/tv?lang=en")
    expect(tv.locator("#table-t1 li.won")).to_contain_text("won")
    expect(tv.locator("#table-t1 a.watch")).to_be_hidden()  # a wall screen has no one to click


@pytest.mark.browser
@pytest.mark.usefixtures("close_contexts")
def test_a_phone_makes_its_profile_and_another_phone_takes_it_over_by_the_qr_link(browser, service):
    from playwright.sync_api import expect

    from gametable.venue.board import PROFILE_COOKIE

    first = browser.new_context()
    phone = first.new_page()
    phone.goto(service.board_url + "/?lang=en")
    phone.fill("#profile-name", "Mei")
    phone.click("#profile-new button")
    expect(phone.locator("#profile-label")).to_contain_text("Mei (p-")
    # Polled from here: wait_for_function's in-page polling needs eval, which the board's CSP forbids.
    wait_for(lambda: phone.evaluate("document.getElementById('profile-qr').naturalWidth") > 0, 10,
             "the profile's QR code shown")
    key = next(c["value"] for c in first.cookies() if c["name"] == PROFILE_COOKIE)
    other = browser.new_context().new_page()
    other.goto(f"{service.board_url}/?lang=zh#profile={key}")  # what the QR code holds
    expect(other.locator("#profile-label")).to_have_text(phone.locator("#profile-label").inner_text())
    assert "profile=" not in other.url  # the key leaves the address bar at once


@pytest.mark.browser
@pytest.mark.usefixtures("close_contexts")
def test_the_venue_host_logs_in_with_the_key_starts_a_tournament_and_awards_a_match(browser, service):
    from playwright.sync_api import expect

    page = browser.new_context().new_page()
    page.goto(service.board_url + "/?lang=en")
    expect(page.locator("#tournament-new")).to_be_hidden()
    page.fill("#host-key", "a-guess")
    page.click("#host-login button")
    expect(page.locator("#host-error")).to_have_text("wrong venue host key")
    expect(page.locator("#tournament-new")).to_be_hidden()
    page.fill("#host-key", service.host_key)
    page.click("#host-login button")
    expect(page.locator("#tournament-new")).to_be_visible()
    page.fill("#t-name", "Club night")
    page.select_option("#t-format", "round_robin")
    page.fill("#t-players", "Ann\nBo\nCy")
    page.fill("#t-tables", "t1, t2")
    page.click("#tournament-new button")
    match = page.locator('[data-tournament] [data-round="1"] li').first
    expect(match).to_contain_text("v")  # no table is free (none is online): the match waits
    players = match.inner_text().split(" v ")
    winner = players[0].strip()
    match.locator("button", has_text=f"award to {winner}").click()
    expect(match).to_contain_text(f"★ {winner}")
    expect(match).to_contain_text("awarded by the host")
    assert service.scheduler.view()[0]["matches"][0]["awarded"]


def test_the_board_is_served_by_waitress_and_a_stopped_service_ends_the_open_boards(service):
    """A wall screen holds the board's stream open; stopping the service (a restart, an update)
    closes it, so the screen's EventSource reconnects to the service that comes back."""
    with urllib.request.urlopen(service.board_url + "/", timeout=10) as resp:
        assert resp.headers["Server"] == "gametable-venue"
    stream = urllib.request.urlopen(service.board_url + "/api/stream", timeout=10)
    assert stream.readline().startswith(b"data: ")  # the whole board, at once
    service.stop()
    with pytest.raises(http.client.IncompleteRead):  # cut off at once, not left open until a timeout
        stream.read()
    stream.close()
