"""Mosquitto restarted, or the network cut, mid-game: the daemon reconnects by itself and every
command is applied exactly once or refused with a clear error - never silently lost."""

from __future__ import annotations

import json
import time

import pytest

from gametable.replay import replay_lines
from tests.faults.rig import T, retained

pytestmark = [pytest.mark.mqtt, pytest.mark.slow]


def _resync_bot(rig) -> None:
    rows = [b for _s, _c, b in rig.daemon.journal_rows()]
    rig.bot.mirror = replay_lines(rows)
    rig.bot.history = [json.loads(b) for b in rows]
    rig.bot.in_game = len(rig.bot.history)


def _outage_batch(rig, n: int) -> list[dict]:
    """``n`` commands a phone sends while the table is unreachable (each legal after the last)."""
    batch = []
    for _ in range(n):
        cmd = rig.bot.next_command()
        rig.bot.accepted(cmd)  # provisional: the journal decides below
        rig.cc.publish(cmd)
        batch.append(cmd)
    return batch


def _wait_journal_has(rig, ids: list[str], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not set(ids) <= set(rig.journal_ids()):
        assert time.monotonic() < deadline, f"not journalled: {set(ids) - set(rig.journal_ids())}"
        time.sleep(0.02)  # polling a file another process writes (real I/O)


def test_broker_restart_mid_game_loses_no_command_and_applies_none_twice(rig):
    rig.play(5)
    pid = rig.daemon.pid
    before_ids = rig.journal_ids()
    rig.broker.stop()
    batch = _outage_batch(rig, 4)  # not queued by paho while the broker is down (a stale command must never apply)
    mark = len(rig.phone.messages)
    rig.broker.restart()
    # the phone retries each command with the same id until it gets a result
    results = [rig.cc.send(cmd, retry_s=0.5) for cmd in batch]
    for r in results:
        assert r["ok"] or (isinstance(r.get("error"), str) and r["error"]), r
    ok_ids = [r["id"] for r in results if r["ok"]]
    new_ids = rig.journal_ids()[len(before_ids):]
    assert sorted(new_ids) == sorted(ok_ids) and len(set(new_ids)) == len(new_ids)  # exactly once
    assert rig.daemon.alive() and rig.daemon.pid == pid  # it reconnected by itself
    rig.phone.wait_for(f"{T}/status", lambda m: m.payload == b"online", timeout=30, start=mark)
    assert retained(rig.broker, f"{T}/status") == "online"
    assert retained(rig.broker, f"{T}/state") == rig.journal_state()
    _resync_bot(rig)
    rig.play(3)
    assert retained(rig.broker, f"{T}/state") == rig.expected()


def test_network_cut_goes_offline_by_the_last_will_and_queued_commands_apply_once(net_rig):
    rig = net_rig
    rig.play(4)
    pid = rig.daemon.pid
    before_ids = rig.journal_ids()
    mark = len(rig.phone.messages)
    rig.net.cut()
    # the broker sees the daemon's connection die without a goodbye: it publishes the last will
    rig.phone.wait_for(f"{T}/status", lambda m: m.payload == b"offline", timeout=30, start=mark)
    assert retained(rig.broker, f"{T}/status") == "offline"
    batch = _outage_batch(rig, 3)  # published once each; the broker queues them in the daemon's session
    mark = len(rig.phone.messages)
    rig.net.restore()
    rig.phone.wait_for(f"{T}/status", lambda m: m.payload == b"online", timeout=30, start=mark)
    _wait_journal_has(rig, [c["id"] for c in batch])
    assert rig.journal_ids() == before_ids + [c["id"] for c in batch]  # in order, once each
    for cmd in batch:  # a phone that retries anyway is answered ok, never applied twice
        assert rig.cc.send(cmd)["ok"]
    assert rig.journal_ids() == before_ids + [c["id"] for c in batch]
    assert rig.daemon.pid == pid
    assert retained(rig.broker, f"{T}/state") == rig.expected()
    assert retained(rig.broker, f"{T}/status") == "online"
