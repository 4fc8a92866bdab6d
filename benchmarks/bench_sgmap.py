"""Sanguosha battlefield engine speed: whole quick-fight games between bots on the default map
(engine + legal + the seat's view each bot reads; no I/O). Aim: >= 20 random games/s."""

from __future__ import annotations

import time

from controller.games import sanguosha_map as sg
from controller.games.sanguosha_map.robots import PathBot, RandomBot

GAMES = 60


def play_one(seed: int, players: int, bot: type = RandomBot) -> int:
    """One full game; returns the number of inputs applied."""
    seats = list(range(1, players + 1))
    state = sg.new({"fights": "quick"}, seed,
                   players=[{"seat": s, "name": f"P{s}", "team": "A" if s % 2 else "B"} for s in seats])
    bots = {s: bot(seed * 10 + s) for s in seats}
    steps = 0
    while state["phase"] == "playing":
        tv = sg.table_view(state)
        seat = tv["answer"][0] if tv["answer"] else tv["turn"]["seat"]
        view = sg.view(state, seat)  # the seat's view carries its legal moves, as the bot runner reads them
        moves = view["legal"]
        inp = bots[seat].choose(view, {"seat": seat, "moves": moves}) if moves else sg.deadlines(state)[0][2]
        state = sg.apply(state, inp)
        steps += 1
    return steps


def run() -> dict[str, float]:
    start = time.perf_counter()
    inputs = sum(play_one(seed, 2) for seed in range(GAMES))
    elapsed = time.perf_counter() - start
    path_start = time.perf_counter()
    for seed in range(GAMES // 3):
        play_one(seed, 4, PathBot)
    path_elapsed = time.perf_counter() - path_start
    return {"sgmap_random_games_per_s": GAMES / elapsed, "sgmap_inputs_per_s": inputs / elapsed,
            "sgmap_path_games_4p_per_s": (GAMES // 3) / path_elapsed}


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value:.1f}")
