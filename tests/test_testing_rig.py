"""The test rig itself (gametable/testing/, docs/testing.md): the table a test asks for is the real
one and is all there; the rig ships with the product without pulling test tools in; the benchmarks
stand on it and not on ``tests``; the one stand-in daemon behaves as the daemon does."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from gametable.testing.fake_daemon import FakeDaemon
from gametable.testing.table import new_game
from tests.helpers import mini_referee

REPO = Path(__file__).resolve().parent.parent
TEST_TOOLS = ("pytest", "hypothesis", "playwright", "_pytest")


@pytest.mark.mqtt
def test_a_table_with_game_panel_and_serial_plays_a_strike_from_the_striker_to_the_phone(table):
    t = table(game="coinwar", panel=True, serial=True)
    state = t.wait_for("state", lambda m: (m.json() or {}).get("game") == "coinwar").json()
    assert state["turn"] == {"seat": 1, "strikes": 0, "extra": False}
    start = len(t.phone.messages)
    t.base.strike("s1", g=7.5)  # a frame on the pty, through the link and the Hardware, to the daemon
    struck = t.wait_for("state", lambda m: (m.json().get("turn") or {}).get("strikes") == 1, start=start).json()
    assert struck["turn"]["seat"] == 1
    phone = t.http()  # the served panel sees the same table
    status, info = phone.get("/api/info")
    assert status == 200 and json.loads(info)["table"] == "t1"
    t.wait(lambda: (t.panel.link.public_state() or {}).get("turn", {}).get("strikes") == 1, what="panel's state")


@pytest.mark.mqtt
def test_two_tables_on_one_broker_keep_their_own_topics_and_journals(table, fake_clock):
    a = table(table_id="ta", game="coinwar", clock=fake_clock)
    b = table(table_id="tb")
    assert a.daemon.public_state()["game"] == "coinwar" and b.daemon.public_state() is None
    assert a.config.journal.path != b.config.journal.path
    assert {m.topic.split("/")[1] for m in b.phone.messages} == {"tb"}


@pytest.mark.mqtt
def test_a_refused_new_game_stops_what_was_started_and_says_why(broker, tmp_path):
    from gametable.testing.table import start_table

    with pytest.raises(RuntimeError, match="refused its new game"):
        start_table(broker, tmp_path / "j.sqlite", game={"type": "new_game", "game": "no-such-game", "players": []})
    again = start_table(broker, tmp_path / "j.sqlite")  # the journal's lock was let go
    again.stop()


def test_new_game_ids_never_repeat_across_runs():
    assert new_game("coinwar")["id"] != new_game("coinwar")["id"]
    assert new_game({"type": "new_game", "game": "coup", "id": "mine"})["id"] == "mine"
    assert new_game("coup")["game"] == "coup"


def test_a_bots_command_ids_never_repeat_across_runs():
    """Two runs of the same seeded bot send the same commands under different ids."""
    code = ("from gametable.testing.bots import Bot\n"
            "b = Bot(5)\nprint(' '.join(b.next_command()['id'] for _ in range(3)))")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)
            for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    first, second = (r.stdout.split() for r in runs)
    assert len(set(first)) == 3 and not set(first) & set(second)


def test_the_rig_imports_no_test_tool_so_it_ships_with_the_product():
    modules = sorted(p.stem for p in (REPO / "gametable" / "testing").glob("*.py")
                     if p.stem not in ("__init__", "fixtures"))
    code = ("import sys\n" + "".join(f"import gametable.testing.{m}\n" for m in modules)
            + f"print(sorted(m for m in sys.modules if m.split('.')[0] in {TEST_TOOLS!r}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_benchmarks_stand_on_the_rig_not_on_the_tests():
    offenders = []
    for path in sorted((REPO / "benchmarks").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offenders += [f"{path.name}: {n}" for n in names if n == "tests" or n.startswith("tests.")]
    assert offenders == []


def test_the_fake_daemon_answers_a_repeated_id_once_and_refuses_with_the_rules_own_error():
    daemon = mini_referee.mini_daemon()
    heard = []
    daemon.add_listener(lambda cmd, state: heard.append((cmd["id"], state["turn"]["seat"])))
    new = {"type": "new_game", "id": "g", "players": [{"seat": 1}, {"seat": 2}]}
    assert daemon.submit(new) == {"id": "g", "ok": True}
    assert daemon.submit(new) == {"id": "g", "ok": True}  # answered again, applied once
    wrong = daemon.submit({"type": "strike", "seat": 2, "id": "s"}, source="observer")
    assert wrong == {"id": "s", "ok": False, "error": "it is seat 1's turn"}
    assert daemon.inputs == [new] and heard == [("g", 1)]
    assert daemon.public_state()["phase"] == "playing" and "_open" not in daemon.public_state()


def test_the_fake_daemon_without_rules_accepts_all_and_a_failing_one_raises():
    still = FakeDaemon({"phase": "playing"})
    assert still.submit({"type": "shot", "id": "x"}, source="observer")["ok"]
    assert still.public_state() == {"phase": "playing"} and still.sources == ["observer"]
    broken = FakeDaemon(fail=RuntimeError("journal closed"))
    with pytest.raises(RuntimeError, match="journal closed"):
        broken.submit({"type": "shot", "id": "y"})
    assert broken.inputs == []
