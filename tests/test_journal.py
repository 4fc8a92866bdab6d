"""The journal: durable appends, resume after a crash, torn tails dropped with a warning."""

from __future__ import annotations

import json
import logging
import signal
import sqlite3
import subprocess
import sys
import time

from controller.journal import Journal
from controller.table import Table
from tests.coinwar_helpers import shot

NEW = {"type": "new_game", "game": "coinwar", "mode": "ffa", "seed": 3,
       "players": [{"seat": 1, "name": "A"}, {"seat": 2, "name": "B"}, {"seat": 3, "name": "C"}],
       "order": [1, 2, 3]}


def test_accepted_inputs_are_in_the_journal_and_rejected_ones_are_not(tmp_path):
    j = Journal(tmp_path / "j.sqlite")
    t = Table(j)
    assert t.submit({**NEW, "id": "a"}).ok
    bad = t.submit({**shot(2), "id": "b"})
    assert not bad.ok and "seat 1's turn" in bad.error
    assert t.submit({**shot(1), "id": "c"}).ok
    assert [r.cmd_id for r in j.records()] == ["a", "c"]


def test_resume_after_restart_gives_the_same_state(tmp_path):
    path = tmp_path / "j.sqlite"
    t = Table(Journal(path))
    for inp in (NEW, shot(1), shot(1, touch=["c2"]), shot(2, dead=["c3"]), {"type": "undo"}):
        assert t.submit(inp).ok
    before = json.dumps(t.state, sort_keys=True)
    t.journal.close()
    t2 = Table(Journal(path))
    assert t2.load() == 5
    assert json.dumps(t2.state, sort_keys=True) == before


def test_duplicate_ids_are_answered_again_never_applied_twice_even_after_restart(tmp_path):
    path = tmp_path / "j.sqlite"
    t = Table(Journal(path))
    t.submit({**NEW, "id": "n"})
    first = t.submit({**shot(1), "id": "x"})
    again = t.submit({**shot(1), "id": "x"})
    assert first.ok and again.ok and again.duplicate
    assert t.state["turn"]["strikes"] == 1
    t.journal.close()
    t2 = Table(Journal(path))
    t2.load()
    assert t2.submit({**shot(1), "id": "x"}).duplicate
    assert t2.state["turn"]["strikes"] == 1


def test_corrupted_tail_is_dropped_with_a_warning_and_the_rest_kept(tmp_path, caplog):
    path = tmp_path / "j.sqlite"
    t = Table(Journal(path))
    for inp in (NEW, shot(1), shot(1)):
        t.submit(inp)
    t.journal.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE inputs SET body = substr(body, 1, 10) WHERE seq = 3")  # torn last record
    db.commit()
    db.close()
    with caplog.at_level(logging.WARNING):
        j = Journal(path)
    assert "record 3 is torn or corrupted" in caplog.text
    assert j.dropped == [3]
    t2 = Table(j)
    assert t2.load() == 2
    assert t2.state["turn"] == {"seat": 1, "strikes": 1, "extra": False}
    assert t2.submit(shot(1)).ok  # the journal goes on after the dropped record
    assert j.last_seq == 3


def test_truncated_wal_tail_keeps_every_committed_record(tmp_path):
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    for i in range(50):
        j.append({"type": "x", "i": i}, 0.0, f"id{i}")
    wal = tmp_path / "j.sqlite-wal"
    size = wal.stat().st_size
    # Copy the files as a power cut would leave them: WAL cut in the middle of the last frame.
    (tmp_path / "copy").mkdir()
    (tmp_path / "copy" / "j.sqlite").write_bytes(path.read_bytes())
    (tmp_path / "copy" / "j.sqlite-wal").write_bytes(wal.read_bytes()[: size - 100])
    j2 = Journal(tmp_path / "copy" / "j.sqlite")
    seqs = [r.seq for r in j2.records()]
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) >= 48


WRITER = """
import sys
from controller.journal import Journal
j = Journal(sys.argv[1])
i = 0
while True:
    i += 1
    j.append({"type": "x", "i": i}, 0.0, f"w{i}")
    print(i, flush=True)
"""


def test_killing_a_writer_mid_append_loses_no_acknowledged_record(tmp_path):
    path = tmp_path / "j.sqlite"
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True)
    acknowledged = 0
    deadline = time.monotonic() + 20
    while acknowledged < 40 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        acknowledged = int(line)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    records = list(Journal(path).records())
    assert len(records) >= acknowledged >= 40
    assert [r.input["i"] for r in records] == list(range(1, len(records) + 1))
