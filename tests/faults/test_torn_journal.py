"""A power cut mid-write: the torn or corrupted journal tail is dropped, the rest kept, play goes on."""

from __future__ import annotations

import json
import time

import pytest

from gametable.replay import replay_lines
from tests.faults.rig import T, retained

pytestmark = [pytest.mark.mqtt, pytest.mark.slow]


def _resync_bot(rig) -> None:
    """The players saw the table lose its last input: the bot's mirror follows the journal -- once
    it has stopped growing: a command whose record was lost may be redelivered by the broker and
    applied again a moment after the published state first matched the journal (bounded wait on
    real I/O: the journal unchanged for half a second)."""
    rows = _quiet_journal(rig)
    rig.bot.mirror = replay_lines(rows)
    rig.bot.history = [json.loads(b) for b in rows]
    rig.bot.in_game = len(rig.bot.history)


def _quiet_journal(rig, quiet_s: float = 0.5, timeout_s: float = 20.0) -> list[str]:
    deadline = time.monotonic() + timeout_s
    rows = [b for _s, _c, b in rig.daemon.journal_rows()]
    while time.monotonic() < deadline:
        time.sleep(quiet_s)
        again = [b for _s, _c, b in rig.daemon.journal_rows()]
        if again == rows:
            break
        rows = again
    return rows


def test_a_corrupted_last_record_is_dropped_with_a_warning_and_the_game_continues(rig):
    rig.play(12)
    rig.daemon.kill()
    rows = rig.daemon.journal_rows()
    rig.daemon.tear_record(rows[-1][0])

    mark = rig.start_daemon()
    warning = rig.phone.wait_for(f"{T}/sensors/journal", start=mark).json()
    assert warning == {"dropped": [rows[-1][0]], "warning": "torn journal tail dropped"}
    assert "is torn or corrupted; dropping it" in rig.daemon.log_text()
    kept = replay_lines([b for _s, _c, b in rows[:-1]]).public_view()
    assert rig.state_after(mark, expect=kept) == kept  # it resumed from what was kept
    published, journalled = rig.settled(mark)  # (a redelivered command may be applied again)
    assert published == journalled
    assert rig.daemon.journal_rows()[: len(rows) - 1] == rows[:-1]  # everything before the tear kept
    _resync_bot(rig)
    rig.play(5)  # the game continues on the kept journal
    assert retained(rig.broker, f"{T}/state") == rig.expected() == rig.journal_state()


def test_a_wal_cut_mid_frame_keeps_every_complete_record(rig):
    rig.play(10)
    rig.daemon.kill()  # no checkpoint: the last records live only in the WAL
    wal = rig.daemon.journal.with_name(rig.daemon.journal.name + "-wal")
    rows = rig.daemon.journal_rows()
    size = wal.stat().st_size
    assert size > 0
    with wal.open("r+b") as fh:
        fh.truncate(size - 1500)  # the power went mid-frame (a WAL frame is a 4 KiB page + 24 bytes)
    mark = rig.start_daemon()
    published, journalled = rig.settled(mark)  # (a redelivered command may be applied again)
    assert published == journalled
    kept_rows = rig.daemon.journal_rows()
    assert 0 < len(kept_rows) <= len(rows) and kept_rows == rows[:len(kept_rows)]  # a prefix, intact
    _resync_bot(rig)
    rig.play(5)
    assert retained(rig.broker, f"{T}/state") == rig.expected()


def test_garbage_after_the_last_wal_frame_changes_nothing(rig):
    rig.play(8)
    rig.daemon.kill()
    rows = rig.daemon.journal_rows()
    wal = rig.daemon.journal.with_name(rig.daemon.journal.name + "-wal")
    with wal.open("ab") as fh:
        fh.write(b"\xde\xad\xbe\xef" * 700)  # half-written junk from a dying SD card
    mark = rig.start_daemon()
    assert rig.daemon.journal_rows() == rows
    assert rig.state_after(mark, expect=rig.expected()) == rig.expected()
    rig.play(3)
    assert rig.journal_state() == rig.expected()
