"""`gametable journal check|export|repair FILE` and `gametable replay JOURNAL.sqlite`.

In-process through ``gametable.cli.main`` (fast); the real daemon on such files is in
tests/faults/test_journal_integrity.py.
"""

from __future__ import annotations

import json
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.journal import Journal, JournalError
from controller.table import Table
from gametable.cli import main
from gametable.replay import replay_lines
from gametable.testing.bots import RUN, Bot
from tests.test_journal import flip_bit, smash_page_of


def _played(path, n: int = 40) -> list[dict]:
    """A journal of ``n`` legal inputs from the random bot; returns them."""
    journal = Journal(path)
    table, bot = Table(journal), Bot(seed=3)
    for _ in range(n):
        cmd = bot.next_command()
        assert table.submit(cmd).ok, cmd
        bot.accepted(cmd)
    journal.close()
    return bot.history


def _bodies(path) -> list[str]:
    db = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    try:
        return [b for (b,) in db.execute("SELECT body FROM inputs ORDER BY seq")]
    finally:
        db.close()


def gametable(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_check_says_all_good_and_exits_0(tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    _played(path, 12)
    code, out, _err = gametable(capsys, "journal", "check", str(path))
    assert code == 0 and "12 record(s) (seq 1-12), 12 good, 0 bad" in out and "all good" in out


def test_check_lists_a_bad_record_and_exits_1_without_writing(tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    _played(path)
    flip_bit(path, _bodies(path)[6].encode())
    before = path.read_bytes()
    code, out, _err = gametable(capsys, "journal", "check", str(path))
    assert code == 1 and f"bad: record seq 7 (#7, id 'b-{RUN}-7'): CRC mismatch" in out
    assert "the daemon refuses this journal" in out and "gametable journal repair" in out
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["j.sqlite", "j.sqlite.anchor"]


def test_check_of_a_torn_last_record_says_the_daemon_drops_it(tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    _played(path, 10)
    flip_bit(path, _bodies(path)[-1].encode())
    code, out, _err = gametable(capsys, "journal", "check", str(path))
    assert code == 1 and "only the last record is bad" in out


def test_export_prints_the_good_inputs_in_replay_format_and_names_the_skipped_one(tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    history = _played(path)
    code, out, err = gametable(capsys, "journal", "export", str(path))
    assert code == 0 and err == ""
    assert [json.loads(line) for line in out.splitlines()] == history
    assert replay_lines(out.splitlines()).public_view() is not None
    flip_bit(path, _bodies(path)[3].encode())
    code, out, err = gametable(capsys, "journal", "export", str(path))
    assert code == 1 and f"skipped record seq 4 (#4, id 'b-{RUN}-4')" in err
    assert [json.loads(line) for line in out.splitlines()] == history[:3] + history[4:]


def test_export_to_a_file_never_overwrites_one(tmp_path, capsys):
    path, out_file = tmp_path / "j.sqlite", tmp_path / "inputs.jsonl"
    _played(path, 5)
    out_file.write_text("precious\n")
    code, _out, err = gametable(capsys, "journal", "export", str(path), "-o", str(out_file))
    assert code == 2 and "File exists" in err and out_file.read_text() == "precious\n"


def test_repair_writes_a_new_file_with_the_good_records_and_their_seqs(tmp_path, capsys):
    path, fixed = tmp_path / "j.sqlite", tmp_path / "fixed.sqlite"
    _played(path)
    bodies = _bodies(path)
    flip_bit(path, bodies[9].encode())
    before = path.read_bytes()
    code, out, _err = gametable(capsys, "journal", "repair", str(path), str(fixed))
    assert code == 0 and "wrote" in out and "39 good record(s)" in out
    assert f"dropped record seq 10 (#10, id 'b-{RUN}-10'): CRC mismatch" in out
    assert path.read_bytes() == before
    assert _bodies(fixed) == bodies[:9] + bodies[10:]
    j = Journal(fixed)  # a sound journal again; the dropped seq stays taken
    assert [r.seq for r in j.records()][8:10] == [9, 11] and j.last_seq == 40
    j.close()
    code, _out, err = gametable(capsys, "journal", "repair", str(path), str(fixed))
    assert code == 2 and "never overwrites" in err
    code, _out, err = gametable(capsys, "journal", "repair", str(path), str(path))
    assert code == 2 and path.read_bytes() == before


def test_repair_steps_over_a_page_sqlite_cannot_read(tmp_path, capsys):
    path, fixed = tmp_path / "j.sqlite", tmp_path / "fixed.sqlite"
    j = Journal(path)
    for i in range(600):
        j.append({"type": "x", "i": i}, 0.0, f"id{i}")
    j.close()
    smash_page_of(path, b'{"i":300,"type":"x"}')
    code, out, _err = gametable(capsys, "journal", "check", str(path))
    assert code == 1 and "unreadable (database disk image is malformed)" in out
    code, out, _err = gametable(capsys, "journal", "repair", str(path), str(fixed))
    assert code == 0 and "lost: records with seq" in out
    kept = [json.loads(b)["i"] for b in _bodies(fixed)]
    assert 300 not in kept and kept[0] == 0 and kept[-1] == 599 and len(kept) > 450  # a page's worth lost


def test_journal_commands_on_a_file_that_is_no_journal(tmp_path, capsys):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all\n" * 50)
    code, _out, err = gametable(capsys, "journal", "check", str(junk))
    assert code == 2 and "file is not a database" in err
    code, _out, err = gametable(capsys, "journal", "check", str(tmp_path / "missing.sqlite"))
    assert code == 2 and "is not a file" in err


def test_replay_of_a_sqlite_journal_equals_replay_of_its_export(tmp_path, capsys):
    path, jsonl = tmp_path / "journal.db", tmp_path / "inputs.jsonl"  # told apart by content, any name
    history = _played(path)
    _code, exported, _err = gametable(capsys, "journal", "export", str(path))
    jsonl.write_text(exported)
    seat = next(c for c in reversed(history) if c.get("type") == "new_game")["players"][0]["seat"]  # in the last game
    for view in ([], ["--view", str(seat)]):
        a = gametable(capsys, "replay", str(path), *view)
        b = gametable(capsys, "replay", str(jsonl), *view)
        assert a[0] == 0 and a == b


def test_replay_of_a_damaged_sqlite_journal_names_the_record(tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    _played(path)
    flip_bit(path, _bodies(path)[4].encode())
    code, out, err = gametable(capsys, "replay", str(path))
    assert code == 1 and out == "" and "record seq 5: CRC mismatch" in err and "\n" == err[-1]
    assert err.count("\n") == 1


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 30), bad=st.data())
def test_property_only_a_bad_last_record_is_dropped_any_other_refuses_naming_it(tmp_path_factory, n, bad):
    """Whatever record goes bad, nothing good is ever silently lost and no seq is reused."""
    path = tmp_path_factory.mktemp("j") / "j.sqlite"
    j = Journal(path)
    for i in range(n):
        j.append({"type": "x", "i": i}, 0.0, f"id{i}")
    j.close()
    seq = bad.draw(st.integers(1, n))
    cut = bad.draw(st.integers(0, 12))
    db = sqlite3.connect(path)
    db.execute("UPDATE inputs SET body = substr(body, 1, ?) WHERE seq = ?", (cut, seq))
    db.commit()
    db.close()
    if seq < n:
        with pytest.raises(JournalError, match=f"record seq {seq} "):
            Journal(path)
        assert len(_bodies(path)) == n
    else:
        j = Journal(path)
        assert j.dropped == [n] and [r.seq for r in j.records()] == list(range(1, n))
        assert j.append({"type": "x"}, 0.0) == n + 1
        j.close()


def test_sim_on_a_damaged_journal_says_so_in_one_line(tmp_path):
    import subprocess
    import sys

    from gametable.testing.daemon_proc import REPO

    path = tmp_path / "j.sqlite"
    _played(path, 10)
    flip_bit(path, _bodies(path)[2].encode())
    config = tmp_path / "sim.toml"
    config.write_text(f'table_id = "tq"\n[journal]\npath = "{path}"\n')
    proc = subprocess.run([sys.executable, "-m", "gametable.cli", "sim", "--config", str(config), "--headless",
                           "--bots", "2"], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 78 and "Traceback" not in proc.stderr
    assert proc.stdout.startswith("gametable sim: journal ") and "record seq 3 (#3" in proc.stdout
