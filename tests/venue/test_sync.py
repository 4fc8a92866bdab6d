"""The venue stores results only from the table's journal (gametable/venue/ingest.py): a final
state seen live never says which game it ends (after an outage the bridge's backlog and new
messages arrive interleaved), so it makes the venue ask, and the table's answer stores each game
under its own ``new_game``."""

from __future__ import annotations

import json

import pytest

from gametable.testing.venue_feed import results_answer
from gametable.venue.ingest import ASK_WAIT_S, Venue
from gametable.venue.store import Store


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def venue(tmp_path):
    v = Venue(Store(f"sqlite:///{tmp_path / 'v.sqlite'}"), Clock())
    v.asks = []  # type: ignore[attr-defined]
    v.ask = lambda table, after: v.asks.append((table, after))  # type: ignore[attr-defined]
    return v


def _final(name: str) -> dict:
    return {"game": "coup", "phase": "over", "winner": [1], "players": [{"seat": 1, "name": name}, {"seat": 2, "name": "Bo"}]}


def _event(venue, seq: int, inp: dict) -> None:
    venue.on_message("gametable/t1/events", json.dumps({"seq": seq, "input": inp}).encode())


def test_a_final_state_after_another_games_new_game_stores_nothing_and_asks_the_table(venue):
    _event(venue, 66, {"type": "new_game", "id": "g13", "game": "coup"})  # the backlog's last new_game
    venue.on_message("gametable/t1/state", json.dumps(_final("Ann59")).encode())  # game 59's, retained
    assert venue.store.game_count() == 0 and venue.asks == [("t1", 0)]
    venue.on_message("gametable/t1/results", results_answer("g59", [], _final("Ann59"), end=300, game_seq=296))
    assert [(r.key, r.name) for r in venue.store.results() if r.rank == 1] == [("t1:g59", "Ann59")]
    assert venue.tables["t1"].synced_to == 300 and venue.tables["t1"].state == _final("Ann59")


def test_one_ask_at_a_time_and_again_when_its_answer_is_in_if_something_came_meanwhile(venue):
    venue.on_message("gametable/t1/link", b"1")
    venue.on_message("gametable/t1/state", json.dumps(_final("Ann")).encode())
    assert venue.asks == [("t1", 0)]  # the state's ask waits for the link's
    venue.on_message("gametable/t1/results", results_answer("g1", [], _final("Ann"), end=5))
    assert venue.asks == [("t1", 0), ("t1", 5)]
    venue.clock.now += ASK_WAIT_S + 1  # an answer lost on the way: asked again
    venue.on_message("gametable/t1/state", json.dumps(_final("Ann")).encode())
    assert venue.asks[-1] == ("t1", 5) and len(venue.asks) == 3


def test_events_the_last_answer_covered_are_a_backlog_and_ask_once_it_is_through(venue):
    venue.on_message("gametable/t1/results", results_answer("g1", [], _final("Ann"), end=5))
    venue.asks.clear()
    _event(venue, 3, {"type": "new_game", "id": "old", "game": "coup"})  # stale: not begun
    assert venue.store.current_key("t1") is None and venue.asks == [("t1", 5)]
    _event(venue, 4, {"type": "move"})
    assert venue.asks == [("t1", 5)]
    _event(venue, 6, {"type": "new_game", "id": "g2", "game": "coup"})  # fresh
    assert venue.store.current_key("t1") == "t1:g2"


def test_a_table_with_a_new_journal_is_asked_from_its_start(venue):
    venue.on_message("gametable/t1/results", results_answer("g1", [], _final("Ann"), end=500))
    venue.asks.clear()
    venue.clock.now += ASK_WAIT_S + 1
    fresh = json.loads(results_answer("n1", [], _final("Cy"), end=7))
    fresh["games"], fresh["newest"] = [], 7
    venue.on_message("gametable/t1/results", json.dumps(fresh).encode())
    assert venue.asks == [("t1", 0)]


@pytest.mark.parametrize("payload", [b"garbage", b"[]", b'{"ok": false, "error": "cannot read journal"}',
                                     b'{"ok": true, "games": [{"end": "x"}, 3, {"end": 2, "state": []}]}'])
def test_a_bad_answer_stores_nothing_and_breaks_nothing(venue, payload):
    venue.on_message("gametable/t1/results", payload)
    assert venue.store.game_count() == 0
    assert venue.board()[0]["table"] == "t1"
