"""Coin War Three Kingdoms (CW-7.5): identities, health, Elixir, Burning Camps, Combo, victories."""

from __future__ import annotations

import json

import pytest

from controller.games import GameError
from controller.games import coinwar as cw
from tests.coinwar_helpers import alive, play, players, shot, turn_seat

IDS = {1: "lord", 2: "rebel", 3: "loyalist", 4: "traitor"}


def card(kind: str, points: int) -> dict:
    return {"kind": kind, "points": points}


# dealt in turn order from the Lord, 2 rounds: k1→1 k2→2 k3→3 k4→4 k5→1 k6→2 k7→3 k8→4; k9 = Lord's draw
DEAL = [card("burning_camps", 3), card("elixir", 1), card("combo", 2), card("elixir", 2),
        card("combo", 4), card("elixir", 5), card("combo", 1), card("burning_camps", 1), card("combo", 5)]


def tk(deck=None, order=(1, 2, 3, 4), ids=None, **options):
    ids = ids or IDS
    opts = {"identities": {str(s): i for s, i in ids.items()}, "deck": DEAL if deck is None else deck, **options}
    return cw.new(opts, 1, players=players(*sorted(ids)), mode="three_kingdoms", order=list(order))


def move(seat: int, name: str, **args) -> dict:
    return {"type": "move", "seat": seat, "move": name, "args": args}


def end(seat: int) -> dict:
    return {"type": "end_turn", "seat": seat}


def pub(state, seat: int) -> dict:
    return next(p for p in cw.view(state)["players"] if p["seat"] == seat)


def hand_ids(state, seat: int) -> list[str]:
    return [c["id"] for c in cw.view(state, seat)["hand"]]


# --- setup and hidden identities ------------------------------------------------------------------

def test_cw_7_5_lord_is_public_and_plays_first_others_hidden():
    s = tk(order=(3, 4, 1, 2))
    assert turn_seat(s) == 1 and cw.view(s)["order"] == [1, 2, 3, 4]  # rotated, cycle kept
    assert pub(s, 1)["identity"] == "lord" and pub(s, 1)["health"] == 4
    for seat in (2, 3, 4):
        assert "identity" not in pub(s, seat) and pub(s, seat)["health"] == 3


def test_cw_7_5_each_seat_sees_its_own_identity_and_hand_never_anothers():
    s = tk()
    v2 = cw.view(s, 2)
    assert v2["identity"] == "rebel" and hand_ids(s, 2) == ["k2", "k6"]
    assert all("identity" not in p for p in v2["players"] if p["seat"] in (3, 4))
    text = json.dumps(v2)
    assert "traitor" not in text and "loyalist" not in text
    public = json.dumps(cw.view(s))
    assert "rebel" not in public and "traitor" not in public and "loyalist" not in public
    assert pub(s, 1)["cards"] == 3  # 2 dealt + 1 drawn at the start of the Lord's turn
    assert "k9" in hand_ids(s, 1)


@pytest.mark.parametrize("n,rebels", [(4, 1), (5, 2), (6, 3)])
def test_cw_7_5_random_identities_by_player_count(n, rebels):
    seats = list(range(1, n + 1))
    s = cw.new({}, 3, players=players(*seats), mode="three_kingdoms", order=seats)
    ids = sorted(cw.view(s, seat)["identity"] for seat in seats)
    assert ids.count("rebel") == rebels and ids.count("lord") == 1
    assert ids.count("loyalist") == 1 and ids.count("traitor") == 1
    assert cw.view(s, turn_seat(s))["identity"] == "lord"


def test_cw_7_5_identities_option_is_validated():
    with pytest.raises(GameError, match="need identities"):
        tk(ids={1: "lord", 2: "lord", 3: "rebel", 4: "traitor"})
    with pytest.raises(GameError, match="points' 1-5"):
        tk(deck=[card("elixir", 9)])


# --- health, respawn, reveal ----------------------------------------------------------------------

def test_cw_7_5_a_goal_costs_one_health_respawns_and_reveals_a_hidden_player():
    s = tk(deck=[])  # no cards: no Elixir decisions
    s = play(s, shot(1, touch=["c2"], dead=["c2"]))
    p2 = pub(s, 2)
    assert p2["health"] == 2 and p2["alive"] and p2["identity"] == "rebel"  # reveal on damage
    assert cw.view(s)["pending_placements"] == [{"coin": "c2", "by": 2, "where": "initial"}]  # CW-7.4


