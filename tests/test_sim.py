"""`gametable sim` glue: the VirtualTable against the Daemon API (a fake daemon here; the lead's
integration tests use the real one)."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.default_table import default_beams
from controller.games.coinwar.virtual_table import SEAT_SPOTS, answer_from_truth
from gametable.sim import add_sim_arguments, run_sim
from gametable.sim_platform import SimError
from gametable.sim_table import VirtualTable
from gametable.testing.daemon_proc import panel_port
from gametable_core import table_geometry as geo
from gametable_core.clock import FakeClock
from sensors.virtual.flying import FlyModel
from tests.helpers.mini_referee import mini_daemon

ALWAYS_OFF_RAIL = FlyModel(rail_threshold=1.0, rail_full=2.0, rail_p_max=1.0, coin_threshold=1e12)


def start(seats=(1, 2, 3), **kw):
    daemon = mini_daemon()
    vt = VirtualTable(daemon, FakeClock(), seed=kw.pop("seed", 3), **kw)
    players = [{"seat": s, "name": f"P{s}"} for s in seats]
    assert daemon.submit({"id": "g", "type": "new_game", "game": "coinwar", "mode": "ffa", "players": players,
                          "order": list(seats), "seed": 1})["ok"]
    vt.sync()
    return daemon, vt


def types(vt):
    return [e["cmd"]["type"] for e in vt.log]


def test_cw_2_3_a_new_game_puts_each_coin_at_its_seat_near_the_rail():
    _, vt = start((1, 3, 5))
    assert vt.physics.positions() == {"c1": SEAT_SPOTS[1], "c3": SEAT_SPOTS[3], "c5": SEAT_SPOTS[5]}
    assert all(geo.is_normal_position(p) for p in vt.physics.positions().values())


def test_a_flick_submits_the_strike_then_the_ground_truth_shot():
    daemon, vt = start()
    assert vt.flick("c1", 0.0, 600.0)["ok"]
    assert types(vt) == ["strike", "shot"]
    assert vt.log[1]["cmd"] | {"id": None} == vt.last_truth.shot(1) | {"id": None}
    assert daemon.public_state()["turn"] == {"seat": 1, "strikes": 1, "extra": False}


def test_a_flick_of_a_coin_not_on_the_table_is_refused_and_submits_nothing():
    _, vt = start()
    with pytest.raises(SimError, match="coin 'c9' is not on the table"):
        vt.flick("c9", 0.0, 100.0)
    assert vt.log == []


def test_ask_mode_sends_the_observers_facts_and_the_physics_answers_the_questions():
    daemon, vt = start(ask=True)
    vt.physics.remove("c1")
    vt.physics.place("c1", 212.5, 40.0)
    v = math.sqrt(2 * 0.30 * 9810.0 * (312.5 - 40.0))  # stops in the middle of the goal
    assert vt.flick("c1", 0.0, v)["ok"]
    shot = vt.log[1]["cmd"]
    assert shot["dead"] is None and shot["contacts"] is None  # the beams cannot tell
    answers = [e["cmd"] for e in vt.log if e["cmd"]["type"] == "answer"]
    assert answers and all(e["result"]["ok"] for e in vt.log)
    st = daemon.public_state()
    assert st["questions"] == []
    assert [p["alive"] for p in st["players"]] == [False, True, True]  # CW-4.2: seat 1 died


def test_cw_6_2_a_flown_coin_is_placed_back_at_a_normal_spot_by_the_sim():
    daemon, vt = start(fly=ALWAYS_OFF_RAIL)
    assert vt.flick("c1", 2500.0, 900.0)["ok"]
    assert vt.last_truth.flown == ["c1"]
    assert "placed" in types(vt)
    assert daemon.public_state()["pending_placements"] == []
    assert geo.is_normal_position(vt.physics.positions()["c1"])


def test_same_seed_gives_the_same_game():
    def game():
        daemon, vt = start((1, 2), seed=21, bots={1, 2})
        for _ in range(300):
            if not vt.play_bots():
                break
        # (command ids differ: they never repeat across runs, controller.command_ids)
        return [(c["type"], json.dumps({k: v for k, v in c.items() if k != "id"}, sort_keys=True))
                for c in daemon.inputs]

    assert game() == game()


def test_beams_can_drive_gpio_pins_through_the_on_blocked_seam():
    factory = MockFactory()
    beams = default_beams()
    pins = {b.id: factory.pin(b.pin) for b in beams}
    for pin in pins.values():
        pin.drive_high()  # receivers idle high (active low), as wired on the Pi

    def drive(blocked):
        for beam_id, pin in pins.items():
            (pin.drive_low if beam_id in blocked else pin.drive_high)()

    _, vt = start(on_blocked=drive)
    vt.physics.remove("c1")
    vt.physics.place("c1", 212.5, 40.0)
    v = math.sqrt(2 * 0.30 * 9810.0 * (312.5 - 40.0))
    vt.flick("c1", 0.0, v)  # c1 dies in the goal and is taken off: every beam is clear again ...
    assert all(pin.state for beam_id, pin in pins.items() if beam_id != "goal_ref")
    assert not pins["goal_ref"].state  # ... but the reference point, which always sees its foil
    vt.physics.place("c2", 212.5, 312.5 - 4.1 + 6.0)  # a coin set down on the goal's centre points
    vt._beams_to(vt.physics.positions())
    assert not pins["goal5"].state and not pins["goal6"].state and pins["rail_w"].state


def test_answer_from_truth_answers_by_what_the_question_asks():
    from sensors.virtual.physics import StrikeTruth

    truth = StrikeTruth("c1", dead=["c2"], flown=[], contacts=[("c1", "c2"), ("c2", "c3")], positions={})
    st = {"players": [{"seat": 1, "coin": "c1", "team": "A"}, {"seat": 2, "coin": "c2", "team": "A"},
                      {"seat": 3, "coin": "c3", "team": "B"}]}
    assert answer_from_truth({"kind": "dead", "options": ["c1", "c2", "c3"], "multi": True}, truth, st) == ["c2"]
    assert answer_from_truth({"kind": "which_dead", "options": ["c2", "c3"], "multi": False}, truth, st) == "c2"
    assert answer_from_truth({"kind": "flown", "multi": True}, truth, st) == []
    # c1 touched only its teammate c2: not an attack (CW-5.2)
    assert answer_from_truth({"kind": "touched_enemy", "options": [True, False]}, truth, st) is False


# --- CLI glue -----------------------------------------------------------------------------------------------

def test_sim_arguments_parse_and_do_not_clash_with_the_callers_options():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config")
    add_sim_arguments(parser)
    args = parser.parse_args(["--bots", "3", "--headless", "--speed", "50", "--ask", "--seed", "4"])
    assert (args.bots, args.headless, args.speed, args.ask, args.seed, args.config) == (3, True, 50.0, True, 4, None)
    assert parser.parse_args([]).ask is False


def test_run_sim_headless_plays_a_bot_game_to_its_end(tmp_path, capsys):
    cfg = tmp_path / "table.toml"
    # a free panel port: the default 8080 may be taken by a `make demo` running beside the tests
    cfg.write_text(f'[mqtt]\nhost = "127.0.0.1"\nport = 1\n[sim]\nseed = 5\n'
                   f'[panel]\nhost = "127.0.0.1"\nport = {panel_port()}\n')
    parser = argparse.ArgumentParser()
    add_sim_arguments(parser)
    args = parser.parse_args(["--config", str(cfg), "--bots", "3", "--headless", "--speed", "1000"])
    assert run_sim(args, daemon_factory=mini_daemon) == 0
    final = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert final["phase"] == "over" and final["winner"]


@pytest.mark.parametrize(
    "argv,message",
    [(["--bots", "9", "--headless"], "--bots must be from 1 to 6"),
     (["--bots", "1", "--headless"], "--headless needs --bots N, 2 to 6"), (["--speed", "0"], "--speed must be a positive"),
     (["--port", "70000"], "--port must be a TCP port from 1 to 65535")],
)
def test_run_sim_refuses_bad_options_with_one_line(argv, message, capsys):
    parser = argparse.ArgumentParser()
    add_sim_arguments(parser)
    assert run_sim(parser.parse_args(argv), daemon_factory=mini_daemon) == 2
    assert message in capsys.readouterr().out


def test_run_sim_reports_a_broken_config(tmp_path, capsys):
    cfg = tmp_path / "bad.toml"
    cfg.write_text("[sim]\nspeed = 'fast'\n")
    parser = argparse.ArgumentParser()
    add_sim_arguments(parser)
    with pytest.raises(SystemExit) as exit_:
        run_sim(parser.parse_args(["--config", str(cfg)]), daemon_factory=mini_daemon)
    assert exit_.value.code == 2  # typed by a person: one line on stderr, like argparse (README "Configuration")
    err = capsys.readouterr().err
    assert "gametable sim" in err and str(cfg) in err and "sim.speed" in err


def test_answer_from_truth_names_seats_when_the_question_offers_seats():
    from sensors.virtual.physics import StrikeTruth

    truth = StrikeTruth("c1", dead=["c3"], flown=[], contacts=[], positions={})
    st = {"players": [{"seat": 1, "coin": "c1"}, {"seat": 3, "coin": "c3"}]}
    assert answer_from_truth({"kind": "dead", "options": [1, 3], "multi": True}, truth, st) == [3]


@settings(max_examples=60, deadline=None)
@given(payload=st.one_of(st.binary(max_size=60), st.dictionaries(st.text(max_size=5), st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=5)), max_size=4).map(
    lambda d: json.dumps(d).encode())))
def test_any_bad_flick_payload_from_the_panel_gets_one_line_and_changes_nothing(payload):
    from gametable.sim_serve import _flick_from_panel

    daemon, vt = start()
    before = vt.physics.positions()
    result = _flick_from_panel(vt, payload)
    if not result["ok"]:
        assert result["error"].startswith("flick: ") and "\n" not in result["error"]
        assert vt.physics.positions() == before
        assert [c["type"] for c in daemon.inputs] == ["new_game"]


def test_contact_questions_are_answered_about_their_subject_coin():
    from sensors.virtual.physics import StrikeTruth

    truth = StrikeTruth("c1", dead=[], flown=[], contacts=[("c1", "c2"), ("c2", "c3")], positions={})
    q = {"kind": "contacts", "subject": "c2", "options": ["c1", "c3"], "multi": True, "text": "Which coins did c2 touch?"}
    assert answer_from_truth(q, truth, {"players": []}) == ["c1", "c3"]
    q = {"kind": "contacts", "options": ["c2", "c3"], "multi": True, "text": "Which coins did c1 touch?"}
    assert answer_from_truth(q, truth, {"players": []}) == ["c2"]


def test_make_demo_port_puts_the_panel_on_another_port(tmp_path):
    """README: ``make demo PORT=8093`` when 8080 is taken -- the Makefile passes ``--port`` and the
    daemon and panel get the config with that port."""
    seen = []

    def daemon(config, clock, **kw):
        seen.append(config.panel.port)
        return mini_daemon(config, clock, **kw)

    from gametable.broker import free_port

    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[journal]\npath = "{tmp_path / "j.sqlite"}"\n')
    port = free_port()
    parser = argparse.ArgumentParser()
    add_sim_arguments(parser)
    args = parser.parse_args(["--config", str(cfg), "--bots", "2", "--headless", "--speed", "1000", "--port", str(port)])
    assert run_sim(args, daemon_factory=daemon) == 0 and seen == [port]
    assert "$(if $(PORT),--port $(PORT))" in (Path(__file__).resolve().parents[1] / "Makefile").read_text()
