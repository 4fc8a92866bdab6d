"""Matches offered to free tables and a table dropping out mid-match (gametable/venue/scheduler.py):
the match stays with that table until the venue host replays it elsewhere or awards it."""

from __future__ import annotations

import pytest

from gametable.venue.ingest import TableLive
from gametable.venue.results import Outcome, PlayerResult
from gametable.venue.scheduler import Scheduler
from gametable.venue.store import Store
from gametable.venue.tournament import TournamentError


def _live(table: str, *, online: bool = True, playing: bool = False) -> TableLive:
    state = {"game": "coup", "phase": "playing", "winner": None} if playing else None
    return TableLive(table, "online" if online else "offline", "1", state)


def _won(seat: int) -> Outcome:
    return Outcome("coup", "classic", (PlayerResult(1, "x", None, 1 if seat == 1 else 2),
                                       PlayerResult(2, "y", None, 1 if seat == 2 else 2)), False)


@pytest.fixture
def scheduler(database_url):
    return Scheduler(Store(database_url), lambda: 1.0)


def test_matches_go_only_to_free_online_tables_of_the_tournament(scheduler):
    tid = scheduler.create("cup", "round_robin", "coup", None, ["a", "b", "c", "d"], ["t1", "t2"])
    live = {"t1": _live("t1", playing=True), "t2": _live("t2"), "t3": _live("t3")}
    offers = scheduler.assign(live)
    assert [(table, o["match"], [p["name"] for p in o["players"]]) for table, o in offers] == [("t2", 1, ["a", "d"])]
    assert offers[0][1]["offer"].startswith(f"venue-{tid}-1-")
    assert scheduler.assign(live) == []  # t2 holds its match; t1 is busy with its own game
    live["t1"] = _live("t1")
    assert [t for t, _ in scheduler.assign(live)] == ["t1"]


def test_a_result_enters_by_the_offer_id_and_only_once(scheduler):
    tid = scheduler.create("cup", "single_elimination", "coup", None, ["a", "b"], ["t1"])
    (table, offer), = scheduler.assign({"t1": _live("t1")})
    key = f"t1:{offer['offer']}"
    assert scheduler.on_finished(key, _won(2))
    assert not scheduler.on_finished(key, _won(1))  # seen again: decided already
    assert not scheduler.on_finished("t1:casual-1", _won(1))
    view = scheduler.view()[0]
    assert view["finished"] and view["standings"][0]["player"] == "b"
    assert scheduler.idle_tables() == {"t1"}  # its offer is withdrawn
    assert tid == view["id"]


def test_a_table_that_drops_out_keeps_its_match_until_the_host_replays_or_awards_it(scheduler):
    tid = scheduler.create("cup", "single_elimination", "coup", None, ["a", "b", "c", "d"], ["t1", "t2"])
    live = {"t1": _live("t1"), "t2": _live("t2")}
    first = dict(scheduler.assign(live))
    live["t1"] = _live("t1", online=False)  # t1 drops out mid-match
    assert scheduler.assign(live) == []
    scheduler.replay(tid, first["t1"]["match"])
    live["t2"] = _live("t2")
    scheduler.on_finished(f"t2:{first['t2']['offer']}", _won(1))
    again = scheduler.assign(live)
    assert [(t, o["match"]) for t, o in again] == [("t2", first["t1"]["match"])]
    assert again[0][1]["offer"] != first["t1"]["offer"]
    assert not scheduler.on_finished(f"t1:{first['t1']['offer']}", _won(1))  # the old game no longer counts
    assert first["t1"]["match"] == 1 and [p["name"] for p in first["t1"]["players"]] == ["a", "d"]
    scheduler.award(tid, 1, "d")  # or the venue host decides it
    view = scheduler.view()[0]
    assert [m["awarded"] for m in view["matches"]] == [True, False, False]
    assert view["matches"][2]["players"] == ["d", "b"]  # the final: winners of matches 1 and 2


def test_bad_host_decisions_are_refused_and_change_nothing(scheduler):
    tid = scheduler.create("cup", "single_elimination", "coup", None, ["a", "b"], ["t1"])
    with pytest.raises(TournamentError, match="does not play"):
        scheduler.award(tid, 1, "z")
    with pytest.raises(TournamentError, match="no match 7"):
        scheduler.replay(tid, 7)
    with pytest.raises(TournamentError, match="name the tables"):
        scheduler.create("cup", "swiss", "coup", None, ["a", "b"], [])
    assert len(scheduler.tournaments()) == 1 and not scheduler.view()[0]["matches"][0]["winner"]


def test_the_host_corrects_a_wrong_result_in_a_round_robin_and_the_standings_follow(scheduler):
    """A result reported wrong (the table's winner was not the real one): the venue host corrects it;
    the log keeps the result it replaced."""
    from gametable.venue.operator import Operator

    tid = scheduler.create("cup", "round_robin", "coup", None, ["a", "b", "c", "d"], ["t1"])
    scheduler.award(tid, 1, "a")  # a v d
    scheduler.correct(tid, 1, "d")
    view = scheduler.view()[0]
    assert view["matches"][0]["winner"] == "d" and view["matches"][0]["awarded"] is True
    assert [(e.action, e.subject, e.detail) for e in Operator(scheduler.store, lambda: 1.0).log()] == [
        ("correct", f"tournament {tid} match 1", {"before": "a", "after": "d"})]


def test_a_result_a_later_round_was_paired_from_is_not_corrected(scheduler):
    tid = scheduler.create("cup", "single_elimination", "coup", None, ["a", "b", "c", "d"], ["t1"])
    scheduler.award(tid, 1, "a")
    scheduler.correct(tid, 1, "d")  # the final is not paired yet: fine
    scheduler.award(tid, 2, "b")  # now the final (d v b) is
    before = scheduler.view()
    with pytest.raises(TournamentError, match="round 2 was paired from match 1's result"):
        scheduler.correct(tid, 1, "a")
    with pytest.raises(TournamentError, match="no result to correct yet"):
        scheduler.correct(tid, 3, "d")
    with pytest.raises(TournamentError, match="already won"):
        scheduler.correct(tid, 2, "b")
    with pytest.raises(TournamentError, match="no tournament 99"):
        scheduler.correct(99, 1, "a")
    assert scheduler.view() == before
