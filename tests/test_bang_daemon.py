"""Bang! through the real daemon and a real Mosquitto (docs/rules/bang.md BG-7, BG-8.14): the lobby offers it,
a stacked window times out on the daemon's clock, private topics carry hand and role, and a full
game of the game's own bots plays to its end."""

from __future__ import annotations

import pytest

from controller.bot_runner import BotRunner
from controller.table import Table

T = "bg"
PLAYERS = [{"seat": s, "name": n} for s, n in [(1, "Ann"), (2, "Bo"), (4, "Cy"), (6, "Di")]]


@pytest.fixture
def bang_table(table, fake_clock):
    t = table(table_id=T, clock=fake_clock)
    return t.daemon, t.phone


def _words(phone, cmd_id, start):
    topic = f"gametable/{T}/events"
    return phone.wait_for(topic, lambda m: (m.json().get("input") or {}).get("id") == cmd_id, start=start).json()


@pytest.mark.mqtt
def test_bang_over_mqtt_a_bang_times_out_and_secrets_stay_on_private_topics(bang_table, fake_clock):
    daemon, phone = bang_table
    games = phone.wait_for(f"gametable/{T}/games").json()["games"]
    lobby = next(g for g in games if g["game"] == "bang")
    assert lobby["players"] == {"min": 4, "max": 6} and lobby["free_seating"] is False
    setup = {"roles": {"1": "sheriff", "2": "outlaw", "4": "outlaw", "6": "renegade"},
             "characters": {"1": "willy_the_kid", "2": "vulture_sam", "4": "paul_regret", "6": "sid_ketchum"},
             "hands": {"1": ["bang-AS"], "2": ["missed-2S", "beer-6H"], "4": [], "6": []},
             "deck": ["stagecoach-9S", "stagecoach-9S-2"]}
    start = len(phone.messages)
    assert phone.command(T, {"id": "bang-g", "type": "new_game", "game": "bang", "players": PLAYERS,
                             "options": {"timeout_s": 6, "setup": setup}, "seed": 3})["ok"]
    assert _words(phone, "bang-g", start)["words"][:3] == ["New game: Classic", "Ann's turn", "Ann draws 2"]
    private = phone.wait_for(f"gametable/{T}/seat/2/private", lambda m: m.json().get("game") == "bang").json()
    assert private["hand"] == ["missed-2S", "beer-6H"] and private["role"] == "outlaw"

    start = len(phone.messages)
    assert phone.command(T, {"id": "bang-1", "type": "move", "seat": 1, "move": "play",
                             "args": {"card": "bang-AS", "target": 2}})["ok"]
    assert _words(phone, "bang-1", start)["words"] == ["Ann plays BANG! A♠ at Bo", "Bo: Missed! or take it (from Ann)"]
    state = phone.wait_for(f"gametable/{T}/state", lambda m: (m.json().get("window") or {}).get("seats") == [2],
                           start=start).json()
    assert state["window"]["deadline"] == pytest.approx(fake_clock.wall() + 6)
    assert "missed-2S" not in str(state) and "outlaw" not in str(state)
    leds = phone.wait_for(f"gametable/{T}/leds", lambda m: m.json()["seats"].get("2") == "pulse", start=start).json()
    assert leds["seats"]["1"] == "solid"
    bad = phone.command(T, {"id": "bang-x", "type": "move", "seat": 4, "move": "pass"})
    assert bad["ok"] is False and "may not answer" in bad["error"]

    start = len(phone.messages)
    fake_clock.advance(6.1)  # BG-8.7: the timeout takes the hit
    timeout = phone.wait_for(f"gametable/{T}/events", lambda m: m.json()["source"] == "timer", start=start).json()
    assert timeout["words"] == ["Time is up for Bo", "Bo loses 1 life (3 left)"]
    assert daemon.public_state()["players"][1]["life"] == 3

    replayed = Table()
    assert all(replayed.submit(r.input).ok for r in daemon.journal.records())
    assert replayed.public_view() == daemon.table.public_view()


