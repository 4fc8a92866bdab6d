"""Ratings and the league table from finished games (openskill's Plackett-Luce model).

Why openskill: one model handles free-for-all (each player their own side) and teams (a side per
team) with ties, and it is a small pure-Python package that runs on a Pi. Ratings are recomputed
from the stored results, oldest game first, so they never drift from the database and two venue
services agree. Pure: no I/O.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import groupby

from openskill.models import PlackettLuce, PlackettLuceRating

from gametable.venue.store import StoredResult, is_bot

# A player with fewer finished games than this (in the games the league counts) is provisional:
# ranked below the established players, as a rating from a game or two says little (its sigma)
PROVISIONAL_GAMES = 5


@dataclass
class Standing:
    player: str
    name: str
    rating: float  # openskill's ordinal: mu - 3 sigma, what the league sorts by
    mu: float
    sigma: float
    played: int = 0
    won: int = 0
    games: list[int] = field(default_factory=list)
    provisional: bool = False


def sides(game: list[StoredResult]) -> list[list[StoredResult]]:
    """A game's sides: one per team where the players have teams, else one per player."""
    by_side: dict[str, list[StoredResult]] = defaultdict(list)
    for r in game:
        by_side[f"team:{r.team}" if r.team is not None else f"seat:{r.seat}"].append(r)
    return list(by_side.values())


def league(rows: Iterable[StoredResult], provisional_under: int = PROVISIONAL_GAMES) -> list[Standing]:
    """Every player's rating and figures over ``rows`` (one game's rows together, oldest first),
    best first: the established players, then the provisional ones (fewer than
    ``provisional_under`` games). Bots are not in it, and a game rates only its people."""
    model = PlackettLuce()
    ratings: dict[str, PlackettLuceRating] = {}
    table: dict[str, Standing] = {}
    for _game_id, game_rows in groupby(rows, key=lambda r: r.game_id):
        game = [r for r in game_rows if not is_bot(r.player)]
        teams = sides(game)
        for r in game:
            standing = table.setdefault(r.player, Standing(r.player, r.name, 0.0, 0.0, 0.0))
            standing.name = r.name  # the latest spelling
            standing.played += 1
            standing.won += r.rank == 1
            standing.games.append(r.game_id)
        if len(teams) < 2:
            continue  # nobody to be rated against
        before = [[ratings.get(r.player) or model.rating(name=r.player) for r in side] for side in teams]
        after = model.rate(before, ranks=[float(min(r.rank for r in side)) for side in teams])
        for side, new in zip(teams, after, strict=True):
            for r, rating in zip(side, new, strict=True):
                ratings[r.player] = rating
    for player, standing in table.items():
        rating = ratings.get(player) or model.rating()
        standing.mu, standing.sigma, standing.rating = rating.mu, rating.sigma, rating.ordinal()
        standing.provisional = standing.played < provisional_under
    return sorted(table.values(), key=lambda s: (s.provisional, -s.rating, -s.won, s.name))
