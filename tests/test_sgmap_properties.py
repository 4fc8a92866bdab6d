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
    if inp.get("move") == "request_duel":  # a duel comes at the end of movement
        assert after["turn"]["seat"] == inp["seat"] and after["turn"]["movement_left"] == 0, after["turn"]
    if inp.get("move") == "flee":  # leaving a boss fight costs 1 gold; a joiner fights on
        assert _seat(before, inp["seat"])["gold"] >= 1
        assert _seat(after, inp["seat"])["gold"] == _seat(before, inp["seat"])["gold"] - 1
        f = before["fight"]
        assert f["kind"] == "boss"
        if len([f["entrant"], *f["joiners"]]) > 1:
            assert after["fight"] is not None and inp["seat"] not in [after["fight"]["entrant"],
                                                                       *after["fight"]["joiners"]]
    if inp.get("move") == "fight_result":
        assert not (before["fight"]["kind"] == "duel" and inp["args"].get("fled"))  # nobody flees a duel
        assert all(_seat(before, s)["gold"] >= 1 for s in inp["args"].get("fled") or [])
    for side in "AB":  # the boss's health stays 0 .. its full health (card health + 2)
        boss = after["sides"][side]["boss"]
        assert 0 <= boss["health"] <= boss["max_health"], boss


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


def _random_result(rng: Any, state: dict[str, Any], offer: dict[str, Any]) -> dict[str, Any]:
    """A fight result as a person might enter it, from legal()'s ``fight_result`` offer (its sides
    and seats): any winner, any seats fled or knocked out, any boss health a little outside the
    range too (the engine must refuse what SG-8.14 forbids)."""
    f, seats = state["fight"], offer["seats"]
    args: dict[str, Any] = {"winner": rng.choice(offer["sides"])}
    if rng.random() < 0.5:
        args["fled"] = [s for s in seats if rng.random() < 0.5]
    if rng.random() < 0.4:
        args["knocked_out"] = [s for s in seats if rng.random() < 0.3]
    if f["kind"] == "boss" and rng.random() < 0.7:
        full = state["sides"][f["side"]]["boss"]["max_health"]
        args["boss_health"] = rng.choice([-1, 0, 0, rng.randint(1, full), full, full + 1])  # the edges most
    return args


def _breaks_sg_8_14(state: dict[str, Any], args: dict[str, Any]) -> str | None:
    """Which SG-8.14 ruling (or SG-8.11 / SG-8.12 form) ``args`` break, from the rules' words."""
    f = state["fight"]
    if f["kind"] == "duel" and args.get("fled"):
        return "nobody flees a duel"
    if any(_seat(state, s)["gold"] < 1 for s in args.get("fled", [])):
        return "leaving costs 1 gold"
    bh = args.get("boss_health")
    if bh is not None:
        boss = state["sides"][f["side"]]["boss"]
        if not 0 <= bh <= boss["max_health"]:
            return "boss health 0 .. full"
        if bh == 0 and args["winner"] == f["side"]:
            return "a boss at 0 is beaten"
    return None


def _ruling_game(seed: int, n: int, tiny: bool, seen: dict[str, int]) -> None:
    """One physical-fight game with results entered at random and challengers trying to flee
    (with or without gold); ``seen`` counts what was refused and taken, by ruling."""
    import random

    rng = random.Random(seed)
    state = game(seed, n, tiny, "physical")
    bots = {s: RandomBot(seed + s) for s in range(1, n + 1)}
    for _ in range(MAX_INPUTS):
        if state["phase"] != "playing":
            break
        seat = who_acts(state)
        legal = sg.legal(state, seat)
        offered = {m["move"]: m for m in legal["moves"]}
        f = state["fight"]
        if "fight_result" in offered and rng.random() < 0.3:  # any challenger tries to leave, gold or not
            inp = {"type": "move", "seat": rng.choice(offered["fight_result"]["seats"]), "move": "flee", "args": {}}
        elif "fight_result" in offered:
            inp = {"type": "move", "seat": seat, "move": "fight_result",
                   "args": _random_result(rng, state, offered["fight_result"])}
        elif legal["moves"]:
            inp = bots[seat].choose(sg.view(state, seat), legal)
        else:
            inp = sg.deadlines(state)[0][2]
        if inp.get("move") == "fight_result":
            broken = _breaks_sg_8_14(state, inp["args"])
        elif inp.get("move") == "flee":
            broken = ("only a boss fight's challenger flees" if f is None or f["kind"] != "boss" else
                      "leaving costs 1 gold" if _seat(state, inp["seat"])["gold"] < 1 else None)
        else:
            broken = None
        snapshot = json.dumps(state, sort_keys=True)
        try:
            after = sg.apply(state, inp)
        except sg.GameError:
            assert broken is not None, inp  # refused only what the rules forbid
            assert json.dumps(state, sort_keys=True) == snapshot
            seen[f"refused: {broken}"] = seen.get(f"refused: {broken}", 0) + 1
            continue
        assert broken is None, (broken, inp)
        invariants(after)
        steps(state, inp, after)
        if inp.get("move") in ("fight_result", "flee"):
            leaver = " with a leaver" if inp["move"] == "fight_result" and inp["args"].get("fled") else ""
            key = f"taken: {f['kind']} {inp['move']}{leaver}"
            seen[key] = seen.get(key, 0) + 1
        state = after


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), n=st.sampled_from([4, 6]), tiny=st.booleans())
def test_sg_8_14_fight_results_and_fleeing_follow_the_rulings_whatever_is_entered(seed, n, tiny):
    """Physical fights with results entered at random: every result SG-8.14 forbids (a duel with
    someone fled, a seat with 0 gold fled or fleeing, a boss health outside 0 .. full, a beaten boss
    winning) is refused and changes nothing; every other is taken, and the game keeps every
    invariant (a joiner fights on when the entrant flees, leaving costs exactly 1 gold)."""
    _ruling_game(seed, n, tiny, {})


def test_sg_8_14_the_random_fights_reach_every_ruling():
    """The property above is only as good as what it reaches: over a few fixed games, every ruling
    is both refused and taken at least once."""
    seen: dict[str, int] = {}
    for seed in range(90):  # start_gold is seed % 25: every third game starts with none (nobody can pay)
        _ruling_game(seed * 25 if seed % 3 == 0 else seed, 4 + 2 * (seed % 2), seed % 4 == 0, seen)
    for ruling in ("nobody flees a duel", "leaving costs 1 gold", "boss health 0 .. full", "a boss at 0 is beaten"):
        assert seen.get(f"refused: {ruling}"), (ruling, seen)
    for taken in ("duel fight_result", "boss fight_result", "boss fight_result with a leaver", "boss flee"):
        assert seen.get(f"taken: {taken}"), (taken, seen)
