"""Small builders for Coin War scenario tests."""

from __future__ import annotations

from typing import Any

from controller.games import coinwar as cw


def players(*seats: int, teams: dict[int, str] | None = None) -> list[dict[str, Any]]:
    out = []
    for s in seats:
        p: dict[str, Any] = {"seat": s, "name": f"P{s}"}
        if teams:
            p["team"] = teams[s]
        out.append(p)
    return out


def ffa(*seats: int, order: list[int] | None = None, seed: int = 1) -> dict[str, Any]:
    return cw.new({}, seed, players=players(*seats), mode="ffa", order=order or list(seats))


def teams(order: list[int], team_of: dict[int, str], seed: int = 1) -> dict[str, Any]:
    return cw.new({}, seed, players=players(*sorted(team_of), teams=team_of), mode="teams", order=order)


def shot(seat: int, dead: Any = (), flown: Any = (), touch: Any = (), coin: str | None = None) -> dict[str, Any]:
    coin = coin or f"c{seat}"
    contacts = None if touch is None else [[coin, c] for c in touch]
    return {
        "type": "shot", "seat": seat, "coin": coin,
        "dead": None if dead is None else list(dead),
        "flown": None if flown is None else list(flown),
        "contacts": contacts,
    }


def play(state: dict[str, Any], *inputs: dict[str, Any]) -> dict[str, Any]:
    for inp in inputs:
        state = cw.apply(state, inp)
    return state


def turn_seat(state: dict[str, Any]) -> int | None:
    return state["turn"]["seat"] if state["turn"] else None


def alive(state: dict[str, Any]) -> list[int]:
    return [p["seat"] for p in state["players"] if p["alive"]]


def states_of(inputs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every state of a game, from its ``new_game`` input through each following input."""
    first = inputs[0]
    state = cw.new(first["options"], first["seed"], players=first["players"], mode=first["mode"],
                   order=first["order"])
    states = [state]
    for inp in inputs[1:]:
        state = cw.apply(state, inp)
        states.append(state)
    return states
