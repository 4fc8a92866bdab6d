"""BotRunner: bots play every Coin War mode and Coup to a winner through the real Daemon.

Coin War games run on the virtual table (physics shots by ``VirtualTable.play_bots``, every other
decision by the runner) with a real Mosquitto, and the finished game is read back from the retained
``state`` topic as a phone would see it. Coup needs no physics: the runner alone plays it.
"""

from __future__ import annotations

import collections
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.bot_runner import BotRunner, BotRunnerError
from controller.daemon import Daemon
from controller.games.coinwar.shot_planner import plan
from gametable.sim_table import VirtualTable
from gametable.testing.recorder import Recorder
from gametable_core.clock import FakeClock
from gametable_core.config import parse

# seeds picked for short games (a few hundred inputs at most) so the suite stays fast
MODES = [("ffa", 3, 7, {}), ("teams", 4, 3, {}), ("infinite", 4, 4, {"target": 2}), ("biohazard", 4, 2, {}),
         ("biohazard", 5, 3, {}), ("football", 2, 7, {}), ("three_kingdoms", 4, 4, {})]


def _coinwar_game(daemon: Daemon, clock: FakeClock, mode: str, seats: int, seed: int, options: dict):
    table = VirtualTable(daemon, clock, seed=seed, bots=set(range(1, seats + 1)))
    runner = BotRunner(daemon, range(1, seats + 1), seed, confirm_placements=False)
    table.act = runner.poll
    teams = mode in ("teams", "football", "infinite")
    players = [{"seat": s, "name": f"Bot {s}"} | ({"team": "AB"[(s - 1) % 2]} if teams else {})
               for s in range(1, seats + 1)]
    assert table.submit({"type": "new_game", "game": "coinwar", "mode": mode, "players": players,
                         "order": list(range(1, seats + 1)), "options": options, "seed": seed})["ok"]
    for _ in range(3000):
        if not runner.poll() + table.play_bots():
            break
    return table, runner


@pytest.mark.mqtt
@pytest.mark.parametrize("mode,seats,seed,options", MODES)
def test_bots_finish_every_coin_war_mode_through_the_daemon_and_mqtt(broker, tmp_path, mode, seats, seed, options):
    config = parse({"mqtt": {"host": broker.host, "port": broker.port}})
    clock = FakeClock()
    daemon = Daemon(config, clock, journal_path=str(tmp_path / "journal.sqlite"))
    daemon.start()
    phone = Recorder(broker.host, broker.port, f"gametable/{config.table_id}/state")
    try:
        table, runner = _coinwar_game(daemon, clock, mode, seats, seed, options)
        final = phone.wait_for(f"gametable/{config.table_id}/state",
                               lambda m: m.json() is not None and m.json().get("phase") == "over").json()
        assert final["mode"] == mode and final["winner"]
        rejected = [e for e in table.log + runner.log if not e["result"]["ok"]]
        assert rejected == []
        assert all(e["cmd"].get("seat") in range(1, seats + 1) for e in runner.log)
        if mode == "biohazard" and seats == 5:  # CW-7.2: 2 mothers by default, both played by bots
            assert sum(p["role"] == "mother" for p in final["players"]) == 2
        if mode == "three_kingdoms":  # CW-7.5: the runner played the cards, answered damage, discarded
            kinds = collections.Counter(e["cmd"].get("move") for e in runner.log)
            assert kinds["combo"] and kinds["discard"] and kinds["elixir"] + kinds["take_damage"]
    finally:
        phone.close()
        daemon.stop()


def _coup_daemon(path: Path) -> Daemon:
    daemon = Daemon(parse({}), FakeClock(), journal_path=str(path))
    daemon.start(connect=False)
    return daemon


def _new_coup(daemon: Daemon, seats: list[int], seed: int) -> None:
    assert daemon.submit({"id": f"ng-{seed}", "type": "new_game", "game": "coup", "seed": seed, "options": {},
                          "players": [{"seat": s, "name": f"Bot {s}"} for s in seats]})["ok"]


@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_coup_bots_play_to_a_single_winner_with_every_input_accepted(tmp_path, kind):
    daemon = _coup_daemon(tmp_path / "j.sqlite")
    try:
        runner = BotRunner(daemon, [1, 2, 3, 4], seed=3, kind=kind)
        _new_coup(daemon, [1, 2, 3, 4], 3)
        runner.poll(max_inputs=5000)
        state = daemon.public_state()
        assert state["phase"] == "over" and len(state["winner"]) == 1  # CP-5.4
        assert [e for e in runner.log if not e["result"]["ok"]] == []
        moves = {e["cmd"]["move"] for e in runner.log}
        assert "lose_influence" in moves and "pass" in moves  # CP-5.1 losses and CP-6 windows answered
    finally:
        daemon.stop()


