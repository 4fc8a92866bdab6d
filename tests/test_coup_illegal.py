"""Bad input of any kind gets a specific one-line error and changes nothing (CP-2 … CP-7)."""

from __future__ import annotations

import pytest

from controller.games import coup
from controller.games.base import GameError
from tests.helpers.coup import dump, mv, passes, table

HANDS = {1: ["duke", "captain"], 2: ["contessa", "assassin"], 3: ["ambassador", "ambassador"]}


def _turn():
    return table(HANDS, coins={1: 7})


def _challenge_window():
    return mv(_turn(), 1, "tax")


def _block_window():
    return passes(mv(_turn(), 1, "steal", target=2), 2, 3)


def _pending_loss():
    return mv(_turn(), 1, "coup", target=2)


def _m(seat, move, **args):
    return {"type": "move", "seat": seat, "move": move, "args": args}


CASES = [
    (_turn, "notadict", "an input must be an object"),
    (_turn, {"type": "fly"}, "coup takes 'move' and 'timeout' inputs, not 'fly'"),
    (_turn, {"type": "move", "seat": "1", "move": "income"}, "'seat' must be a seat number"),
    (_turn, {"type": "move", "seat": True, "move": "income"}, "'seat' must be a seat number"),
    (_turn, _m(9, "income"), "seat 9 is not playing this game"),
    (_turn, _m(1, "dance"), "unknown move 'dance'"),
    (_turn, _m(2, "income"), "it is Ann (seat 1)'s turn, not seat 2's"),
    (_turn, _m(1, "income", target=2), "income takes no 'target' argument"),
    (_turn, {"type": "move", "seat": 1, "move": "income", "args": [2]}, "income: args must be an object"),
    (_turn, _m(1, "steal"), "steal needs a target seat, got None"),
    (_turn, _m(1, "steal", target=1), "steal: you cannot target yourself"),
    (_turn, _m(1, "coup", target=9), "coup: seat 9 is not a living player"),
    (_turn, _m(1, "assassinate", target="2"), "assassinate needs a target seat"),
    (_turn, _m(1, "pass"), "pass: no reaction window is open"),
    (_turn, _m(2, "challenge"), "challenge: no reaction window is open"),
    (_turn, _m(1, "lose_influence", card="duke"), "lose_influence: nobody has to choose anything now"),
    (_turn, {"type": "timeout"}, "timeout: no reaction window is open"),
    (_challenge_window, _m(1, "challenge"), "seat 1 cannot answer a challenge window on its own claim"),
    (_challenge_window, _m(2, "income"), "income: a challenge action window is open; answer it first"),
    (_challenge_window, _m(2, "block", claim="duke"), "this is a challenge action window, not a block window"),
    (_challenge_window, {"type": "timeout", "window": 99}, "stale timeout for window 99; window 1 is open"),
    (_challenge_window, {"type": "timeout", "window": True}, "'window' must be a window id number"),
    (_block_window, _m(3, "block", claim="captain"), "seat 3 may not answer this block window"),
    (_block_window, _m(2, "challenge"), "this is a block window"),
    (_block_window, _m(2, "block", claim="contessa"), "steal can only be blocked by captain, ambassador"),
    (_block_window, _m(2, "block", claim="king"), "block: unknown card 'king'"),
    (_block_window, _m(2, "block"), "block: unknown card None"),
    (_pending_loss, _m(3, "income"), "waiting for Bob (seat 2) to choose an influence to lose"),
    (_pending_loss, _m(2, "exchange_return", cards=["duke", "duke"]), "must answer with lose_influence first"),
    (_pending_loss, _m(2, "lose_influence", card="duke"), "you have no face-down duke"),
    (_pending_loss, _m(2, "lose_influence"), "lose_influence: unknown card None"),
    (_pending_loss, _m(2, "pass"), "must answer with lose_influence first"),
    (_pending_loss, {"type": "timeout"}, "no reaction window is open"),
]


@pytest.mark.parametrize(("make", "inp", "message"), CASES, ids=[f"{m.__name__}-{msg}" for m, _, msg in CASES])
@pytest.mark.parametrize("apply", [coup.apply, coup.apply_in_place], ids=["apply", "in_place"])
def test_illegal_input_is_rejected_with_one_line_and_state_unchanged(make, inp, message, apply):
    state = make()
    before = dump(state)
    with pytest.raises(GameError) as err:
        apply(state, inp)
    assert message in str(err.value)
    assert "\n" not in str(err.value)
    assert dump(state) == before
    if isinstance(inp, dict) and inp.get("type") == "move" and isinstance(inp.get("seat"), int):
        offered = coup.inputs_for(coup.legal(state, inp["seat"])) if inp["seat"] in HANDS else []
        assert inp not in offered


def test_apply_never_mutates_its_argument():
    state = _challenge_window()
    before = dump(state)
    after = mv(state, 2, "challenge")
    assert dump(state) == before and dump(after) != before
