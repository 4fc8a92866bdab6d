"""The panel side of venue profiles (hardware_docs/multi_table.md "Players known at every table"):
a phone sent from the venue board with a seat ticket sits at the table, the host's lobby names the
seat after the profile, and the finished game counts for that profile at the venue. Real parts: the
venue's Mosquitto and service, the table's Mosquitto bridged into it, the daemon, the served panel
and Chromium."""

from __future__ import annotations

import json
import urllib.request

import pytest

from controller.bot_runner import BotRunner
from gametable.broker import free_port
from gametable.testing.panel import PIN
from gametable.testing.pty import wait_for
from gametable.testing.recorder import Recorder
from gametable.testing.venue import bridged_table, start_venue_broker
from gametable.venue.config import VenueConfig
from gametable.venue.ratings import league
from gametable.venue.service import VenueService
from gametable_core.config import parse
from tests.helpers.browser import phone_page, start_from_lobby, unlocked_host
from web_panel.server import PanelServer

pytestmark = [pytest.mark.mqtt, pytest.mark.browser, pytest.mark.slow, pytest.mark.usefixtures("close_contexts")]


@pytest.fixture
def venue_table(tmp_path):
    """Venue (broker + service) and table t1 (broker bridged in, daemon, panel knowing the venue)."""
    venue = start_venue_broker(["t1"])
    table = bridged_table(venue, "t1", tmp_path / "t1.sqlite")
    panel_port = free_port()
    login = venue.login("venue")
    service = VenueService(VenueConfig(
        mqtt_host=venue.broker.host, mqtt_port=venue.broker.port, mqtt_username=login["username"],
        mqtt_password=login["password"], client_id="venue-panel-test", database_url=f"sqlite:///{tmp_path / 'v.sqlite'}",
        board_port=0, tables=("t1",), spectator={"t1": f"http://127.0.0.1:{panel_port}/table"})).start()
    assert service.connected.wait(10)
    panel_login = table.panel_login()
    config = parse({"table_id": "t1", "journal": {"path": str(tmp_path / "t1.sqlite")},
                    "mqtt": {"host": table.broker.host, "port": table.broker.port},
                    "panel": {"host": "127.0.0.1", "pin": PIN, "mqtt_username": panel_login["username"],
                              "mqtt_password": panel_login["password"]},
                    "venue": {"url": service.board_url}})
    panel = PanelServer(config, port=panel_port).start()
    assert panel.link.connected.wait(10)
    try:
        yield service, table, panel
    finally:
        panel.stop()
        service.stop()
        table.close()
        venue.broker.close()


def _counted(service):
    return {s.player: s for s in league(service.venue.store.results())}


def test_a_phone_with_a_venue_ticket_sits_and_the_finished_game_counts_for_its_profile(browser, venue_table):
    service, table, panel = venue_table
    errors: list[str] = []
    ann = phone_page(browser, service.board_url + "/?lang=en", errors)
    profile = ann.request.post(service.board_url + "/api/profiles", data={"name": "Ann"}).json()
    ann.goto(service.board_url + "/profile/ticket?table=t1")  # the board sends the phone to its table
    ann.wait_for_url(f"{panel.url}/**")
    ann.wait_for_function("() => location.hash === ''")  # taken from the address, kept for this tab only
    ann.click("#seat-1")
    ann.wait_for_url("**/seat")
    host = unlocked_host(browser, panel, errors)
    host.select_option("#game", "coup")
    host.locator("#name-1[placeholder='Ann']").wait_for()  # the lobby names the seat after the profile
    host.click("#bot-2")
    events = Recorder(table.broker.host, table.broker.port, "gametable/t1/events", **table.panel_login())
    bots = BotRunner(table.daemon, [1, 2], seed=4)  # both seats play by themselves: the game ends
    bots.start()
    try:
        start_from_lobby(host)
        started = events.wait_for("gametable/t1/events", lambda m: (m.json().get("input") or {}).get("type")
                                  == "new_game", 20).json()["input"]
        seat_1 = next(p for p in started["players"] if p["seat"] == 1)
        assert seat_1["name"] == "Ann" and seat_1["venue_ticket"].startswith(f"vt1.{profile['id']}.")
        assert "venue_ticket" not in next(p for p in started["players"] if p["seat"] == 2)
        wait_for(lambda: profile["id"] in _counted(service), 120, "the game stored at the venue for Ann's profile")
    finally:
        bots.stop()
        events.close()
    counted = _counted(service)[profile["id"]]
    assert (counted.name, counted.played) == ("Ann", 1)
    assert errors == []


def test_the_host_taps_the_offered_match_and_it_starts_with_the_offers_id(browser, venue_table):
    """hardware_docs/multi_table.md "Tournaments": the venue offers t1 a match; the host's one tap starts it."""
    from playwright.sync_api import expect

    service, table, panel = venue_table
    body = json.dumps({"name": "Friday Coup", "format": "single_elimination", "game": "coup",
                       "players": ["Ann", "Bo"], "tables": ["t1"]}).encode()
    request = urllib.request.Request(service.board_url + "/api/tournaments", body, method="POST",
                                     headers={"Content-Type": "application/json", "X-Venue-Host": service.host_key})
    with urllib.request.urlopen(request, timeout=10) as resp:
        assert resp.status == 201
    errors: list[str] = []
    host = unlocked_host(browser, panel, errors)
    expect(host.locator("#venue-offer")).to_contain_text("Friday Coup, match 1: coup with Ann, Bo")
    offer = panel.link.venue_offer()
    events = Recorder(table.broker.host, table.broker.port, "gametable/t1/events", **table.panel_login())
    try:
        host.click("#start-offer")
        started = events.wait_for("gametable/t1/events", lambda m: (m.json().get("input") or {}).get("type")
                                  == "new_game", 20).json()["input"]
    finally:
        events.close()
    assert started["id"] == offer["offer"] and [p["name"] for p in started["players"]] == ["Ann", "Bo"]
    expect(host.locator("#venue-offer")).to_have_count(0)  # the match is on: no banner
    assert errors == []
