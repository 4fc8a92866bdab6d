"""The league over HTTP (gametable/venue/board.py ``/api/league``): a season by ?from= and ?to=
(whole UTC days, both included), each player marked provisional or not, bad dates refused with
the reason. The real board app; SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gametable.venue.board import Changes, create_board
from gametable.venue.config import VenueConfig
from gametable.venue.ingest import Venue
from gametable.venue.profiles import Profiles
from gametable.venue.results import outcome
from gametable.venue.scheduler import Scheduler
from gametable.venue.store import Store


def _at(day: str) -> float:
    return datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=UTC).timestamp() + 12 * 3600


@pytest.fixture
def client(database_url):
    store = Store(database_url)
    for key, day, winner in (("t1:g1", "2026-11-30", 1), ("t1:g2", "2026-12-01", 2), ("t1:g3", "2026-12-31", 2)):
        state = {"game": "coup", "mode": "classic", "phase": "over", "winner": [winner],
                 "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}]}
        result = outcome(state)
        assert result is not None and store.record(key, "t1", result, state, _at(day), {})
    app = create_board(Venue(store, lambda: 0.0), VenueConfig(), Changes(), Scheduler(store, lambda: 0.0), "KEY",
                       lambda: None, Profiles(store, lambda: 0.0))
    return app.test_client()


def test_a_season_is_its_days_both_included(client):
    december = client.get("/api/league?from=2026-12-01&to=2026-12-31").get_json()
    assert {r["name"]: (r["played"], r["won"]) for r in december} == {"Bo": (2, 2), "Ann": (2, 0)}
    everything = client.get("/api/league").get_json()
    assert {r["name"]: r["played"] for r in everything} == {"Ann": 3, "Bo": 3}
    assert all(r["provisional"] for r in everything)  # three games each: under five
    assert {r["name"]: r["played"] for r in client.get("/api/league?to=2026-11-30").get_json()} == {"Ann": 1, "Bo": 1}


@pytest.mark.parametrize(("query", "error"), [
    ("from=2026-13-01", "from: a date as YYYY-MM-DD, got '2026-13-01'"),
    ("to=yesterday", "to: a date as YYYY-MM-DD, got 'yesterday'"),
    ("from=2026-12-02&to=2026-12-01", "to (2026-12-01) is before from (2026-12-02)"),
])
def test_a_season_that_is_no_date_range_is_refused(client, query, error):
    got = client.get(f"/api/league?{query}")
    assert got.status_code == 400 and got.get_json() == {"ok": False, "error": error}