def test_cw_7_5_at_zero_health_the_player_dies_and_is_revealed():
    s = tk(deck=[], health=1)
    s = play(s, shot(1, touch=["c4"], dead=["c4"]))
    assert 4 not in alive(s) and pub(s, 4)["identity"] == "traitor"
    assert cw.view(s)["pending_placements"] == []
    assert "c4" not in cw.view(s)["coins_on_table"]


def test_cw_6_4_cw_7_5_execution_costs_one_health_and_respawns_at_the_initial_position():
    s = tk(deck=[])
    s = play(s, shot(1, flown=["c2", "c3"]))  # CW-6.4: the Lord is executed
    assert pub(s, 1)["health"] == 3 and 1 in alive(s)
    assert sorted((p["coin"], p["by"], p["where"]) for p in cw.view(s)["pending_placements"]) == [
        ("c1", 1, "initial"), ("c2", 2, "normal"), ("c3", 3, "normal")]


def test_cw_6_4_cw_7_5_execution_at_one_health_kills_and_the_coin_never_returns():
    s = play(tk(deck=[], lord_health=1, health=1, order=(1, 2, 3, 4)), end(1))
    s = play(s, shot(2, flown=["c2", "c3"]))  # the rebel is executed at 1 health: dead
    assert 2 not in alive(s)
    assert cw.view(s)["pending_placements"] == [{"coin": "c3", "by": 3, "where": "normal"}]
    assert "c2" not in cw.view(s)["coins_on_table"]


def test_cw_8_1_dead_owner_coin_never_returns_after_burning_camps():
    # The Lord knocks c2 into the goal (it waits to respawn at its initial position); at seat 2's
    # next turn Burning Camps burns them to 0: the pending placement of their coin is dropped and
    # the next player may strike (the defect: "waiting for coin c2 to be placed", for ever).
    deck = [card("burning_camps", 3)] + [card("combo", 5)] * 8 + [card("combo", 1)] + [card("combo", 4)] * 6
    s = play(tk(deck=deck, health=2), move(1, "burning_camps", card="k1", target=2))
    s = play(s, shot(1, touch=["c2"], dead=["c2"]), move(2, "take_damage"))
    assert pub(s, 2)["health"] == 1 and turn_seat(s) == 2
    assert cw.view(s)["reaction"] == {"seat": 2, "cause": "burning_camps"}  # k10 has 1 point: burns
    assert cw.view(s)["pending_placements"] == [{"coin": "c2", "by": 2, "where": "initial"}]
    s = play(s, move(2, "take_damage"))
    assert 2 not in alive(s) and turn_seat(s) == 3 and s["winner"] is None
    assert cw.view(s)["pending_placements"] == []  # CW-8.1
    assert "c2" not in cw.view(s)["coins_on_table"]
    with pytest.raises(GameError, match="nothing to place"):
        cw.apply(s, {"type": "placed", "coin": "c2"})
    s = play(s, shot(3))  # the game goes on
    assert s["turn"] == {"seat": 3, "strikes": 1, "extra": False}


def test_cw_8_1_a_placement_owed_by_a_player_burnt_to_death_passes_to_the_coins_owner():
    # Seat 1's own coin flies (CW-6.2): the next turn's player, seat 2, must place it; Burning
    # Camps kills seat 2 at the start of that turn: seat 1 (the coin's owner) places it instead.
    deck = [card("burning_camps", 3)] + [card("combo", 5)] * 8 + [card("combo", 1)] + [card("combo", 4)] * 6
    s = play(tk(deck=deck, health=1), move(1, "burning_camps", card="k1", target=2))
    s = play(s, shot(1, flown=["c1"]))
    assert cw.view(s)["reaction"] == {"seat": 2, "cause": "burning_camps"}
    assert cw.view(s)["pending_placements"] == [{"coin": "c1", "by": 2, "where": "normal"}]
    s = play(s, move(2, "take_damage"))
    assert 2 not in alive(s) and turn_seat(s) == 3
    assert cw.view(s)["pending_placements"] == [{"coin": "c1", "by": 1, "where": "normal"}]
    with pytest.raises(GameError, match="placed by seat 1"):
        cw.apply(s, shot(3))
    s = play(s, {"type": "placed", "coin": "c1"}, shot(3))
    assert s["turn"]["strikes"] == 1


