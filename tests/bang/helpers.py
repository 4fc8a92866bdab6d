"""Shared helpers of the Bang! tests: stacked games and random legal play."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from controller.games import bang
from controller.games.bang.cards import DECK_IDS
from controller.games.bang.engine import count_cards

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
SEATS = [1, 2, 3, 4, 5, 6]


def players(n: int) -> list[dict[str, Any]]:
    return [{"seat": s, "name": NAMES[i]} for i, s in enumerate(SEATS[:n])]


def game(n: int = 4, seed: int = 1, **setup: Any) -> dict[str, Any]:
    """A game of ``n`` players (seats 1..n) with ``options.setup`` stacked; options via ``options=``."""
    options = dict(setup.pop("options", {}))
    options["setup"] = setup
    return bang.new(options, seed, players=players(n))


def move(state: dict[str, Any], seat: int, name: str, **args: Any) -> dict[str, Any]:
    return bang.apply(state, {"type": "move", "seat": seat, "move": name, "args": args})


def timeout(state: dict[str, Any]) -> dict[str, Any]:
    return bang.apply(state, {"type": "timeout", "window": state["window"]["id"]})


def p(state: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(x for x in state["players"] if x["seat"] == seat)


def cards_ok(state: dict[str, Any]) -> bool:
    return count_cards(state) == Counter(DECK_IDS)


def play_random(seed: int, n: int, rnd: random.Random, on_step: Any = None, max_inputs: int = 3000,
                options: dict[str, Any] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Random legal play (timeouts now and then) until the game ends; returns (final, inputs)."""
    state = bang.new(options or {}, seed, players=players(n))
    inputs: list[dict[str, Any]] = []
    for _ in range(max_inputs):
        if state["phase"] != "playing":
            break
        if state["window"] is not None and rnd.random() < 0.15:
            inp: dict[str, Any] = {"type": "timeout", "window": state["window"]["id"]}
        else:
            movers = [s for s in state["ring"] if bang.legal(state, s)["moves"]]
            assert movers, "nobody can move in a game still playing"
            seat = rnd.choice(movers)
            options_ = bang.inputs_for(bang.legal(state, seat))
            ends = [i for i in options_ if i["move"] == "end_turn"]
            inp = ends[0] if ends and rnd.random() < 0.3 else rnd.choice(options_)
        state = bang.apply(state, inp)
        inputs.append(inp)
        if on_step:
            on_step(state)
    return state, inputs


FILL = ["stagecoach-9S", "stagecoach-9S-2"]  # the first player's draw in stacked tables
ROLES = {1: "sheriff", 2: "outlaw", 3: "outlaw", 4: "renegade"}
CHARS = {1: "sid_ketchum", 2: "vulture_sam", 3: "willy_the_kid", 4: "slab_the_killer"}


def table(n: int = 4, *, hands: dict[int, list[str]] | None = None, deck: list[str] | None = None,
          roles: dict[int, str] | None = None, characters: dict[int, str] | None = None,
          options: dict[str, Any] | None = None, **setup: Any) -> dict[str, Any]:
    """A stacked table: seat 1 the Sheriff (Sid Ketchum, no passive ability) draws ``FILL`` and
    then ``deck``; every hand is empty unless given; ``characters`` override the default cast."""
    seats = SEATS[:n]
    cast = {**CHARS, 5: "rose_doolan", 6: "paul_regret"}
    for seat, ch in (characters or {}).items():
        other = next((k for k, v in cast.items() if v == ch and k != seat), None)
        if other is not None:
            cast[other] = cast[seat]
        cast[seat] = ch
    default_roles = {**ROLES, 5: "deputy", 6: "outlaw"}
    rl = roles or {s: default_roles[s] for s in seats}
    hs = {s: [] for s in seats}
    hs.update(hands or {})
    return game(n, roles=rl, characters={s: cast[s] for s in seats}, hands=hs,
                deck=(setup.pop("top", FILL)) + (deck or []), options=options or {}, **setup)


def words_of(state: dict[str, Any]) -> list[str]:
    return bang.words(None, state["last"], bang.view(state))
