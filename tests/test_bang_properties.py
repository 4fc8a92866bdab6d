"""Property tests of the Bang! engine with random legal play (docs/rules/bang.md BG-1 … BG-8.14)."""

from __future__ import annotations

import json
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.games import bang
from controller.games.bang.bot import HeuristicBot, RandomBot
from controller.games.base import GameError
from tests.bang.helpers import cards_ok, play_random, players

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32)
counts = st.integers(min_value=4, max_value=6)
OPTIONS = st.fixed_dictionaries({}, optional={
    "auto_pass": st.sampled_from(["empty", "no_answer"]), "seed_deck": st.booleans(),
    "jail_discard_down": st.booleans(), "store_counterclockwise": st.booleans(), "saloon_as_beer": st.booleans()})


def _invariants(state):
    """BG-4: every card somewhere, exactly once; life within 0..max (<= 0 only while dying)."""
    if not state["options"]["seed_deck"]:
        assert cards_ok(state)
    for x in state["players"]:
        assert x["life"] <= x["max_life"]
        if x["alive"] and x["life"] < 1:
            assert state["phase"] == "over" or (state["window"] and state["window"]["kind"] == "dying")
        if not x["alive"]:
            assert x["hand"] == [] and x["in_play"] == []
    if state["window"] is not None:
        assert state["window"]["seats"] and all(bang.legal(state, s)["moves"] for s in state["window"]["seats"])


@SETTINGS
@given(seeds, counts, seeds, OPTIONS)
def test_random_legal_play_never_crashes_and_ends_with_a_faction_winner(seed, n, rseed, options):
    final, _ = play_random(seed, n, random.Random(rseed), on_step=_invariants, options=options)
    assert final["phase"] == "over" and final["winner"]
    roles = {x["seat"]: x["role"] for x in final["players"]}
    factions = {frozenset(("sheriff", "deputy")), frozenset(("outlaw",)), frozenset(("renegade",))}
    assert frozenset(roles[s] for s in final["winner"]) in factions | {frozenset(("sheriff",))}


@SETTINGS
@given(seeds, counts, seeds)
def test_replaying_the_same_inputs_gives_the_identical_state(seed, n, rseed):
    final, inputs = play_random(seed, n, random.Random(rseed))
    state = bang.new({}, seed, players=players(n))
    fast = json.loads(json.dumps(state))
    for inp in inputs:
        state = bang.apply(state, inp)
        fast = bang.apply_in_place(fast, inp)
    assert json.dumps(state, sort_keys=True) == json.dumps(final, sort_keys=True) == json.dumps(fast, sort_keys=True)


def _redeal(state, rnd, keep_seat=None):
    """The same game with every hidden card dealt differently (hands, the deck, the rng); the
    viewer's own hand (and Kit Carlson's three looked-at cards) stay."""
    other = json.loads(json.dumps(state))
    window = other["window"]
    kit = (keep_seat is not None and window and window["kind"] == "draw_choice" and keep_seat in window["seats"]
           and next(x for x in other["players"] if x["seat"] == keep_seat)["character"] == "kit_carlson")
    fixed = other["deck"][:3] if kit else []
    deck = other["deck"][3:] if kit else other["deck"]
    hidden = [c for x in other["players"] if x["seat"] != keep_seat for c in x["hand"]] + deck
    rnd.shuffle(hidden)
    for x in other["players"]:
        if x["seat"] != keep_seat:
            k = len(x["hand"])
            x["hand"], hidden = hidden[:k], hidden[k:]
    other["deck"] = fixed + hidden
    roles = [x["role"] for x in other["players"] if x["alive"] and x["role"] != "sheriff" and x["seat"] != keep_seat]
    rnd.shuffle(roles)
    for x in other["players"]:
        if x["alive"] and x["role"] != "sheriff" and x["seat"] != keep_seat:
            x["role"] = roles.pop()
    other["rng"] = rnd.getrandbits(64)
    return other


