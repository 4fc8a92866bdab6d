"""A journal that loses committed records says so (controller/journal_chain.py).

The records chain (each covers the one before); the last record's seq and chain also sit in the
anchor file, which the WAL cannot take with it. A tail gone is named at open, kept as ``lost`` rows
of ``dropped`` (seqs never reused), told to the host (``notice``) and by ``gametable journal check``,
once: the next start is quiet. A record gone between two others stops the daemon like a bad one.
"""

from __future__ import annotations

import io
import sqlite3

import pytest

from controller.journal import LOST_REASON, Journal, JournalError
from controller.journal_chain import SLOT, Mark, anchor_path, read_anchor
from gametable.journal_cli import check, repair


def _journal_of(path, n: int) -> list[int]:
    j = Journal(path)
    seqs = [j.append({"type": "x", "i": i}, 1_700_000_000.0 + i * 0.37, f"cmd-{i:06d}") for i in range(n)]
    j.close()
    return seqs


def _delete_rows(path, where: str) -> None:
    """Rows gone behind SQLite's back: what a card that drops written pages leaves."""
    db = sqlite3.connect(path)
    db.execute(f"DELETE FROM inputs WHERE {where}")
    db.commit()
    db.close()


def _check(path) -> tuple[int, str]:
    out = io.StringIO()
    return check(str(path), out, io.StringIO()), out.getvalue()


def test_the_anchor_follows_every_append_and_a_torn_slot_falls_back_to_the_other(tmp_path):
    path = tmp_path / "j.sqlite"
    _journal_of(path, 5)
    mark = read_anchor(anchor_path(str(path)))
    assert mark is not None and mark.seq == 5
    db = sqlite3.connect(path)
    assert db.execute("SELECT chain FROM inputs WHERE seq = 5").fetchone()[0] == mark.chain
    db.close()
    data = bytearray(open(anchor_path(str(path)), "rb").read())
    data[SLOT + 5] ^= 0x10  # seq 5 is in slot 1: a power cut tore it
    open(anchor_path(str(path)), "wb").write(bytes(data))
    assert read_anchor(anchor_path(str(path))).seq == 4  # the record before, which the journal has
    j = Journal(path)
    assert j.notice is None and j.lost == []
    j.close()


def test_a_lost_tail_is_named_kept_as_lost_seqs_told_to_the_host_and_never_reused(tmp_path):
    path = tmp_path / "j.sqlite"
    _journal_of(path, 40)
    _delete_rows(path, "seq > 33")
    code, out = _check(path)
    assert code == 1 and "lost: 7 committed record(s) (seq 34-40) are gone from the end" in out
    assert "all good" not in out

    j = Journal(path)
    assert j.lost == list(range(34, 41))
    assert j.notice == {"dropped": [], "lost": [34, 40], "count": 7,
                        "warning": "7 committed input(s) (#34-#40) were lost from the journal (the storage lost "
                                   "written data): check the state"}
    assert j.append({"type": "x", "i": 99}, 0.0, "after") == 41  # a lost seq is never given out again
    j.close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT seq, reason FROM dropped ORDER BY seq").fetchall() == [(s, LOST_REASON) for s in range(34, 41)]
    db.close()
    j = Journal(path)  # the next start is sound: said once
    assert j.notice is None and j.lost == []
    j.close()
    code, out = _check(path)
    assert code == 0 and "earlier: 7 record(s) dropped" in out and "all good" in out


def test_a_record_gone_between_two_others_stops_the_start_and_repair_keeps_its_seq_dropped(tmp_path):
    path = tmp_path / "j.sqlite"
    _journal_of(path, 30)
    _delete_rows(path, "seq BETWEEN 10 AND 12")
    with pytest.raises(JournalError, match=r"records seq 10-12 are missing though later records survive"):
        Journal(path)
    code, out = _check(path)
    assert code == 1 and "missing: 3 record(s) (seq 10-12)" in out
    fixed = tmp_path / "fixed.sqlite"
    assert repair(str(path), str(fixed), io.StringIO(), io.StringIO()) == 0
    assert _check(fixed)[0] == 0
    j = Journal(fixed)
    assert j.notice is None and j.append({"type": "x"}, 0.0, "next") == 31
    j.close()


def test_a_changed_id_or_time_breaks_the_chain_though_the_body_crc_still_matches(tmp_path):
    path = tmp_path / "j.sqlite"
    _journal_of(path, 20)
    db = sqlite3.connect(path)
    db.execute("UPDATE inputs SET cmd_id = 'cmd-XXXXXX' WHERE seq = 5")
    db.execute("UPDATE inputs SET ts = ts + 1 WHERE seq = 9")
    db.commit()
    db.close()
    code, out = _check(path)
    assert code == 1
    assert "bad: record seq 5 (#5, id 'cmd-XXXXXX'): chain mismatch" in out
    assert "bad: record seq 9 (#9, id 'cmd-000008'): chain mismatch" in out
    with pytest.raises(JournalError, match=r"record seq 5 \(#5, id 'cmd-XXXXXX'\): chain mismatch"):
        Journal(path)


def test_a_journal_written_before_the_chain_opens_and_chains_from_then_on(tmp_path):
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)  # the schema of the last release: no chain column, no anchor
    db.executescript("CREATE TABLE inputs (seq INTEGER PRIMARY KEY, ts REAL NOT NULL, cmd_id TEXT, "
                     "body TEXT NOT NULL, crc INTEGER NOT NULL);")
    import zlib

    body = '{"i":1,"type":"x"}'
    db.execute("INSERT INTO inputs VALUES (1, 0.0, 'a', ?, ?)", (body, zlib.crc32(body.encode())))
    db.commit()
    db.close()
    j = Journal(path)
    assert j.notice is None and j.append({"type": "x", "i": 2}, 0.0, "b") == 2
    j.close()
    assert _check(path)[0] == 0
    assert read_anchor(anchor_path(str(path))) == Mark(2, read_anchor(anchor_path(str(path))).chain)


def test_a_journal_deleted_beside_its_anchor_starts_anew_and_says_what_was_lost(tmp_path):
    path = tmp_path / "j.sqlite"
    _journal_of(path, 12)
    path.unlink()  # the anchor stays: a botched clean-up, a card that lost the file
    j = Journal(path)
    assert j.notice == {"dropped": [], "lost": [1, 12], "count": 12,
                        "warning": "its anchor names input #12: the journal before this one was lost (deleted or "
                                   "emptied); restore it from a backup if it held games"}
    assert j.append({"type": "x"}, 0.0, "first") == 1  # a new journal numbers from 1
    j.close()
    j = Journal(path)
    assert j.notice is None and j.lost == []
    j.close()
