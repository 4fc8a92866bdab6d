"""Shared helpers for the Coup tests: stacked tables (CP-7 setup) and short move calls."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from controller.games import coup
from controller.games.coup.cards import CARDS, COPIES

NAMES = {1: "Ann", 2: "Bob", 3: "Cat", 4: "Dan", 5: "Eve", 6: "Fay"}


def table(
    hands: dict[int, list[str]],
    *,
    top: list[str] | None = None,
    first: int = 1,
    coins: dict[int, int] | None = None,
    seed: int = 7,
    **options: Any,
) -> dict[str, Any]:
    """A game with these hands; the deck is ``top`` then the rest of the 15 cards in a fixed order."""
    top = list(top or [])
    left = Counter({c: COPIES for c in CARDS})
    left.subtract(Counter(c for h in hands.values() for c in h))
    left.subtract(Counter(top))
    deck = top + [c for c in CARDS for _ in range(left[c])]
    setup: dict[str, Any] = {"hands": {str(s): h for s, h in hands.items()}, "deck": deck, "first": first}
    if coins:
        setup["coins"] = {str(s): n for s, n in coins.items()}
    players = [{"seat": s, "name": NAMES[s]} for s in sorted(hands)]
    return coup.new({"setup": setup, **options}, seed, players=players)


def mv(state: dict[str, Any], seat: int, move: str, **args: Any) -> dict[str, Any]:
    return coup.apply(state, {"type": "move", "seat": seat, "move": move, "args": args})


def passes(state: dict[str, Any], *seats: int) -> dict[str, Any]:
    for s in seats:
        state = mv(state, s, "pass")
    return state


def p(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """A player's public entry."""
    return next(x for x in coup.view(state)["players"] if x["seat"] == seat)


def hand(state: dict[str, Any], seat: int) -> list[str]:
    return coup.view(state, seat)["hand"]


def dump(state: dict[str, Any]) -> str:
    return json.dumps(state, sort_keys=True)


def coins_total(state: dict[str, Any]) -> int:
    return state["treasury"] + sum(x["coins"] for x in state["players"])


def all_cards(state: dict[str, Any]) -> Counter[str]:
    """Every card wherever it is: hands, face-up, deck and an exchange's drawn cards."""
    cards: Counter[str] = Counter(state["deck"])
    for x in state["players"]:
        cards.update(x["hand"])
        cards.update(x["revealed"])
    if state["pending"] and state["pending"]["kind"] == "exchange":
        cards.update(state["pending"]["drawn"])
    return cards


def candidates(state: dict[str, Any], rnd: Any) -> list[dict[str, Any]]:
    """Every input some seat may send now (from ``legal``), plus the table's timeout if a window is open."""
    options: list[dict[str, Any]] = []
    for x in state["players"]:
        options += coup.inputs_for(coup.legal(state, x["seat"]))
    window = coup.view(state)["window"]
    if window is not None:
        options.append({"type": "timeout", "window": window["id"]} if rnd.random() < 0.5 else {"type": "timeout"})
    return options


def play_random(seed: int, players: int, rnd: Any, on_step: Any = None, max_steps: int = 3000, **options: Any):
    """A whole game of uniformly random legal inputs; returns (final state, inputs)."""
    state = coup.new(options, seed, players=[{"seat": s, "name": NAMES[s]} for s in range(1, players + 1)])
    inputs: list[dict[str, Any]] = []
    if on_step:
        on_step(state)
    while coup.winner(state) is None and len(inputs) < max_steps:
        inp = rnd.choice(candidates(state, rnd))
        state = coup.apply(state, inp)
        inputs.append(inp)
        if on_step:
            on_step(state)
    return state, inputs
