"""The end-to-end venue: three virtual tables (bots, each its own Mosquitto) bridged into a
venue Mosquitto, the venue service and its board in Chromium. A 4-player single-elimination Coup
tournament over two tables plays to its end by itself -- matches offered to free tables, started
by the tables' auto-start, results from the game-over states -- while a bridge is cut mid-game and
restored; the standings match the stored games (gametable/venue/scheduler.py)."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

from controller.bot_runner import BotRunner
from gametable.testing.pty import wait_for
from gametable.testing.recorder import Recorder
from gametable.testing.venue import bridged_table, start_venue_broker
from gametable.venue.config import VenueConfig
from gametable.venue.offers import AutoStart
from gametable.venue.service import VenueService

pytestmark = [pytest.mark.mqtt, pytest.mark.browser, pytest.mark.slow]
PLAYERS = ["Ann", "Bo", "Cy", "Di"]



@pytest.fixture
def venue_of_three(tmp_path):
    venue = start_venue_broker(["t1", "t2", "t3"])
    tables, extras = [], []
    try:
        for t in ("t1", "t2", "t3"):
            table = bridged_table(venue, t, tmp_path / f"{t}.sqlite")
            tables.append(table)
            bots = BotRunner(table.daemon, [1, 2], seed=len(tables))
            bots.start()
            extras.append(bots)
            login = table.panel_login()
            extras.append(AutoStart(t, table.broker.host, table.broker.port, login["username"], login["password"],
                                    bots=True).start())
        login = venue.login("venue")
        config = VenueConfig(mqtt_host=venue.broker.host, mqtt_port=venue.broker.port,
                             mqtt_username=login["username"], mqtt_password=login["password"], client_id="venue-e2e",
                             database_url=f"sqlite:///{tmp_path / 'venue.sqlite'}", board_port=0,
                             tables=("t1", "t2", "t3"))
        service = VenueService(config).start()
        assert service.connected.wait(10)
        yield venue, tables, service
        service.stop()
    finally:
        for extra in extras:
            extra.stop()
        for table in tables:
            table.close()
        venue.broker.close()


def _post(service, path: str, body: dict, key: str | None) -> tuple[int, dict]:
    req = urllib.request.Request(service.board_url + path, json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", **({"X-Venue-Host": key} if key else {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.mark.usefixtures("close_contexts")
def test_a_four_player_tournament_over_two_tables_plays_to_its_end_and_the_standings_are_right(
        browser, venue_of_three):
    from playwright.sync_api import expect

    venue, (t1, t2, t3), service = venue_of_three
    request = {"name": "Friday Coup", "format": "single_elimination", "game": "coup", "players": PLAYERS,
               "tables": ["t1", "t2"]}
    status, answer = _post(service, "/api/tournaments", request, None)
    assert status == 403 and "venue host" in answer["error"]  # nobody but the venue host
    assert service.scheduler.tournaments() == []
    status, answer = _post(service, "/api/tournaments", {**request, "format": "ladder"}, service.host_key)
    assert status == 400 and "format 'ladder'" in answer["error"]
    page = browser.new_context().new_page()
    page.goto(service.board_url + "/?lang=en")
    # A casual game at the third table meanwhile: the tournament never takes it.
    casual = Recorder(t3.broker.host, t3.broker.port, "gametable/t3/cmd/result", **t3.panel_login())
    casual.command("t3", {"type": "new_game", "game": "coup", "id": "casual-t3-1",
                          "players": [{"seat": 1, "name": "Eve", "bot": True}, {"seat": 2, "name": "Fay", "bot": True}]})
    casual.close()
    status, answer = _post(service, "/api/tournaments", request, service.host_key)
    assert status == 201
    tid = answer["id"]
    # The first round is offered to both tables at once and started by their auto-starts; t1's
    # bridge drops while its match is on and comes back: its result still enters (once).
    wait_for(lambda: any(m["table"] == "t1" and not m["winner"] for m in service.scheduler.view()[0]["matches"]),
             20, "a match offered to t1")
    t1.link.cut()
    time.sleep(0.5)  # a real outage lasts a while; the bots play on at t1 meanwhile
    t1.link.restore()
    wait_for(lambda: service.scheduler.view()[0]["finished"], 120, "the tournament's end")
    view = service.scheduler.view()[0]
    assert view["id"] == tid
    matches = view["matches"]
    assert [len(m["players"]) for m in matches] == [2, 2, 2] and not any(m["awarded"] for m in matches)
    assert {m["table"] for m in matches} <= {"t1", "t2"}
    games = {g["key"]: g for g in service.venue.store.export()}
    for m in matches:  # each match's winner is the stored game's winner, by seat
        game = next(g for k, g in games.items() if f":venue-{tid}-{m['number']}-" in k)
        winner = next(r for r in game["results"] if r["rank"] == 1)
        assert m["players"][winner["seat"] - 1] == m["winner"] == winner["name"]
    final = matches[2]
    assert sorted(final["players"]) == sorted([matches[0]["winner"], matches[1]["winner"]])
    champion = view["standings"][0]
    assert champion["player"] == final["winner"] and champion["wins"] == 2 and not champion["out"]
    assert [s["out"] for s in view["standings"]].count(False) == 1
    assert sum(1 for k in games if k.startswith(("t1:venue-", "t2:venue-"))) == 3  # nothing twice
    # The board shows the bracket and the champion, and the third table's own game.
    board = page.locator(f'[data-tournament="{tid}"]')
    expect(board.locator('[data-round="2"] li.decided')).to_contain_text(f"★ {final['winner']}")
    expect(board.locator("table.standings tbody tr").first).to_have_attribute("data-player", final["winner"])
    expect(page.locator("#table-t3 .game")).to_contain_text("coup")
    # A decided match cannot be awarded again.
    status, answer = _post(service, f"/api/tournaments/{tid}/matches/3/award", {"winner": "Ann"}, service.host_key)
    assert status == 400 and "decided already" in answer["error"]
