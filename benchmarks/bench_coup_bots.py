"""How well the Coup heuristic bot plays: win rates over seeded games, seats rotated.

Matchups, each over ``GAMES`` seeded games (engine only, no I/O):
- ``heuristic`` vs ``random`` heads-up, and ``heuristic`` vs the frozen first heuristic
  (:class:`controller.games.coup.bot_v1.HeuristicBotV1`) heads-up;
- one ``heuristic`` against three old heuristics at a 4-player table (a fair share is 0.25).
The measured bot's seat rotates game by game, the first player comes from the game's seed, and
every reaction window is answered in a seeded random order (phones racing, CP-3.4), so no seat
always answers first. Also printed: how often each bot's challenges win, and the share of all lost
influences that were its own failed challenges (the old bot's weakness).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from controller.games import coup
from controller.games.coup.bot import HeuristicBot, RandomBot
from controller.games.coup.bot_v1 import HeuristicBotV1

GAMES = 1000
BOTS: dict[str, Any] = {"heuristic": HeuristicBot, "old": HeuristicBotV1, "random": RandomBot}


def play(seed: int, kinds: list[str], stats: Counter[str] | None = None) -> list[int]:
    """One seeded game with ``kinds[i]`` at seat i+1; returns the winner list. ``stats`` counts,
    per kind, challenges made / won and influences lost to one's own failed challenge or otherwise."""
    n = len(kinds)
    seats = list(range(1, n + 1))
    kind_of = dict(zip(seats, kinds, strict=True))
    state = coup.new({}, seed, players=[{"seat": s, "name": f"P{s}"} for s in seats])
    bots = {s: BOTS[kind_of[s]](seed * 10 + s) for s in seats}
    race = random.Random(f"race|{seed}")
    seen_n = 0
    for _ in range(5000):
        if state["winner"] is not None:
            break
        public = coup.view(state)
        for bot in bots.values():
            bot.observe(public)
        if state["pending"] is not None:
            seat = state["pending"]["seat"]
        elif state["window"] is not None:
            seat = race.choice(state["window"]["seats"])  # whoever's phone answers first
        else:
            seat = state["turn"]
        choice = bots[seat].choose(coup.view(state, seat), coup.legal(state, seat))
        state = coup.apply(state, choice)
        if stats is not None:
            _count(stats, state, kind_of, seen_n)
            if state["last_challenge"]:
                seen_n = state["last_challenge"]["n"]
    else:
        raise RuntimeError(f"coup bot game {seed} did not finish")
    return state["winner"]


def _count(stats: Counter[str], state: dict[str, Any], kind_of: dict[int, str], seen_n: int) -> None:
    for e in state["last"]:
        if e["kind"] == "reveal":
            stats[f"{kind_of[e['seat']]}_lost"] += 1
    last = state["last_challenge"]
    if last and last["n"] > seen_n:
        who = kind_of[last["challenger"]]
        stats[f"{who}_challenges"] += 1
        if not last["had"]:
            stats[f"{who}_challenges_won"] += 1
        else:
            stats[f"{who}_lost_to_own_challenge"] += 1


def win_rate(me: str, other: str, players: int, games: int = GAMES,
             stats: Counter[str] | None = None) -> float:
    """Share of ``games`` won by one ``me`` bot against ``players - 1`` ``other`` bots, its seat
    rotating through every seat."""
    wins = 0
    for g in range(games):
        seat = g % players
        kinds = [me if i == seat else other for i in range(players)]
        wins += play(g, kinds, stats) == [seat + 1]
    return wins / games


def run() -> dict[str, float]:
    started = time.perf_counter()
    stats: Counter[str] = Counter()
    figures = {
        "coup_bot_heuristic_vs_random_win_rate": win_rate("heuristic", "random", 2, stats=stats),
        "coup_bot_heuristic_vs_old_win_rate": win_rate("heuristic", "old", 2, stats=stats),
        "coup_bot_heuristic_vs_3_old_win_rate": win_rate("heuristic", "old", 4, stats=stats),
    }
    for kind in ("heuristic", "old"):
        made = stats[f"{kind}_challenges"]
        figures[f"coup_bot_{kind}_challenges_won_pct"] = 100 * stats[f"{kind}_challenges_won"] / max(made, 1)
        figures[f"coup_bot_{kind}_lost_to_own_challenge_pct"] = (
            100 * stats[f"{kind}_lost_to_own_challenge"] / max(stats[f"{kind}_lost"], 1))
    figures["coup_bot_games"] = 3 * GAMES
    figures["coup_bot_bench_s"] = time.perf_counter() - started
    return figures


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value:.3f}" if isinstance(value, float) else f"{name}: {value}")
