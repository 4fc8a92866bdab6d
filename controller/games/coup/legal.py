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
        if pending["seat"] == seat:
            if pending["kind"] == "lose_influence":
                moves.append({"move": "lose_influence", "cards": _distinct(me["hand"])})
            else:
                pool = me["hand"] + pending["drawn"]
                moves.append({"move": "exchange_return", "count": len(pending["drawn"]), "cards": pool})
        return out
    if window is not None:
        if seat in window["seats"]:
            if window["kind"] == "block":
                moves.append({"move": "block", "claims": list(window["claims"])})
            else:
                moves.append({"move": "challenge"})
            moves.append({"move": "pass"})
        return out
    if seat != state["turn"]:
        return out
    targets = [s for s in alive_seats(state) if s != seat]
    coins = me["coins"]
    if coins >= MUST_COUP_AT:  # CP-2.1
        moves.append({"move": "coup", "targets": targets})
        return out
    moves += [{"move": "income"}, {"move": "foreign_aid"}]
    if coins >= COST["coup"]:
        moves.append({"move": "coup", "targets": targets})
    moves.append({"move": "tax"})
    if coins >= COST["assassinate"]:
        moves.append({"move": "assassinate", "targets": targets})
    moves += [{"move": "steal", "targets": targets}, {"move": "exchange"}]
    return out


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

