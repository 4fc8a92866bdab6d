"""Bang! setup, death, the contract (docs/rules/bang.md BG-1, BG-6, BG-8.1-8.3, BG-8.6, BG-8.9, BG-8.14)."""

from __future__ import annotations

from collections import Counter

import pytest

from controller.games import bang, get_game
from controller.games.base import GameError
from tests.bang.helpers import cards_ok, move, p, players, table, timeout, words_of


@pytest.mark.parametrize("n,deputies,outlaws", [(4, 0, 2), (5, 1, 2), (6, 1, 3)])
def test_bg1_roles_life_and_hands(n, deputies, outlaws):
    s = bang.new({}, 7, players=players(n))
    roles = Counter(x["role"] for x in s["players"])
    assert roles == Counter({"sheriff": 1, "renegade": 1, "outlaw": outlaws, "deputy": deputies}) - Counter()
    sheriff = next(x for x in s["players"] if x["role"] == "sheriff")
    assert sheriff["max_life"] == bang.describe()["characters"][sheriff["character"]]["life"] + 1
    assert s["turn"]["seat"] == sheriff["seat"]  # BG-8.14: the Sheriff's turn starts at once
    for x in s["players"]:
        drawn = 2 if x is sheriff and x["character"] not in ("black_jack", "kit_carlson") else None
        if drawn is not None and s["window"] is None:
            assert len(x["hand"]) == x["life"] + drawn
        elif x is not sheriff:
            assert len(x["hand"]) == x["life"]
    assert len({x["character"] for x in s["players"]}) == n and cards_ok(s)


def test_bg8_1_four_to_six_players_and_bg8_2_the_ring_order():
    with pytest.raises(GameError, match="4-6 players"):
        bang.new({}, 1, players=players(3))
    with pytest.raises(GameError, match="ring"):
        bang.new({}, 1, players=players(4), order=[2, 1, 3, 4])
    d = bang.describe()
    assert d["players"] == {"min": 4, "max": 6} and d["free_seating"] is False and get_game("bang") is bang


def test_bg8_2_distance_is_the_physical_ring_skipping_empty_seats_and_the_dead():
    ps = [{"seat": s, "name": f"P{s}"} for s in (1, 2, 4, 6)]
    s = bang.new({"setup": {"characters": {1: "sid_ketchum", 2: "vulture_sam", 4: "willy_the_kid",
                                           6: "slab_the_killer"}}}, 3, players=ps)
    from controller.games.bang.flow import distance

    assert [distance(s, 1, t) for t in (2, 4, 6)] == [1, 2, 1]
    p(s, 2)["alive"] = False
    assert distance(s, 1, 4) == 1


def test_bg8_3_seed_deck_option_adds_three_cards():
    s = bang.new({"seed_deck": True}, 1, players=players(4))
    from controller.games.bang.flow import all_cards

    assert len(all_cards(s)) == 83 and s["total"] == 83


def test_bg8_14_setup_is_checked():
    with pytest.raises(GameError, match="unknown setup key 'hand'"):
        bang.new({"setup": {"hand": {}}}, 1, players=players(4))
    with pytest.raises(GameError, match="2 sheriffs"):
        bang.new({"setup": {"roles": {1: "sheriff", 2: "sheriff"}}}, 1, players=players(4))
    with pytest.raises(GameError, match="twice"):
        bang.new({"setup": {"hands": {1: ["bang-AS"], 2: ["bang-AS"]}}}, 1, players=players(4))
    with pytest.raises(GameError, match="not a Bang! card id"):
        bang.new({"setup": {"deck": ["ace"]}}, 1, players=players(4))
    with pytest.raises(GameError, match="unknown bang option"):
        bang.new({"speed": 2}, 1, players=players(4))


def test_bg6_killing_an_outlaw_draws_three():
    s = table(hands={1: ["bang-AS"]}, life={2: 1}, deck=["beer-6H", "beer-7H", "beer-8H"])
    s = move(s, 1, "play", card="bang-AS", target=2)
    assert not p(s, 2)["alive"] and sorted(p(s, 1)["hand"][-3:]) == ["beer-6H", "beer-7H", "beer-8H"]
    assert "Bo is out — was an Outlaw" in words_of(s)


def test_bg6_a_sheriff_who_kills_a_deputy_discards_everything():
    s = table(5, hands={1: ["bang-AS", "beer-6H"]}, in_play={1: ["barrel-QS"]}, life={2: 1},
              roles={1: "sheriff", 2: "deputy", 3: "outlaw", 4: "outlaw", 5: "renegade"},
              characters={2: "sid_ketchum", 1: "willy_the_kid"})
    s = move(s, 1, "play", card="bang-AS", target=2)
    assert not p(s, 2)["alive"] and p(s, 1)["hand"] == [] and p(s, 1)["in_play"] == [] and cards_ok(s)


def test_bg6_bg8_9_outlaws_win_when_the_sheriff_dies_dead_outlaws_included():
    s = table(hands={2: ["bang-AS"]}, life={1: 1}, first=2)
    p(s, 3)["alive"] = False
    s = move(s, 2, "play", card="bang-AS", target=1)
    s = move(s, 1, "pass") if s["window"] else s
    s = timeout(s) if s["window"] else s
    assert s["winner"] == [2, 3] and s["phase"] == "over"
    assert bang.table_view(s)["winner"] == [2, 3]


