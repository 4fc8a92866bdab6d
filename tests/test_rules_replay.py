"""Hand-made games replayed through ``gametable replay``, as a careful player would:
the replayed game must follow the rules (docs/rules/coinwar.md), not just the engine's unit tests."""

from __future__ import annotations

import json

from tests.test_replay_cli import gametable


def _replay(tmp_path, lines: list[dict], *args: str) -> dict:
    f = tmp_path / "game.jsonl"
    f.write_text("".join(json.dumps(line) + "\n" for line in lines))
    r = gametable("replay", str(f), *args)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def _card(kind: str, points: int) -> dict:
    return {"kind": kind, "points": points}


def _move(seat: int, name: str, **args) -> dict:
    return {"type": "move", "seat": seat, "move": name, "args": args}


FOUR = [{"seat": s, "name": f"P{s}"} for s in (1, 2, 3, 4)]
TK_DECK = [_card("burning_camps", 3)] + [_card("combo", 5)] * 8 + [_card("combo", 1)] + [_card("combo", 4)] * 6


def test_cw_8_1_replayed_three_kingdoms_game_does_not_stall_after_a_burnt_respawn(tmp_path):
    """The Lord knocks c2 in (it waits to respawn), Burning Camps burns seat 2 to death at its
    turn start: the replay goes on with seat 3's shot, and the dead coin is never placed."""
    lines = [
        {"type": "new_game", "game": "coinwar", "mode": "three_kingdoms", "players": FOUR, "order": [1, 2, 3, 4],
         "seed": 1, "options": {"identities": {"1": "lord", "2": "rebel", "3": "loyalist", "4": "traitor"},
                                "deck": TK_DECK, "health": 2}},
        _move(1, "burning_camps", card="k1", target=2),
        {"type": "shot", "seat": 1, "coin": "c1", "dead": ["c2"], "flown": [], "contacts": [["c1", "c2"]]},
        _move(2, "take_damage"),  # the goal: health 1, c2 waits to respawn
        _move(2, "take_damage"),  # the judged card has 1 point: burnt to 0 at the turn start
        {"type": "shot", "seat": 3, "coin": "c3", "dead": [], "flown": [], "contacts": []},
    ]
    state = _replay(tmp_path, lines)
    assert state["phase"] == "playing" and state["turn"] == {"seat": 3, "strikes": 1, "extra": False}
    assert state["pending_placements"] == [] and "c2" not in state["coins_on_table"]
    p2 = next(p for p in state["players"] if p["seat"] == 2)
    assert not p2["alive"] and p2["identity"] == "rebel"
    # CW-7.5: the judged card is in the discard pile with everything else: 16 cards in all
    held = sum(p["cards"] for p in state["players"])
    assert held + state["deck"] + state["discard_pile"] + sum(p["burning_camps"] for p in state["players"]) == 16
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(x) + "\n" for x in [*lines[:5], {"type": "placed", "coin": "c2"}]))
    r = gametable("replay", str(bad))
    assert r.returncode != 0 and "line 6: nothing to place for coin 'c2'" in r.stderr


def test_cw_7_2_replayed_conversion_in_an_extra_turn_keeps_the_biohazard_rotation(tmp_path):
    six = [{"seat": s, "name": f"P{s}"} for s in range(1, 7)]
    roles = {"1": "mother", "2": "mother", "3": "human", "4": "human", "5": "human", "6": "human"}
    end = [{"type": "end_turn", "seat": s} for s in (1, 3, 2, 4, 1)]  # M1 plays the last regular bio turn
    lines = [
        {"type": "new_game", "game": "coinwar", "mode": "biohazard", "players": six, "order": [1, 3, 2, 4, 5, 6],
         "seed": 1, "options": {"roles": roles}},
        *end,
        {"type": "shot", "seat": 5, "coin": "c5", "dead": [], "flown": ["c2"], "contacts": []},  # M2: extra turn
        {"type": "placed", "coin": "c2"},
        {"type": "shot", "seat": 2, "coin": "c2", "dead": ["c3"], "flown": [], "contacts": []},  # converts H3
        {"type": "placed", "coin": "c3"},
        {"type": "end_turn", "seat": 2},
    ]
    state = _replay(tmp_path, lines)
    assert state["turn"] == {"seat": 3, "strikes": 0, "extra": False}  # Z3 plays the faction's next turn
    for seat in (6, 2, 4):  # then H6, M2 (not M1 again), H4
        lines.append({"type": "end_turn", "seat": state["turn"]["seat"]})
        state = _replay(tmp_path, lines)
        assert state["turn"]["seat"] == seat


def test_cw_8_replayed_winning_strike_asks_nothing_more(tmp_path):
    roles = {"1": "mother", "2": "human", "3": "human", "4": "human"}
    lines = [
        {"type": "new_game", "game": "coinwar", "mode": "biohazard", "players": FOUR, "order": [1, 2, 3, 4],
         "seed": 1, "options": {"roles": roles, "lives": 1}},
        {"type": "end_turn", "seat": 1},
        {"type": "shot", "seat": 2, "coin": "c2", "dead": ["c1", "c3"], "flown": [], "contacts": None},
    ]
    state = _replay(tmp_path, lines)
    assert state["questions"] == [] and state["phase"] == "over" and state["winner"] == [2, 3, 4]


def test_cw_6_4_replayed_execution_in_infinite_respawns_at_the_initial_position(tmp_path):
    teams = [{"seat": s, "name": f"P{s}", "team": "AB"[(s - 1) % 2]} for s in (1, 2, 3, 4)]
    lines = [
        {"type": "new_game", "game": "coinwar", "mode": "infinite", "players": teams, "order": [1, 2, 3, 4],
         "seed": 1, "options": {}},
        {"type": "shot", "seat": 1, "coin": "c1", "dead": [], "flown": ["c2", "c4"], "contacts": []},
    ]
    state = _replay(tmp_path, lines)
    assert {"coin": "c1", "by": 1, "where": "initial"} in state["pending_placements"]
    assert state["scores"] == {"A": 0, "B": 1}
