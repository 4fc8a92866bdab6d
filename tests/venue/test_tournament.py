"""Tournament pairings and standings (gametable/venue/tournament.py): single elimination, round
robin and Swiss, for any number of players, whoever wins each match."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gametable.venue.tournament import (
    Match,
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


def _decided(*games: tuple[str, str, int]) -> list[Match]:
    """Matches (winner, loser, round), numbered in order."""
    return [Match(i + 1, rnd, (w, lose), w) for i, (w, lose, rnd) in enumerate(games)]


def test_swiss_ties_go_to_the_stronger_opponents_met_buchholz():
    matches = _decided(("A", "C", 1), ("B", "D", 1), ("C", "E", 2), ("C", "F", 3))
    table = standings("swiss", ["B", "A", "C", "D", "E", "F"], matches)
    assert [s.player for s in table] == ["C", "A", "B", "E", "F", "D"]  # (seed order alone: C, B, A, D, E, F)
    by = {s.player: s for s in table}
    assert (by["A"].buchholz, by["B"].buchholz, by["D"].buchholz) == (2, 0, 1)


def test_swiss_median_buchholz_drops_the_best_and_worst_opponent():
    # P met 0, 2, 2 point opponents; Q met 1, 1, 2: Buchholz 4 each, median 2 against 1
    matches = _decided(("P", "z0", 1), ("x2", "P", 2), ("P", "y2", 3), ("Q", "u1", 1), ("Q", "v1", 2), ("w2", "Q", 3),
                       ("x2", "k", 1), ("y2", "k", 2), ("y2", "k2", 4), ("w2", "k", 1), ("u1", "k3", 2), ("v1", "k3", 3))
    players = ["Q", "P", "x2", "y2", "w2", "u1", "v1", "z0", "k", "k2", "k3"]
    by = {s.player: s for s in standings("swiss", players, matches)}
    assert by["P"].points == by["Q"].points == 2 and by["P"].buchholz == by["Q"].buchholz == 4
    assert (by["P"].median_buchholz, by["Q"].median_buchholz) == (2, 1)
    order = [s.player for s in standings("swiss", players, matches)]
    assert order.index("P") < order.index("Q")


def test_round_robin_ties_go_head_to_head_then_to_sonneborn_berger():
    matches = _decided(("A", "B", 1), ("A", "D", 1), ("C", "A", 2), ("B", "C", 2), ("B", "E", 3), ("C", "F", 3),
                       ("D", "E", 4), ("D", "F", 4), ("E", "F", 5))
    table = standings("round_robin", ["F", "E", "D", "C", "B", "A"], matches)
    # A, B, C, D level on 2: A won 2 of their games, B and C one each (B beat E, 1 point: SB 3 v 2), D none
    assert [s.player for s in table] == ["A", "B", "C", "D", "E", "F"]
    assert {s.player: s.sonneborn_berger for s in table}["B"] == 3


def test_a_cycle_level_on_every_tie_break_keeps_seed_order():
    matches = _decided(("A", "B", 1), ("B", "C", 2), ("C", "A", 3))
    assert [s.player for s in standings("round_robin", ["C", "A", "B"], matches)] == ["C", "A", "B"]


@given(st.sampled_from(["swiss", "round_robin", "single_elimination"]), names, st.randoms())
def test_standings_are_every_player_once_by_points(fmt, players, rnd):
    matches = play_out(fmt, players, lambda m: rnd.choice(m.players))
    table = standings(fmt, players, matches)
    assert sorted(s.player for s in table) == sorted(players)
    assert [s.points for s in table] == sorted((s.points for s in table), reverse=True)