def test_bg6_the_renegade_alone_wins():
    s = table(hands={4: ["bang-AS"]}, life={1: 1}, first=4)
    p(s, 2)["alive"] = p(s, 3)["alive"] = False
    s = move(s, 4, "play", card="bang-AS", target=1)
    s = timeout(s) if s["window"] else s
    assert s["winner"] == [4]


def test_bg6_law_wins_when_outlaws_and_renegade_are_dead():
    s = table(hands={1: ["bang-AS"]}, life={2: 1})
    p(s, 3)["alive"] = p(s, 4)["alive"] = False
    s = move(s, 1, "play", card="bang-AS", target=2)
    assert s["winner"] == [1] and "Game over: Ann wins" in words_of(s)


def test_bg8_6_an_empty_hand_skips_the_window_and_no_answer_option_skips_more():
    s = table(hands={1: ["bang-AS"], 2: ["beer-6H"]})
    s2 = move(s, 1, "play", card="bang-AS", target=2)
    assert s2["window"]["kind"] == "shot"  # Bo holds a card: the window opens (nothing leaks)
    s = table(hands={1: ["bang-AS"], 2: ["beer-6H"]}, options={"auto_pass": "no_answer"})
    s = move(s, 1, "play", card="bang-AS", target=2)
    assert s["window"] is None and p(s, 2)["life"] == 3


def test_bg8_14_public_state_and_seat_view_keys():
    s = table(hands={1: ["bang-AS"], 2: ["missed-2S"]})
    s = move(s, 1, "play", card="bang-AS", target=2)
    v = bang.view(s)
    for key in ("players", "deck_count", "discard_top", "turn", "window", "winner", "last"):
        assert key in v
    assert set(v["turn"]) == {"seat", "step", "bangs"} and v["turn"]["bangs"] == 1
    assert {"id", "kind", "seats", "source", "card", "needed", "deadline_s"} <= set(v["window"])
    for x in v["players"]:
        assert {"seat", "name", "alive", "life", "max_life", "character", "hand_count", "in_play"} <= set(x)
        assert ("role" in x) == (x["seat"] == 1)
    seat = bang.view(s, 2)
    assert seat["hand"] == ["missed-2S"] and seat["role"] == "outlaw"
    assert [m["move"] for m in seat["legal"]] == ["respond", "pass"]


def test_bg8_14_deadlines_and_table_view_follow_the_window():
    s = table(hands={1: ["bang-AS"], 2: ["missed-2S"]}, options={"timeout_s": 9})
    assert bang.deadlines(s) == [] and bang.table_view(s)["answer"] == []
    s = move(s, 1, "play", card="bang-AS", target=2)
    ((did, secs, inp),) = bang.deadlines(s)
    assert secs == 9 and inp == {"type": "timeout", "window": s["window"]["id"]}
    tv = bang.table_view(s)
    assert tv["answer"] == [2] and tv["until"] == did and tv["turn"] == {"seat": 1}
    timed = bang.with_timers(bang.view(s), {did: {"deadline": 100.0, "paused": False, "remaining_s": 9}})
    assert timed["window"]["deadline"] == 100.0


def test_illegal_inputs_are_refused_with_one_line_and_change_nothing():
    s = table(hands={1: ["bang-AS"], 2: ["missed-2S"]})
    before = repr(s)
    for inp, msg in [
        ({"type": "move", "seat": 2, "move": "play", "args": {"card": "missed-2S"}}, "not seat 2's turn"),
        ({"type": "move", "seat": 1, "move": "play", "args": {"card": "beer-6H"}}, "not in your hand"),
        ({"type": "move", "seat": 1, "move": "fly", "args": {}}, "unknown move"),
        ({"type": "move", "seat": 1, "move": "play", "args": {"card": "bang-AS", "target": 9}}, "not a seat"),
        ({"type": "move", "seat": 1, "move": "pass", "args": {}}, "nothing to answer"),
        ({"type": "timeout", "window": 3}, "no response window"),
        ({"type": "move", "seat": 1, "move": "end_turn", "args": {"x": 1}}, "takes no 'x'"),
    ]:
        with pytest.raises(GameError, match=msg) as err:
            bang.apply(s, inp)
        assert "\n" not in str(err.value)
    assert repr(s) == before
    s = move(s, 1, "play", card="bang-AS", target=2)
    with pytest.raises(GameError, match="seat 3 may not answer"):
        move(s, 3, "pass")
    with pytest.raises(GameError, match="stale timeout"):
        bang.apply(s, {"type": "timeout", "window": 999})


def test_bg8_11_setup_never_puts_jail_in_front_of_the_sheriff():
    with pytest.raises(GameError, match="seat 1 is the Sheriff; Jail never goes on the Sheriff"):
        bang.new({"setup": {"roles": {1: "sheriff"}, "in_play": {1: ["jail-JS"]}}}, 1, players=players(4))
    s = bang.new({"setup": {"roles": {1: "sheriff"}, "in_play": {2: ["jail-JS"]}}}, 1, players=players(4))
    assert s["turn"]["seat"] == 1 and p(s, 2)["in_play"] == ["jail-JS"]
