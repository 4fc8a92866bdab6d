"""The venue host's operator tools (gametable/venue/operator.py, hardware_docs/multi_table.md
"Operator's tools"): rename, merge and delete a player, void a game. Each change is logged, a
refused one changes nothing, and the league follows. SQLite and PostgreSQL; the HTTP routes on the
real board app, host only."""

from __future__ import annotations

import json

import pytest

from gametable.venue.operator import Operator, OperatorError
from gametable.venue.profiles import Profiles
from gametable.venue.ratings import league
from gametable.venue.results import outcome
from gametable.venue.store import Store, is_bot
from tests.venue.test_store import FakeClock as Clock


@pytest.fixture
def venue(database_url):
    store = Store(database_url)
    clock = Clock()
    return store, Profiles(store, clock), Operator(store, clock)


def _game(store: Store, key: str, names: tuple[str, str], winner: int, profiles: dict[int, str] | None = None) -> None:
    state = {"game": "coup", "mode": "classic", "phase": "over", "winner": [winner],
             "players": [{"seat": s, "name": n} for s, n in enumerate(names, start=1)]}
    result = outcome(state)
    assert result is not None
    assert store.record(key, "t1", result, state, 1.0, profiles or {})


def _league(store: Store) -> dict[str, tuple[str, int, int]]:
    return {s.player: (s.name, s.played, s.won) for s in league(store.results())}


def test_a_renamed_profile_carries_its_new_name_on_every_game(venue):
    store, profiles, op = venue
    tess, _ = profiles.create("Tess")
    _game(store, "t1:g1", ("Tess", "Bo"), 1, {1: tess.id})
    assert op.rename(tess.id, "  Tess   Lee ") == "Tess Lee"
    assert _league(store)[tess.id] == ("Tess Lee", 1, 1)
    assert [p.name for p in profiles.known()] == ["Tess Lee"]
    assert [(e.action, e.subject, e.detail) for e in op.log()] == [
        ("rename", tess.id, {"before": "Tess", "after": "Tess Lee"})]


def test_a_guest_tess_is_merged_into_the_profile_tess_and_rated_as_one(venue):
    """The failed ticket's case: a guest "Tess" beside the profile "Tess" becomes one league row."""
    store, profiles, op = venue
    tess, _ = profiles.create("Tess")
    _game(store, "t1:g1", ("Tess", "Bo"), 1, {1: tess.id})
    _game(store, "t1:g2", ("Tess", "Cy"), 1)  # the ticket failed: a guest
    assert set(_league(store)) == {tess.id, "tess", "bo", "cy"}
    assert op.merge(tess.id, "tess") == 1
    table = _league(store)
    assert table[tess.id] == ("Tess", 2, 2) and "tess" not in table


def test_two_profiles_merge_into_one_and_the_merged_profile_is_gone(venue):
    store, profiles, op = venue
    a, _ = profiles.create("Ann")
    b, _ = profiles.create("Ann L")
    _game(store, "t1:g1", ("Ann", "Bo"), 1, {1: a.id})
    _game(store, "t1:g2", ("Ann L", "Bo"), 2, {1: b.id})
    assert op.merge(a.id, b.id) == 1
    assert [p.id for p in profiles.known()] == [a.id]
    assert _league(store)[a.id] == ("Ann", 2, 1)


def test_two_people_of_one_game_are_never_merged(venue):
    store, profiles, op = venue
    a, _ = profiles.create("Ann")
    b, _ = profiles.create("Bo")
    _game(store, "t1:g1", ("Ann", "Bo"), 1, {1: a.id, 2: b.id})
    before = _league(store)
    with pytest.raises(OperatorError, match="played in the same game"):
        op.merge(a.id, b.id)
    assert _league(store) == before and {p.id for p in profiles.known()} == {a.id, b.id} and op.log() == []


@pytest.mark.parametrize(("into", "other", "message"), [
    ("p-none", "bo", "no profile 'p-none'"),
    ("ME", "ME", "cannot be merged into itself"),
    ("ME", "nobody", "no player 'nobody'"),
    ("ME", "bot:bot 2", "is a bot"),
])
def test_a_merge_that_makes_no_sense_is_refused(venue, into, other, message):
    store, profiles, op = venue
    me, _ = profiles.create("Me")
    with pytest.raises(OperatorError, match=message):
        op.merge(me.id if into == "ME" else into, me.id if other == "ME" else other)
    assert op.log() == []