def test_cw_7_5_the_judged_card_goes_to_the_discard_pile_when_the_fire_goes_out():
    deck = [card("burning_camps", 3)] + [card("combo", 5)] * 8 + [card("elixir", 4)] + [card("combo", 2)] * 4
    s = play(tk(deck=deck), move(1, "burning_camps", card="k1", target=2), end(1))
    v = cw.view(s)
    fire = next(e for e in v["last"] if e["kind"] == "fire_out")
    assert fire["card"]["id"] == "k10" and pub(s, 2)["burning_camps"] is False
    assert v["discard_pile"] == 2  # the judged card and Burning Camps
    assert {c["id"] for c in s["tk"]["discard"]} == {"k1", "k10"}
    held = sum(len(h) for h in s["tk"]["hands"].values())
    assert held + v["deck"] + v["discard_pile"] + len(s["tk"]["burning"]) == len(deck)


# --- Elixir and Burning Camps -----------------------------------------------------------------------

def test_cw_7_5_an_elixir_at_once_saves_a_hidden_identity():
    s = play(tk(deck=DEAL + [card("combo", 1)] * 4), shot(1, touch=["c2"], dead=["c2"]))
    v = cw.view(s)
    assert v["reaction"] == {"seat": 2, "cause": "goal"} and v["turn"]["seat"] == 1
    legal2 = cw.legal(s, 2)["moves"]
    assert {"type": "move", "move": "take_damage"} in legal2
    assert {"type": "move", "move": "elixir", "card": "k2", "hide_allowed": True} in legal2
    with pytest.raises(GameError, match="waiting for seat 2"):
        cw.apply(s, end(1))
    s = play(s, move(2, "elixir", card="k2", hide=True))
    p2 = pub(s, 2)
    assert p2["health"] == 3 and "identity" not in p2  # healed at once, stays hidden
    assert "rebel" not in json.dumps(cw.view(s))
    assert hand_ids(s, 2) == ["k6", "k10"] and turn_seat(s) == 2  # k2 played; k10 drawn


def test_cw_7_5_burning_camps_forces_the_reveal_even_with_an_elixir():
    s = play(tk(), move(1, "burning_camps", card="k1", target=2))
    assert pub(s, 2)["burning_camps"] is True
    s = play(s, shot(1, touch=["c2"], dead=["c2"]))
    assert {"type": "move", "move": "elixir", "card": "k2", "hide_allowed": False} in cw.legal(s, 2)["moves"]
    with pytest.raises(GameError, match="carrying Burning Camps"):
        cw.apply(s, move(2, "elixir", card="k2", hide=True))
    s = play(s, move(2, "elixir", card="k2"))
    assert pub(s, 2)["health"] == 3 and pub(s, 2)["identity"] == "rebel"


def test_cw_7_5_burning_camps_judgement_at_the_start_of_the_carriers_turn():
    deck = DEAL + [card("combo", 2), card("elixir", 3), card("combo", 1), card("combo", 1), card("combo", 1),
                   card("combo", 4), card("combo", 1)]
    s = play(tk(deck=deck), move(1, "burning_camps", card="k1", target=2), end(1))
    # seat 2's turn starts: top card k10 has 2 points → lose 1 health (seat 2 holds cards: decides)
    assert cw.view(s)["reaction"] == {"seat": 2, "cause": "burning_camps"}
    s = play(s, move(2, "take_damage"))
    p2 = pub(s, 2)
    assert p2["health"] == 2 and p2["identity"] == "rebel" and p2["burning_camps"] is True
    assert "k11" in hand_ids(s, 2)  # then the draw
    s = play(s, end(2))
    assert cw.view(s)["discard_due"] == {"seat": 2, "count": 1}  # 3 cards, health 2
    s = play(s, move(2, "discard", cards=["k11"]), end(3), end(4), end(1))
    # next turn of seat 2: top card k15 has 4 points → the fire goes out, no damage
    assert pub(s, 2)["burning_camps"] is False and pub(s, 2)["health"] == 2
    assert any(e["kind"] == "fire_out" for e in cw.view(s)["last"])


