"""Tournament entries are profiles, or clearly guests (hardware_docs/multi_table.md "Tournaments"):
an entry given as a profile's id, or as the name of exactly one profile, is that profile; its
match's results reach the profile (the venue seated it, no ticket needed), its bracket shows the
profile's name now, and the player's phone is told where the match is. SQLite and PostgreSQL; the
results through the venue's own ingest of a table's sync answer; the phone's line in Chromium."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from gametable.venue.board import Changes, create_board
from gametable.venue.board_server import BoardServer
from gametable.venue.config import VenueConfig
from gametable.venue.ingest import TableLive, Venue
from gametable.venue.profiles import Profiles
from gametable.venue.ratings import league
from gametable.venue.scheduler import Scheduler
from gametable.venue.store import Store
from gametable.venue.tournament import TournamentError
from tests.venue.test_store import FakeClock as Clock


@pytest.fixture
def venue(database_url):
    store, clock = Store(database_url), Clock()
    scheduler = Scheduler(store, clock)
    v = Venue(store, clock)
    v.seated = scheduler.profiles_of
    v.on_finished.append(scheduler.on_finished)
    return store, Profiles(store, clock), scheduler, v


def _free(table: str) -> TableLive:
    return TableLive(table, "online", "1", None)


def _finish(v: Venue, table: str, offer: str, names: list[str], winner: int) -> None:
    """The table's journal answers the venue's sync with the match's finished game."""
    state = {"game": "coup", "mode": "classic", "phase": "over", "winner": [winner],
             "players": [{"seat": s, "name": n} for s, n in enumerate(names, start=1)]}
    game = {"id": offer, "end": 9, "game_seq": 1, "ts": 5.0, "state": state,
            "opening": {"players": [{"seat": s, "name": n} for s, n in enumerate(names, start=1)]}}
    v.on_message(f"gametable/{table}/results", json.dumps({"ok": True, "games": [game], "seq": 9}).encode())


def test_entries_are_profiles_by_id_or_unique_name_and_the_rest_are_guests(venue):
    store, profiles, scheduler, _ = venue
    tess, _ = profiles.create("Tess")
    bo, _ = profiles.create("Bo")
    tid = scheduler.create("Friday", "round_robin", "coup", None, ["tess", bo.id, "Cy"], ["t1"])
    t = scheduler.view()[0]
    assert t["id"] == tid and sorted(t["names"]) == sorted([tess.id, bo.id])  # Cy is a guest
    assert {p for m in t["matches"] for p in m["players"]} == {tess.id, bo.id, "Cy"}
    (_, offer), = scheduler.assign({"t1": _free("t1")})
    assert all(p["name"] in {"Tess", "Bo", "Cy"} for p in offer["players"])  # names at the table, never ids


@pytest.mark.parametrize(("entry", "message"), [("p-0000000000", "no profile 'p-0000000000'"),
                                                ("Ann", "2 profiles are named 'Ann': enter the one who plays by id")])
def test_an_entry_that_names_no_one_surely_is_refused_and_nothing_is_made(venue, entry, message):
    _, profiles, scheduler, _ = venue
    profiles.create("Ann")
    profiles.create("ann")
    with pytest.raises(TournamentError, match=message):
        scheduler.create("Friday", "single_elimination", "coup", None, [entry, "Bo"], ["t1"])
    assert scheduler.tournaments() == []


def test_a_matchs_results_reach_its_profiles_without_a_ticket_and_renames_show(venue):
    store, profiles, scheduler, v = venue
    tess, _ = profiles.create("Tess")
    scheduler.create("Friday", "single_elimination", "coup", None, [tess.id, "Bo"], ["t1"])
    (_, offer), = scheduler.assign({"t1": _free("t1")})
    seats = [p["name"] for p in offer["players"]]
    assert seats == ["Tess", "Bo"]
    _finish(v, "t1", offer["offer"], seats, winner=1)
    t = scheduler.view()[0]
    assert t["finished"] and t["matches"][0]["winner"] == tess.id
    rows = {s.player: (s.name, s.played, s.won) for s in league(store.results())}
    assert rows[tess.id] == ("Tess", 1, 1) and rows["bo"] == ("Bo", 1, 0)  # the guest stays a guest
    assert "tess" not in rows  # no second "Tess" beside the profile
    from gametable.venue.operator import Operator
    Operator(store, Clock()).rename(tess.id, "Tess Lee")
    assert scheduler.view()[0]["names"] == {tess.id: "Tess Lee"}


@pytest.mark.browser
@pytest.mark.usefixtures("close_contexts")
def test_a_players_phone_is_told_the_table_of_their_match(browser, tmp_path):
    store, clock = Store(f"sqlite:///{tmp_path / 'v.sqlite'}"), Clock()
    profiles, scheduler = Profiles(store, clock), Scheduler(store, clock)
    app = create_board(Venue(store, clock), VenueConfig(), Changes(), scheduler, "KEY", lambda: None, profiles)
    server = BoardServer(app, "127.0.0.1", 0).start()
    url = f"http://127.0.0.1:{server.port}"
    try:
        phone = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
        phone.goto(url + "/?lang=zh")
        phone.fill("#profile-name", "Tess")
        phone.click("#profile-new button")
        expect(phone.locator("#profile-mine")).to_be_visible()
        tess = profiles.known()[0].id
        scheduler.create("Friday", "single_elimination", "coup", None, ["Tess", "Bo"], ["t2"])  # by her name
        phone.reload()
        expect(phone.locator("#profile-match")).to_have_text("你的下一场：Friday 第 1 轮，对手 Bo，正在等空桌。")
        scheduler.assign({"t2": _free("t2")})
        phone.reload()
        expect(phone.locator("#profile-match")).to_have_text("你的比赛：Friday 第 1 轮，在 t2 号桌，对手 Bo。")
        expect(phone.locator(".standings td.guest")).to_have_text("Bo")  # the guest, marked
        assert phone.locator(f".standings tr[data-player='{tess}'] td").nth(1).inner_text() == "Tess"
    finally:
        server.stop()
        store.engine.dispose()
