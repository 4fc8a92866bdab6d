"""A start goes on from the journal's latest snapshot, never replaying all history,
and a snapshot never changes a thing: the state, the inputs undo steps back through, what
`gametable replay` prints, and undo across the snapshot's boundary are those of a full replay."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller import table as table_module
from controller.journal import Journal
from controller.table import Table
from gametable.replay import replay_file
from gametable.testing.bots import new_game_input, random_legal


def _play(path, seed: int, n: int, per_game: int) -> None:
    """``n`` random commands: games of every registered kind, with undos now and then."""
    rnd = random.Random(seed)
    table = Table(Journal(path))
    games = ["coinwar", "coup", "coinwar"]
    in_game = 0
    for i in range(n):
        cmd = None if in_game >= per_game or rnd.random() < 0.1 else random_legal(table, rnd)
        if cmd is None and table.inputs and rnd.random() < 0.5:
            cmd = {"type": "undo"}
        if cmd is None:
            cmd, in_game = new_game_input(games[i % len(games)], rnd), 0
        if table.submit({**cmd, "id": f"p{seed}-{i}"}).ok:
            in_game += 1
    table.journal.close()


def _without_snapshots(path, tmp_path):
    copy = tmp_path / "full.sqlite"
    shutil.copy(path, copy)
    db = sqlite3.connect(copy)
    db.execute("DELETE FROM snapshots")
    db.commit()
    db.close()
    return copy


def _picture(t: Table) -> str:
    return json.dumps([t.state, t.inputs, t.game_started_at, t.seq, t.applied], sort_keys=True)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), n=st.integers(1, 60), per_game=st.integers(3, 25),
       every=st.integers(2, 30), undos=st.integers(0, 40))
def test_property_a_start_from_a_snapshot_equals_a_full_replay_and_undo_crosses_it(
        tmp_path_factory, monkeypatch, seed, n, per_game, every, undos):
    monkeypatch.setattr(table_module, "SNAPSHOT_EVERY", every)  # periodic snapshots too, not only new_game
    tmp_path = tmp_path_factory.mktemp("snap")
    path = tmp_path / "j.sqlite"
    _play(path, seed, n, per_game)
    full_path = _without_snapshots(path, tmp_path)
    printed = json.dumps(replay_file(path).public_view(), sort_keys=True)
    assert printed == json.dumps(replay_file(full_path).public_view(), sort_keys=True)  # `gametable replay`

    snap, full = Table(Journal(path)), Table(Journal(full_path))
    assert snap.load() == full.load()
    assert _picture(snap) == _picture(full)
    assert json.dumps(snap.public_view(), sort_keys=True) == printed
    for k in range(undos):  # the host presses Undo again and again, past the snapshot
        a, b = snap.submit({"type": "undo", "id": f"u{k}"}), full.submit({"type": "undo", "id": f"u{k}"})
        assert (a.ok, a.error) == (b.ok, b.error)
        assert _picture(snap) == _picture(full)
    snap.journal.close()
    full.journal.close()


def test_a_start_reads_only_the_records_after_the_latest_snapshot(tmp_path, monkeypatch):
    path = tmp_path / "j.sqlite"
    _play(path, seed=3, n=120, per_game=20)
    db = sqlite3.connect(path)
    last_snapshot = db.execute("SELECT MAX(seq) FROM snapshots").fetchone()[0]
    total = db.execute("SELECT MAX(seq) FROM inputs").fetchone()[0]
    db.close()
    assert 1 < last_snapshot < total
    journal = Journal(path)
    read: list[int] = []
    records = journal.records
    monkeypatch.setattr(journal, "records", lambda after=0: (read.append(after), records(after))[1])
    Table(journal).load()
    assert read == [last_snapshot]
    journal.close()


def test_a_bad_snapshot_falls_back_to_the_one_before_with_the_same_state(tmp_path, caplog):
    path = tmp_path / "j.sqlite"
    _play(path, seed=5, n=80, per_game=15)
    full = Table(Journal(_without_snapshots(path, tmp_path)))
    full.load()
    db = sqlite3.connect(path)
    db.execute("UPDATE snapshots SET crc = crc + 1 WHERE seq = (SELECT MAX(seq) FROM snapshots)")
    db.commit()
    db.close()
    snap = Table(Journal(path))
    snap.load()
    assert "is bad (CRC mismatch" in caplog.text and "using an earlier one" in caplog.text
    assert _picture(snap) == _picture(full)


def test_a_journal_from_before_snapshots_gets_one_at_its_first_start(tmp_path, monkeypatch):
    """The first start replays such a journal once and stores a snapshot; the next reads from it."""
    monkeypatch.setattr(table_module, "SNAPSHOT_EVERY", 10)
    played = tmp_path / "played.sqlite"
    _play(played, seed=9, n=60, per_game=100)  # one long game: a snapshot only at its new_game
    path = _without_snapshots(played, tmp_path)  # as a journal of the last release has none
    first = Table(Journal(path))
    first.load()
    seq, _snapshot = first.journal.snapshot()
    assert seq == first.seq
    first.journal.close()
    again = Table(Journal(path))
    again.load()
    assert _picture(again) == _picture(first)
    again.journal.close()
