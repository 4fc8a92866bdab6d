"""kill -9 of the real daemon mid-game, many times at random points: nothing acknowledged is lost."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from gametable.replay import replay_lines
from gametable.testing.bots import comparable
from tests.faults.rig import T, retained

pytestmark = [pytest.mark.mqtt, pytest.mark.slow]

ROUNDS = 8


def test_kill9_at_random_points_resumes_at_the_last_acknowledged_input(rig):
    rnd = random.Random(2024)
    rig.play(3)
    sent: list[str] = [c["id"] for c in rig.bot.history]
    outcomes: Counter = Counter()
    for _ in range(ROUNDS):
        rig.play(rnd.randint(1, 4))
        # a command in flight when the process dies: it may or may not have reached the journal
        cmd = rig.bot.next_command()
        before = rig.expected()
        after = comparable(replay_lines([*map(_line, rig.bot.history), _line(cmd)]).public_view())
        mark = len(rig.phone.messages)
        if rnd.random() < 0.5:  # in flight: kill at a random point of the daemon's handling
            rig.cc.publish(cmd)
            time.sleep(rnd.uniform(0, 0.004))  # (real I/O timing, not logic)
            rig.daemon.kill()
            how = "in flight"
        else:  # sent while the daemon is dead: the broker queues it in the daemon's session
            rig.daemon.kill()
            rig.cc.publish(cmd)
            how = "while down"
        assert rig.phone.wait_for(f"{T}/status", start=mark, timeout=30).payload == b"offline"  # the last will

        journalled = rig.journal_state()
        assert journalled in (before, after)  # nothing acknowledged lost, nothing invented
        outcomes[(how, "journalled before the kill" if journalled == after else "not yet")] += 1

        mark = rig.start_daemon()
        # on restart the daemon republishes the state it resumed from, and the LEDs that go with it
        # (a queued command may be applied right after, hence "first state after online")
        assert rig.state_after(mark, expect=journalled) == journalled
        leds = rig.journal_leds()
        assert rig.leds_after(mark, expect=leds) == leds

        # the phone never got a result for cmd, so it retries with the same id: applied exactly once
        result = rig.cc.send(cmd)
        assert result["ok"], result
        rig.bot.accepted(cmd)
        sent += [c["id"] for c in rig.bot.history[len(sent):]]
    ids = rig.journal_ids()
    assert ids == sent and len(set(ids)) == len(ids)
    assert rig.journal_state() == rig.expected()
    assert retained(rig.broker, f"{T}/state") == rig.expected()
    assert retained(rig.broker, f"{T}/status") == "online"
    assert rig.daemon.starts == ROUNDS + 1
    print("kill outcomes:", dict(outcomes))


def _line(cmd: dict) -> str:
    import json

    return json.dumps(cmd)