def test_coup_windows_are_not_always_answered_first_by_the_lowest_seat(tmp_path):
    """CP-3.4: the first to answer a window wins it; bots race like phones (a seeded order), so
    the lowest eligible seat does not always get the first word."""
    daemon = _coup_daemon(tmp_path / "j.sqlite")
    try:
        runner = BotRunner(daemon, [2, 3, 4], seed=1)
        firsts = []
        for game in range(12):
            assert daemon.submit({"id": f"ng-{game}", "type": "new_game", "game": "coup", "seed": game,
                                  "options": {"setup": {"first": 1}},
                                  "players": [{"seat": s, "name": f"P{s}"} for s in (1, 2, 3, 4)]})["ok"]
            assert daemon.submit({"id": f"tax-{game}", "type": "move", "seat": 1, "move": "tax", "args": {}})["ok"]
            assert runner.poll(max_inputs=1) == 1
            firsts.append(runner.log[-1]["cmd"]["seat"])
        assert set(firsts) == {2, 3, 4}, firsts
    finally:
        daemon.stop()


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6), kind=st.sampled_from(["random", "heuristic"]))
def test_property_coup_bots_only_make_legal_moves_and_always_finish(seed, players, kind):
    with tempfile.TemporaryDirectory() as tmp:
        daemon = _coup_daemon(Path(tmp) / "j.sqlite")
        try:
            seats = list(range(1, players + 1))
            runner = BotRunner(daemon, seats, seed=seed, kind=kind)
            _new_coup(daemon, seats, seed)
            runner.poll(max_inputs=5000)
            assert daemon.public_state()["phase"] == "over"
            assert all(e["result"]["ok"] for e in runner.log)
        finally:
            daemon.stop()


def test_coup_runner_plays_only_its_seats_and_waits_for_the_human(tmp_path):
    daemon = _coup_daemon(tmp_path / "j.sqlite")
    try:
        _new_coup(daemon, [1, 2, 3], 5)
        human = daemon.public_state()["turn"]["seat"]  # CP-2: the seed picks who starts
        bots = [s for s in (1, 2, 3) if s != human]
        runner = BotRunner(daemon, bots, seed=1)
        assert runner.poll() == 0  # the human's turn: the bots wait
        assert daemon.submit({"id": "h1", "type": "move", "seat": human, "move": "tax", "args": {}})["ok"]
        runner.poll()  # CP-6: the bots answer the Duke claim's window, then play their own turns
        assert runner.log and all(e["cmd"]["seat"] in bots for e in runner.log)
        assert any(e["cmd"]["move"] in ("pass", "challenge") for e in runner.log)
        state = daemon.public_state()
        # the bots stop where only the human can act: its turn, its window answer or its lost card
        assert state["phase"] == "over" or daemon.seat_view(human)["legal"]
        assert all(not daemon.seat_view(b)["legal"] for b in bots)
    finally:
        daemon.stop()


@pytest.mark.mqtt
def test_runner_thread_answers_a_phone_move_made_over_mqtt(broker, tmp_path):
    """After start() the runner acts on the daemon listener: a human plays over MQTT, bots reply."""
    config = parse({"mqtt": {"host": broker.host, "port": broker.port}})
    daemon = Daemon(config, FakeClock(), journal_path=str(tmp_path / "j.sqlite"))
    daemon.start()
    phone = Recorder(broker.host, broker.port)
    # the daemon says "online" after subscribing to cmd, so from here on no command is missed
    phone.wait_for(f"gametable/{config.table_id}/status", lambda m: m.payload == b"online")
    runner = BotRunner(daemon, [2], seed=2)
    runner.start()
    try:
        table = config.table_id
        assert phone.command(table, {"id": "ng", "type": "new_game", "game": "coup", "seed": 4, "options": {},
                                     "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bot 2"}]})["ok"]
        topic = f"gametable/{table}/state"
        # seed 4: Ann (seat 1) starts (CP-2)
        def coup(m) -> dict:
            body = m.json()
            return body if isinstance(body, dict) and body.get("game") == "coup" else {"log": []}

        phone.wait_for(topic, lambda m: coup(m).get("turn") == {"seat": 1} and not coup(m).get("window"))
        start = len(phone.messages)
        assert phone.command(table, {"id": "m1", "type": "move", "seat": 1, "move": "income", "args": {}})["ok"]
        # income opens no window: the bot's turn now; it plays it by itself and the turn comes back
        phone.wait_for(topic, lambda m: any("Bot 2" in line for line in coup(m)["log"][-3:]) and
                       (coup(m).get("turn") == {"seat": 1} or coup(m).get("window") is not None), start=start)
        # the runner logs a move after the daemon has published it: a bounded wait for the log
        deadline = time.monotonic() + 5
        while not runner.log and time.monotonic() < deadline:
            time.sleep(0.01)
        assert runner.log and all(e["cmd"]["seat"] == 2 and e["result"]["ok"] for e in runner.log)
    finally:
        runner.stop()
        phone.close()
        daemon.stop()


