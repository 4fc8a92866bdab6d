"""Garbage straight into ``Table.submit`` (no broker): a clear one-line error, nothing changes."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.journal import Journal
from controller.table import Table
from gametable.replay import replay_lines
from gametable.testing.bots import Bot
from tests.helpers.hostile import hostile_commands

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _table_mid_game(seed: int, moves: int) -> Table:
    bot = Bot(seed)
    table = Table(Journal(":memory:"))
    for _ in range(moves):
        cmd = bot.next_command()
        assert table.submit(cmd).ok
        bot.accepted(cmd)
    return table


def _snapshot(table: Table) -> tuple[str, int, list]:
    return (json.dumps(table.state, sort_keys=True), table.journal.last_seq,
            [r.input for r in table.journal.records()])


@SETTINGS
@given(cmd=hostile_commands(), seed=st.integers(0, 50), moves=st.integers(0, 25))
def test_hostile_command_gets_a_specific_error_and_changes_nothing(cmd, seed, moves):
    table = _table_mid_game(seed, moves)
    before = _snapshot(table)
    result = table.submit({**cmd, "id": "h1"} if isinstance(cmd, dict) else cmd)
    if result.ok:  # rare: junk that happens to be legal must then be journalled and replayable
        assert table.journal.last_seq == before[1] + 1
        replayed = replay_lines([json.dumps(r.input) for r in table.journal.records()])
        assert json.dumps(replayed.state, sort_keys=True) == json.dumps(table.state, sort_keys=True)
        return
    assert isinstance(result.error, str) and result.error and "\n" not in result.error
    assert not result.error.startswith("internal error"), result.error  # an engine bug, not a rule
    assert len(result.error) <= 300, result.error  # an echo of a huge input is not a clear message
    assert _snapshot(table) == before


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=st.integers(0, 10_000), data=st.data())
def test_junk_between_legal_inputs_leaves_the_game_as_if_it_never_came(seed, data):
    """Interleave junk with a real game: the journal and state equal the real game alone."""
    rnd = random.Random(seed)
    bot = Bot(seed)
    table = Table(Journal(":memory:"))
    for i in range(30):
        if rnd.random() < 0.5:
            junk = data.draw(hostile_commands())
            r = table.submit({**junk, "id": f"j{i}"} if isinstance(junk, dict) else junk)
            assert r.ok or r.error
            if r.ok:  # junk that is legal here is played by the bot too
                bot.accepted({**junk, "id": f"j{i}"})
        cmd = bot.next_command()
        assert table.submit(cmd).ok
        bot.accepted(cmd)
    assert json.dumps(table.state, sort_keys=True) == json.dumps(bot.mirror.state, sort_keys=True)
    assert [r.input for r in table.journal.records()] == bot.history
