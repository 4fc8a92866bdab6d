"""Issue 16 item 1: a restarted simulator plays on the same journal.

The sim and its bots used to number their commands ``sim-1-1``, ``bot-1-1``… from 1 on every run;
the journal keeps every id, so after a restart the daemon answered each new command as a repeat
and never applied it (the second ``make demo`` froze on its first flick). Ids now never repeat
across runs (controller.command_ids).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from gametable.broker import free_port

pytestmark = [pytest.mark.mqtt, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]


def _play(cfg: Path, journal: Path, game: str) -> dict:
    cfg.write_text(f'table_id = "restart"\n[journal]\npath = "{journal}"\n'
                   f'[panel]\nhost = "127.0.0.1"\nport = {free_port()}\n')
    r = subprocess.run([sys.executable, "-m", "gametable.cli", "sim", "--config", str(cfg), "--headless",
                        "--bots", "2", "--game", game, "--speed", "1000", "--seed", "4"],
                       capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert r.returncode == 0, (r.stdout[-1500:], r.stderr[-1500:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_the_sim_restarted_on_the_same_journal_plays_a_new_game_to_its_end(tmp_path):
    journal = tmp_path / "j.sqlite"
    cfg = tmp_path / "sim.toml"
    first = _play(cfg, journal, "coinwar")
    assert first["phase"] == "over" and first["winner"]
    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    first_rows = db.execute("SELECT COUNT(*) FROM inputs").fetchone()[0]
    db.close()
    second = _play(cfg, journal, "coinwar")  # same seed, same journal: every id of this run is new
    assert second["phase"] == "over" and second["winner"]
    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT cmd_id, body FROM inputs ORDER BY seq").fetchall()
    finally:
        db.close()
    assert len(rows) > first_rows + 2  # the second game was played, not swallowed as repeats
    ids = [cid for cid, _ in rows if cid is not None]
    assert [i for i, n in Counter(ids).items() if n > 1] == []
    assert [json.loads(b)["type"] for _, b in rows].count("new_game") == 2