def test_a_question_addressed_to_a_bot_seat_is_answered(tmp_path):
    """CW-8 on a table without ground truth: the bot answers "nothing seen" and the turn goes on."""
    daemon = _coup_daemon(tmp_path / "j.sqlite")
    try:
        runner = BotRunner(daemon, [1, 2, 3], seed=1)
        assert daemon.submit({"id": "n", "type": "new_game", "game": "coinwar", "mode": "ffa", "seed": 1,
                              "players": [{"seat": s, "name": f"Bot {s}"} for s in (1, 2, 3)], "order": [1, 2, 3]})["ok"]
        assert daemon.submit({"id": "s", "type": "strike", "seat": 1})["ok"]
        assert daemon.submit({"id": "h", "type": "shot", "seat": 1, "coin": "c1", "dead": None, "flown": [],
                              "contacts": None})["ok"]
        assert daemon.public_state()["questions"][0]["seats"] == [1]
        assert runner.poll() >= 1
        state = daemon.public_state()
        assert state["questions"] == [] and state["turn"]["seat"] == 1 and state["turn"]["strikes"] == 1
        assert all(e["cmd"]["type"] == "answer" for e in runner.log)  # no shot: that stays physical
    finally:
        daemon.stop()


def test_biohazard_mother_may_strike_another_mothers_coin():
    """CW-7.2: with two mothers' coins allowed, the planner takes the one that can kill a human."""
    state = {"mode": "biohazard", "players": [
        {"seat": 1, "coin": "c1", "alive": True, "team": "biohazard"},
        {"seat": 2, "coin": "c2", "alive": True, "team": "biohazard"},
        {"seat": 3, "coin": "c3", "alive": True, "team": "humans"}]}
    # c1 is far in a corner; c2 sits right behind the human c3, which is close to the goal
    positions = {"c1": (30.0, 30.0), "c2": (212.5, 390.0), "c3": (212.5, 350.0)}
    coin, _, _ = plan(positions, state, 1, seed=1, coins=["c1", "c2"])
    assert coin == "c2"
    coin, _, _ = plan(positions, state, 1, seed=1)
    assert coin == "c1"  # without the legal list a bot strikes its own coin (CW-5.1)


@pytest.mark.parametrize("seats,coup,error", [([7], "heuristic", "from 1 to 6"), ([1], "smart", "bot kind 'smart': one the games offer"),
                                              (["1"], "random", "from 1 to 6")])
def test_bad_runner_settings_are_refused_with_one_line(tmp_path, seats, coup, error):
    daemon = _coup_daemon(tmp_path / "j.sqlite")
    try:
        with pytest.raises(BotRunnerError, match=error) as exc:
            BotRunner(daemon, seats, seed=1, kind=coup)
        assert "\n" not in str(exc.value)
    finally:
        daemon.stop()