def test_cw_7_5_burning_camps_can_kill_and_the_turn_passes():
    deck = [card("burning_camps", 1)] + [card("combo", 5)] * 8 + [card("combo", 1), card("elixir", 1), card("combo", 3)]
    s = play(tk(deck=deck, health=1), move(1, "burning_camps", card="k1", target=2), end(1))
    assert cw.view(s)["reaction"]["seat"] == 2
    s = play(s, move(2, "take_damage"))
    assert 2 not in alive(s) and pub(s, 2)["identity"] == "rebel"
    assert s["winner"] is None and turn_seat(s) == 3  # the rebel's death alone does not end it


# --- Combo and the hand limit -----------------------------------------------------------------------

def test_cw_7_5_combo_gives_one_extra_strike_three_at_most():
    deck = [card("combo", 1), card("elixir", 1), card("elixir", 1), card("elixir", 1),
            card("combo", 2), card("elixir", 1), card("elixir", 1), card("elixir", 1), card("combo", 3)]
    s = play(tk(deck=deck), move(1, "combo", card="k1"))
    assert cw.view(s)["strikes_allowed"] == 3
    with pytest.raises(GameError, match="3 at most"):
        cw.apply(s, move(1, "combo", card="k5"))
    s = play(s, shot(1), shot(1))
    assert turn_seat(s) == 1
    s = play(s, shot(1))
    assert turn_seat(s) == 2


def test_cw_7_5_hand_limit_discard_down_at_turn_end():
    s = tk(health=2, lord_health=2)  # the Lord holds 3 cards with health 2
    s = play(s, end(1))
    v = cw.view(s)
    assert v["discard_due"] == {"seat": 1, "count": 1} and turn_seat(s) == 1
    with pytest.raises(GameError, match="discard exactly 1"):
        cw.apply(s, move(1, "discard", cards=["k1", "k5"]))
    with pytest.raises(GameError, match="waiting for seat 1 to discard"):
        cw.apply(s, shot(1))
    s = play(s, move(1, "discard", cards=["k5"]))
    assert pub(s, 1)["cards"] == 2 and turn_seat(s) == 2


# --- victories --------------------------------------------------------------------------------------

def test_cw_7_5_rebels_win_when_the_lord_dies():
    s = play(tk(deck=[], lord_health=1), shot(1, dead=["c1"]))
    assert s["winner"] == [2]
    assert all("identity" in p for p in cw.view(s)["players"])  # all revealed at the end


def test_cw_7_5_lord_and_loyalists_win_when_rebels_and_traitor_are_dead():
    s = play(tk(deck=[], health=1), shot(1, touch=["c2"], dead=["c2", "c4"]))
    assert s["winner"] == [1, 3]


def test_cw_7_5_the_traitor_alone_left_wins():
    s = play(tk(deck=[], health=1, lord_health=1), shot(1, touch=["c2"], dead=["c2", "c3"]))
    assert turn_seat(s) == 4
    s = play(s, shot(4, touch=["c1"], dead=["c1"]))
    assert s["winner"] == [4]


def test_cw_7_5_bad_moves_are_rejected_with_a_reason():
    s = tk()
    with pytest.raises(GameError, match="unknown Three Kingdoms move"):
        cw.apply(s, move(1, "peach"))
    with pytest.raises(GameError, match="only in their own turn"):
        cw.apply(s, move(3, "combo", card="k3"))
    with pytest.raises(GameError, match="holds no card"):
        cw.apply(s, move(1, "combo", card="k2"))
    with pytest.raises(GameError, match="needs a target"):
        cw.apply(s, move(1, "burning_camps", card="k1", target=1))
    with pytest.raises(GameError, match="no damage to answer"):
        cw.apply(s, move(2, "take_damage"))


def test_cw_7_5_an_unknown_move_names_the_declared_moves_and_changes_nothing():
    """The move table is declared: the error lists it in order; an unhashable name (a list) is
    the same one-line error, not a crash."""
    s = tk()
    before = json.dumps(s, sort_keys=True)
    listed = "(moves: elixir, take_damage, combo, burning_camps, discard)"
    for name in ("peach", ["combo"], None):
        with pytest.raises(GameError) as err:
            cw.apply(s, {"type": "move", "seat": 1, "move": name, "args": {}})
        assert str(err.value) == f"unknown Three Kingdoms move {name!r} {listed}"
    assert json.dumps(s, sort_keys=True) == before
