"""led_plan: a game's table view → what each seat LED shows (pure)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gametable_core.led_patterns import (
    DIM_LEVEL,
    SEAT_PATTERNS,
    LedPlanError,
    check_plan,
    led_plan,
    seat_level,
)


def cw(turn=None, players=None, questions=(), winner=None, phase="playing"):
    players = players or [{"seat": s, "alive": True} for s in (1, 2, 3, 4)]
    return {"phase": phase, "turn": turn, "players": players,
            "answer": sorted({s for q in questions for s in q.get("seats") or []}), "winner": winner}


def test_active_seat_solid_others_dim() -> None:
    plan = led_plan(cw(turn={"seat": 2, "strikes": 0, "extra": False}))
    assert plan == {"seats": {"1": "dim", "2": "solid", "3": "dim", "4": "dim"}, "status": "ok"}


def test_extra_turn_blinks_cw_6_3() -> None:
    plan = led_plan(cw(turn={"seat": 3, "strikes": 0, "extra": True}))
    assert plan["seats"]["3"] == "blink"


def test_out_seat_is_off() -> None:
    players = [{"seat": 1, "alive": True}, {"seat": 2, "alive": False}, {"seat": 3, "alive": True}]
    plan = led_plan(cw(turn={"seat": 1, "strikes": 1, "extra": False}, players=players))
    assert plan["seats"] == {"1": "solid", "2": "off", "3": "dim"}


def test_question_seats_pulse_cw_8() -> None:
    plan = led_plan(cw(turn={"seat": 1, "strikes": 1, "extra": False},
                       questions=[{"id": "q1", "seats": [1, 3]}, {"id": "q2"}]))
    assert plan["seats"] == {"1": "pulse", "2": "dim", "3": "pulse", "4": "dim"}


def test_winner_chases_and_everyone_else_is_off() -> None:
    plan = led_plan(cw(phase="over", winner=[2, 4]))
    assert plan["seats"] == {"1": "off", "2": "chase", "3": "off", "4": "chase"}


def test_draw_seats_chase_cw_4_5() -> None:
    plan = led_plan(cw(phase="over", winner={"draw": [1, 3]}))
    assert plan["seats"] == {"1": "chase", "2": "off", "3": "chase", "4": "off"}


def test_aborted_game_is_dark() -> None:
    plan = led_plan(cw(phase="aborted", turn=None))
    assert set(plan["seats"].values()) == {"off"}


def test_coup_reaction_window_pulses_cp_6() -> None:
    state = {"phase": "playing", "turn": {"seat": 1}, "answer": [2, 3], "until": "window-1",
             "players": [{"seat": s, "alive": s != 4} for s in (1, 2, 3, 4)], "winner": None}
    assert led_plan(state)["seats"] == {"1": "solid", "2": "pulse", "3": "pulse", "4": "off"}


def test_coup_winner_chases() -> None:
    state = {"phase": "over", "turn": None, "answer": [], "winner": [3],
             "players": [{"seat": s, "alive": s == 3} for s in (1, 2, 3)]}
    assert led_plan(state)["seats"] == {"1": "off", "2": "off", "3": "chase"}


def test_no_game_configured_seats_off_status_ok() -> None:
    assert led_plan(None, seats=[1, 2]) == {"seats": {"1": "off", "2": "off"}, "status": "ok"}


def test_fault_lights_every_seat_and_names_the_fault() -> None:
    plan = led_plan(cw(turn={"seat": 1, "strikes": 0, "extra": False}), fault="journal write failed",
                    seats=[1, 2, 3, 4, 5])
    assert plan["status"] == "fault" and plan["fault"] == "journal write failed"
    assert set(plan["seats"]) == {"1", "2", "3", "4", "5"} and set(plan["seats"].values()) == {"fault"}


def test_waiting_for_striker_base_is_amber_status() -> None:
    plan = led_plan(cw(turn={"seat": 1, "strikes": 0, "extra": False}), waiting="striker base")
    assert plan["status"] == "waiting" and plan["waiting"] == "striker base"
    assert plan["seats"]["1"] == "solid"


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ([1, 2], "public state must be an object or null, got list"),
        ({"players": "x"}, "players must be a list, got 'x'"),
        ({"players": [{"seat": "1"}]}, "players\\[0\\].seat must be a seat number, got '1'"),
        ({"players": [], "turn": 3}, "turn must be an object or null, got 3"),
        ({"players": [], "answer": 2}, "answer must be a list"),
        ({"players": [], "winner": {"won": [1]}}, "winner must be null, a seat list"),
    ],
)
def test_malformed_state_is_one_clear_error(state, message) -> None:
    with pytest.raises(LedPlanError, match=message):
        led_plan(state)


def test_check_plan_rejects_unknown_patterns() -> None:
    with pytest.raises(LedPlanError, match="seat 1: unknown pattern 'rainbow'"):
        check_plan({"seats": {"1": "rainbow"}, "status": "ok"})
    with pytest.raises(LedPlanError, match="unknown status 'meh'"):
        check_plan({"seats": {}, "status": "meh"})


def test_seat_levels_over_time() -> None:
    assert seat_level("solid", 99) == 1.0 and seat_level("off", 1) == 0.0 and seat_level("dim", 0) == DIM_LEVEL
    assert [seat_level("blink", t) for t in (0.0, 0.1, 0.15, 0.3)] == [1.0, 1.0, 0.0, 1.0]
    assert seat_level("pulse", 0.0) == pytest.approx(DIM_LEVEL) and seat_level("pulse", 0.6) == pytest.approx(1.0)
    # two winners: first, second, dark, first ...
    assert [seat_level("chase", t, 0, 2) for t in (0.05, 0.2, 0.35, 0.5)] == [1.0, 0.0, 0.0, 1.0]
    assert [seat_level("chase", t, 1, 2) for t in (0.05, 0.2, 0.35, 0.5)] == [0.0, 1.0, 0.0, 0.0]


# --- property: any well-formed Coin War / Coup state gives a valid, consistent plan ------------

seat = st.integers(1, 6)
player = st.builds(lambda s, a: {"seat": s, "alive": a}, seat, st.booleans())
states = st.builds(
    lambda players, turn, extra, qs, win, window: {
        "phase": "over" if win is not None else "playing",
        "players": list({p["seat"]: p for p in players}.values()),
        "turn": None if turn is None else {"seat": turn, "strikes": 0, "extra": extra},
        "answer": sorted({s for q in qs for s in q} | set(window or [])),
        "winner": win,
    },
    st.lists(player, min_size=1, max_size=6),
    st.none() | seat,
    st.booleans(),
    st.lists(st.lists(seat, max_size=3), max_size=2),
    st.none() | st.lists(seat, min_size=1, max_size=3) | st.builds(lambda d: {"draw": d}, st.lists(seat, min_size=2)),
    st.none() | st.lists(seat, max_size=3),
)


@given(states, st.none() | st.just("boom"))
def test_plan_is_valid_json_and_follows_the_rules(state, fault) -> None:
    plan = led_plan(state, fault=fault)
    assert json.loads(json.dumps(plan)) == check_plan(plan)
    assert all(p in SEAT_PATTERNS for p in plan["seats"].values())
    players = {p["seat"]: p["alive"] for p in state["players"]}
    assert set(map(int, plan["seats"])) >= set(players)
    if fault:
        assert plan["status"] == "fault" and set(plan["seats"].values()) == {"fault"}
        return
    winners = state["winner"]
    if winners is not None:
        winners = winners["draw"] if isinstance(winners, dict) else winners
        assert {int(s) for s, p in plan["seats"].items() if p == "chase"} == set(winners)
        return
    answering = set(state["answer"])
    for s, alive in players.items():
        shown = plan["seats"][str(s)]
        if s in answering:
            assert shown == "pulse"
        elif not alive:
            assert shown == "off"
        elif state["turn"] and s == state["turn"]["seat"]:
            assert shown == ("blink" if state["turn"]["extra"] else "solid")
        else:
            assert shown == "dim"
