"""The panel's pure parts: request checks, log lines, PIN limiter, the SSE hub's privacy."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games import coinwar
from gametable_core.clock import FakeClock
from web_panel.commands import (
    MAX_SPEED_MM_S,
    CommandError,
    flick,
    host_command,
    phone_inputs,
    seat_command,
    seats_moves,
)
from web_panel.host_login import ClientBackoff, HostLogin, Verdict
from web_panel.hub import Hub
from web_panel.link import TableLink
from web_panel.loglines import log_lines
from web_panel.security import SeatRegistry

PLAYERS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"}]
STATE = coinwar.new({}, 3, players=PLAYERS, mode="ffa", order=[1, 2, 3])
PUBLIC = coinwar.view(STATE, None)
PRIVATE = {s: coinwar.view(STATE, s) for s in (1, 2, 3)}
ASKED = coinwar.apply(STATE, {"type": "shot", "seat": 1, "coin": "c1", "dead": None, "flown": [], "contacts": []})

VIEWS = {s: (PUBLIC, PRIVATE[s]) for s in (1, 2, 3)}
ASKED_VIEWS = {s: (coinwar.view(ASKED, None), coinwar.view(ASKED, s)) for s in (1, 2, 3)}
MOVES = seats_moves(PRIVATE)
ASKED_MOVES = seats_moves({s: coinwar.view(ASKED, s) for s in (1, 2, 3)})

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
bodies = st.fixed_dictionaries(
    {"id": st.sampled_from(["req-00000001", "bad id", 7])},
    optional={"type": st.sampled_from(["answer", "end_turn", "placed", "move", "undo", "new_game", "abort", "x"]),
              "seat": json_values | st.integers(1, 6), "confirm": json_values, "coin": st.sampled_from(["c1", "c2", "c9"]),
              "question": st.sampled_from(["q1", "q2"]), "value": json_values | st.lists(st.sampled_from(["c1", "c2"])),
              "vx": json_values, "vy": json_values, "move": json_values, "args": json_values,
              "game": st.sampled_from(["coinwar", "chess"]), "players": json_values, "order": json_values},
)


@settings(max_examples=80, deadline=None)
@given(bodies, st.integers(1, 3), st.booleans())
def test_seat_command_only_ever_acts_for_the_phones_own_seat(body, seat, asked):
    public, private = (ASKED_VIEWS if asked else VIEWS)[seat]
    try:
        cmd = seat_command(body, seat, public, private, ASKED_MOVES if asked else MOVES)
    except CommandError as exc:
        assert exc.status in (400, 403, 409) and "\n" not in str(exc) and str(exc)
        return
    assert cmd["id"].startswith("panel-")
    assert cmd.get("seat", seat) == seat
    if cmd["type"] == "answer":
        assert seat in public["questions"][0]["seats"]
    json.dumps(cmd)


@settings(max_examples=60, deadline=None)
@given(bodies, st.integers(1, 3))
def test_flicks_are_bounded_and_only_for_the_active_seat(body, seat):
    try:
        out = flick(body, seat, PUBLIC, PRIVATE[seat])
    except CommandError as exc:
        assert "\n" not in str(exc)
        return
    assert seat == PUBLIC["turn"]["seat"] and out["coin"] == f"c{seat}"
    assert math.hypot(out["vx"], out["vy"]) <= MAX_SPEED_MM_S + 1


@settings(max_examples=60, deadline=None)
@given(bodies)
def test_host_commands_are_checked_or_refused_in_one_line(body):
    try:
        cmd = host_command(body, PUBLIC, {"coinwar": {}})
    except CommandError as exc:
        assert "\n" not in str(exc)
        return
    assert cmd["type"] in ("abort", "answer", "new_game", "placed", "undo") and cmd["id"].startswith("host-")


def test_cw_5_4_ending_a_turn_without_a_strike_needs_confirmation():
    with pytest.raises(CommandError, match="needs confirmation"):
        seat_command({"id": "req-00000001", "type": "end_turn"}, 1, PUBLIC, PRIVATE[1])
    cmd = seat_command({"id": "req-00000001", "type": "end_turn", "confirm": True}, 1, PUBLIC, PRIVATE[1])
    assert cmd == {"type": "end_turn", "id": "panel-req-00000001", "seat": 1}


def test_cw_8_only_the_asked_seat_answers_from_a_phone():
    public = coinwar.view(ASKED, None)
    ok = seat_command({"id": "req-00000001", "type": "answer", "question": "q1", "value": ["c2"]},
                      1, public, coinwar.view(ASKED, 1))
    assert ok["seat"] == 1 and ok["value"] == ["c2"]
    with pytest.raises(CommandError, match=r"^question q1 is for seat\(s\) 1, not seat 3$"):
        seat_command({"id": "req-00000002", "type": "answer", "question": "q1", "value": []}, 3, public,
                     coinwar.view(ASKED, 3), ASKED_MOVES)
    with pytest.raises(CommandError, match=r"^'c9' is not an option of q1 \(options: c1, c2, c3\)$"):
        host_command({"id": "req-00000003", "type": "answer", "question": "q1", "value": ["c9"]}, public, {},
                     ASKED_MOVES)
    with pytest.raises(CommandError, match=r"^question q7 is not open; the open question is q1$"):
        host_command({"id": "req-00000004", "type": "answer", "question": "q7", "value": []}, public, {},
                     ASKED_MOVES)


@settings(max_examples=60, deadline=None)
@given(json_values | st.fixed_dictionaries({}, optional={
    "words": json_values | st.lists(st.text(max_size=20) | json_values, max_size=4),
    "effects": json_values | st.lists(json_values | st.fixed_dictionaries(
        {"kind": st.text(max_size=10)}, optional={"seat": json_values, "target": json_values}), max_size=5),
    "input": json_values}))
def test_log_lines_never_fail_on_any_event_payload(event):
    lines = log_lines(event, PUBLIC["players"])
    assert all(isinstance(line, str) and line and "\n" not in line for line in lines)


def test_the_log_shows_the_games_own_words_and_a_plain_line_without_them():
    """The sentences are the game's (events' ``words``); an older daemon's event still shows."""
    effects = [{"kind": "shot", "seat": 1, "coin": "c1", "dead": ["c2"], "flown": []},
               {"kind": "out", "seat": 2, "cause": "goal", "rule": "CW-4.2"}]
    event = {"seq": 4, "input": {"type": "shot"}, "effects": effects,
             "words": ["Ann knocked Bo's coin into the goal"]}
    assert log_lines(event, PUBLIC["players"]) == ["Ann knocked Bo's coin into the goal"]
    assert log_lines(dict(event, words=[]), PUBLIC["players"]) == []  # the game chose to say nothing
    del event["words"]
    assert log_lines(event, PUBLIC["players"]) == [
        "Ann: shot (coin c1, dead ['c2'], flown [])", "Bo: out (cause goal)"]
    assert log_lines({"input": {"type": "bang"}, "effects": [{"kind": "bang", "seat": 2, "target": 1, "amount": 2}]},
                     PUBLIC["players"]) == ["Bo: bang (target Ann, amount 2)"]
    assert log_lines({"input": {"type": "undo"}, "effects": []}, []) == ["Undo: the last input was taken back"]