def test_three_kingdoms_bots_drink_the_elixir_when_low_and_discard_the_least_useful_cards(tmp_path):
    """CW-7.5 through the daemon: a rebel at 2 health drinks its Elixir (keeping its identity hidden);
    the Lord over its hand limit keeps the Elixir and discards Combo and Burning Camps."""
    daemon = _coup_daemon(tmp_path / "j.sqlite")
    deck = ([{"kind": "combo", "points": 1}, {"kind": "elixir", "points": 2}, {"kind": "elixir", "points": 3},
             {"kind": "combo", "points": 1}, {"kind": "burning_camps", "points": 2}]
            + [{"kind": "combo", "points": 1}] * 3 + [{"kind": "elixir", "points": 3}] + [{"kind": "combo", "points": 1}] * 9)
    try:
        runner = BotRunner(daemon, [1, 3], seed=1)
        assert daemon.submit({"id": "n", "type": "new_game", "game": "coinwar", "mode": "three_kingdoms", "seed": 1,
                              "players": [{"seat": s, "name": f"Bot {s}"} for s in (1, 2, 3, 4)], "order": [1, 2, 3, 4],
                              "options": {"identities": {"1": "lord", "2": "loyalist", "3": "rebel", "4": "traitor"},
                                          "deck": deck, "lord_health": 1, "health": 2}})["ok"]
        assert [c["kind"] for c in daemon.seat_view(1)["hand"]] == ["combo", "burning_camps", "elixir"]
        assert daemon.submit({"id": "s", "type": "strike", "seat": 1})["ok"]
        assert daemon.submit({"id": "h", "type": "shot", "seat": 1, "coin": "c1", "dead": ["c3"], "flown": [],
                              "contacts": [["c1", "c3"]]})["ok"]
        assert daemon.public_state()["reaction"] == {"seat": 3, "cause": "goal"}
        runner.poll()  # the attack ended the Lord's turn (CW-5.5), so the Lord must discard down to 1 too
        rebel = next(p for p in daemon.public_state()["players"] if p["seat"] == 3)
        assert rebel["health"] == 2 and "identity" not in rebel  # saved, still hidden
        assert [c["kind"] for c in daemon.seat_view(1)["hand"]] == ["elixir"]
        state = daemon.public_state()
        assert state["turn"]["seat"] == 2 and state["discard_due"] is None and state["discard_pile"] == 3
        assert [e["cmd"].get("move") for e in runner.log][:2] == ["elixir", "discard"]
        assert all(e["result"]["ok"] for e in runner.log)
    finally:
        daemon.stop()


@pytest.mark.parametrize("confirm", [True, False])
def test_a_bot_confirms_the_coin_it_must_put_back_unless_the_platform_places_it(tmp_path, confirm):
    """CW-6.3: a flown coin goes back, placed by the fouled player; a bot confirms it (the virtual
    table, which places coins in its physics, turns this off and confirms them itself)."""
    daemon = _coup_daemon(tmp_path / "j.sqlite")
    try:
        runner = BotRunner(daemon, [1, 2, 3], seed=1, confirm_placements=confirm)
        assert daemon.submit({"id": "n", "type": "new_game", "game": "coinwar", "mode": "ffa", "seed": 1,
                              "players": [{"seat": s, "name": f"Bot {s}"} for s in (1, 2, 3)], "order": [1, 2, 3]})["ok"]
        assert daemon.submit({"id": "s", "type": "strike", "seat": 1})["ok"]
        assert daemon.submit({"id": "h", "type": "shot", "seat": 1, "coin": "c1", "dead": [], "flown": ["c2"],
                              "contacts": [["c1", "c2"]]})["ok"]
        assert daemon.public_state()["pending_placements"] == [{"coin": "c2", "by": 2, "where": "normal"}]
        runner.poll()
        state = daemon.public_state()
        assert state["pending_placements"] == ([] if confirm else [{"coin": "c2", "by": 2, "where": "normal"}])
        assert state["turn"] == {"seat": 2, "strikes": 0, "extra": True}  # the extra turn is a shot: not the runner's
        assert [e["cmd"]["type"] for e in runner.log] == (["placed"] if confirm else [])
    finally:
        daemon.stop()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), mode=st.sampled_from(["ffa", "teams", "infinite", "biohazard", "football",
                                                         "three_kingdoms"]))
def test_property_every_coin_war_decision_of_a_bot_is_accepted_by_the_engine(seed, mode):
    """Along random legal games, whatever the runner decides for any seat from that seat's view
    alone (cards, answers, placements, end_turn) is an input the engine accepts; never a shot."""
    from controller.games import coinwar as cw
    from controller.games.coinwar.randomplay import random_game

    with tempfile.TemporaryDirectory() as tmp:
        daemon = _coup_daemon(Path(tmp) / "j.sqlite")
        try:
            runner = BotRunner(daemon, [], seed=seed)
            inputs = random_game(seed, mode, max_inputs=150)
            first = inputs[0]
            state = cw.new(first["options"], first["seed"], players=first["players"], mode=mode, order=first["order"])
            for inp in inputs[1:]:
                for p in state["players"]:
                    decision = runner.decide(p["seat"], cw.view(state, p["seat"]))
                    if decision is not None:
                        assert decision["type"] not in ("strike", "shot")
                        cw.apply(state, decision)  # raises GameError if the bot chose something illegal
                state = cw.apply(state, inp)
        finally:
            daemon.stop()