def _no_leaks(rnd):
    def check(state):
        if state["phase"] != "playing":
            return
        public = bang.view(state)
        assert bang.view(_redeal(state, rnd)) == public  # BG-7: no hidden card, deck order or role
        for x in state["players"]:
            mine = bang.view(state, x["seat"])
            assert mine["hand"] == x["hand"] and mine["role"] == x["role"]
            assert bang.view(_redeal(state, rnd, x["seat"]), x["seat"]) == mine
        for eff in state["last"]:  # BG-8.13: private draws and steals are counts only
            if eff["kind"] in ("draw", "returns", "vulture") or (eff["kind"] == "steals" and "card" not in eff):
                assert "cards" not in eff and "card" not in eff
        if any(e["kind"] == "returns" for e in state["last"]):  # Kit Carlson's card back on top
            named = set(re.findall(r'"([a-z_]+-[0-9JQKA]+[SHDC](?:-[0-9])?)"', json.dumps(state["last"])))
            assert state["deck"][0] not in named and state["deck"][0] not in json.dumps(public)

    return check


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, counts, seeds)
def test_privacy_no_view_changes_when_what_it_cannot_see_is_redealt(seed, n, rseed):
    play_random(seed, n, random.Random(rseed), on_step=_no_leaks(random.Random(rseed + 1)))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, counts, seeds)
def test_legal_lists_exactly_the_plays_apply_accepts(seed, n, rseed):
    rnd = random.Random(rseed)

    def check(state):
        if state["phase"] != "playing" or state["window"] is not None:
            return
        seat = state["turn"]["seat"]
        me = next(x for x in state["players"] if x["seat"] == seat)
        offered = {json.dumps(i, sort_keys=True) for i in bang.inputs_for(bang.legal(state, seat))}
        for card in me["hand"]:
            for target in [None] + state["ring"]:
                tcs = [None, "hand"] + ([c for x in state["players"] for c in x["in_play"]] if target else [])
                for tc in tcs:
                    args = {"card": card, **({"target": target} if target else {}),
                            **({"target_card": tc} if tc else {})}
                    inp = {"type": "move", "seat": seat, "move": "play", "args": args}
                    try:
                        bang.apply(state, inp)
                        ok = True
                    except GameError:
                        ok = False
                    assert ok == (json.dumps(inp, sort_keys=True) in offered), inp

    play_random(seed, n, rnd, on_step=check, max_inputs=200)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, counts)
def test_bots_play_full_games_from_their_own_views_only(seed, n):
    state = bang.new({}, seed, players=players(n))
    bots = {x["seat"]: (HeuristicBot if x["seat"] % 2 else RandomBot)(seed + x["seat"]) for x in state["players"]}
    for _ in range(5000):
        if state["phase"] != "playing":
            break
        moved = False
        for seat, bot in bots.items():
            view = bang.view(state, seat)
            inp = bot.choose(view, {"seat": seat, "moves": view["legal"]}) if view["legal"] else None
            if inp is not None:
                state = bang.apply(state, inp)
                moved = True
                break
        assert moved
    assert state["phase"] == "over"


def _probes(state, seat):
    """Plausible inputs from one seat, legal or not: every move with assorted arguments."""
    me = next(x for x in state["players"] if x["seat"] == seat)
    cards = (me["hand"] + ["bang-AS", "missed-2S", "beer-6H"])[:6]
    out = [{"type": "move", "seat": seat, "move": m, "args": {}} for m in bang.MOVES]
    for c in cards:
        out.append({"type": "move", "seat": seat, "move": "respond", "args": {"cards": [c]}})
        out.append({"type": "move", "seat": seat, "move": "discard", "args": {"cards": [c]}})
        out.append({"type": "move", "seat": seat, "move": "pick", "args": {"card": c}})
        for t in state["ring"] + [9]:
            out.append({"type": "move", "seat": seat, "move": "play", "args": {"card": c, "target": t}})
    out.append({"type": "move", "seat": seat, "move": "ability", "args": {"cards": cards[:2]}})
    out.append({"type": "move", "seat": seat, "move": "draw_choice", "args": {"from": "deck"}})
    return out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, counts, seeds)
def test_a_refused_input_changes_nothing_even_in_place(seed, n, rseed):
    rnd = random.Random(rseed)

    def check(state):
        if state["phase"] != "playing":
            return
        before = json.dumps(state, sort_keys=True)
        for inp in rnd.sample(_probes(state, rnd.choice(state["ring"])), 8):
            scratch = json.loads(before)
            try:
                bang.apply_in_place(scratch, inp)
            except GameError as err:
                assert "\n" not in str(err)
                assert json.dumps(scratch, sort_keys=True) == before, inp

    play_random(seed, n, rnd, on_step=check, max_inputs=150)
