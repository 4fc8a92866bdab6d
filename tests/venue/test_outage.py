"""A long venue outage loses no result (hardware_docs/multi_table.md, "When the venue is away"): the
table's bridge queue is bounded and drops the newest messages, so after the venue broker returns
the venue service fetches the finished games it missed from the table's journal (``sync`` /
``results``). Real Mosquitto processes with the files of ``gametable venue-setup``, the real daemon
and the real venue service."""

from __future__ import annotations

import time

import pytest

from gametable.testing.games import quick_coup
from gametable.testing.recorder import Recorder

pytestmark = pytest.mark.mqtt
GAMES = 60


def _wait(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)  # real I/O: brokers, bridge and two processes' threads


def test_sixty_games_finished_while_the_venue_broker_is_down_are_all_stored_once(venue, table, service):
    panel = Recorder(table.broker.host, table.broker.port, "gametable/t1/cmd/result", **table.panel_login())
    try:
        _wait(lambda: service.venue.tables["t1"].online, 15, "table t1 never came online at the venue")
        venue.broker.stop()  # the venue's Mosquitto is down; the table plays on alone
        for i in range(GAMES):
            for cmd in quick_coup(f"outage-{i}", names=(f"Ann{i}", f"Bo{i}")):
                assert panel.command("t1", cmd)["ok"], cmd
        # ~4 messages an input for 300 inputs: far over the table's queue for the bridge (200, 1 MiB)
        venue.broker.restart()
        _wait(lambda: service.venue.store.game_count() >= GAMES, 60, "not every game reached the venue")
        time.sleep(1.0)  # (a late duplicate would land now)
        stored = list(service.venue.store.results())
        keys = sorted({r.key for r in stored})
        assert keys == sorted(f"t1:outage-{i}" for i in range(GAMES))
        assert service.venue.store.game_count() == GAMES  # once each
        winners = {r.key: r.name for r in stored if r.rank == 1}
        assert winners == {f"t1:outage-{i}": f"Ann{i}" for i in range(GAMES)}
        row = next(r for r in service.venue.board() if r["table"] == "t1")
        assert row["online"] and row["phase"] != "playing" and row["winner"] == [1]
        assert [p["name"] for p in row["players"]] == [f"Ann{GAMES - 1}", f"Bo{GAMES - 1}"]
    finally:
        panel.close()


def test_a_new_game_after_the_outage_is_stored_from_the_live_stream_again(venue, table, service):
    panel = Recorder(table.broker.host, table.broker.port, "gametable/t1/cmd/result", **table.panel_login())
    try:
        _wait(lambda: service.venue.tables["t1"].online, 15, "table t1 never came online at the venue")
        for cmd in quick_coup("live-1"):
            assert panel.command("t1", cmd)["ok"]
        _wait(lambda: service.venue.store.game_count() == 1, 20, "the live game was not stored")
        assert [r.key for r in service.venue.store.results()] == ["t1:live-1", "t1:live-1"]
    finally:
        panel.close()