@pytest.mark.mqtt
def test_a_full_bot_game_of_bang_through_the_daemon(bang_table):
    daemon, phone = bang_table
    runner = BotRunner(daemon, [1, 2, 4, 6], seed=11)
    assert phone.command(T, {"id": "bang-bots", "type": "new_game", "game": "bang", "players": PLAYERS,
                             "options": {}, "seed": 11})["ok"]
    for _ in range(50):
        runner.poll(max_inputs=500)
        if daemon.public_state()["phase"] == "over":
            break
    final = daemon.public_state()
    assert final["phase"] == "over" and final["winner"]
    assert phone.wait_for(f"gametable/{T}/state", lambda m: m.json().get("phase") == "over").json()["winner"] == \
        final["winner"]
    assert all(e["result"]["ok"] for e in runner.log)


def test_headless_sim_plays_bang_bot_games_to_the_end(tmp_path):
    """`gametable sim --headless --bots 5 --game bang --games 2`: the heuristic bots play Bang! out."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from gametable.broker import free_port

    cfg = tmp_path / "sim.toml"
    cfg.write_text(f'table_id = "bangsim"\n[journal]\npath = "{tmp_path / "j.sqlite"}"\n'
                   f'[panel]\nhost = "127.0.0.1"\nport = {free_port()}\npin = "2468"\n')
    r = subprocess.run([sys.executable, "-m", "gametable.cli", "sim", "--config", str(cfg), "--headless",
                        "--bots", "5", "--game", "bang", "--games", "2", "--seed", "4"],
                       capture_output=True, text=True, timeout=180, cwd=Path(__file__).resolve().parent.parent)
    assert r.returncode == 0, r.stderr[-2000:]
    finals = [json.loads(line) for line in r.stdout.strip().splitlines() if line.startswith("{")]
    assert len(finals) == 2
    for final in finals:
        assert final["game"] == "bang" and final["phase"] == "over" and final["winner"]
        assert "hand" not in final and all("role" in p for p in final["players"])


@pytest.mark.mqtt
def test_a_card_stolen_from_a_hand_travels_only_on_the_thiefs_and_victims_private_topics(bang_table):
    """BG-7 / BG-8.13: a Panic! from Bo's hand: only seat 1's and seat 2's private topics ever name the
    card; state, events (words included) and the other seats' topics show a count."""
    _, phone = bang_table
    setup = {"roles": {"1": "sheriff", "2": "outlaw", "4": "outlaw", "6": "renegade"},
             "characters": {"1": "willy_the_kid", "2": "vulture_sam", "4": "paul_regret", "6": "sid_ketchum"},
             "hands": {"1": ["panic-JH"], "2": ["beer-6H"], "4": ["missed-2S"], "6": []},
             "deck": ["stagecoach-9S", "stagecoach-9S-2"]}
    assert phone.command(T, {"id": "bang-p0", "type": "new_game", "game": "bang", "players": PLAYERS,
                             "options": {"setup": setup}, "seed": 3})["ok"]
    start = len(phone.messages)
    assert phone.command(T, {"id": "bang-p1", "type": "move", "seat": 1, "move": "play",
                             "args": {"card": "panic-JH", "target": 2, "target_card": "hand"}})["ok"]
    assert _words(phone, "bang-p1", start)["words"] == ["Ann plays Panic! J♥ at Bo", "Ann takes a card from Bo"]
    mine = phone.wait_for(f"gametable/{T}/seat/1/private", lambda m: "beer-6H" in m.json().get("hand", []),
                          start=start).json()
    assert mine["hand"][-1] == "beer-6H"
    phone.wait_for(f"gametable/{T}/seat/4/private", lambda m: True, start=start)
    own = (f"gametable/{T}/seat/1/private", f"gametable/{T}/seat/2/private", f"gametable/{T}/cmd")
    leaks = [m.topic for m in phone.messages if b"beer-6H" in m.payload and m.topic not in own]
    assert leaks == []
