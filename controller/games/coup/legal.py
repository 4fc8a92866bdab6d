"""What a seat may do now: exactly the moves :func:`engine.apply` would accept from it.

The panel draws its buttons from this, and bots and tests pick from it, so it must never offer a
move that apply would refuse, nor hide one it would take.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from controller.games.base import Input, State
from controller.games.coup.cards import COST, MUST_COUP_AT
from controller.games.coup.flow import alive_seats


def _distinct(cards: list[str]) -> list[str]:
    return list(dict.fromkeys(cards))


def legal(state: State, seat: int) -> dict[str, Any]:
    """``{"seat": S, "moves": [...]}``; each move names its choices (targets, claims, cards)."""
    moves: list[dict[str, Any]] = []
    out = {"seat": seat, "moves": moves}
    if state["phase"] != "playing":
        return out
    me = next((p for p in state["players"] if p["seat"] == seat), None)
    if me is None or not me["hand"]:
        return out
    pending, window = state["pending"], state["window"]
    if pending is not None:
        moves += _pending_moves(pending, me, seat)
    elif window is not None:
        moves += _window_moves(window, seat)
    elif seat == state["turn"]:
        moves += _turn_moves(state, me, seat)
    return out


def _pending_moves(pending: dict[str, Any], me: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The one choice a pending step waits for (CP-5 losing influence, CP-2 exchange)."""
    if pending["seat"] != seat:
        return []
    if pending["kind"] == "lose_influence":
        return [{"move": "lose_influence", "cards": _distinct(me["hand"])}]
    pool = me["hand"] + pending["drawn"]
    return [{"move": "exchange_return", "count": len(pending["drawn"]), "cards": pool}]


def _window_moves(window: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The answers to an open challenge or block window (CP-3, CP-4)."""
    if seat not in window["seats"]:
        return []
    if window["kind"] == "block":
        return [{"move": "block", "claims": list(window["claims"])}, {"move": "pass"}]
    return [{"move": "challenge"}, {"move": "pass"}]


def _turn_moves(state: State, me: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The actions of the player whose turn it is (CP-2)."""
    targets = [s for s in alive_seats(state) if s != seat]
    coins = me["coins"]
    if coins >= MUST_COUP_AT:  # CP-2.1
        return [{"move": "coup", "targets": targets}]
    moves: list[dict[str, Any]] = [{"move": "income"}, {"move": "foreign_aid"}]
    if coins >= COST["coup"]:
        moves.append({"move": "coup", "targets": targets})
    moves.append({"move": "tax"})
    if coins >= COST["assassinate"]:
        moves.append({"move": "assassinate", "targets": targets})
    moves += [{"move": "steal", "targets": targets}, {"move": "exchange"}]
    return moves


def inputs_for(options: dict[str, Any]) -> list[Input]:
    """Every concrete input a ``legal()`` answer allows (for bots, tests and the panel)."""
    seat = options["seat"]
    result: list[Input] = []
    for m in options["moves"]:
        name = m["move"]
        if "targets" in m:
            arg_sets = [{"target": t} for t in m["targets"]]
        elif "claims" in m:
            arg_sets = [{"claim": c} for c in m["claims"]]
        elif name == "lose_influence":
            arg_sets = [{"card": c} for c in m["cards"]]
        elif name == "exchange_return":
            picks = {tuple(sorted(c)) for c in combinations(m["cards"], m["count"])}
            arg_sets = [{"cards": list(c)} for c in sorted(picks)]
        else:
            arg_sets = [{}]
        result += [{"type": "move", "seat": seat, "move": name, "args": a} for a in arg_sets]
    return result

