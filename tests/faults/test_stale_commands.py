"""A command the sender was told failed never applies later.

- The panel with the broker down: the host's undo and abort get 504; when the broker is back the
  panel's MQTT client must not deliver them (paho would have queued them). Before the fix two undos
  pressed during an outage rolled the table back past a new game.
- The daemon down, the broker up: a command whose sender gave up is not kept in the daemon's
  persistent session for later (MQTT v5 message expiry before the sender's deadline), while one
  published without expiry still is (the session queue itself keeps working).
"""

from __future__ import annotations

import sqlite3
import time
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.command_client import CommandTimeout, expiry_for
from gametable.testing.panel import PIN, Http
from gametable.testing.table import start_stack
from tests.faults.rig import T

pytestmark = [pytest.mark.mqtt, pytest.mark.slow]

NEW_GAME = {"type": "new_game", "game": "coinwar", "mode": "ffa", "order": [1, 2],
            "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}]}


def _ids(journal: str) -> list[str | None]:
    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    try:
        return [row[0] for row in db.execute("SELECT cmd_id FROM inputs ORDER BY seq")]
    finally:
        db.close()


def _wait(predicate, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)  # polling real I/O (another thread's connection)
    return True


def test_undo_and_abort_that_got_504_during_a_broker_outage_are_never_applied(broker, tmp_path):
    journal = str(tmp_path / "j.sqlite")
    stack = start_stack(broker, journal, result_timeout_s=3.0)
    try:
        host = Http(stack.panel.port)
        assert host.post("/api/host/unlock", {"id": "unlock-host-1", "pin": PIN})[0] == 200
        for n in (1, 2):  # two games: an undo applied later would roll back into the first
            status, body = host.post("/api/host/cmd", {**NEW_GAME, "id": f"game-{n}-{uuid.uuid4().hex[:8]}"})
            assert status == 200, body
        before = _ids(journal)
        broker.stop()
        assert _wait(lambda: not stack.panel.link.connected.is_set())
        pressed = []
        for kind in ("undo", "undo", "abort"):
            rid = f"{kind}-{uuid.uuid4().hex[:12]}"
            status, body = host.post("/api/host/cmd", {"id": rid, "type": kind})
            assert status == 504, body  # the host is told it failed...
            pressed.append(f"host-{rid}")
        broker.restart()
        assert stack.daemon.bridge.wait_connected(20) and stack.panel.link.connected.wait(20)
        # barrier: a command pressed now is applied; anything queued from the outage would be before it
        rid = f"barrier-{uuid.uuid4().hex[:12]}"
        deadline = time.monotonic() + 20
        while (status := host.post("/api/host/cmd", {**NEW_GAME, "id": rid})[0]) != 200:
            assert status == 504 and time.monotonic() < deadline, status  # (daemon re-subscribing)
        ids = _ids(journal)
        assert not set(pressed) & set(ids), ids  # ...so it never applies
        assert ids == [*before, f"host-{rid}"]
    finally:
        stack.stop()


def test_a_command_given_up_on_while_the_daemon_is_down_is_not_delivered_when_it_returns(rig):
    rig.play(3)
    rig.daemon.kill()
    stale = {**rig.bot.next_command(), "id": f"stale-{uuid.uuid4().hex[:8]}"}
    with pytest.raises(CommandTimeout):
        rig.cc.send(stale, retry_s=1.0, timeout=3.0)  # the broker holds it in the daemon's session
    kept = {**stale, "id": f"kept-{uuid.uuid4().hex[:8]}"}
    assert rig.cc.publish(kept)  # no expiry: the session keeps this one for the daemon
    time.sleep(1.1)  # (real time: Mosquitto's expiry clock counts whole seconds)
    mark = rig.start_daemon()
    # the session delivers in order: once "kept" is answered, "stale" would have been answered first
    rig.phone.wait_for(f"{T}/cmd/result", lambda m: m.json().get("id") == kept["id"], timeout=30, start=mark)
    answered = [m.json().get("id") for m in rig.phone.messages[mark:] if m.topic == f"{T}/cmd/result"]
    assert stale["id"] not in answered and stale["id"] not in rig.journal_ids()
    assert kept["id"] in rig.journal_ids()


@given(st.floats(min_value=0, max_value=3600, allow_nan=False))
def test_a_commands_expiry_always_ends_a_full_second_before_its_sender_gives_up(seconds_left):
    props = expiry_for(seconds_left)
    if seconds_left < 2:
        assert props is None  # too late to publish at all: Mosquitto's expiry has 1 s granularity
    else:
        assert 1 <= props.MessageExpiryInterval <= seconds_left - 1
