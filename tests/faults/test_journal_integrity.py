"""A damaged journal under the real daemon process.

Only a bad *last* record may be dropped (a write cut short). A flipped bit in an old record, or a
page SQLite cannot read, stops ``gametable run`` with one line naming the damage and the exit
status systemd's unit will not restart (78), and the file stays byte for byte as it was;
``gametable journal check|export|repair`` see and salvage it. A redelivered ``new_game`` after a
torn record deals the same cards, and the host's panel is told (retained ``sensors/journal``).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys

import pytest

from controller.journal import Journal
from controller.table import Table
from gametable.replay import replay_file
from gametable.testing.bots import comparable
from gametable.testing.daemon_proc import REPO
from tests.faults.rig import T, retained
from tests.test_journal import flip_bit, smash_page_of

pytestmark = [pytest.mark.mqtt, pytest.mark.slow]

EX_CONFIG = 78  # hardware_docs/systemd/gametable.service: RestartPreventExitStatus=78


def gametable(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gametable.cli", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=60)


def _checkpoint(path) -> None:
    """Fold the WAL into the main file, so a body's bytes sit in the main file to be damaged."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def _fingerprint(path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(path.parent.iterdir())
            if p.name.startswith(path.name)}


def _start_fails(rig) -> tuple[int, str]:
    """Start the daemon on the damaged journal: it must stop by itself; (exit status, its output)."""
    log_before = len(rig.daemon.log_text())
    rig.daemon.start()
    code = rig.daemon.proc.wait(timeout=30)
    return code, rig.daemon.log_text()[log_before:]


def test_a_flipped_bit_in_an_old_record_stops_run_and_the_journal_commands_salvage_it(rig, tmp_path):
    rig.play(20)
    rig.daemon.kill()
    path = rig.daemon.journal
    _checkpoint(path)
    rows = rig.daemon.journal_rows()
    flip_bit(path, rows[4][2].encode())  # record 5 of 20
    before = _fingerprint(path)

    code, output = _start_fails(rig)
    assert code == EX_CONFIG
    lines = output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in output, output
    assert f"record seq {rows[4][0]} (#5, id {rows[4][1]!r}): CRC mismatch" in lines[0]
    assert "15 record(s) after it; the file was not changed" in lines[0]
    assert _fingerprint(path) == before  # not one byte: no delete, no checkpoint, no schema

    check = gametable("journal", "check", str(path))
    assert check.returncode == 1 and f"bad: record seq {rows[4][0]} (#5" in check.stdout
    export = gametable("journal", "export", str(path))
    assert export.returncode == 1 and f"skipped record seq {rows[4][0]}" in export.stderr
    assert [json.loads(line) for line in export.stdout.splitlines()] == \
        [json.loads(b) for i, (_s, _c, b) in enumerate(rows) if i != 4]
    fixed = tmp_path / "fixed.sqlite"
    repair = gametable("journal", "repair", str(path), str(fixed))
    assert repair.returncode == 0 and f"dropped record seq {rows[4][0]} (#5" in repair.stdout
    assert _fingerprint(path) == before  # repair never edits FILE
    assert gametable("journal", "repair", str(path), str(fixed)).returncode == 2  # never overwrites
    assert gametable("journal", "check", str(fixed)).returncode == 0

    resumed = Table(Journal(fixed))  # what the daemon resumes to: inputs that no longer apply are skipped
    resumed.load()
    expected = comparable(resumed.public_view())
    resumed.journal.close()
    os.replace(fixed, path)  # what the host does after reading the repair's report
    mark = rig.start_daemon()
    assert rig.state_after(mark, expect=expected) == expected
    assert rig.daemon.journal_rows()[:19] == rows[:4] + rows[5:]
    seq = rig.cc.send({"type": "undo", "id": "after-repair"})  # new inputs never reuse a seq
    assert seq["ok"], seq
    assert rig.daemon.journal_rows()[-1][0] == rows[-1][0] + 1


