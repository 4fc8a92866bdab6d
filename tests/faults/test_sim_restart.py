"""A restarted simulator plays on the same journal.

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


# --- a restarted `make demo` plays on the game in progress -------------------------

def _rows(journal: Path) -> list[tuple[int, dict]]:
    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    try:
        return [(seq, json.loads(body)) for seq, body in db.execute("SELECT seq, body FROM inputs ORDER BY seq")]
    finally:
        db.close()


def _demo(cfg: Path, journal: Path, game: str, moves: int) -> str:
    """`make demo` (``gametable sim --bots 1``) until the journal holds ``moves`` more inputs, then Ctrl-C."""
    import signal
    import time

    before = len(_rows(journal)) if journal.exists() else 0
    proc = subprocess.Popen([sys.executable, "-m", "gametable.cli", "sim", "--config", str(cfg), "--bots", "1",
                             "--no-browser", "--game", game, "--speed", "2", "--seed", "4"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if journal.exists() and len(_rows(journal)) >= before + moves:
                break
            time.sleep(0.2)  # polling a file another process writes (no event to wait on)
        assert proc.poll() is None, proc.communicate()[0][-3000:]
        assert len(_rows(journal)) >= before + moves, "the demo's bots did not play"
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
    return out


def _demo_config(tmp_path: Path) -> tuple[Path, Path]:
    journal = tmp_path / "j.sqlite"
    cfg = tmp_path / "demo.toml"
    cfg.write_text(f'table_id = "demo"\n[journal]\npath = "{journal}"\n'
                   f'[panel]\nhost = "127.0.0.1"\nport = {free_port()}\npin = "2468"\n')
    return cfg, journal


def test_make_demo_restarted_mid_game_plays_on_that_game(tmp_path):
    """The demo's bots' own game (Coin War: its bots move at the demo's watching pace)."""
    game = "coinwar"
    cfg, journal = _demo_config(tmp_path)
    _demo(cfg, journal, game, moves=3)
    first = _rows(journal)
    assert [inp["type"] for _s, inp in first].count("new_game") == 1
    assert _replay_phase(journal) == "playing"  # stopped mid-game
    out = _demo(cfg, journal, game, moves=2)
    assert "the game in progress goes on (two bots)" in out, out[-2000:]
    rows = _rows(journal)
    assert rows[:len(first)] == first and len(rows) > len(first)
    assert [inp["type"] for _s, inp in rows].count("new_game") == 1  # no game replaced the one in progress


@pytest.mark.parametrize("game", ["coinwar", "sanguosha_map", "coup"])
def test_a_phone_played_demo_game_goes_on_after_a_restart(tmp_path, game):
    """The demo's own game of a phone's seat against a bot (Demo.step), stopped mid-game, twice."""
    from controller.journal import Journal
    from controller.table import Table
    from gametable import bot_game

    cfg, journal = _demo_config(tmp_path)
    players = [{"seat": 1, "name": "Seat 1"}, {"seat": 2, "name": "Bot", "bot": True}]
    table = Table(Journal(journal))
    assert table.submit({**bot_game.new_game(game, players, mode=bot_game.mode_for(game, None, players=2),
                                             seed=5), "id": "phone-game"}).ok
    table.journal.close()
    before = _rows(journal)
    import signal
    import time

    for _run in (1, 2):
        proc = subprocess.Popen([sys.executable, "-m", "gametable.cli", "sim", "--config", str(cfg), "--bots", "1",
                                 "--no-browser", "--game", game, "--speed", "50"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, cwd=ROOT)
        out = ""
        try:
            deadline = time.monotonic() + 90
            assert proc.stdout is not None
            while time.monotonic() < deadline:  # the demo says what it resumed, then serves
                line = proc.stdout.readline()
                out += line
                if not line or "virtual table running" in line:
                    break
        finally:
            proc.send_signal(signal.SIGINT)
            out += proc.communicate(timeout=60)[0]
        assert "the game in progress goes on (seat 1 against a bot)" in out, out[-2000:]
        assert "plays against a bot" not in out  # Demo.step did not deal a new game
        rows = _rows(journal)
        assert rows[:len(before)] == before and [i["type"] for _s, i in rows].count("new_game") == 1
        assert _replay_phase(journal) == "playing"  # the bot waits for the phone's seat


def _replay_phase(journal: Path) -> str | None:
    from gametable.replay import replay_file

    return (replay_file(journal).public_view() or {}).get("phase")
