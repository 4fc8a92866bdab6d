"""A scripted Bang! game replayed through ``gametable replay`` (docs/architecture.md; docs/rules/bang.md BG-8.14):
a Duel, a Gatling, a dying window that times out, rewards and the Sheriff's win."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NEW_GAME = {
    "type": "new_game", "game": "bang", "seed": 5,
    "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"},
                {"seat": 4, "name": "Di"}],
    "options": {"setup": {
        "roles": {"1": "sheriff", "2": "outlaw", "3": "outlaw", "4": "renegade"},
        "characters": {"1": "willy_the_kid", "2": "vulture_sam", "3": "paul_regret", "4": "sid_ketchum"},
        "life": {"2": 1, "3": 1, "4": 1},
        "hands": {"1": ["gatling-10H", "duel-QD", "bang-AS"], "2": ["missed-2S"], "3": ["beer-6H"],
                  "4": ["bang-8D"]},
        "deck": ["stagecoach-9S", "stagecoach-9S-2", "beer-7H", "beer-8H", "beer-9H"],
    }},
}
SCRIPT = [
    NEW_GAME,
    {"type": "move", "seat": 1, "move": "play", "args": {"card": "duel-QD", "target": 4}},
    {"type": "move", "seat": 4, "move": "respond", "args": {"cards": ["bang-8D"]}},
    {"type": "move", "seat": 1, "move": "respond", "args": {"cards": ["bang-AS"]}},  # Di is out of BANG!s: dies
    {"type": "move", "seat": 1, "move": "play", "args": {"card": "gatling-10H"}},
    {"type": "move", "seat": 2, "move": "pass"},
    {"type": "timeout"},  # Bo's dying window: no Beer, he is out; Ann draws 3 (BG-6)
    {"type": "timeout"},  # Cy's Missed! window: the hit; two players left, no dying window (BG-8.7)
]


def replay(tmp_path: Path, *extra: str) -> subprocess.CompletedProcess:
    f = tmp_path / "bang.jsonl"
    f.write_text("".join(json.dumps(line) + "\n" for line in SCRIPT))
    return subprocess.run([sys.executable, "-m", "gametable.cli", "replay", str(f), *extra],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_a_scripted_bang_game_replays_to_the_sheriffs_win(tmp_path):
    r = replay(tmp_path)
    assert r.returncode == 0, r.stderr
    state = json.loads(r.stdout)
    assert state["game"] == "bang" and state["phase"] == "over" and state["winner"] == [1]
    by_seat = {p["seat"]: p for p in state["players"]}
    assert [by_seat[s]["alive"] for s in (1, 2, 3, 4)] == [True, False, False, False]
    assert {s: by_seat[s]["role"] for s in (2, 3, 4)} == {2: "outlaw", 3: "outlaw", 4: "renegade"}
    assert by_seat[1]["hand_count"] == 5  # two Stagecoaches drawn, three for the Outlaw (BG-6)
    assert "hand" not in state


def test_the_replay_shows_a_seat_its_hand(tmp_path):
    r = replay(tmp_path, "--view", "1")
    assert r.returncode == 0, r.stderr
    mine = json.loads(r.stdout)
    assert mine["role"] == "sheriff" and sorted(mine["hand"]) == sorted(
        ["stagecoach-9S", "stagecoach-9S-2", "beer-7H", "beer-8H", "beer-9H"])


def test_an_illegal_bang_line_stops_the_replay_with_its_number(tmp_path):
    SCRIPT.append({"type": "move", "seat": 1, "move": "end_turn"})
    try:
        r = replay(tmp_path)
    finally:
        SCRIPT.pop()
    assert r.returncode != 0 and "line 9:" in r.stderr and "the game is over" in r.stderr
