"""The journal: durable appends, resume after a crash, torn tails dropped with a warning."""

from __future__ import annotations

import json
import logging
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from controller.journal import Journal, JournalError
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
    assert j.last_seq == 4  # a new seq: the dropped record's 3 is never given out again
    assert [r.seq for r in j.records()] == [1, 2, 4]
    kept = sqlite3.connect(path).execute("SELECT seq, body FROM dropped").fetchall()
    assert kept == [(3, b'{"coin":"c')]  # the torn bytes are kept, not deleted


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
from controller.journal import Journal, JournalError
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


# --- a damaged journal: only a bad LAST record is dropped ------------------------

def _journal_of(path, n: int) -> list[tuple]:
    """A closed journal of ``n`` inputs (checkpointed into the main file); returns its rows."""
    j = Journal(path)
    for i in range(n):
        j.append({"type": "x", "i": i}, float(i), f"id{i}")
    j.close()
    return _rows(path)


def _rows(path) -> list[tuple]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return list(db.execute("SELECT seq, ts, cmd_id, body, crc FROM inputs ORDER BY seq"))
    finally:
        db.close()


def flip_bit(path, needle: bytes) -> None:
    """One flipped bit inside the only copy of ``needle`` in the file (bit rot on an SD card)."""
    data = bytearray(path.read_bytes())
    at = data.find(needle)
    assert at >= 0 and data.find(needle, at + 1) < 0
    data[at + len(needle) // 2] ^= 0x01
    path.write_bytes(bytes(data))


def smash_page_of(path, needle: bytes) -> None:
    """Overwrite the header of the page holding ``needle``: SQLite says 'malformed'."""
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    at = (data.find(needle) // page_size) * page_size
    data[at:at + 8] = b"\xff" * 8
    path.write_bytes(bytes(data))


def test_a_flipped_bit_in_an_old_record_stops_with_an_error_naming_it_and_leaves_the_file_unchanged(tmp_path):
    path = tmp_path / "j.sqlite"
    _journal_of(path, 400)
    flip_bit(path, b'{"i":4,"type":"x"}')  # record 5 of 400
    before, files = path.read_bytes(), sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(JournalError) as err:
        Journal(path)
    message = str(err.value)
    assert "record seq 5 (#5, id 'id4'): CRC mismatch" in message and "395 record(s) after it" in message
    assert "gametable journal repair" in message and "\n" not in message
    assert path.read_bytes() == before  # not one byte written: no delete, no checkpoint, no schema
    assert sorted(p.name for p in tmp_path.iterdir()) == files
    with pytest.raises(JournalError):  # the lock was released: a second try says the same
        Journal(path)


def test_a_bad_record_still_in_the_wal_is_refused_and_neither_file_changes(tmp_path):
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    for i in range(30):
        j.append({"type": "x", "i": i}, 0.0, f"id{i}")
    db = sqlite3.connect(path)  # a body that no longer matches its CRC, committed into the WAL
    db.execute("UPDATE inputs SET body = replace(body, ':9,', ':8,') WHERE seq = 10")
    db.commit()
    crash = tmp_path / "crash"
    crash.mkdir()
    (crash / "j.sqlite").write_bytes(path.read_bytes())  # a power cut: the records live in the WAL
    (crash / "j.sqlite-wal").write_bytes((tmp_path / "j.sqlite-wal").read_bytes())
    db.close()
    j.close()
    main, wal = (crash / "j.sqlite").read_bytes(), (crash / "j.sqlite-wal").read_bytes()
    assert len(wal) > 0
    with pytest.raises(JournalError, match=r"record seq 10 \(#10, id 'id9'\)"):
        Journal(crash / "j.sqlite")
    assert (crash / "j.sqlite").read_bytes() == main and (crash / "j.sqlite-wal").read_bytes() == wal


def test_two_bad_records_at_the_end_are_not_a_torn_tail(tmp_path):
    path = tmp_path / "j.sqlite"
    _journal_of(path, 10)
    flip_bit(path, b'{"i":8,"type":"x"}')
    flip_bit(path, b'{"i":9,"type":"x"}')
    with pytest.raises(JournalError, match=r"record seq 9 .* and 1 more bad record"):
        Journal(path)


def test_a_corrupt_database_page_is_a_one_line_error_and_the_file_is_unchanged(tmp_path):
    path = tmp_path / "j.sqlite"
    _journal_of(path, 400)
    smash_page_of(path, b'{"i":200,"type":"x"}')
    before = path.read_bytes()
    with pytest.raises(JournalError) as err:
        Journal(path)
    assert "is damaged" in str(err.value) and "malformed" in str(err.value) and "\n" not in str(err.value)
    assert path.read_bytes() == before


def test_a_corrupt_index_page_is_found_at_open_though_every_record_reads(tmp_path):
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    for i in range(600):
        j.append({"type": "x", "i": i}, 0.0, f"cmd-{i:05d}")
    j.close()
    data = bytearray(path.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    index = next(k for k in range(len(data) // size)  # the id index's page: ids, no bodies
                 if b"cmd-00300" in data[k * size:(k + 1) * size] and b'"type"' not in data[k * size:(k + 1) * size])
    data[index * size:index * size + 8] = b"\xff" * 8
    path.write_bytes(bytes(data))
    with pytest.raises(JournalError) as err:  # else `has_id` would fail on the first command
        Journal(path)
    assert "is damaged (SQLite's quick_check: " in str(err.value) and "\n" not in str(err.value)
    assert path.read_bytes() == bytes(data)


def test_an_empty_file_is_a_new_journal_with_a_warning(tmp_path, caplog):
    path = tmp_path / "j.sqlite"
    path.write_bytes(b"")
    with caplog.at_level(logging.WARNING):
        j = Journal(path)
    assert "was an empty file (0 bytes): starting a NEW journal" in caplog.text
    assert j.notice == {"dropped": [], "warning": "journal file was empty (0 bytes): a new journal was started"}
    j.close()
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        assert Journal(tmp_path / "fresh.sqlite").notice is None  # a journal that did not exist: no warning
        assert Journal(path).notice is None  # and the next start of the now-real journal is quiet
    assert caplog.text == ""


def test_a_lone_surrogate_in_the_id_is_refused_with_a_clear_error(tmp_path):
    t = Table(Journal(tmp_path / "j.sqlite"))
    result = t.submit({**NEW, "id": "a\ud800b"})
    assert not result.ok and "'id' must be valid Unicode text" in result.error and "\\ud800" in result.error
    result.error.encode("utf-8")  # the error itself can be published
    assert list(t.journal.records()) == []


# --- seeds from the command id -------------------------------------------------------

COUP = {"type": "new_game", "game": "coup", "players": [{"seat": 1, "name": "A"}, {"seat": 2, "name": "B"}]}


def test_a_new_game_without_seed_gets_the_same_seed_for_the_same_id_after_a_torn_record(tmp_path):
    path = tmp_path / "j.sqlite"
    t = Table(Journal(path))
    first = t.submit({**COUP, "id": "g-1"})
    hand = t.seat_view(1)
    t.journal.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE inputs SET body = substr(body, 1, 9) WHERE seq = 1")  # the new_game record is torn
    db.commit()
    db.close()
    t2 = Table(Journal(path))
    assert t2.load() == 0 and t2.journal.dropped == [1]
    again = t2.submit({**COUP, "id": "g-1"})  # the phone's retry (or the broker's redelivery)
    assert again.ok and not again.duplicate and again.seq == 2
    assert again.input["seed"] == first.input["seed"] and t2.seat_view(1) == hand  # the same cards


def test_seeds_differ_per_id_and_per_table_and_the_secret_is_made_once(tmp_path):
    a = Table(Journal(tmp_path / "a" / "j.sqlite"))
    b = Table(Journal(tmp_path / "b" / "j.sqlite"))
    s1 = a.submit({**COUP, "id": "g-1"}).input["seed"]
    s2 = a.submit({**COUP, "id": "g-2"}).input["seed"]
    s3 = b.submit({**COUP, "id": "g-1"}).input["seed"]
    assert len({s1, s2, s3}) == 3  # another id, or another table's secret: another deal
    secret = tmp_path / "a" / "j.sqlite.secret"
    assert secret.stat().st_mode & 0o777 == 0o600 and len(secret.read_bytes()) == 32
    made = secret.read_bytes()
    a.journal.close()
    assert Table(Journal(tmp_path / "a" / "j.sqlite")).submit({**COUP, "id": "g-9"}).ok
    assert secret.read_bytes() == made
    assert Table().submit({**COUP, "id": None}).input["seed"] >= 0  # no id: a random seed, as before


def test_a_journal_that_cannot_be_read_at_run_time_refuses_the_command_instead_of_crashing(tmp_path):
    t = Table(Journal(tmp_path / "j.sqlite"))
    assert t.submit({**NEW, "id": "a"}).ok
    t.journal._db.close()  # as if the card went away under the running daemon
    result = t.submit({**shot(1), "id": "b"})
    assert not result.ok and "could not read its journal, so this input was not applied" in result.error
    assert t.state["turn"]["strikes"] == 0
