"""Property tests of the battlefield, random bots (docs/rules/sanguosha-map.md): exact replay, gold and card
conservation, generals always on walkable cells, legal() never offering what apply() refuses, and
SG-8.14's invariants (the 6-card limit right after the draw, knocked-out generals out of reach, a
castle losing at most 1 per attack)."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.games import sanguosha_map as sg
from controller.games.sanguosha_map import maps
from controller.games.sanguosha_map.cards import DECKS
from controller.games.sanguosha_map.robots import PathBot, RandomBot
from tests.sgmap_helpers import tiny_map

MAX_INPUTS = 400


def players(n: int) -> list[dict[str, Any]]:
    return [{"seat": s, "name": f"P{s}", "team": "A" if s % 2 else "B"} for s in range(1, n + 1)]


def who_acts(state: dict[str, Any]) -> int | None:
    tv = sg.table_view(state)
    if tv["answer"]:
        return tv["answer"][0]
    return None if tv["turn"] is None else tv["turn"]["seat"]


def play(state: dict[str, Any], bots: dict[int, Any], limit: int, check: bool = True) -> list[dict[str, Any]]:
    """Bots play; returns the accepted inputs. Every state along the way is checked."""
    inputs = []
    for _ in range(limit):
        if state["phase"] != "playing":
            break
        seat = who_acts(state)
        legal = sg.legal(state, seat)
        if legal["moves"]:
            inp = bots[seat].choose(sg.view(state, seat), legal)
        else:
            inp = sg.deadlines(state)[0][2]
        before, state = state, sg.apply(state, inp)
        inputs.append(inp)
        if check:
            invariants(state)
            steps(before, inp, state)
    return inputs


def _seat(state: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(p for p in state["players"] if p["seat"] == seat)


def steps(before: dict[str, Any], inp: dict[str, Any], after: dict[str, Any]) -> None:
    """SG-8.14's invariants of one accepted input."""
    turn = before["turn"]
    if turn is not None and turn["stage"] == "act" and len(_seat(before, turn["seat"])["action"]) > 6:
        # over 6 action cards after the draw: nothing but the turn's general discarding
        assert inp.get("move") == "discard" and inp["seat"] == turn["seat"], inp
    if inp.get("move") not in (None, "discard", "keep", "reroll") and turn is not None and inp["seat"] == turn["seat"]:
        assert len(_seat(after, inp["seat"])["action"]) <= 6, inp
    out = {p["seat"] for p in before["players"] if p["knocked_out"]}
    for eff in after["last"]:  # a knocked-out general is never a target, never hurt
        assert not (eff["kind"] in ("attack", "duel_request") and eff["target"] in out), eff
        assert not (eff["kind"] == "damage" and eff["seat"] in out), eff
    now = after["turn"]
    if now is not None and now["stage"] != "minion_roll":
        assert not _seat(after, now["seat"])["knocked_out"]  # the skipped turn is nobody's
    if inp.get("move") == "attack":  # a castle loses at most 1 per attack, Crossbow or not
        for side in "AB":
            assert before["sides"][side]["castle"] - after["sides"][side]["castle"] <= 1


def invariants(state: dict[str, Any]) -> None:
    # SG-8.7: gold never negative, conserved between players and the bank
    assert all(p["gold"] >= 0 for p in state["players"])
    assert sum(p["gold"] for p in state["players"]) + state["bank"] == state["_start_gold"]
    # every card is somewhere exactly once
    held: dict[str, list[str]] = {k: [] for k in DECKS}
    for p in state["players"]:
        held["action"] += p["action"]
        held["strategy"] += p["strategy"]
        for slot in ("weapon", "horse", "armour"):
            if p[slot]:
                held[slot].append(p[slot])
    held["action"] += state["discard"]
    for pile, cards in DECKS.items():
        assert sorted(held[pile] + state["decks"][pile]) == sorted(cards), pile
    # generals stand on walkable cells; minions on the board stand on their lines
    g = maps.geometry(state["map"])
    for p in state["players"]:
        assert g.walkable((p["cell"][0], p["cell"][1]))
        assert 0 <= p["health"] <= p["max_health"]
    for side in "AB":
        for m in state["sides"][side]["minions"]:
            assert (m["cell"] is None) == m["waiting"]
    w = state["window"]
    if w is not None:
        assert w["seats"], "an open window always has someone to answer"
    # the public view (and the log, and the effects on events) never names a card in a hand
    public = json.dumps(sg.view(state), ensure_ascii=False)
    named = set(re.findall(r"\b[a-z_]+-\d+\b", public))
    in_hands = {c for p in state["players"] for c in p["action"] + p["strategy"]}
    assert not named & in_hands, named & in_hands


