"""Coup engine speed: whole games between random bots (engine + legal only, no views, no I/O)."""

from __future__ import annotations

import time

from controller.games import coup
from controller.games.coup.bot import RandomBot

GAMES = 400


def _actor(state: dict) -> int:
    """The seat whose answer the game waits for (the first eligible one in a window)."""
    if state["pending"] is not None:
        return state["pending"]["seat"]
    if state["window"] is not None:
        return state["window"]["seats"][0]
    return state["turn"]


def play_one(seed: int, players: int) -> int:
    """One full game; returns the number of inputs applied."""
    seats = list(range(1, players + 1))
    state = coup.new({}, seed, players=[{"seat": s, "name": f"P{s}"} for s in seats])
    bots = {s: RandomBot(seed * 10 + s) for s in seats}
    steps = 0
    while coup.winner(state) is None:
        seat = _actor(state)
        state = coup.apply(state, bots[seat].choose({}, coup.legal(state, seat)))
        steps += 1
    return steps


def run() -> dict[str, float]:
    start = time.perf_counter()
    inputs = sum(play_one(seed, 2 + seed % 5) for seed in range(GAMES))
    elapsed = time.perf_counter() - start
    return {"coup_random_games_per_s": GAMES / elapsed, "coup_inputs_per_s": inputs / elapsed}


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value:.1f}")
