"""The proof of the game contract: a game that lives only in tests/ (Take Turns: two players,
one reaction window with a timeout) is registered with ``controller.games.register`` and played
end to end through the real daemon and a real Mosquitto — lobby description, commands, state,
private views, words on ``events``, LEDs, the deadline firing on a fake clock, pause, journal
replay and a bot — with no file outside tests/ knowing it."""

from __future__ import annotations

import pytest

from controller.bot_runner import BotRunner
from controller.games import register, registry, unregister
from controller.table import Table
from tests.games import taketurns

T = "tt"
PLAYERS = [{"seat": 2, "name": "Ann"}, {"seat": 5, "name": "Bo"}]


@pytest.fixture
def game():
    register(taketurns)
    yield taketurns
    unregister("taketurns")
    assert "taketurns" not in registry()


@pytest.fixture
def tt_table(game, table, fake_clock):
    t = table(table_id=T, clock=fake_clock)  # up once the daemon says "online": no command is missed
    return t.daemon, t.phone


def _state(phone, predicate, start=0):
    return phone.wait_for(f"gametable/{T}/state", lambda m: predicate(m.json()), start=start).json()


def _event_words(phone, cmd_id, start):
    topic = f"gametable/{T}/events"
    return phone.wait_for(topic, lambda m: (m.json().get("input") or {}).get("id") == cmd_id, start=start).json()["words"]


@pytest.mark.mqtt
def test_a_game_from_tests_only_plays_end_to_end_with_its_window_timing_out(tt_table, fake_clock):
    daemon, phone = tt_table
    games = phone.wait_for(f"gametable/{T}/games").json()["games"]
    tt = next(g for g in games if g["game"] == "taketurns")
    assert tt["players"] == {"min": 2, "max": 2} and tt["free_seating"] is True

    start = len(phone.messages)
    assert phone.command(T, {"id": "g", "type": "new_game", "game": "taketurns", "players": PLAYERS,
                             "options": {"pile": 5, "timeout_s": 5}})["ok"]
    assert _event_words(phone, "g", start) == ["New game: Take Turns", "Ann's turn"]
    private = phone.wait_for(f"gametable/{T}/seat/2/private", lambda m: m.json().get("game") == "taketurns").json()
    assert private["legal"] == [{"type": "take", "count": n} for n in (1, 2, 3)]

    # Ann takes 2: Bo's reaction window opens, with its deadline; Bo's LED pulses
    start = len(phone.messages)
    assert phone.command(T, {"id": "t1", "type": "take", "seat": 2, "count": 2})["ok"]
    assert _event_words(phone, "t1", start) == ["Ann takes 2", "Bo may doubt"]
    state = _state(phone, lambda s: s.get("window") is not None, start)
    assert state["window"]["deadline"] == pytest.approx(fake_clock.wall() + 5)
    leds = phone.wait_for(f"gametable/{T}/leds", lambda m: m.json()["seats"].get("5") == "pulse", start=start).json()
    assert leds["seats"]["2"] == "solid"

    # the host pauses: nothing expires; resumed, the window times out by itself (a journalled input)
    assert phone.command(T, {"id": "p", "type": "pause"})["ok"]
    fake_clock.advance(60)
    assert daemon.public_state()["window"]["paused"] is True
    assert phone.command(T, {"id": "r", "type": "resume"})["ok"]
    start = len(phone.messages)
    fake_clock.advance(5.1)
    state = _state(phone, lambda s: s.get("window") is None and s.get("turn") == {"seat": 5}, start)
    assert state["pile"] == 3
    timeout = phone.wait_for(f"gametable/{T}/events", lambda m: m.json()["source"] == "timer", start=start).json()
    assert timeout["input"]["type"] == "timeout" and timeout["words"] == ["Time is up: the take stands", "Bo's turn"]

    # Bo takes 1, Ann doubts: one token back; a wrong seat is refused with a clear error
    assert phone.command(T, {"id": "t2", "type": "take", "seat": 5, "count": 1})["ok"]
    bad = phone.command(T, {"id": "x", "type": "doubt", "seat": 5})
    assert bad == {"id": "x", "ok": False, "error": "seat 5 may not answer this window"}
    start = len(phone.messages)
    assert phone.command(T, {"id": "d", "type": "doubt", "seat": 2})["ok"]
    assert _event_words(phone, "d", start) == ["Ann doubts: one token goes back", "Ann's turn"]

    # Ann takes the last 3 and wins
    start = len(phone.messages)
    assert phone.command(T, {"id": "t3", "type": "take", "seat": 2, "count": 3})["ok"]
    assert _event_words(phone, "t3", start) == ["Ann takes 3", "Game over: Ann wins"]
    assert _state(phone, lambda s: s.get("winner") == [2], start)["phase"] == "over"
    leds = phone.wait_for(f"gametable/{T}/leds", lambda m: m.json()["seats"].get("2") == "chase", start=start).json()
    assert leds["seats"]["5"] == "off"
    assert [r.input["type"] for r in daemon.journal.records()] == [
        "new_game", "take", "timeout", "take", "doubt", "take"]

    # the journal replays into the same state (what a restarted daemon does on start)
    replayed = Table()
    assert all(replayed.submit(r.input).ok for r in daemon.journal.records())
    assert replayed.public_view() == daemon.table.public_view()


@pytest.mark.mqtt
def test_the_games_own_bot_plays_a_seat(tt_table, fake_clock):
    daemon, phone = tt_table
    runner = BotRunner(daemon, [5], seed=1)
    assert phone.command(T, {"id": "g", "type": "new_game", "game": "taketurns", "players": PLAYERS,
                             "options": {"pile": 6}})["ok"]
    assert phone.command(T, {"id": "t1", "type": "take", "seat": 2, "count": 1})["ok"]
    assert runner.poll() == 2  # Bo (the bot) lets the take stand, then takes 1 leaving 4
    assert [e["cmd"]["type"] for e in runner.log] == ["pass", "take"]
    assert daemon.public_state()["pile"] == 4 and daemon.public_state()["window"]["seat"] == 2


@pytest.mark.mqtt
def test_a_plugin_game_brings_its_own_sensor_through_the_hardware_that_knows_no_game(game, table):
    """A token through the bowl's beam (MockFactory pin, the real BeamBank and its debounce) is a
    ``take`` of the seat whose turn it is: the hardware layer hands the edge to Take Turns' adapter."""
    import time

    from gametable.testing.pty import wait_for

    t = table(table_id=T, hardware=True, phone=False,
              config={"beams": [{"id": "bowl", "pin": 17, "kind": "point", "at": [-60.0, 300.0]}]},
              game={"id": "tt-bowl-new", "type": "new_game", "game": "taketurns", "players": PLAYERS,
                    "order": [2, 5], "seed": 1})
    pin = t.pins.pin(17)
    pin.drive_low()  # a token falls through the beam ...
    time.sleep(0.02)  # (a real 20 ms pulse: the bank debounces on the real clock)
    pin.drive_high()
    wait_for(lambda: t.daemon.public_state()["pile"] != 7, what="the bowl's take")
    state = t.daemon.public_state()
    assert state["pile"] == 6 and state["last"][0] == {"kind": "take", "seat": 2, "count": 1}
