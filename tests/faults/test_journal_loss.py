"""Storage that loses committed journal data is caught, never "all good".

The attack as the issue ran it: the daemon journals a game, dies, and its WAL loses synced pages
(cut mid-file at 547,032 of 4,132,392 bytes: 1,469 records became 1,402); today the daemon started
quietly and `gametable journal check` said "all good". Now the anchor (controller/journal_chain.py)
names the lost inputs: in `journal check`, in the daemon's log and on the host's retained
``sensors/journal``, once. And random bit flips in what the journal stores (a body, an id, a time,
a chain value, the id index) are each found by `journal check` (10 of 40 passed before).
"""

from __future__ import annotations

import io
import shutil
import sqlite3
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.journal import LOST_REASON, Journal
from gametable.journal_cli import check
from tests.faults.rig import T, retained
from tests.faults.test_journal_integrity import gametable
from tests.faults.test_torn_journal import _resync_bot

WAL_CUT = 547_032 / 4_132_392  # where the WAL lost its pages


@pytest.mark.mqtt
@pytest.mark.slow
def test_a_wal_cut_mid_file_is_reported_by_check_on_start_and_on_the_hosts_topic(rig):
    rig.play(120)
    rig.daemon.kill()  # no checkpoint: the records since the last one live only in the WAL
    rows = rig.daemon.journal_rows()
    wal = rig.daemon.journal.with_name(rig.daemon.journal.name + "-wal")
    with wal.open("r+b") as fh:
        fh.truncate(int(wal.stat().st_size * WAL_CUT))
    kept = len(rig.daemon.journal_rows())
    assert 0 < kept < len(rows)  # the cut took committed records with it
    lost = len(rows) - kept

    found = gametable("journal", "check", str(rig.daemon.journal))
    assert found.returncode == 1 and "all good" not in found.stdout
    assert f"lost: {lost} committed record(s) (seq {rows[kept][0]}-{rows[-1][0]}) are gone from the end" \
        in found.stdout

    mark = rig.start_daemon()
    warning = (f"{lost} committed input(s) (#{rows[kept][0]}-#{rows[-1][0]}) were lost from the journal "
               "(the storage lost written data): check the state")
    notice = rig.phone.wait_for(f"{T}/sensors/journal", lambda m: bool(m.payload) and m.json().get("warning"),
                                start=mark).json()
    assert notice == {"dropped": [], "lost": [rows[kept][0], rows[-1][0]], "count": lost, "warning": warning}
    assert warning in rig.daemon.log_text()
    published, journalled = rig.settled(mark)  # it plays on from what survived
    assert published == journalled
    _resync_bot(rig)
    rig.play(3)
    assert rig.daemon.journal_rows()[kept][0] > rows[-1][0]  # a lost seq is never given out again
    db = sqlite3.connect(f"file:{rig.daemon.journal}?mode=ro", uri=True)
    assert db.execute("SELECT COUNT(*) FROM dropped WHERE reason = ?", (LOST_REASON,)).fetchone()[0] == lost
    db.close()

    rig.daemon.kill()
    mark = rig.start_daemon()  # said once: the next start is sound and clears the host's warning
    rig.phone.wait_for(f"{T}/sensors/journal", lambda m: bool(m.payload) and m.json().get("warning") is None,
                       start=mark)
    assert retained(rig.broker, f"{T}/sensors/journal")["warning"] is None


def _journal(path) -> list[tuple[bytes, bytes, float, bytes]]:
    """200 records; (cmd_id, body, ts, chain) of each as SQLite stores them (times with a fraction:
    SQLite stores a whole-number REAL as an integer, which has no 8-byte double to find)."""
    j = Journal(path)
    for i in range(200):
        j.append({"type": "shot", "seat": 1 + i % 3, "coin": f"c{i % 7}", "n": i}, 1_700_000_000.125 + i * 0.37,
                 f"cmd-{i:06d}")
    j.close()
    db = sqlite3.connect(path)
    rows = [(c.encode(), b.encode(), ts, ch) for c, b, ts, ch in
            db.execute("SELECT cmd_id, body, ts, chain FROM inputs ORDER BY seq")]
    db.close()
    return rows


PARTS = ("body", "id", "time", "chain", "id index")


def _offset(data: bytes, row: tuple[bytes, bytes, float, bytes], part: str) -> tuple[int, int]:
    """(where, how many bytes) of one stored field of one record in the database file."""
    cmd_id, body, ts, chain = row
    cell = data.find(cmd_id + body)  # a table row's values follow each other: ts, cmd_id, body, crc, chain
    assert cell > 0
    if part == "body":
        return cell + len(cmd_id), len(body)
    if part == "id":
        return cell, len(cmd_id)
    if part == "time":
        at = data.rfind(struct.pack(">d", ts), 0, cell)
        assert at == cell - 8
        return at, 8
    if part == "chain":
        return data.find(chain), len(chain)
    at = data.find(cmd_id)  # the index entry: the id alone (not followed by its body)
    while at >= 0 and data.startswith(cmd_id + body, at):
        at = data.find(cmd_id, at + 1)
    assert at > 0
    return at, len(cmd_id)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    path = tmp_path_factory.mktemp("flips") / "j.sqlite"
    return path, _journal(path)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(record=st.integers(0, 199), part=st.sampled_from(PARTS), bit=st.integers(0, 10_000))
def test_property_every_flipped_bit_in_a_record_or_its_index_entry_is_found_by_check(
        pristine, tmp_path_factory, record, part, bit):
    source, rows = pristine
    path = tmp_path_factory.mktemp("flip") / "j.sqlite"
    shutil.copy(source, path)
    shutil.copy(f"{source}.anchor", f"{path}.anchor")
    data = bytearray(path.read_bytes())
    at, size = _offset(bytes(data), rows[record], part)
    data[at + (bit // 8) % size] ^= 1 << (bit % 8)
    path.write_bytes(bytes(data))
    out = io.StringIO()
    code = check(str(path), out, io.StringIO())
    assert code == 1 and "all good" not in out.getvalue(), (part, record, out.getvalue())
