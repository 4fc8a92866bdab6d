"""A restarted virtual table puts its coins back where they rested (docs/phones.md "A restart"):
`make demo` stopped mid-game and started again resumes the game from the journal, and the coins lie
where they lay, not at their start spots. The real daemon on a journal file; the file of another
game, or one that is damaged, is never used."""

from __future__ import annotations

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.daemon import Daemon
from gametable.sim_resting import RestingCoins, resting_for
from gametable.sim_table import VirtualTable
from gametable_core.clock import FakeClock
from gametable_core.config import parse

PLAYERS = [{"seat": s, "name": f"P{s}"} for s in (1, 2, 3)]


def _daemon(journal: str, clock: FakeClock) -> Daemon:
    d = Daemon(parse({"journal": {"path": journal}}), clock)
    d.start(connect=False)
    return d


def _coinwar(vt: VirtualTable, cid: str) -> None:
    assert vt.submit({"id": cid, "type": "new_game", "game": "coinwar", "mode": "ffa", "players": PLAYERS,
                      "order": [1, 2, 3], "seed": 1})["ok"]
    vt.sync()


def test_cw_a_restarted_virtual_table_puts_the_coins_where_they_rested(tmp_path):
    journal, clock = str(tmp_path / "j.sqlite"), FakeClock()
    daemon = _daemon(journal, clock)
    try:
        vt = VirtualTable(daemon, clock, seed=3)
        _coinwar(vt, "rest-game-1")
        start = vt.physics.positions()
        assert vt.flick("c1", 0.0, 500.0)["ok"]
        rested = vt.physics.positions()
        assert math.dist(rested["c1"], start["c1"]) > 20  # the strike moved it
    finally:
        daemon.stop()
    daemon = _daemon(journal, clock)  # the demo started again over the same journal
    try:
        again = VirtualTable(daemon, clock, seed=3)
        again.sync()
        assert daemon.public_state()["turn"]["strikes"] == 1  # the game resumed
        for coin, (x, y) in rested.items():
            assert math.dist(again.physics.positions()[coin], (x, y)) < 1e-6, coin
        assert again.initial == {c: start[c] for c in start}  # start spots kept for CW-6.2's "initial"
        _coinwar(again, "rest-game-2")  # a new game: start spots, not the last game's rests
        assert again.physics.positions() == start
    finally:
        daemon.stop()


def test_the_file_of_another_game_is_not_used(tmp_path):
    coins = RestingCoins(tmp_path / "j.sqlite.coins.json")
    coins.save("game-a", {"c1": (10.0, 20.0)})
    assert coins.load("game-a") == {"c1": (10.0, 20.0)}
    assert RestingCoins(coins.path).load("game-b") == {}


def test_no_file_for_a_journal_in_memory():
    assert resting_for(":memory:") is None and resting_for(None) is None


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.binary(max_size=64).map(lambda b: b.decode("latin-1")),
                 st.recursive(st.none() | st.booleans() | st.floats(allow_nan=True) | st.text(max_size=4),
                              lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                              max_leaves=8).map(json.dumps)))
def test_a_damaged_file_gives_only_positions_that_are_two_finite_numbers(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("rest") / "j.sqlite.coins.json"
    path.write_text(text)
    got = RestingCoins(path).load("g")
    assert all(isinstance(c, str) and len(p) == 2 and all(math.isfinite(v) for v in p) for c, p in got.items())


def test_only_finite_pairs_are_taken_from_a_file_of_this_game(tmp_path):
    path = tmp_path / "j.sqlite.coins.json"
    path.write_text('{"game": "g", "coins": {"c1": [1, 2], "c2": [1], "c3": ["1", 2], "c4": [true, 2],'
                    ' "c5": [1e999, 2], "c6": [3.5, -4]}}')
    assert RestingCoins(path).load("g") == {"c1": (1.0, 2.0), "c6": (3.5, -4.0)}
