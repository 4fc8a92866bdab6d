"""The virtual table against the real Daemon, engine and Mosquitto (runs once the lead's
controller.daemon is merged; skipped on the physics branch)."""

from __future__ import annotations

import pytest

from gametable.sim_table import VirtualTable
from gametable_core.clock import FakeClock
from gametable_core.config import parse

daemon_mod = pytest.importorskip("controller.daemon")
pytestmark = pytest.mark.mqtt


# seeds picked for short games (bot games vary from 20 to 500 inputs) to keep the suite fast
@pytest.mark.parametrize(
    "mode,ask,seats,seed",
    [("ffa", False, 3, 7), ("ffa", True, 3, 7), ("teams", True, 4, 3), ("football", False, 2, 7),
     ("biohazard", True, 4, 2)],
)
def test_bots_play_a_whole_game_on_the_virtual_table_with_no_rejected_input(broker, tmp_path, mode, ask, seats, seed):
    config = parse({"mqtt": {"host": broker.host, "port": broker.port}})
    clock = FakeClock()
    daemon = daemon_mod.Daemon(config, clock, journal_path=str(tmp_path / "journal.sqlite"))
    daemon.start()
    try:
        table = VirtualTable(daemon, clock, seed=seed, ask=ask, bots=set(range(1, seats + 1)))
        teams = mode in ("teams", "football")
        players = [{"seat": s, "name": f"Bot {s}"} | ({"team": "AB"[(s - 1) % 2]} if teams else {})
                   for s in range(1, seats + 1)]
        assert table.submit({"type": "new_game", "game": "coinwar", "mode": mode, "players": players,
                             "order": list(range(1, seats + 1)), "options": {}, "seed": seed})["ok"]
        for _ in range(600):
            if not table.play_bots():
                break
        state = daemon.public_state()
        assert state["phase"] == "over" and state["winner"]
        assert [e for e in table.log if not e["result"]["ok"]] == []
        if ask:  # the observer's unknowns were asked and the physics answered them
            assert any(e["cmd"]["type"] == "answer" for e in table.log)
    finally:
        daemon.stop()
