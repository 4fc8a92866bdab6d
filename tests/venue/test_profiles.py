"""Venue player profiles (gametable/venue/profiles.py): made once on a phone, moved to another
phone by the key in a QR code, results of a seat bound to a profile counted for that profile; the
public list and every export name the profile id, never the key."""

from __future__ import annotations

import json

import pytest

from gametable.testing.venue_feed import finish
from gametable.venue.board import PROFILE_COOKIE, Changes, create_board
from gametable.venue.config import VenueConfig
from gametable.venue.ingest import Venue
from gametable.venue.profiles import Profiles
from gametable.venue.ratings import league
from gametable.venue.scheduler import Scheduler
from gametable.venue.store import Store


@pytest.fixture
def board(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'v.sqlite'}")
    venue = Venue(store, lambda: 5.0)
    profiles = Profiles(store, lambda: 5.0)
    app = create_board(venue, VenueConfig(), Changes(), Scheduler(store, lambda: 5.0), "host-key", lambda: None,
                       profiles)
    return venue, profiles, app


def _finish(venue: Venue, game_id: str, players: list[dict], winner: list[int]) -> None:
    finish(venue, "t1", game_id, players, {"game": "coup", "phase": "over", "winner": winner,
                                           "players": [{"seat": p["seat"], "name": p["name"]} for p in players]},
           ts=venue.clock())


def test_a_profile_moves_to_another_phone_by_its_key_and_only_by_it(board):
    _, _, app = board
    phone = app.test_client()
    made = phone.post("/api/profiles", json={"name": "  Ann   Lee "})
    assert made.status_code == 201 and made.json["name"] == "Ann Lee"
    key = phone.get_cookie(PROFILE_COOKIE).value
    assert key not in json.dumps(made.json)
    assert phone.get("/api/profiles/me").json == made.json
    svg = phone.get("/api/profiles/me/qr.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    other = app.test_client()
    assert other.get("/api/profiles/me").status_code == 404
    wrong = other.post("/api/profiles/claim", json={"key": key[:-1] + ("x" if key[-1] != "x" else "y")})
    assert wrong.status_code == 403 and "no profile" in wrong.json["error"]
    assert other.post("/api/profiles/claim", json={"key": key}).json["id"] == made.json["id"]
    assert other.get("/api/profiles/me").json["id"] == made.json["id"]
    listed = app.test_client().get("/api/profiles")  # what any table's lobby reads (cross-origin)
    assert listed.json == [{"id": made.json["id"], "name": "Ann Lee"}] and key not in listed.text
    assert listed.headers["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Origin" not in phone.get("/api/profiles/me").headers


@pytest.mark.parametrize("name, error", [("", "the player's name"), ("x" * 41, "up to 40"), (3, "name")])
def test_a_bad_name_is_refused_and_makes_nothing(board, name, error):
    _, profiles, app = board
    answer = app.test_client().post("/api/profiles", json={"name": name})
    assert answer.status_code == 400 and error in answer.json["error"]
    assert profiles.known() == []


def test_a_seat_bound_to_a_profile_counts_for_the_profile_whatever_name_is_typed(board):
    venue, profiles, app = board
    ann, key = profiles.create("Ann")
    _finish(venue, "g1", [{"seat": 1, "name": "Ann", "venue_ticket": venue.tickets.issue(ann.id, "t1")},
                          {"seat": 2, "name": "Bo"}], [1])
    _finish(venue, "g2", [{"seat": 1, "name": "Bo"},
                          {"seat": 2, "name": "annie", "venue_ticket": venue.tickets.issue(ann.id, "t1")}], [2])
    _finish(venue, "g3", [{"seat": 1, "name": "Cy", "venue_ticket": venue.tickets.issue("p-unknown", "t1")},
                          {"seat": 2, "name": "Bo"}], [2])
    table = {s.player: (s.name, s.played, s.won) for s in league(venue.store.results())}
    assert table == {ann.id: ("Ann", 2, 2), "bo": ("Bo", 3, 1), "cy": ("Cy", 1, 0)}
    client = app.test_client()
    assert client.get(f"/api/players/{ann.id}").json["won"] == 2
    for path in ("/export/games.json", "/export/results.csv", "/api/league", "/api/tables"):
        assert key not in client.get(path).text
