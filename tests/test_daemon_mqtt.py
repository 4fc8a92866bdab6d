"""The daemon over a real Mosquitto: the topic contract of docs/architecture.md."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from gametable.testing.recorder import Recorder
from gametable.testing.table import start_table

NEW = {"type": "new_game", "game": "coinwar", "mode": "ffa", "seed": 3,
       "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"}],
       "order": [1, 2, 3]}


@pytest.fixture
def t(table):
    """Table t1: the daemon in process on the test's Mosquitto and a phone on its topics."""
    return table()


def test_status_online_and_commands_answered_on_cmd_result(t):
    t.wait_for("status", lambda m: m.payload == b"online" and m.retain or m.payload == b"online")
    assert t.command({**NEW, "id": "g1"}) == {"id": "g1", "ok": True}
    state = t.wait_for("state", lambda m: m.json().get("game") == "coinwar").json()
    assert state["turn"] == {"seat": 1, "strikes": 0, "extra": False}
    private = t.wait_for("seat/2/private").json()
    assert private["seat"] == 2


def test_accepted_input_publishes_an_event_with_its_effects(t):
    t.command({**NEW, "id": "g1"})
    start = len(t.phone.messages)
    shot = {"type": "shot", "seat": 1, "coin": "c1", "dead": ["c2"], "flown": [], "contacts": [["c1", "c2"]]}
    assert t.command({**shot, "id": "s1"})["ok"]
    ev = t.wait_for("events", lambda m: m.json()["input"].get("id") == "s1", start=start).json()
    assert any(e["kind"] == "out" and e["seat"] == 2 for e in ev["effects"])


def test_events_carry_the_games_words_for_the_log(t):
    """The panel shows the log without knowing any game: ``events`` carries the words."""
    t.command({**NEW, "id": "g1"})
    start = len(t.phone.messages)
    shot = {"type": "shot", "seat": 1, "coin": "c1", "dead": ["c2"], "flown": [], "contacts": [["c1", "c2"]]}
    assert t.command({**shot, "id": "s1"})["ok"]
    ev = t.wait_for("events", lambda m: m.json()["input"].get("id") == "s1", start=start).json()
    assert ev["words"][0] == "Ann knocked Bo's coin into the goal"
    assert "Ann hit an enemy coin (CW-5.3)" in ev["words"]
    assert ev["words"][-1] == "Cy's turn"


def test_games_topic_describes_every_game_for_the_lobby_retained(t, broker):
    late = Recorder(broker.host, broker.port, "gametable/t1/games")  # joins after the daemon: retained
    try:
        games = late.wait_for("gametable/t1/games").json()["games"]
    finally:
        late.close()
    by_name = {g["game"]: g for g in games}
    assert set(by_name) >= {"coinwar", "coup"}
    assert by_name["coup"]["players"] == {"min": 2, "max": 6}
    assert by_name["coinwar"]["name"] == "Coin War (币战)" and by_name["coinwar"]["free_seating"] is True
    assert "football" in [m["mode"] for m in by_name["coinwar"]["modes"]]
    assert all({"options", "modes", "players", "free_seating", "name"} <= set(g) for g in games)


def test_bad_commands_get_specific_errors_and_change_nothing(t):
    t.command({**NEW, "id": "g1"})
    before = t.daemon.public_state()
    r = t.command({"type": "shot", "seat": 2, "coin": "c2", "dead": [], "flown": [], "contacts": [],
                             "id": "bad1"})
    assert r == {"id": "bad1", "ok": False, "error": "it is seat 1's turn, not seat 2's (CW-3)",
                 "error_msg": {"id": "it is seat {turn}'s turn, not seat {seat}'s (CW-3)", "args": {"turn": 1, "seat": 2}}}
    start = len(t.phone.messages)
    t.phone.publish(t.topic("cmd"), b"{nope")
    res = t.wait_for("cmd/result", start=start).json()
    assert res["ok"] is False and "not valid JSON" in res["error"]
    r = t.command({"type": "undo"} | {"id": None})
    assert r["ok"] is False and "'id'" in r["error"]
    assert t.daemon.public_state() == before


def test_a_repeated_id_is_answered_again_and_never_applied_twice(t):
    t.command({**NEW, "id": "g1"})
    shot = {"type": "shot", "seat": 1, "coin": "c1", "dead": [], "flown": [], "contacts": [], "id": "s1"}
    assert t.command(shot)["ok"]
    again = t.command(shot)
    assert again["ok"] and again.get("duplicate")
    assert t.daemon.public_state()["turn"]["strikes"] == 1


def test_restart_resumes_from_the_journal_and_republishes_retained_state(broker, tmp_path):
    journal = tmp_path / "j.sqlite"
    first = start_table(broker, journal, table_id="t2", phone=False)
    first.daemon.submit(NEW)
    first.daemon.submit({"type": "shot", "seat": 1, "coin": "c1", "dead": [], "flown": [], "contacts": []})
    expected = first.daemon.public_state()
    first.stop()
    second = start_table(broker, journal, table_id="t2", phone=False)  # the same journal
    late = Recorder(broker.host, broker.port, "gametable/t2/state")  # a phone that joins later
    try:
        got = late.wait_for("gametable/t2/state",
                            lambda m: m.retain and m.json().get("turn") == expected["turn"]).json()
        assert got == expected
    finally:
        late.close()
        second.stop()


DAEMON_SCRIPT = textwrap.dedent("""
    import sys, time
    from gametable_core.config import parse
    from controller.daemon import Daemon
    d = Daemon(parse({"table_id": "t3", "mqtt": {"host": "127.0.0.1", "port": int(sys.argv[1]),
                      "keepalive": 5}, "journal": {"path": sys.argv[2]}}))
    d.start()
    d.bridge.wait_connected(10)
    print("up", flush=True)
    time.sleep(60)
""")


def test_killed_daemon_goes_offline_through_the_last_will(broker, tmp_path):
    phone = Recorder(broker.host, broker.port, "gametable/t3/status")
    proc = subprocess.Popen([sys.executable, "-c", DAEMON_SCRIPT, str(broker.port), str(tmp_path / "j.sqlite")],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "up"
        phone.wait_for("gametable/t3/status", lambda m: m.payload == b"online")
        proc.kill()
        # the broker notices the dropped TCP connection at once and publishes the will
        phone.wait_for("gametable/t3/status", lambda m: m.payload == b"offline", timeout=15)
    finally:
        proc.kill()
        proc.wait()
        phone.close()
    assert json.dumps({}) == "{}"
