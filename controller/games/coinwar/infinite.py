"""Coin War Infinite (CW-7.1): teams where every death respawns at once and scores for the other team."""

from __future__ import annotations

from typing import Any

from controller.games.base import GameError
from controller.games.coinwar.classic import Teams
from controller.games.coinwar.modes import Option, ShotContext, State
from controller.games.coinwar.turns import player

OTHER = {"A": "B", "B": "A"}


def check_ab_teams(state: State, mode: str) -> None:
    """``scores`` is ``{"A": n, "B": m}`` (CW-9), so scoring modes name their teams A and B."""
    names = {p["team"] for p in state["players"]}
    if not names <= {"A", "B"}:
        raise GameError(f"mode {mode} names its teams 'A' and 'B', got {sorted(names)}")


def score_winner(state: State, target: int) -> Any:
    """First team to ``target`` wins; both on one strike: more points wins, a tie is a draw."""
    scores = state["scores"]
    reached = [t for t in ("A", "B") if scores[t] >= target]
    if not reached:
        return None
    if len(reached) == 2 and scores["A"] == scores["B"]:
        return {"draw": sorted(p["seat"] for p in state["players"])}
    team = max(reached, key=lambda t: scores[t])
    return sorted(p["seat"] for p in state["players"] if p["team"] == team)


class Infinite(Teams):
    name = "infinite"
    title = "Infinite (币战·无限)"
    summary = "Teams; the dead respawn at once and every death scores a point for the other team."
    player_counts = (4, 6)
    teams = True
    scores = True
    options = {"target": Option(3, "points a team needs to win (CW-7.1)", minimum=1, maximum=99)}

    def setup(self, state: State, players: list[dict[str, Any]], order: list[int] | None) -> None:
        super().setup(state, players, order)
        check_ab_teams(state, self.name)
        state["scores"] = {"A": 0, "B": 0}

    def on_dead_coin(self, state: State, coin: str, ctx: ShotContext) -> None:
        """CW-7.4: a coin that died in the goal respawns at its initial position, placed by its owner."""
        owner = self.owner_seat(state, coin)
        ctx.placements.append({"coin": coin, "by": owner, "where": "initial"})
        self.kill(state, owner, ctx, cause="goal")

    def execute(self, state: State, seat: int, ctx: ShotContext) -> None:
        """CW-6.4 / CW-7.1: as if knocked into the goal once: a death that scores, and the coin
        respawns at its initial position, placed by its owner (whether it flew or lay still).
        CW-6.5: a fouler who died on the strike is not executed too."""
        if seat in ctx.deaths:
            return
        ctx.placements.append({"coin": f"c{seat}", "by": seat, "where": "initial"})
        self.kill(state, seat, ctx, cause="execution")

    def kill(self, state: State, seat: int, ctx: ShotContext, cause: str) -> None:
        """CW-7.1: every death, suicides and team kills too, gives the other team a point;
        the player respawns at once. CW-7.4: the active player's own death ends their turn."""
        team = player(state, seat)["team"]
        state["scores"][OTHER[team]] += 1
        ctx.deaths.append(seat)
        ctx.effects.append({"kind": "death", "seat": seat, "cause": cause, "point_to": OTHER[team],
                            "respawn": True, "rule": "CW-7.1"})
        if seat == ctx.seat:
            ctx.end_turn = True

    def victory(self, state: State, ctx: ShotContext) -> Any:
        return score_winner(state, state["options"]["target"])

    def public_extras(self, state: State) -> dict[str, Any]:
        return {"scores": dict(state["scores"]), "target": state["options"]["target"]}