def test_a_corrupt_database_page_is_one_line_and_exit_78_never_a_restart_loop(rig):
    rig.play(30)
    rig.daemon.kill()
    path = rig.daemon.journal
    _checkpoint(path)
    rows = rig.daemon.journal_rows()
    smash_page_of(path, rows[len(rows) // 2][2].encode())
    before = _fingerprint(path)
    code, output = _start_fails(rig)
    assert code == EX_CONFIG and "Traceback" not in output
    lines = output.strip().splitlines()
    assert len(lines) == 1 and f"journal {path} is damaged" in lines[0] and "malformed" in lines[0], output
    assert _fingerprint(path) == before
    check = gametable("journal", "check", str(path))
    assert check.returncode == 1 and "unreadable (database disk image is malformed)" in check.stdout


def test_gametable_replay_reads_the_sqlite_journal_with_the_same_output_as_its_export(rig, tmp_path):
    rig.play(15)
    path = rig.daemon.journal  # live: the daemon is writing it, replay reads it read-only
    export = gametable("journal", "export", str(path))
    assert export.returncode == 0 and export.stderr == ""
    jsonl = tmp_path / "export.jsonl"
    jsonl.write_text(export.stdout)
    from_sqlite, from_jsonl = gametable("replay", str(path)), gametable("replay", str(jsonl))
    assert from_sqlite.returncode == 0 and from_sqlite.stdout == from_jsonl.stdout
    assert comparable(json.loads(from_sqlite.stdout)) == rig.expected()
    assert gametable("replay", str(path), "--view", "1").stdout == gametable("replay", str(jsonl), "--view", "1").stdout


def test_an_empty_journal_file_is_a_new_game_said_on_the_console_and_to_the_host(rig):
    rig.play(3)
    rig.daemon.kill()
    path = rig.daemon.journal
    for side in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        side.unlink(missing_ok=True)
    path.write_bytes(b"")  # a botched copy, a full card that truncated it
    mark = rig.start_daemon()
    assert "was an empty file (0 bytes): starting a NEW journal" in rig.daemon.log_text()
    notice = rig.phone.wait_for(f"{T}/sensors/journal", start=mark).json()
    # the anchor (controller/journal_chain.py) says what the empty file lost
    assert notice["warning"] == ("journal file was empty (0 bytes): a new journal was started; its anchor names input "
                                 "#3: the journal before this one was lost (deleted or emptied); restore it from a "
                                 "backup if it held games")
    assert retained(rig.broker, f"{T}/sensors/journal")["warning"] == notice["warning"]


def test_a_lone_surrogate_in_a_command_id_gets_a_cmd_result_error(rig):
    rig.play(3)
    rows, mark = rig.daemon.journal_rows(), len(rig.phone.messages)
    rig.phone.publish(f"{T}/cmd", b'{"type":"undo","id":"x\\ud800"}')
    result = rig.phone.wait_for(f"{T}/cmd/result", lambda m: m.json().get("id") == "x\ud800", timeout=20,
                                start=mark).json()
    assert result["ok"] is False and "'id' must be valid Unicode text" in result["error"]
    assert rig.daemon.journal_rows() == rows and rig.daemon.alive()
    rig.play(2)  # and the daemon goes on answering


COUP = {"type": "new_game", "game": "coup",
        "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"}]}


def test_a_new_game_redelivered_after_its_record_was_torn_deals_the_same_hidden_cards(rig):
    rig.play(3)
    mark = len(rig.phone.messages)
    assert rig.cc.send({**COUP, "id": "coup-game-1"})["ok"]  # no seed: the table picks one
    hands = {s: rig.phone.wait_for(f"{T}/seat/{s}/private", lambda m: bool(m.payload) and m.json().get("game") == "coup",
                                   start=mark).json() for s in (1, 2, 3)}
    rig.daemon.kill()
    rows = rig.daemon.journal_rows()
    assert json.loads(rows[-1][2])["type"] == "new_game"
    rig.daemon.tear_record(rows[-1][0])

    mark = rig.start_daemon()
    # what the host's panel is shown: the new daemon's notice (it may follow its `online`)
    notice = rig.phone.wait_for(f"{T}/sensors/journal", start=mark).json()
    assert notice == {"dropped": [rows[-1][0]], "warning": "torn journal tail dropped"}
    assert retained(rig.broker, f"{T}/sensors/journal") == notice
    again = rig.cc.send({**COUP, "id": "coup-game-1"})  # the panel's retry, or the broker's redelivery
    assert again["ok"], again
    for seat, hand in hands.items():
        assert retained(rig.broker, f"{T}/seat/{seat}/private") == hand  # the cards players already saw
    new_rows = rig.daemon.journal_rows()
    assert new_rows[-1][0] == rows[-1][0] + 1  # a new seq, not the dropped one's
    assert json.loads(new_rows[-1][2])["seed"] == json.loads(rows[-1][2])["seed"]
    assert comparable(replay_file(rig.daemon.journal).public_view()) == retained(rig.broker, f"{T}/state")
