"""Property tests for the CW-7 modes: random legal play never crashes and reaches a winner, hidden
identities and hands never leak (CW-7.5), and replays are exact (docs/architecture.md)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.games import coinwar as cw
from controller.games.coinwar.randomplay import random_game
from gametable.replay import replay_lines
from tests.coinwar_helpers import states_of

MODES = ["infinite", "biohazard", "football", "three_kingdoms"]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_INPUTS = 3000


@SETTINGS
@given(seed=st.integers(0, 2**32), mode=st.sampled_from(MODES))
def test_cw_7_random_legal_play_never_crashes_and_reaches_a_winner(seed, mode):
    inputs = random_game(seed, mode, max_inputs=MAX_INPUTS)
    states = states_of(inputs)
    final = states[-1]
    assert final["phase"] == "over" and final["winner"] is not None
    seats = {p["seat"] for p in final["players"]}
    w = final["winner"]
    assert (set(w["draw"]) if isinstance(w, dict) else set(w)) <= seats
    for before, inp, after in zip(states[:-1], inputs[1:], states[1:], strict=True):
        if inp["type"] in ("strike", "shot", "end_turn"):  # only the living act on the table
            assert any(p["seat"] == inp["seat"] and p["alive"] for p in before["players"])
        if after["turn"] is not None:
            assert any(p["seat"] == after["turn"]["seat"] and p["alive"] for p in after["players"])
            assert 0 <= after["turn"]["strikes"] <= cw.view(after)["strikes_allowed"] <= 3
        view = json.loads(json.dumps(cw.view(after)))
        assert {"game", "mode", "phase", "turn", "players", "questions", "winner"} <= set(view)
        if mode in ("infinite", "football"):
            assert set(view["scores"]) == {"A", "B"}
        if mode == "biohazard":
            assert all(p["role"] in ("mother", "human", "zombie") for p in view["players"])
            assert 0 <= view["lives"] <= 2


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_cw_7_5_identities_and_hands_never_leak_before_revealed(seed):
    inputs = random_game(seed, "three_kingdoms", max_inputs=MAX_INPUTS)
    for state in states_of(inputs):
        tk = state["tk"]
        playing = state["phase"] == "playing"
        hidden = {int(s) for s, shown in tk["revealed"].items() if not shown} if playing else set()
        shown_ids = {tk["identity"][s] for s, shown in tk["revealed"].items() if shown}
        views = [cw.view(state, None)] + [cw.view(state, p["seat"]) for p in state["players"]]
        for v in views:
            for p in v["players"]:
                if p["seat"] in hidden and p["seat"] != v.get("seat"):
                    assert "identity" not in p
                assert "hand" not in p
            if v.get("seat") is not None:
                assert v["hand"] == tk["hands"][str(v["seat"])]
                assert v["identity"] == tk["identity"][str(v["seat"])]
            text = json.dumps({k: val for k, val in v.items() if k not in ("identity", "hand", "legal")})
            for seat in hidden:
                ident = tk["identity"][str(seat)]
                if ident not in shown_ids and seat != v.get("seat"):
                    assert ident not in text
            others_cards = {c["id"] for s, h in tk["hands"].items() if int(s) != v.get("seat") for c in h}
            assert not others_cards & {c["id"] for c in v.get("hand", [])}
            legal_text = json.dumps(v.get("legal", []))
            assert not any(f'"{cid}"' in legal_text for cid in others_cards)


@SETTINGS
@given(seed=st.integers(0, 2**32), mode=st.sampled_from(MODES), cut=st.integers(1, 600))
def test_cw_7_replaying_any_prefix_gives_the_same_state(seed, mode, cut):
    inputs = random_game(seed, mode, max_inputs=MAX_INPUTS)
    cut = min(cut, len(inputs))
    direct = states_of(inputs)[cut - 1]
    lines = [json.dumps(i) for i in inputs[:cut]]
    first = replay_lines(lines)
    again = replay_lines(lines)
    assert json.dumps(first.state, sort_keys=True) == json.dumps(direct, sort_keys=True)
    assert json.dumps(again.state, sort_keys=True) == json.dumps(first.state, sort_keys=True)


def test_cw_7_every_mode_is_described_for_the_lobby_with_its_options():
    described = {m["mode"]: m for m in cw.describe()["modes"]}
    assert set(MODES) <= set(described)
    assert described["infinite"]["options"]["target"]["default"] == 3
    assert described["biohazard"]["players"] == [4, 5, 6] and "roles" in described["biohazard"]["options"]
    assert described["football"]["options"]["minutes"]["default"] is None
    assert described["football"]["players"] == [2, 3, 4, 5, 6]
    tk = described["three_kingdoms"]["options"]
    assert {"identities", "lord_health", "health"} <= set(tk) and tk["lord_health"]["default"] == 4
    assert "deck" not in tk  # a stacked deck is for scripted games and tests, not the phones' lobby


def test_cw_7_a_stacked_deck_is_still_taken_from_a_scripted_game():
    """The lobby does not offer it, but a scripted new_game (gametable replay, tests) may stack it."""
    players = [{"seat": s, "name": f"P{s}"} for s in (1, 2, 3, 4)]
    deck = [{"kind": "elixir", "points": 3}]
    state = cw.new({"deck": deck}, 1, players=players, mode="three_kingdoms", order=[1, 2, 3, 4])
    assert state["tk"]["deck"] == [] and state["tk"]["hands"]["1"] == [{"kind": "elixir", "points": 3, "id": "k1"}]


# --- the invariants behind the rules defects once found, over random legal play of every mode ---------------

ALL_MODES = ["ffa", "teams", *MODES]


def _card_ids(state) -> list[str]:
    """Every Three Kingdoms card wherever it is: deck, hands, in play (Burning Camps), discard."""
    tk = state["tk"]
    ids = [c["id"] for c in tk["deck"]] + [c["id"] for c in tk["discard"]]
    ids += [c["id"] for hand in tk["hands"].values() for c in hand]
    ids += [c["id"] for c in tk["burning"].values()]
    return ids


def _check_rules_invariants(before, after) -> None:
    alive = {p["seat"]: p["alive"] for p in after["players"]}
    # CW-8.1: a coin whose owner is out never returns; nobody out owes a placement
    for p in after["pending_placements"]:
        owner = after["coins"][p["coin"]].get("owner")
        assert owner is None or alive[owner], f"coin {p['coin']} of a dead player is pending placement"
        assert alive[p["by"]], f"dead seat {p['by']} owes the placement of {p['coin']}"
    if after["phase"] != "playing":
        assert after["pending_placements"] == []  # CW-8.1: the game is over
    # CW-7.5: every card is in the deck, a hand, in play or the discard pile
    if after["mode"] == "three_kingdoms":
        ids = _card_ids(after)
        assert len(ids) == len(set(ids)) == len(_card_ids(before))
    # CW-3.4: an extra turn moves neither level of the rotation (a member removed from a group,
    # CW-3.3, hands "last played" to its predecessor: that is not a move)
    if after["turn"] is not None and after["turn"]["extra"]:
        assert after["last_group"] == before["last_group"]
        members = {g["key"]: g["members"] for g in after["groups"]}
        for key, seat in before["last_played"].items():
            if seat in members[key]:
                assert after["last_played"][key] == seat


@SETTINGS
@given(seed=st.integers(0, 2**32), mode=st.sampled_from(ALL_MODES))
def test_cw_8_1_cw_7_5_cw_3_4_invariants_hold_in_random_play(seed, mode):
    inputs = random_game(seed, mode, max_inputs=MAX_INPUTS)
    states = states_of(inputs)
    for before, after in zip(states[:-1], states[1:], strict=True):
        _check_rules_invariants(before, after)


def _end(state):
    return cw.apply(state, {"type": "end_turn", "seat": state["turn"]["seat"]})


def _team(state, seat):
    return next(p["team"] for p in state["players"] if p["seat"] == seat)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_cw_3_4_cw_7_2_conversions_in_an_extra_turn_never_move_the_rotation(data):
    """A human's foul flies a biohazard coin (CW-6.3: its owner gets an extra turn), and in that
    extra turn humans die and convert: they go in after the member who played the faction's last
    regular turn, neither rotation level moves, and the first convert plays the faction's next turn."""
    n = data.draw(st.sampled_from([4, 5, 6]), label="players")
    seats = list(range(1, n + 1))
    order = data.draw(st.permutations(seats), label="order")
    s = cw.new({}, data.draw(st.integers(0, 10_000), label="seed"), mode="biohazard",
               players=[{"seat": x, "name": f"P{x}"} for x in seats], order=list(order))
    for _ in range(data.draw(st.integers(0, 2 * n), label="turns before")):
        s = _end(s)
    while _team(s, s["turn"]["seat"]) != "humans":
        s = _end(s)
    fouler = s["turn"]["seat"]
    bio_coins = [p["coin"] for p in s["players"] if p["team"] == "biohazard" and p["alive"]]
    flown = data.draw(st.sampled_from(bio_coins), label="flown")
    s = cw.apply(s, {"type": "shot", "seat": fouler, "coin": f"c{fouler}", "dead": [], "flown": [flown],
                     "contacts": []})
    extra = s["coins"][flown]["owner"]
    assert s["turn"] == {"seat": extra, "strikes": 0, "extra": True}
    anchor = s["last_played"].get("biohazard")
    before = s
    s = cw.apply(s, {"type": "placed", "coin": flown})
    humans = [p["coin"] for p in s["players"] if p["team"] == "humans" and p["alive"]]
    dead = data.draw(st.lists(st.sampled_from(humans), min_size=1, max_size=len(humans) - 1, unique=True),
                     label="dead")
    s = cw.apply(s, {"type": "shot", "seat": extra, "coin": f"c{extra}", "dead": dead, "flown": [],
                     "contacts": []})  # a move strike: the extra turn goes on
    _check_rules_invariants(before, s)
    converts = [int(c[1:]) for c in dead]
    rotation = next(g["members"] for g in s["groups"] if g["key"] == "biohazard")
    at = rotation.index(anchor) + 1 if anchor is not None else 0
    assert rotation[at:at + len(converts)] == converts
    for c in dead:
        s = cw.apply(s, {"type": "placed", "coin": c})
    s = _end(s)
    assert s["turn"] == {"seat": converts[0], "strikes": 0, "extra": False}