def test_the_panel_log_lists_each_events_words_in_order():
    link = TableLink("t1", "127.0.0.1", 1, Hub())
    link.handle("gametable/t1/state", json.dumps(PUBLIC).encode())
    link.handle("gametable/t1/events", json.dumps({"seq": 7, "ts": 1.5, "effects": [{"kind": "x"}],
                                                   "words": ["Ann strikes", "Bo's turn"]}).encode())
    # a daemon without "says": each line is its own plain message (shown as it is in every language)
    assert list(link.log) == [{"seq": 7, "ts": 1.5, "lines": ["Ann strikes", "Bo's turn"],
                               "says": [{"text": "Ann strikes"}, {"text": "Bo's turn"}]}]
    games = {"games": [{"game": "coinwar", "title": "Coin War", "modes": []}, {"game": "coup", "modes": []}]}
    link.handle("gametable/t1/games", json.dumps(games).encode())
    assert list(link.described_games()) == ["coinwar", "coup"]
    assert b"event: games" in b"".join(link.snapshot(None))


def test_wrong_pins_lock_a_client_until_the_clock_moves():
    clock = FakeClock()
    guard = HostLogin("2468", clock, client=ClientBackoff(free=3, lock_s=60))
    for _ in range(3):
        assert guard.check_pin("phone-a", "1111").ok is False
    verdict = guard.check_pin("phone-a", "2468")
    assert verdict == Verdict(False, 429, "too many wrong PINs; try again in 60 s", 60.0)
    assert guard.check_pin("phone-b", "2468").ok is True  # another phone is not paused (within the table's budget)
    clock.advance(60)
    assert guard.check_pin("phone-a", "2468") == Verdict(True)


def test_seat_tokens_are_unique_and_only_their_hash_is_kept():
    reg = SeatRegistry()
    token = reg.claim(2)
    assert reg.claim(2) is None and reg.seat_of(token) == 2 and reg.seat_of(token + "x") is None
    assert token not in repr(reg.__dict__)


def test_a_private_view_reaches_only_its_own_seats_streams():
    hub = Hub()
    link = TableLink("t1", "127.0.0.1", 1, hub)
    streams = {seat: hub.add(seat) for seat in (1, 2, None)}
    link.handle("gametable/t1/seat/2/private", json.dumps(PRIVATE[2]).encode())
    link.handle("gametable/t1/state", json.dumps(PUBLIC).encode())
    got = {seat: [sub.queue.get_nowait() for _ in range(sub.queue.qsize())] for seat, sub in streams.items()}
    assert [f for f in got[2] if f.startswith(b"event: private")]
    assert not [f for f in got[1] + got[None] if f.startswith(b"event: private")]
    assert all(any(f.startswith(b"event: state") for f in frames) for frames in got.values())
    assert link.snapshot(1)[-1] == b"event: private\ndata: null\n\n"


