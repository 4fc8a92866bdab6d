"""The battlefield through the real table: a scripted game replayed by ``gametable replay`` (JSONL),
and a full bot game through the real daemon and Mosquitto (docs/rules/sanguosha-map.md SG-9)."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from controller.bot_runner import BotRunner
from controller.table import Table
from tests.sgmap_helpers import tiny_map
from web_panel.i18n import render

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = [{"seat": 1, "name": "Ann", "team": "A"}, {"seat": 2, "name": "Bo", "team": "B"}]


def gametable(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gametable.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)


def scripted_game() -> list[dict]:
    """Ann hits Bo (no 闪: timeout), walks into B's castle zone and ends there; Bo dodges a second 杀."""
    setup = {"dice": [1, 3, 2], "generals": {"1": "simayi", "2": "caocao"},
             "positions": {"1": [2, 3], "2": [2, 4]},
             "hands": {"1": ["strike-1", "strike-2"], "2": ["dodge-1"]}}
    return [
        {"type": "new_game", "game": "sanguosha_map", "players": PLAYERS, "seed": 9,
         "options": {"map": tiny_map(), "setup": setup}},
        {"type": "move", "seat": 1, "move": "roll"},
        {"type": "move", "seat": 1, "move": "attack", "args": {"target": 2, "cards": ["strike-1"]}},
        {"type": "timeout", "window": 1},
        {"type": "move", "seat": 1, "move": "attack", "args": {"target": 2, "cards": ["strike-2"]}},
        {"type": "move", "seat": 2, "move": "dodge", "args": {"cards": ["dodge-1"]}},
        {"type": "move", "seat": 1, "move": "move", "args": {"path": [[2, 4]]}},
        {"type": "move", "seat": 1, "move": "end_turn"},
        {"type": "move", "seat": 2, "move": "roll"},
    ]


def test_gametable_replay_of_a_scripted_battlefield_game(tmp_path):
    f = tmp_path / "sg.jsonl"
    f.write_text("\n".join(json.dumps(x) for x in scripted_game()) + "\n")
    r = gametable("replay", str(f))
    assert r.returncode == 0, r.stderr
    state = json.loads(r.stdout)
    assert state["game"] == "sanguosha_map"
    ann, bo = state["players"]
    assert bo["health"] == 2 and ann["cell"] == [2, 4] and ann["action_count"] == 2
    assert state["turn"]["seat"] == 2 and state["turn"]["movement_left"] == 2
    assert "action" not in state  # the public view never shows a hand
    mine = json.loads(gametable("replay", str(f), "--view", "1").stdout)
    assert mine["seat"] == 1 and len(mine["action"]) == 2


def test_gametable_replay_names_an_illegal_battlefield_line(tmp_path):
    lines = scripted_game()[:2] + [{"type": "move", "seat": 1, "move": "move", "args": {"path": [[2, 9]]}}]
    f = tmp_path / "bad.jsonl"
    f.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    r = gametable("replay", str(f))
    assert r.returncode != 0 and "line 3:" in r.stderr and "unknown cell" in r.stderr


@pytest.mark.mqtt
@pytest.mark.slow
def test_a_full_bot_game_through_the_daemon_and_mosquitto(table, fake_clock):
    t = "sg"
    rig = table(table_id=t, clock=fake_clock)
    daemon, phone = rig.daemon, rig.phone
    games = phone.wait_for(f"gametable/{t}/games").json()["games"]
    assert any(g["game"] == "sanguosha_map" for g in games)
    run = uuid.uuid4().hex[:8]
    result = phone.command(t, {"id": f"sg-{run}-new", "type": "new_game", "game": "sanguosha_map",
                               "players": PLAYERS, "seed": 3, "options": {"fights": "quick"}})
    assert result["ok"], result
    private = phone.wait_for(f"gametable/{t}/seat/1/private",
                             lambda m: m.json().get("game") == "sanguosha_map").json()
    assert "action" in private and private["legal"]
    runner = BotRunner(daemon, [1, 2], seed=4)
    for _ in range(200):
        if runner.poll(500) == 0:
            break
    state = daemon.public_state()
    assert state["phase"] == "over" and state["winner"], state["log"]
    final = phone.wait_for(f"gametable/{t}/state", lambda m: m.json().get("phase") == "over").json()
    assert final["winner"] == state["winner"]
    assert min(final["sides"]["A"]["castle"], final["sides"]["B"]["castle"]) == 0
    words = phone.wait_for(f"gametable/{t}/events", lambda m: "game_over" in json.dumps(m.json())).json()
    assert any("Castle" in w for w in words["words"])
    # the journal replays into the same state (what a restarted daemon does)
    replayed = Table()
    assert all(replayed.submit(r.input).ok for r in daemon.journal.records())
    assert replayed.public_view() == daemon.table.public_view()


@pytest.mark.slow
def test_headless_sim_plays_full_battlefield_games(tmp_path):
    """`gametable sim --game sanguosha_map --bots 4 --headless`: bots play quick-fight games to the end."""
    from gametable.broker import free_port

    cfg = tmp_path / "sim.toml"
    cfg.write_text(f'table_id = "sgsim"\n[journal]\npath = "{tmp_path / "j.sqlite"}"\n'
                   f'[panel]\nhost = "127.0.0.1"\nport = {free_port()}\npin = "2468"\n')
    r = subprocess.run([sys.executable, "-m", "gametable.cli", "sim", "--config", str(cfg), "--headless",
                        "--bots", "4", "--game", "sanguosha_map", "--seed", "4", "--games", "2"],
                       capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    finals = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
    assert len(finals) == 2
    for final in finals:
        assert final["game"] == "sanguosha_map" and final["phase"] == "over" and final["winner"]
        assert "action" not in final


@pytest.mark.mqtt
def test_the_dodge_window_times_out_on_the_daemons_clock(table, fake_clock):
    """SG-9.1: an unanswered 闪 window closes by the daemon's deadline (a journalled timeout)."""
    t = "sgt"
    rig = table(table_id=t, clock=fake_clock)
    daemon, phone = rig.daemon, rig.phone
    run = uuid.uuid4().hex[:8]
    new = {**scripted_game()[0], "id": f"sgt-{run}-new"}
    new["options"] = {**new["options"], "timeout_s": 7}
    assert phone.command(t, new)["ok"]
    for i, inp in enumerate(scripted_game()[1:3]):
        assert phone.command(t, {**inp, "id": f"sgt-{run}-{i}"})["ok"]
    state = phone.wait_for(f"gametable/{t}/state", lambda m: (m.json().get("window") or {}).get("deadline")).json()
    assert state["window"]["deadline"] == pytest.approx(fake_clock.wall() + 7)
    start = len(phone.messages)
    fake_clock.advance(7.1)
    event = phone.wait_for(f"gametable/{t}/events", lambda m: m.json().get("source") == "timer", start=start).json()
    assert event["input"]["type"] == "timeout"
    assert "Bo loses 1 health to Ann's 杀" in event["words"]
    said = event["says"][event["words"].index("Bo loses 1 health to Ann's 杀")]  # a Chinese phone's line
    assert render(said, "zh") == "Bo 失去 1 点体力（Ann 的杀）"
    assert daemon.public_state()["players"][1]["health"] == 2