def test_a_deleted_person_leaves_no_name_and_the_others_results_stand(venue):
    """Privacy: the profile and its name go; the games stay whole, the person's results anonymous
    and out of the league; the opponents keep their games."""
    store, profiles, op = venue
    tess, _ = profiles.create("Tess")
    _game(store, "t1:g1", ("Tess", "Bo"), 2, {1: tess.id})
    assert op.delete(tess.id) == 1
    assert profiles.known() == []
    rows = list(store.results())
    gone = next(r for r in rows if r.seat == 1)
    assert is_bot(gone.player) and gone.name == "" and tess.id not in gone.player
    assert _league(store) == {"bo": ("Bo", 1, 1)}
    everything = json.dumps([e.detail for e in op.log()]) + " ".join(e.subject for e in op.log())
    assert "Tess" not in everything and tess.id not in everything  # the log keeps no trace of who
    assert "Tess" not in json.dumps(store.export())


def test_a_voided_game_is_kept_but_never_counted_again(venue):
    store, _, op = venue
    _game(store, "t1:g1", ("Ann", "Bo"), 1)
    _game(store, "t1:g2", ("Ann", "Bo"), 2)
    assert op.void("t1:g2", "a test game") == "t1:g2"
    assert store.game_count() == 1
    assert _league(store)["ann"] == ("Ann", 1, 1)
    with pytest.raises(OperatorError, match="voided already"):
        op.void("t1:g2", "again")
    with pytest.raises(OperatorError, match="no stored game 't1:g9'"):
        op.void("t1:g9", "typo")
    with pytest.raises(OperatorError, match="reason"):
        op.void("t1:g1", "  ")
    assert [(e.action, e.subject, e.detail) for e in op.log()] == [("void", "t1:g2", {"reason": "a test game"})]


def test_the_routes_are_the_venue_hosts_only_and_refusals_say_why(venue):
    from gametable.venue.board import Changes, create_board
    from gametable.venue.config import VenueConfig
    from gametable.venue.ingest import Venue
    from gametable.venue.scheduler import Scheduler

    store, profiles, op = venue
    tess, _ = profiles.create("Tess")
    _game(store, "t1:g1", ("Tess", "Bo"), 1, {1: tess.id})
    app = create_board(Venue(store, Clock()), VenueConfig(), Changes(), Scheduler(store, Clock()), "KEY",
                       lambda: None, profiles, op)
    client = app.test_client()
    assert client.post("/api/operator/rename", json={"profile": tess.id, "name": "T"}).status_code == 403
    assert client.get("/api/operator/log").status_code == 403
    host = {"X-Venue-Host": "KEY"}
    got = client.post("/api/operator/rename", json={"profile": tess.id, "name": "Tess Lee"}, headers=host)
    assert got.status_code == 200 and got.get_json() == {"ok": True, "name": "Tess Lee"}
    bad = client.post("/api/operator/merge", json={"into": tess.id}, headers=host)
    assert bad.status_code == 400 and bad.get_json()["error"] == "other: required"
    bad = client.post("/api/operator/void", json={"key": "t1:none", "reason": "x"}, headers=host)
    assert bad.status_code == 400 and bad.get_json()["error"] == "no stored game 't1:none'"
    assert client.post("/api/operator/explode", json={}, headers=host).status_code == 404
    assert client.post("/api/operator/void", json={"key": "t1:g1", "reason": "wrong winner"}, headers=host).get_json() == \
        {"ok": True, "voided": "t1:g1"}
    log = client.get("/api/operator/log", headers=host).get_json()
    assert [e["action"] for e in log] == ["rename", "void"]


def test_a_venue_database_from_before_the_operator_tools_gains_them(tmp_path):
    """A database at schema 4 (no voided_at, no operator log) is migrated in place, games kept."""
    import sqlalchemy as sa

    from gametable.venue.store import MIGRATIONS

    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    store = Store(url)
    _game(store, "t1:g1", ("Ann", "Bo"), 1)
    with store.engine.begin() as conn:  # back to how schema 4 left it
        conn.execute(sa.text("ALTER TABLE games DROP COLUMN voided_at"))
        conn.execute(sa.text("DROP TABLE operator_log"))
        conn.execute(sa.text("DROP TABLE staff_keys"))
        conn.execute(sa.text("UPDATE schema_version SET version = 4"))
    again = Store(url)
    assert again.migrate() == len(MIGRATIONS) == 6
    assert again.game_count() == 1
    Operator(again, Clock()).void("t1:g1", "migrated")
    assert again.game_count() == 0