def game(seed: int, n: int, tiny: bool, fights: str = "quick", dice: bool = False) -> dict[str, Any]:
    options: dict[str, Any] = {"fights": fights, "start_gold": seed % 25, "physical_dice": dice}
    if tiny:
        options["map"] = tiny_map([[[2, 3], [2, 4]], [[3, 4], [4, 4]]])
    state = sg.new(options, seed, players=players(n))
    state["_start_gold"] = sum(p["gold"] for p in state["players"])
    return state


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), n=st.sampled_from([2, 4, 6]), tiny=st.booleans(),
       fights=st.sampled_from(["quick", "physical"]), dice=st.booleans())
def test_random_bots_keep_every_invariant_and_replay_exactly(seed, n, tiny, fights, dice):
    start = game(seed, n, tiny, fights, dice)
    bots = {s: RandomBot(seed + s) for s in range(1, n + 1)}
    inputs = play(start, bots, MAX_INPUTS)
    a = start
    for inp in inputs:
        a = sg.apply(a, inp)
    b = game(seed, n, tiny, fights, dice)
    for inp in inputs:
        b = sg.apply_in_place(b, inp)
    assert a == b  # exact replay, in place or not
    assert start == game(seed, n, tiny, fights, dice)  # apply never changed its argument


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_legal_moves_are_accepted(seed):
    """Whatever legal() offers with bot-made arguments, apply() takes (the random bot would crash)."""
    state = game(seed, 2, False)
    bots = {s: RandomBot(seed * 7 + s) for s in (1, 2)}
    play(state, bots, 300)


ODD_ARGS = [{}, {"target": 1}, {"target": 2}, {"target": "castle", "cards": ["strike-1"]}, {"cards": ["dodge-1"]},
            {"pile": "weapon"}, {"path": [[2, 3]]}, {"winner": "A"}, {"value": 3}, {"target": "B1", "cards": []}]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), pokes=st.lists(st.tuples(st.sampled_from(sg.MOVES), st.sampled_from(ODD_ARGS),
                                                            st.integers(1, 4), st.integers(1, 25)),
                                           min_size=30, max_size=30))
def test_apply_accepts_only_moves_legal_offers(seed, pokes):
    """Any move apply() accepts from a seat is one legal() offered that seat (the panel relies on it)."""
    state = game(seed, 4, True)
    bots = {s: RandomBot(seed + s) for s in range(1, 5)}
    for name, args, seat, advance in pokes:
        if state["phase"] != "playing":
            break
        offered = {m["move"] for m in sg.legal(state, seat)["moves"]}
        try:
            sg.apply(state, {"type": "move", "seat": seat, "move": name, "args": args})
        except sg.GameError:
            pass
        else:
            assert name in offered, (name, args, seat, offered)
        for inp in play(state, bots, advance, check=False):  # then the game goes on a little
            state = sg.apply(state, inp)


def test_path_bots_finish_quick_games():
    for seed in range(6):
        state = game(seed, 4, False)
        bots = {s: PathBot(seed + s) for s in range(1, 5)}
        inputs = play(state, bots, 5000, check=False)
        for inp in inputs:
            state = sg.apply_in_place(state, inp)
        assert state["phase"] == "over" and state["winner"], seed
