"""Bot runner speed: whole bot games through the real Daemon (journal on disk, no MQTT).

Coup: heuristic bots decide every input from their seat views. Three Kingdoms: the virtual table
plays the shots (fake clock, so physics runs as fast as it computes) and the runner the cards.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from controller.bot_runner import BotRunner
from controller.daemon import Daemon
from gametable.sim_table import VirtualTable
from gametable_core.clock import FakeClock
from gametable_core.config import parse

COUP_GAMES = 6


def _daemon(path: Path, clock: FakeClock) -> Daemon:
    daemon = Daemon(parse({}), clock, journal_path=str(path))
    daemon.start(connect=False)
    return daemon


def coup_games(tmp: Path) -> tuple[int, float]:
    """(inputs, seconds) for COUP_GAMES 4-player heuristic games."""
    inputs, start = 0, time.perf_counter()
    for seed in range(COUP_GAMES):
        daemon = _daemon(tmp / f"coup{seed}.sqlite", FakeClock())
        try:
            runner = BotRunner(daemon, [1, 2, 3, 4], seed=seed)
            daemon.submit({"id": "ng", "type": "new_game", "game": "coup", "seed": seed, "options": {},
                           "players": [{"seat": s, "name": f"Bot {s}"} for s in (1, 2, 3, 4)]})
            inputs += runner.poll(max_inputs=5000)
        finally:
            daemon.stop()
    return inputs, time.perf_counter() - start


def three_kingdoms_game(tmp: Path, seed: int = 4) -> tuple[int, float]:
    """(inputs, seconds) for one 4-player Three Kingdoms bot game on the virtual table."""
    clock = FakeClock()
    daemon = _daemon(tmp / "tk.sqlite", clock)
    start = time.perf_counter()
    try:
        table = VirtualTable(daemon, clock, seed=seed, bots={1, 2, 3, 4})
        runner = BotRunner(daemon, [1, 2, 3, 4], seed, confirm_placements=False)
        table.act = runner.poll
        table.submit({"type": "new_game", "game": "coinwar", "mode": "three_kingdoms", "seed": seed, "options": {},
                      "players": [{"seat": s, "name": f"Bot {s}"} for s in (1, 2, 3, 4)], "order": [1, 2, 3, 4]})
        for _ in range(3000):
            if not runner.poll() + table.play_bots():
                break
        return len(table.log) + len(runner.log), time.perf_counter() - start
    finally:
        daemon.stop()


def run() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        n, s = coup_games(Path(tmp))
        tk_n, tk_s = three_kingdoms_game(Path(tmp))
    return {"bots_coup_inputs_per_s": n / s, "bots_coup_game_s": s / COUP_GAMES,
            "bots_three_kingdoms_game_s": tk_s, "bots_three_kingdoms_inputs_per_s": tk_n / tk_s}


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value:.2f}")