def test_a_stuck_stream_is_dropped_instead_of_blocking_the_table():
    hub = Hub(max_clients=2)
    a, b = hub.add(None), hub.add(None)
    assert hub.add(None) is None  # capped: worker threads stay free for ordinary requests
    for i in range(300):
        hub.publish("state", {"n": i})
    assert len(hub) == 0 and a.closed and b.closed


# --- a game's own phone inputs (describe()["phone_inputs"]) ------------------------------------
TAKE_PUBLIC = {"game": "taketurns", "phase": "playing", "turn": {"seat": 1}, "players": PUBLIC["players"][:2]}
TAKE_LEGAL = [{"type": "take", "count": 1}, {"type": "take", "count": 2}]


def test_a_game_declares_which_of_its_inputs_a_phone_may_send_never_control_ones():
    described = {"phone_inputs": ["take", "doubt", "undo", "new_game", "timeout", "move", "Bad Type", 7]}
    assert phone_inputs(described) == ("take", "doubt")
    assert phone_inputs({}) == () and phone_inputs(None) == () and phone_inputs({"phone_inputs": "take"}) == ()


@settings(max_examples=80, deadline=None)
@given(st.fixed_dictionaries({"id": st.just("req-00000001"), "type": st.sampled_from(["take", "doubt", "strike", "x"])},
                             optional={"count": json_values | st.integers(0, 4), "seat": st.integers(1, 3),
                                       "extra": json_values}), st.integers(1, 2))
def test_a_game_input_from_a_phone_is_exactly_one_of_its_seats_legal_moves(body, seat):
    legal = TAKE_LEGAL if seat == 1 else [{"type": "doubt"}]
    try:
        cmd = seat_command(body, seat, TAKE_PUBLIC, {"legal": legal}, game_inputs=("take", "doubt"))
    except CommandError as exc:
        assert exc.status in (400, 403, 409) and "\n" not in str(exc)
        return
    assert cmd["seat"] == seat and cmd["id"] == "panel-req-00000001"
    assert {k: v for k, v in cmd.items() if k not in ("id", "seat")} in legal


def test_a_game_input_that_is_not_legal_now_is_refused_in_words():
    with pytest.raises(CommandError, match=r"^that take is not one of your moves now \(you may: count 1; count 2\)$"):
        seat_command({"id": "req-00000001", "type": "take", "count": 3}, 1, TAKE_PUBLIC, {"legal": TAKE_LEGAL},
                     game_inputs=("take",))
    with pytest.raises(CommandError, match=r"^you cannot take now$"):
        seat_command({"id": "req-00000001", "type": "take", "count": 1}, 2, TAKE_PUBLIC, {"legal": []},
                     game_inputs=("take",))
    with pytest.raises(CommandError, match=r"^unknown command type 'take'"):  # not declared by the game
        seat_command({"id": "req-00000001", "type": "take", "count": 1}, 1, TAKE_PUBLIC, {"legal": TAKE_LEGAL})


# --- host pause/resume (CP-6): the daemon's deadlines, any game ---------------------------------
def test_cp_6_host_pause_and_resume_go_to_the_daemon_and_a_phone_may_not_send_them():
    """Whether a countdown runs is the daemon's to say (its deadlines, for any game): the panel
    reads no game key for it and forwards the host's request (test_panel_http checks the answers)."""
    coup = {"game": "coup", "phase": "playing", "turn": {"seat": 1}, "players": PUBLIC["players"]}
    assert host_command({"id": "pause-00001", "type": "pause"}, coup, {}) == {"type": "pause", "id": "host-pause-00001"}
    assert host_command({"id": "resume-0001", "type": "resume"}, coup, {})["type"] == "resume"
    with pytest.raises(CommandError, match=r"^the game is over; start a new game$"):
        host_command({"id": "pause-00002", "type": "pause"}, dict(coup, phase="over"), {})
    with pytest.raises(CommandError, match=r"^unknown command type 'pause'"):
        seat_command({"id": "pause-00004", "type": "pause"}, 2, coup, {"legal": []})


@given(st.one_of(st.text(max_size=220), st.integers(), st.none(), st.just("vt1.p-0123456789.9.ab.cd")))
def test_a_seats_venue_ticket_is_kept_as_sent_or_refused_in_one_line(ticket):
    """hardware_docs/multi_table.md "Players known at every table": the panel passes the ticket on
    unchanged (only the venue can tell whether it binds) or refuses what is not shaped like one."""
    body = {"id": "req-00000009", "type": "new_game", "game": "coinwar",
            "players": [{"seat": 1, "name": "Ann", "venue_ticket": ticket}, {"seat": 2, "name": "Bo"}]}
    try:
        cmd = host_command(body, None, {"coinwar": {}})
    except CommandError as exc:
        assert exc.status == 400 and "venue_ticket" in exc.message
        return
    assert cmd["players"] == [{"seat": 1, "name": "Ann", "venue_ticket": ticket}, {"seat": 2, "name": "Bo"}]
    assert isinstance(ticket, str) and ticket.startswith("vt1.")
