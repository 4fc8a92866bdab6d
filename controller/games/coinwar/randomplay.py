"""Random legal Coin War inputs, for property tests, benchmarks and smoke bots.

Chooses only among what ``legal`` offers, with random (sometimes unknown) strike facts, so every
input it returns must be accepted by ``apply``.
"""

from __future__ import annotations

import random
from typing import Any

from controller.games import coinwar as cw


def _subset(rnd: random.Random, items: list[str], p: float) -> list[str]:
    return [c for c in items if rnd.random() < p]


def random_input(state: dict[str, Any], rnd: random.Random, unknown_p: float = 0.15) -> dict[str, Any] | None:
    """One random legal input for the current state, or None when the game is over."""
    if state["phase"] != "playing":
        return None
    if state["questions"]:
        return _answer_or_withdraw(state, rnd)
    candidates: list[tuple[int, dict[str, Any]]] = []
    for p in state["players"]:
        for move in cw.legal(state, p["seat"])["moves"]:
            candidates.append((p["seat"], move))
    if not candidates:
        return None
    seat, move = rnd.choice(candidates)
    kind = move["type"]
    if kind == "placed":
        return {"type": "placed", "coin": move["coin"]}
    if kind == "end_turn":
        return {"type": "end_turn", "seat": seat}
    if kind == "strike":
        return {"type": "strike", "seat": seat}
    if kind == "withdraw":
        return {"type": "withdraw", "seat": seat}
    if kind == "shot":
        return _random_shot(state, rnd, seat, move, unknown_p)
    return cw.mode_of(state).random_move(state, rnd, seat, move)


def _answer_or_withdraw(state: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """An answer to the open question, or now and then the striker withdrawing a shot no beam saw (CW-5.6)."""
    q = state["questions"][0]
    turn = state["turn"]
    if turn and rnd.random() < 0.1 and {"type": "withdraw"} in cw.legal(state, turn["seat"])["moves"]:
        return {"type": "withdraw", "seat": turn["seat"]}
    return {"type": "answer", "question": q["id"], "value": _subset(rnd, q["options"], 0.2)}


def _random_shot(state: dict[str, Any], rnd: random.Random, seat: int, move: dict[str, Any],
                 unknown_p: float) -> dict[str, Any]:
    """Random facts (some unknown) for one of the coins ``move`` lists; sometimes the observer's
    ``beam_edges`` count (0: nothing on the table saw the strike, CW-5.6)."""
    coin = rnd.choice(move["coins"])
    mode = cw.mode_of(state)
    on_table = [c for c in mode.coins_on_table(state)]
    if coin not in on_table:
        on_table.append(coin)
    dead = _subset(rnd, on_table, 0.12)
    flown = _subset(rnd, [c for c in on_table if c not in dead], 0.04)
    touched = _subset(rnd, [c for c in on_table if c != coin], 0.3)
    inp = {
        "type": "shot", "seat": seat, "coin": coin,
        "dead": None if rnd.random() < unknown_p else dead,
        "flown": None if rnd.random() < unknown_p else flown,
        "contacts": None if rnd.random() < unknown_p else [[coin, c] for c in touched],
    }
    if inp["contacts"] is not None and len(on_table) > 1 and rnd.random() < unknown_p:
        # contacts known in part (CW-9 contacts_open), as the camera sends them: a pair or two open
        known = {tuple(sorted(p)) for p in inp["contacts"]}
        pairs = [[a, b] for i, a in enumerate(sorted(on_table)) for b in sorted(on_table)[i + 1:] if (a, b) not in known]
        if pairs:
            inp["contacts_open"] = rnd.sample(pairs, min(len(pairs), rnd.randint(1, 2)))
    if rnd.random() < 0.3:
        inp["beam_edges"] = 0 if rnd.random() < 0.5 else rnd.randint(1, 40)  # as the observer adds
    inp.update(mode.random_shot_extras(state, rnd, inp))
    return inp


def random_new_game(rnd: random.Random, mode: str = "ffa") -> dict[str, Any]:
    m = cw.MODES[mode]
    n = rnd.choice(m.player_counts)
    seats = rnd.sample(range(1, 7), n)
    order = list(seats)
    rnd.shuffle(order)
    return {"type": "new_game", "game": "coinwar", "mode": mode,
            "players": [{"seat": s, "name": f"P{s}"} for s in sorted(seats)],
            "order": order, "options": {}, "seed": rnd.randrange(2**31)}


def random_game(seed: int, mode: str = "ffa", max_inputs: int = 400) -> list[dict[str, Any]]:
    """The inputs of one random legal game (ends at a winner or after ``max_inputs``)."""
    rnd = random.Random(seed)
    first = random_new_game(rnd, mode)
    state = cw.new(first["options"], first["seed"], players=first["players"], mode=mode, order=first["order"])
    inputs = [first]
    for _ in range(max_inputs):
        inp = random_input(state, rnd)
        if inp is None:
            break
        state = cw.apply(state, inp)
        inputs.append(inp)
    return inputs
