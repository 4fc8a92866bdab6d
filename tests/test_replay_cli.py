"""`gametable replay FILE.jsonl [--view SEAT]` exactly as docs/architecture.md says."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DEMO = Path(__file__).resolve().parent.parent / "controller" / "data" / "demo-game.jsonl"


def gametable(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gametable.cli", *args], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parent.parent, timeout=60)


def test_replay_of_the_bundled_demo_prints_the_final_public_state():
    r = gametable("replay", str(DEMO))
    assert r.returncode == 0, r.stderr
    state = json.loads(r.stdout)
    assert state["game"] == "coinwar" and state["phase"] == "over" and state["winner"] == [1]
    assert state["turn"] is None


def test_replay_view_prints_a_seat_view(tmp_path):
    r = gametable("replay", str(DEMO), "--view", "2")
    assert r.returncode == 0
    assert json.loads(r.stdout)["seat"] == 2


def test_an_illegal_line_stops_with_the_line_number(tmp_path):
    lines = DEMO.read_text().splitlines()[:3] + ['{"type":"shot","seat":3,"coin":"c3","dead":[],"flown":[],"contacts":[]}']
    f = tmp_path / "bad.jsonl"
    f.write_text("\n".join(lines) + "\n")
    r = gametable("replay", str(f))
    assert r.returncode != 0
    assert "line 4:" in r.stderr and "seat 1's turn" in r.stderr
    assert r.stdout == ""


def test_malformed_json_line_names_the_line(tmp_path):
    f = tmp_path / "bad.jsonl"
    f.write_text(DEMO.read_text().splitlines()[0] + "\n{not json\n")
    r = gametable("replay", str(f))
    assert r.returncode != 0 and "line 2: not valid JSON" in r.stderr


def test_unknown_type_and_a_missing_file(tmp_path):
    f = tmp_path / "bad.jsonl"
    f.write_text(DEMO.read_text().splitlines()[0] + '\n{"type":"warp"}\n')
    r = gametable("replay", str(f))
    assert r.returncode != 0 and "line 2: unknown input type 'warp'" in r.stderr
    r = gametable("replay", str(tmp_path / "missing.jsonl"))
    assert r.returncode != 0 and "cannot read" in r.stderr


def test_undo_in_a_replay_file(tmp_path):
    lines = DEMO.read_text().splitlines()[:3] + ['{"type":"undo"}']
    f = tmp_path / "u.jsonl"
    f.write_text("\n".join(lines) + "\n")
    state = json.loads(gametable("replay", str(f)).stdout)
    assert state["turn"] == {"seat": 1, "strikes": 1, "extra": False}
