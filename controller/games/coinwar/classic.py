"""Coin War Classic (CW-2…CW-6): free-for-all and teams."""

from __future__ import annotations

from typing import Any

from controller.games import rng
from controller.games.base import GameError
from controller.games.coinwar.modes import Mode, ShotContext, State
from controller.games.coinwar.turns import player


def check_order(seats: list[int], order: list[int] | None, state: State) -> list[int]:
    """CW-9: ``order`` lists every seat once; absent, it is drawn from the seed (CW-2.2)."""
    if order is None:
        return rng.shuffle(state, sorted(seats))
    if not isinstance(order, list) or any(isinstance(s, bool) or not isinstance(s, int) for s in order):
        raise GameError(f"'order' must be a list of seat numbers, got {order!r}")
    if sorted(order) != sorted(seats):
        raise GameError(f"'order' must list every seat once: seats are {sorted(seats)}, order is {order}")
    return list(order)


class FreeForAll(Mode):
    name = "ffa"
    title = "Free-for-all"
    summary = "Everyone for themselves: knock the others into the goal; last coin standing wins."
    player_counts: tuple[int, ...] = (2, 3, 4, 5, 6)

    def setup(self, state: State, players: list[dict[str, Any]], order: list[int] | None) -> None:
        seats = [p["seat"] for p in state["players"]]
        state["order"] = check_order(seats, order, state)
        state["groups"] = [{"key": "*", "members": list(state["order"])}]

    def victory(self, state: State, ctx: ShotContext) -> Any:
        """CW-4.4 last player alive wins; CW-4.5 one strike killing everyone left is a draw."""
        alive = [p["seat"] for p in state["players"] if p["alive"]]
        if len(alive) == 1:
            return [alive[0]]
        if not alive:
            return {"draw": sorted(ctx.alive_before)}
        return None


class Teams(Mode):
    name = "teams"
    title = "Teams"
    summary = "Two teams alternate turns; a team wins when the other has no players left."
    player_counts: tuple[int, ...] = (4, 6)
    teams = True

    def setup(self, state: State, players: list[dict[str, Any]], order: list[int] | None) -> None:
        assign_teams(state, players)
        seats = [p["seat"] for p in state["players"]]
        state["order"] = check_order(seats, order, state)
        build_team_groups(state)

    def side(self, state: State, seat: int) -> str:
        return player(state, seat)["team"]

    def victory(self, state: State, ctx: ShotContext) -> Any:
        """CW-4.4: the team that still has players when the other has none; CW-4.5 both → draw."""
        teams_alive = {p["team"] for p in state["players"] if p["alive"]}
        if len(teams_alive) == 1:
            team = teams_alive.pop()
            return sorted(p["seat"] for p in state["players"] if p["team"] == team)
        if not teams_alive:
            return {"draw": sorted(p["seat"] for p in state["players"])}
        return None


def assign_teams(state: State, players: list[dict[str, Any]], sizes: tuple[int, ...] = (4, 6)) -> None:
    """CW-2.1/2.2: two teams of equal size, given in ``players[].team`` or drawn from the seed."""
    n = len(state["players"])
    given = [p.get("team") for p in players]
    if all(t is None for t in given):
        seats = rng.shuffle(state, [p["seat"] for p in state["players"]])
        team_a = set(seats[: n // 2])
        for p in state["players"]:
            p["team"] = "A" if p["seat"] in team_a else "B"
        return
    if any(not isinstance(t, str) or not t for t in given):
        raise GameError("every player needs a 'team' (or leave all out to draw teams at random)")
    names = sorted({str(t) for t in given})  # all strings: checked just above
    if len(names) != 2:
        raise GameError(f"teams mode needs exactly two teams, got {names}")
    counts = {name: given.count(name) for name in names}
    if counts[names[0]] != counts[names[1]]:
        raise GameError(f"the two teams must be of equal size, got {counts}")
    by_seat = {p["seat"]: p.get("team") for p in players}
    for p in state["players"]:
        p["team"] = by_seat[p["seat"]]


def build_team_groups(state: State) -> None:
    """CW-9: each team's rotation is its seats in ``order``; the first seat's team plays first."""
    groups: list[dict[str, Any]] = []
    for seat in state["order"]:
        team = player(state, seat)["team"]
        group = next((g for g in groups if g["key"] == team), None)
        if group is None:
            group = {"key": team, "members": []}
            groups.append(group)
        group["members"].append(seat)
    state["groups"] = groups
