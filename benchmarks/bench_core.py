"""Core figures: replaying a 100,000-input Coin War journal, and durable journal appends."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from controller.games.coinwar.randomplay import random_game
from controller.journal import Journal
from controller.table import Table


def build_inputs(total: int = 100_000) -> list[dict]:
    inputs: list[dict] = []
    seed = 0
    while len(inputs) < total:
        inputs.extend(random_game(seed, "teams" if seed % 2 else "ffa"))
        seed += 1
    return inputs[:total]


def replay_inputs_per_s(total: int = 100_000) -> float:
    """Inputs per second through the journal replay path of a daemon restart (aim ≥ 20,000)."""
    return replay_rates(total)[0]


def replay_rates(total: int = 100_000) -> tuple[float, float]:
    """Replay inputs per wall-clock second and per CPU second (the latter is insensitive to
    other load on a shared machine, so before/after comparisons stay meaningful)."""
    inputs = build_inputs(total)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "j.sqlite"
        j = Journal(path)
        j._db.execute("PRAGMA synchronous=OFF")  # building the fixture only; not what is measured
        j._db.execute("BEGIN")
        for inp in inputs:
            j.append(inp, 0.0)
        j._db.execute("COMMIT")
        j.close()
        started, cpu_started = time.perf_counter(), time.process_time()
        table = Table(Journal(path))
        count = table.load()
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        assert count == total
    return total / elapsed, total / cpu


def journal_append_per_s(count: int = 2000) -> float:
    """Durable appends (WAL, synchronous=FULL, one commit each) per second (aim ≥ 500)."""
    inp = {"type": "shot", "seat": 1, "coin": "c1", "dead": [], "flown": [], "contacts": [["c1", "c2"]]}
    with tempfile.TemporaryDirectory() as tmp:
        j = Journal(Path(tmp) / "j.sqlite")
        started = time.perf_counter()
        for i in range(count):
            j.append(inp, 0.0, f"id{i}")
        elapsed = time.perf_counter() - started
        j.close()
    return count / elapsed


def run() -> dict[str, float]:
    wall, cpu = replay_rates()
    return {"replay_inputs_per_s": wall, "replay_inputs_per_cpu_s": cpu, "journal_append_per_s": journal_append_per_s()}
