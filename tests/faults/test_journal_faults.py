"""Journal faults: a full SD card refuses the input with a clear error (a retry with the same id
works once there is room); a journal that is not a database, or one another daemon is writing,
stops `gametable run` with a one-line error and is never touched (exit 78, which the systemd
unit does not restart; another daemon on it is exit 2, which it retries)."""

from __future__ import annotations

import json

import pytest

from controller.journal import Journal, JournalError
from controller.table import Table
from gametable.testing.bots import Bot
from gametable.testing.daemon_proc import DaemonProcess


def test_a_full_journal_refuses_the_input_and_a_retry_succeeds_later(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    table, bot = Table(journal), Bot(5)
    for _ in range(5):
        cmd = bot.next_command()
        assert table.submit(cmd).ok
        bot.accepted(cmd)
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count={pages}")  # SQLite now reports "database or disk is full"
    for _ in range(200):
        cmd = bot.next_command()
        state_before, seq_before = json.dumps(table.state, sort_keys=True), journal.last_seq
        result = table.submit(cmd)
        if not result.ok:
            break
        bot.accepted(cmd)
    else:
        raise AssertionError("the journal never filled up")
    assert "could not record this input, so it was not applied" in result.error
    assert "full" in result.error and "\n" not in result.error
    assert json.dumps(table.state, sort_keys=True) == state_before and journal.last_seq == seq_before
    journal._db.execute("PRAGMA max_page_count=1073741823")  # room again
    again = table.submit(cmd)  # the phone retries with the same id
    assert again.ok and not again.duplicate
    bot.accepted(cmd)
    assert [r.input for r in journal.records()] == bot.history


def test_run_refuses_a_journal_that_is_not_a_database_without_touching_it(tmp_path):
    import subprocess
    import sys

    from gametable.testing.daemon_proc import REPO, write_config

    journal = tmp_path / "journal.sqlite"
    junk = b"this is not SQLite, maybe a half-copied file\n" * 100
    journal.write_bytes(junk)
    config = write_config(tmp_path / "g.toml", "t9", "127.0.0.1", 1, journal)
    proc = subprocess.run([sys.executable, "-m", "gametable.cli", "run", "--config", str(config), "--no-hardware"],
                          cwd=REPO, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 78  # EX_CONFIG: the systemd unit does not restart it every 2 s
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1 and "cannot open journal" in lines[0] and str(journal) in lines[0], proc.stdout
    assert journal.read_bytes() == junk


def test_a_second_daemon_on_the_same_journal_is_refused_and_the_first_plays_on(rig):
    rig.play(3)
    second = DaemonProcess(rig.daemon.workdir, rig.broker.host, rig.broker.port, rig.daemon.table_id)
    second.log = rig.daemon.workdir / "second.log"
    second.start()
    assert second.proc.wait(timeout=30) == 2
    assert "is in use by another gametable process" in second.log_text()
    rig.play(3)  # the first daemon never noticed
    assert rig.daemon.alive() and rig.journal_state() == rig.expected()


def test_journal_path_that_is_a_directory_gives_a_clear_error(tmp_path):
    with pytest.raises(JournalError, match="cannot open journal .*: Is a directory"):
        Journal(tmp_path)


def test_run_with_a_bad_config_exits_78_so_systemd_does_not_restart_it(tmp_path):
    import subprocess
    import sys

    from gametable.testing.daemon_proc import REPO

    config = tmp_path / "g.toml"
    config.write_text('table_id = "t9"\n[panel]\nport = "eighty"\n')
    proc = subprocess.run([sys.executable, "-m", "gametable.cli", "run", "--config", str(config), "--no-hardware"],
                          cwd=REPO, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 78 and "panel.port" in proc.stdout and "Traceback" not in proc.stderr
