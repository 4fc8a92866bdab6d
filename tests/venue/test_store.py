"""The venue's storage and ratings: every finished game stored once by its key, ratings from the
stored results (gametable/venue: ingest, store, results, ratings). SQLite in a temp file."""

from __future__ import annotations

import json
import threading

from hypothesis import given
from hypothesis import strategies as st

from gametable.testing.venue_feed import finish, results_answer
from gametable.venue.ingest import Venue
from gametable.venue.ratings import league
from gametable.venue.results import outcome
from gametable.venue.store import Store


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        self.now += 1
        return self.now


def _players(*names: str, teams: str = "") -> list[dict]:
    return [{"seat": i + 1, "name": n, "alive": True, **({"team": teams[i]} if teams else {})}
            for i, n in enumerate(names)]


def _play(venue: Venue, table: str, game_id: str, players: list[dict], winner: object) -> None:
    """One game as the venue broker delivers it: the new_game event, a state, the final state and
    the table's answer to the venue's ask (what stores it)."""
    base = {"game": "coup", "mode": "classic", "phase": "playing", "players": players, "turn": {"seat": 1}}
    venue.on_message(f"gametable/{table}/state", json.dumps({**base, "winner": None}).encode())
    finish(venue, table, game_id, [{"seat": p["seat"], "name": p["name"]} for p in players],
           {**base, "phase": "over", "winner": winner})


def test_a_finished_game_is_stored_once_even_when_seen_again_or_by_a_restarted_service(database_url):
    url = database_url
    venue = Venue(Store(url), FakeClock())
    _play(venue, "t1", "g-1", _players("Ann", "Bo"), [1])
    final = {"game": "coup", "mode": "classic", "phase": "over", "players": _players("Ann", "Bo"), "winner": [1]}
    venue.on_message("gametable/t1/state", json.dumps(final).encode())  # a bridge's redelivery
    answer = results_answer("g-1", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}], final)
    venue.on_message("gametable/t1/results", answer)  # a second answer (two asks crossed)
    again = Venue(Store(url), FakeClock())  # a restart: the retained state and the table's answer again
    again.on_message("gametable/t1/state", json.dumps(final).encode())
    again.on_message("gametable/t1/results", answer)
    assert again.store.game_count() == 1
    rows = list(again.store.results())
    assert [(r.name, r.rank, r.key) for r in rows] == [("Ann", 1, "t1:g-1"), ("Bo", 2, "t1:g-1")]


def test_the_same_players_game_on_two_tables_is_two_games(database_url):
    venue = Venue(Store(database_url), FakeClock())
    _play(venue, "t1", "g-1", _players("Ann", "Bo"), [1])
    _play(venue, "t2", "g-1", _players("Ann", "Bo"), [1])
    assert venue.store.game_count() == 2


def test_league_rates_winners_above_losers_in_free_for_all_and_teams(database_url):
    venue = Venue(Store(database_url), FakeClock())
    for i in range(3):
        _play(venue, "t1", f"ffa-{i}", _players("Ann", "Bo", "Cy"), [1])
    _play(venue, "t2", "teams-1", _players("Ann", "Bo", "Cy", "Di", teams="ABAB"), [2, 4])
    standings = league(venue.store.results())
    by_name = {s.name: s for s in standings}
    assert standings[0].name == "Ann" and by_name["Ann"].won == 3 and by_name["Ann"].played == 4
    assert by_name["Bo"].rating > by_name["Cy"].rating  # Bo won with Di; Cy lost with Ann
    assert by_name["Di"].played == 1 and by_name["Di"].won == 1


def test_names_are_one_player_whatever_the_case_or_spaces(database_url):
    venue = Venue(Store(database_url), FakeClock())
    _play(venue, "t1", "a", _players("Ann Lee", "Bo"), [1])
    _play(venue, "t1", "b", _players(" ann  LEE", "Bo"), [2])
    assert {s.player: s.played for s in league(venue.store.results())} == {"ann lee": 2, "bo": 2}


def test_a_game_still_going_and_garbage_store_nothing(database_url):
    venue = Venue(Store(database_url), FakeClock())
    for payload in (b"not json", b"[]", b'{"game": null}', b'{"game":"coup","players":[],"winner":null}'):
        venue.on_message("gametable/t1/state", payload)
    venue.on_message("gametable/t1/seat/1/private", b'{"hand": ["duke"]}')  # never bridged; ignored anyway
    assert venue.store.game_count() == 0
    assert venue.board()[0]["table"] == "t1"


@given(st.integers(2, 6).flatmap(lambda n: st.tuples(st.just(n), st.sets(st.integers(1, n), min_size=1),
                                                     st.booleans())))
