"""Tournament pairings and standings (gametable/venue/tournament.py): single elimination, round
robin and Swiss, for any number of players, whoever wins each match."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gametable.venue.tournament import (
    TournamentError,
    advance,
    finished,
    record,
    standings,
    start,
    swiss_rounds,
)


def play_out(fmt: str, players: list[str], pick) -> list:
    matches = start(fmt, players)
    for _ in range(100):
        for m in matches:
            if not m.done:
                matches = record(matches, m.number, pick(m))
        nxt = advance(fmt, players, matches)
        if not nxt:
            break
        matches += nxt
    assert finished(fmt, players, matches)
    return matches


names = st.integers(2, 9).map(lambda n: [f"p{i}" for i in range(n)])


@given(names, st.randoms())
def test_round_robin_plays_every_pair_once_and_points_are_wins(players, rnd):
    matches = play_out("round_robin", players, lambda m: rnd.choice(m.players))
    assert sorted(tuple(sorted(m.players)) for m in matches) == sorted(combinations(players, 2))
    table = standings("round_robin", players, matches)
    assert sum(s.points for s in table) == len(matches)
    assert [s.points for s in table] == sorted((s.points for s in table), reverse=True)


@given(names, st.randoms())
def test_single_elimination_leaves_one_unbeaten_champion_on_top(players, rnd):
    matches = play_out("single_elimination", players, lambda m: rnd.choice(m.players))
    final = max(matches, key=lambda m: m.number)
    table = standings("single_elimination", players, matches)
    assert table[0].player == final.winner and not table[0].out
    assert [s.out for s in table].count(False) == 1
    assert sum(not m.bye for m in matches) == len(players) - 1  # every real match knocks one out


@given(names, st.randoms())
def test_swiss_plays_its_rounds_without_rematches_or_second_byes_where_avoidable(players, rnd):
    matches = play_out("swiss", players, lambda m: rnd.choice(m.players))
    assert max(m.round for m in matches) == swiss_rounds(players)
    byes = [m.players[0] for m in matches if m.bye]
    assert len(byes) == len(set(byes)) or len(byes) > len(players)
    for r in range(1, swiss_rounds(players) + 1):
        seated = [p for m in matches if m.round == r for p in m.players]
        assert sorted(seated) == sorted(players)  # everyone plays (or has the bye) every round


def test_four_player_swiss_never_repeats_a_pairing():
    players = ["a", "b", "c", "d"]
    matches = play_out("swiss", players, lambda m: m.players[0])
    pairs = [frozenset(m.players) for m in matches]
    assert len(pairs) == len(set(pairs)) == 4


def test_a_result_for_a_stranger_or_a_decided_match_is_refused_and_changes_nothing():
    matches = start("single_elimination", ["a", "b", "c", "d"])
    with pytest.raises(TournamentError, match="does not play match 1"):
        record(matches, 1, "b")
    won = record(matches, 1, "a")
    with pytest.raises(TournamentError, match="decided already"):
        record(won, 1, "d")
    with pytest.raises(TournamentError, match="no match 9"):
        record(won, 9, "a")


@pytest.mark.parametrize("fmt, players, error", [("knockout", ["a", "b"], "one of"), ("swiss", ["a"], "two"),
                                                 ("swiss", ["a", "a"], "repeat: a")])
def test_bad_tournaments_are_refused(fmt, players, error):
    with pytest.raises(TournamentError, match=error):
        start(fmt, players)


def test_five_player_elimination_gives_the_top_three_seeds_byes():
    matches = start("single_elimination", [f"s{i}" for i in range(1, 6)])
    assert [m.players for m in matches] == [("s1",), ("s2",), ("s3",), ("s4", "s5")]
