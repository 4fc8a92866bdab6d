"""Every game's ``table_view`` (what LEDs, bots and the out-of-turn rule read) agrees with its
public view, over random legal games of every built-in game: the same turn, winner, phase and
players, and ``answer`` = the seats an open question (CW-8) or reaction window (CP-6) names."""

from __future__ import annotations

import random

import pytest

from controller.games import registry
from controller.table import Table
from gametable.testing.bots import new_game_input, random_legal


def _answering(public: dict) -> list[int]:
    seats = {s for q in public.get("questions") or [] for s in q.get("seats") or []}
    window = public.get("window")
    if isinstance(window, dict):
        seats |= set(window.get("seats") or [])
    return sorted(seats)


@pytest.mark.parametrize("name", ["coinwar", "coup"])
@pytest.mark.parametrize("seed", range(5))
def test_table_view_matches_the_public_view_through_random_games(name, seed):
    rnd = random.Random(f"tv|{name}|{seed}")
    table = Table()
    inp = new_game_input(name, rnd)
    game = registry()[name]
    for n in range(300):
        assert table.submit({**inp, "id": n}).ok
        public, tv = table.public_view(), game.table_view(table.state)
        assert tv["phase"] == public["phase"]
        assert tv["winner"] == public["winner"]
        assert (tv["turn"] or {}).get("seat") == (public["turn"] or {}).get("seat")
        assert bool((tv["turn"] or {}).get("extra")) == bool((public["turn"] or {}).get("extra"))
        assert sorted(tv["answer"]) == _answering(public)
        assert [(p["seat"], p["alive"]) for p in tv["players"]] == [(p["seat"], p["alive"]) for p in public["players"]]
        ids = {d[0] for d in game.deadlines(table.state)}
        assert tv["until"] is None or tv["until"] in ids  # "until when" names a running deadline
        nxt = random_legal(table, rnd)
        if nxt is None:
            break
        inp = nxt