def test_winners_and_only_winners_rank_first(case):
    n, won, draw = case
    state = {"game": "coinwar", "players": _players(*(f"p{i}" for i in range(n))),
             "winner": {"draw": sorted(won)} if draw else sorted(won)}
    result = outcome(state)
    assert result is not None and result.draw == draw
    assert {p.seat for p in result.players if p.rank == 1} == won
    assert len(result.players) == n


def test_two_services_behind_one_database_store_each_game_once_and_share_the_host_key(database_url):
    url = database_url
    first, second = Venue(Store(url), FakeClock()), Venue(Store(url), FakeClock())
    for venue in (first, second):  # both subscribe to the venue broker: both see every message
        _play(venue, "t1", "g-1", _players("Ann", "Bo"), [2])
    assert first.store.game_count() == second.store.game_count() == 1
    made_first = first.store.setting("host_key", lambda: "made-by-first")
    assert second.store.setting("host_key", lambda: "made-by-second") == made_first == "made-by-first"


def test_two_services_starting_at_once_on_a_new_database_migrate_it_once(database_url):
    """Two venue services behind one new database start together: both come up, the schema is
    made once (no 'table already exists'), and both see the same schema version."""
    url = database_url
    start = threading.Barrier(4)
    versions: list[int] = []
    errors: list[BaseException] = []

    def service() -> None:
        try:
            start.wait()
            store = Store(url)  # migrates
            versions.append(store.migrate())
            store.engine.dispose()
        except Exception as exc:  # reported below with the others
            errors.append(exc)

    threads = [threading.Thread(target=service) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    assert versions == [versions[0]] * 4
    store = Store(url)
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT COUNT(*) FROM schema_version").scalar_one() == 1
    _play(Venue(store, FakeClock()), "t1", "g-1", _players("Ann", "Bo"), [1])
    assert store.game_count() == 1


def test_bots_play_their_seats_on_record_but_never_enter_the_league(database_url):
    venue = Venue(Store(database_url), FakeClock())
    final = {"game": "coup", "phase": "over", "winner": [1], "players": _players("Bot 1", "Bot 2")}
    for i in range(5):  # the demo's bot tables, all evening
        finish(venue, "t1", f"demo-{i}", [{"seat": 1, "name": "Bot 1", "bot": True},
                                           {"seat": 2, "name": "Bot 2", "bot": True}], final)
    finish(venue, "t2", "real", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}],
           {**final, "players": _players("Ann", "Bo")})
    # Cy's seat was handed to a bot mid-game (seat_to_bot): the result is the bot's, not Cy's
    finish(venue, "t2", "handed", [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Cy"}],
           {**final, "winner": [2], "players": _players("Ann", "Cy"), "bots": [2]})
    assert venue.store.game_count() == 7
    standings = league(venue.store.results())
    assert [(s.name, s.played, s.won) for s in standings] == [("Ann", 2, 1), ("Bo", 1, 0)]
    assert {r.player for r in venue.store.results() if r.key == "t2:handed"} == {"ann", "bot:cy"}


def test_players_with_few_games_are_ranked_apart_as_provisional(database_url):
    """A 1-0 newcomer is not ranked above a player with a record: fewer than PROVISIONAL_GAMES
    finished games and a player is provisional, listed after the established players."""
    from gametable.venue.ratings import PROVISIONAL_GAMES

    venue = Venue(Store(database_url), FakeClock())
    for i in range(PROVISIONAL_GAMES):
        _play(venue, "t1", f"g-{i}", _players("Ann", "Bo"), [1 if i % 2 == 0 else 2])
    _play(venue, "t1", "g-new", _players("Cy", "Di"), [1])  # Cy: one game, won
    table = league(venue.store.results())
    assert [(s.name, s.provisional) for s in table] == [("Ann", False), ("Bo", False), ("Cy", True), ("Di", True)]
    assert table[2].rating > table[1].rating  # Cy's one win rates higher than Bo, still listed below


def test_a_season_counts_only_its_games(database_url):
    venue = Venue(Store(database_url), FakeClock())
    _play(venue, "t1", "g-1", _players("Ann", "Bo"), [1])
    first = [r.finished_at for r in venue.store.results()][0]
    _play(venue, "t1", "g-2", _players("Ann", "Bo"), [2])
    later = [r.finished_at for r in venue.store.results()][-1]
    assert later > first
    season = list(venue.store.results(between=(later, later + 1)))
    assert [(r.name, r.rank) for r in season] == [("Ann", 2), ("Bo", 1)]
