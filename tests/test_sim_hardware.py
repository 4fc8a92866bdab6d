"""The virtual table on the real sensor code (docs/architecture.md "Virtual table"): a flick is a striker
frame through a real pty, the beams are gpiozero MockFactory pins read by the Pi's BeamBank, the
seat LEDs are MockPWMPins -- with the real Daemon, the Coin War engine and a real Mosquitto.

Real time (SystemClock, short strikes); waits are bounded polls for real I/O, never for logic."""

from __future__ import annotations

import math
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.daemon import Daemon
from controller.games.coinwar.sensing import ObservedStrike
from gametable.broker import free_port
from gametable.sim_platform import SimError
from gametable.sim_rig import SimHardware, SimHardwareError, direct_reason
from gametable.sim_table import VirtualTable
from gametable.testing.recorder import Recorder
from gametable_core.clock import SystemClock
from gametable_core.config import parse

pytestmark = pytest.mark.mqtt
ROOT = Path(__file__).resolve().parent.parent

T = "vt"
NEW = {"type": "new_game", "game": "coinwar", "mode": "ffa", "seed": 1, "order": [1, 2],
       "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}]}
# c1 moved to (212.5, 40) and flicked straight up the table stops in the middle of the goal (CW-4.1)
GOAL_SPEED = math.sqrt(2 * 0.30 * 9810.0 * (312.5 - 40.0))


@pytest.fixture
def make_table(broker, tmp_path):
    made: list[tuple[Daemon, SimHardware, Recorder]] = []

    def make(*, ask: bool = False, bots: tuple[int, ...] = (), settle_s: float = 0.5):
        clock = SystemClock()
        config = parse({"table_id": T, "mqtt": {"host": broker.host, "port": broker.port},
                        "journal": {"path": str(tmp_path / f"j{len(made)}.sqlite")}})
        rig = SimHardware(config, clock, hb_interval_s=0.2)
        daemon = Daemon(rig.config, clock)
        daemon.start()
        assert daemon.bridge.wait_connected(10)
        phone = Recorder(broker.host, broker.port, f"gametable/{T}/#")
        made.append((daemon, rig, phone))
        vt = VirtualTable(daemon, clock, seed=3, ask=ask, bots=bots, rig=rig, settle_s=settle_s)
        assert vt.submit(dict(NEW))["ok"]
        vt.sync()
        phone.wait_for(f"gametable/{T}/events", lambda m: m.json()["input"]["type"] == "new_game")
        return vt, daemon, rig, phone

    yield make
    for daemon, rig, phone in made:
        phone.close()
        rig.stop()
        daemon.stop()


def events(phone: Recorder, start: int = 0) -> list[dict]:
    return [m.json() for m in phone.messages[start:] if m.topic == f"gametable/{T}/events"]


def aim_at_goal(vt: VirtualTable) -> None:
    vt.physics.remove("c1")
    vt.physics.place("c1", 212.5, 40.0)
    vt._beams_to(vt.physics.positions())


def test_a_flick_is_a_striker_frame_through_the_pty_that_the_daemon_takes_as_the_seats_strike(make_table):
    vt, daemon, rig, phone = make_table()
    start = len(phone.messages)
    assert vt.flick("c1", 0.0, 400.0)["ok"]
    # the virtual base station put a protocol 1 strike frame for seat 1's striker on the line ...
    frames = [f for f in rig.base.sent if f["t"] == "strike"]
    assert [f["id"] for f in frames] == ["s1"] and frames[0]["g"] > 2.0
    # ... StrikerLink decoded it and Hardware submitted the seat's strike; the sim then the true shot
    phone.wait_for(f"gametable/{T}/events", lambda m: m.json()["input"]["type"] == "shot", start=start)
    got = [(e["source"], e["input"]["type"]) for e in events(phone, start)]
    assert got == [("striker", "strike"), ("sim", "shot")]
    assert daemon.public_state()["turn"] == {"seat": 1, "strikes": 1, "extra": False}
    assert [e["cmd"]["type"] for e in vt.log] == ["new_game", "strike", "shot"]
    assert vt.log[1]["cmd"]["via"] == "striker s1"


def test_beam_edges_go_through_the_beam_bank_into_the_observer_and_truth_is_compared(make_table):
    vt, daemon, rig, phone = make_table()
    aim_at_goal(vt)
    start = len(phone.messages)
    assert vt.flick("c1", 0.0, GOAL_SPEED)["ok"]
    assert vt.last_truth.dead == ["c1"]
    # debounced edges of the goal's point beams, as the Pi publishes them on sensors/beams
    phone.wait_for(f"gametable/{T}/sensors/beams", lambda m: m.json()["beam"].startswith("goal"), start=start)
    beam_events = [m.json() for m in phone.messages[start:] if m.topic == f"gametable/{T}/sensors/beams"]
    assert {e["beam"] for e in beam_events if e["blocked"]} >= {"goal5"}
    # the observer saw it (a coin may be dead: identity unknown); --truth submitted the physics' answer
    seen = vt.last_observed
    assert isinstance(seen, ObservedStrike) and seen.seat == 1 and seen.edges > 0
    assert seen.goal_possible and seen.dead is None
    assert [p["alive"] for p in daemon.public_state()["players"]] == [False, True]  # CW-4.2


def test_short_beam_pulses_of_a_coin_sliding_through_the_goal_survive_the_debounce(make_table):
    """A coin grazing the goal's point beams at speed blocks each for a few ms: not one pulse may be
    lost on its way through the pins, the BeamBank's debounce and Hardware (docs/architecture.md: >= 3 ms)."""
    vt, daemon, rig, phone = make_table()
    vt.physics.remove("c1")
    vt.physics.place("c1", 212.5 + 14.0, 40.0)
    vt._beams_to(vt.physics.positions())
    driven: list[frozenset[str]] = [vt.vbeams.state]
    drive = vt.on_blocked
    vt.on_blocked = lambda blocked: (driven.append(blocked), drive(blocked))
    assert vt.flick("c1", 0.0, math.sqrt(2 * 0.30 * 9810.0 * (560.0 - 40.0)))["ok"]
    assert vt.last_truth.dead == [] and vt.physics.positions()["c1"][1] > 500.0  # straight through
    changes = sum(len(a ^ b) for a, b in zip(driven, driven[1:], strict=False))
    assert changes >= 4 and vt.last_observed.edges == changes
    assert vt.last_observed.dead == []  # at rest outside the goal: the beams prove nobody died (CW-4.1)


def test_ask_submits_the_observers_facts_and_the_engine_asks_the_phone(make_table):
    vt, daemon, rig, phone = make_table(ask=True)
    aim_at_goal(vt)
    assert vt.flick("c1", 0.0, GOAL_SPEED)["ok"]
    shot = vt.log[-1]["cmd"]
    assert shot["type"] == "shot" and shot["coin"] == "c1" and shot["dead"] is None  # the beams cannot tell
    st = phone.wait_for(f"gametable/{T}/state", lambda m: bool(m.json().get("questions"))).json()
    (q,) = st["questions"]
    assert q["kind"] == "dead" and q["seats"] == [1]  # CW-8: asked of the striker's phone, not answered
    assert not any(e["cmd"]["type"] == "answer" for e in vt.log)
    with pytest.raises(SimError, match=r"answer the open question first \(CW-8\)"):
        vt.flick("c2", 0.0, 300.0)
    assert daemon.submit({"type": "answer", "question": q["id"], "value": ["c1"], "id": "phone-1"})["ok"]
    assert [p["alive"] for p in daemon.public_state()["players"]] == [False, True]


def test_ask_lets_a_bot_seat_answer_its_own_question_from_the_truth(make_table):
    vt, daemon, rig, phone = make_table(ask=True, bots=(1,))
    aim_at_goal(vt)
    assert vt.flick("c1", 0.0, GOAL_SPEED)["ok"]
    answers = [e for e in vt.log if e["cmd"]["type"] == "answer"]
    assert answers and all(e["result"]["ok"] for e in answers)
    st = daemon.public_state()
    assert st["questions"] == [] and [p["alive"] for p in st["players"]] == [False, True]


def test_seat_leds_are_mock_pwm_pins_driven_by_the_daemons_led_plan(make_table):
    vt, daemon, rig, phone = make_table()
    seat_pin = rig.config.leds.seats  # the default table's pins: seat 1 on GPIO12, seat 2 on GPIO13
    plan = phone.wait_for(f"gametable/{T}/leds", lambda m: m.json()["seats"].get("1") == "solid").json()
    assert plan["seats"]["2"] != "solid"
    assert rig.factory.pin(seat_pin[1]).state == pytest.approx(1.0)
    assert rig.factory.pin(seat_pin[2]).state < 1.0
    assert daemon.submit({"type": "end_turn", "seat": 1, "id": "p1-end"})["ok"]
    phone.wait_for(f"gametable/{T}/leds", lambda m: m.json()["seats"].get("2") == "solid")
    assert rig.factory.pin(seat_pin[2]).state == pytest.approx(1.0)
    assert rig.factory.pin(seat_pin[1]).state < 1.0


def test_a_seat_without_a_striker_gets_a_one_line_error(tmp_path):
    clock = SystemClock()
    rig = SimHardware(parse({"strikers": {"s7": 1}}), clock)
    try:
        with pytest.raises(SimHardwareError, match="no striker belongs to seat 2 \\(config \\[strikers\\]\\)"):
            rig.strike(2)
        assert rig.base.sent == []
    finally:
        rig.stop()


def _line(proc: subprocess.Popen, prefix: str, deadline: float) -> str:
    """The next stdout line of the sim starting with ``prefix`` (bounded wait on a real pipe)."""
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.startswith(prefix):
            return line.strip()
        if not line and proc.poll() is not None:
            break
    raise AssertionError(f"gametable sim printed no {prefix!r} line")


def test_gametable_sim_in_real_time_plays_the_bots_strikes_through_the_striker_link(tmp_path):
    """`gametable sim --speed 1` (as `make demo`): the demo game's strikes come from striker frames."""
    port = free_port()
    cfg = tmp_path / "sim.toml"
    cfg.write_text(f'table_id = "demo"\n[journal]\npath = "{tmp_path / "j.sqlite"}"\n'
                   f'[panel]\nhost = "127.0.0.1"\nport = {port}\n')
    proc = subprocess.Popen([sys.executable, "-m", "gametable.cli", "sim", "--config", str(cfg), "--bots", "2",
                             "--no-browser", "--speed", "1", "--seed", "5"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    phone = None
    try:
        deadline = time.monotonic() + 60
        viewer = _line(proc, "watch the public topics:", deadline).split(" -P ", 1)[1].split(" ", 1)[0]
        host, mqtt_port = _line(proc, "gametable sim:", deadline).rsplit("broker ", 1)[1].split(":")
        assert "the table's own code" in _line(proc, "sensors:", deadline)
        phone = Recorder(host, int(mqtt_port), "gametable/demo/#", username="viewer", password=viewer)
        strike = phone.wait_for("gametable/demo/events", lambda m: m.json()["input"]["type"] == "strike", 30).json()
        assert strike["source"] == "striker"
    finally:
        if phone is not None:
            phone.close()
        proc.terminate()
        proc.wait(timeout=30)
    assert proc.returncode == 0


def test_gametable_sim_says_when_it_takes_the_direct_path(tmp_path):
    port = free_port()
    cfg = tmp_path / "sim.toml"
    cfg.write_text(f'table_id = "fast"\n[journal]\npath = "{tmp_path / "j.sqlite"}"\n'
                   f'[panel]\nhost = "127.0.0.1"\nport = {port}\n')
    proc = subprocess.Popen([sys.executable, "-m", "gametable.cli", "sim", "--config", str(cfg), "--no-browser",
                             "--speed", "50"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    try:
        line = _line(proc, "sensors:", time.monotonic() + 60)
        assert line.startswith("sensors: direct (--speed 50 > 2: real-time debounce cannot keep up)")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.parametrize("speed, direct, reason", [
    (1.0, False, None), (2.0, False, None), (0.5, True, "--direct"),
    (2.5, False, "--speed 2.5 > 2: real-time debounce cannot keep up"),
])
def test_the_sensor_path_is_the_default_in_real_time_only(speed, direct, reason):
    assert direct_reason(speed, direct) == reason


def test_a_failed_carrier_tells_the_host_at_once_and_the_strike_asks_who_died(make_table):
    """hardware_docs/beam_layout.md "Failing safe": the Pi's own code on MockFactory pins: the reference pin reads clear, the host's panel is
    told why (``sensors/waiting``), and a coin flicked into the goal is not stated alive."""
    vt, _daemon, _rig, phone = make_table()
    start = len(phone.messages)
    vt.vbeams.goal_sensors_failed = True
    vt._beams_to(vt.physics.positions())
    phone.wait_for(f"gametable/{T}/sensors/waiting",
                   lambda m: "goal sensors failed" in (m.json().get("waiting") or ""), start=start)
    vt.physics.remove("c1")
    vt.physics.place("c1", 212.5, 40.0)
    vt._beams_to(vt.physics.positions())
    assert vt.flick("c1", 0.0, GOAL_SPEED)["ok"]
    assert vt.last_truth.dead == ["c1"]
    assert vt.last_observed.dead is None and vt.last_observed.goal_fault == ["goal_ref"]
    start = len(phone.messages)
    vt.vbeams.goal_sensors_failed = False  # repaired: the reason goes away
    vt._beams_to(vt.physics.positions())
    phone.wait_for(f"gametable/{T}/sensors/waiting", lambda m: not m.json().get("waiting"), start=start)
