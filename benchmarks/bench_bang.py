"""Bang! engine and bot speed: whole random-bot games (engine + legal, no views, no I/O) and the
heuristic bot's decision time from a seat view (docs/performance.md aims: >= 200 games/s, p95 < 50 ms)."""

from __future__ import annotations

import time

from controller.games import bang
from controller.games.bang.bot import HeuristicBot, RandomBot

GAMES = 200
BOT_GAMES = 20


def _actor(state: dict) -> int:
    window = state["window"]
    return window["seats"][0] if window is not None else state["turn"]["seat"]


def _players(n: int) -> list[dict]:
    return [{"seat": s, "name": f"P{s}"} for s in range(1, n + 1)]


def play_one(seed: int, players: int) -> int:
    """One full random game; returns the number of inputs applied."""
    state = bang.new({}, seed, players=_players(players))
    bots = {s: RandomBot(seed * 10 + s) for s in range(1, players + 1)}
    steps = 0
    while state["phase"] == "playing":
        seat = _actor(state)
        state = bang.apply(state, bots[seat].choose({}, bang.legal(state, seat)))
        steps += 1
    return steps


def bot_move_times(seed: int, players: int) -> list[float]:
    """Seconds per heuristic decision (view + choose) over one game."""
    state = bang.new({}, seed, players=_players(players))
    bots = {s: HeuristicBot(seed * 10 + s) for s in range(1, players + 1)}
    times = []
    while state["phase"] == "playing" and len(times) < 5000:
        seat = _actor(state)
        t = time.perf_counter()
        view = bang.view(state, seat)
        inp = bots[seat].choose(view, {"seat": seat, "moves": view["legal"]})
        times.append(time.perf_counter() - t)
        state = bang.apply(state, inp)
    return times


def run() -> dict[str, float]:
    start = time.perf_counter()
    inputs = sum(play_one(seed, 4 + seed % 3) for seed in range(GAMES))
    elapsed = time.perf_counter() - start
    times = sorted(t for seed in range(BOT_GAMES) for t in bot_move_times(seed, 4 + seed % 3))
    p95 = times[int(len(times) * 0.95)] * 1000
    return {"bang_random_games_per_s": GAMES / elapsed, "bang_inputs_per_s": inputs / elapsed,
            "bang_bot_move_p95_ms": p95}


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value:.1f}")
