"""The virtual table talks to one platform seam with two implementations -- the
table's own sensor code (pty striker frames, MockFactory beam pins, the Pi's observer) and the
ground truth (inputs submitted from the physics) -- chosen once; the same flick reaches the same
accepted ``shot`` through either, wherever the beams can see it.

Real daemon, real Mosquitto, real pty and pins; real time (bounded waits for real I/O only)."""

from __future__ import annotations

import math

import pytest

from controller.daemon import Daemon
from controller.default_table import default_beams
from gametable.sim import _virtual_sensors
from gametable.sim_platform import SensorPlatform, TablePlatform, TruthPlatform
from gametable.sim_rig import MAX_SPEED, SimHardware
from gametable.sim_table import VirtualTable
from gametable.testing.recorder import Recorder
from gametable_core.clock import SystemClock
from gametable_core.config import parse

pytestmark = pytest.mark.mqtt

T = "vp"
NEW = {"type": "new_game", "game": "coinwar", "mode": "ffa", "seed": 1, "order": [1, 2],
       "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}]}
GOAL_SPEED = math.sqrt(2 * 0.30 * 9810.0 * (312.5 - 40.0))  # c1 from (212.5, 40) stops in the goal (CW-4.1)


@pytest.fixture
def tables(broker, tmp_path):
    made: list[tuple[Daemon, TablePlatform, Recorder]] = []

    def make(kind: str, *, ask: bool) -> tuple[VirtualTable, Recorder]:
        clock = SystemClock()
        config = parse({"table_id": f"{T}{len(made)}", "mqtt": {"host": broker.host, "port": broker.port},
                        "journal": {"path": str(tmp_path / f"j{len(made)}.sqlite")}})
        platform: TablePlatform
        if kind == "sensors":
            rig = SimHardware(config, clock, hb_interval_s=0.2)
            config, platform = rig.config, SensorPlatform(rig)
        else:
            platform = TruthPlatform(tuple(config.beams) or default_beams(), clock)
        daemon = Daemon(config, clock)
        daemon.start()
        assert daemon.bridge.wait_connected(10)
        phone = Recorder(broker.host, broker.port, f"gametable/{config.table_id}/#")
        made.append((daemon, platform, phone))
        vt = VirtualTable(daemon, clock, seed=3, ask=ask, platform=platform, settle_s=0.5)
        assert vt.submit(dict(NEW))["ok"]
        vt.sync()
        return vt, phone

    yield make
    for daemon, platform, phone in made:
        phone.close()
        platform.stop()
        daemon.stop()


def accepted_shot(vt: VirtualTable) -> dict:
    """The shot input the daemon accepted, without its command id."""
    shots = [e["cmd"] for e in vt.log if e["cmd"]["type"] == "shot" and e["result"].get("ok")]
    assert len(shots) == 1
    return {k: v for k, v in shots[0].items() if k != "id"}


def flick_into_goal(vt: VirtualTable) -> dict:
    vt.physics.remove("c1")
    vt.physics.place("c1", 212.5, 40.0)
    vt._beams_to(vt.physics.positions())
    assert vt.flick("c1", 0.0, GOAL_SPEED)["ok"]
    return accepted_shot(vt)


@pytest.mark.parametrize("ask", [False, True], ids=["truth", "ask"])
def test_the_same_flick_gives_the_same_accepted_shot_through_either_platform(tables, ask):
    via_sensors, _ = tables("sensors", ask=ask)
    via_truth, _ = tables("truth", ask=ask)
    sensed, true = flick_into_goal(via_sensors), flick_into_goal(via_truth)
    assert sensed == true
    assert sensed["seat"] == 1 and sensed["coin"] == "c1"
    if not ask:
        assert sensed["dead"] == ["c1"]  # the truth: c1 rests in the goal (CW-4.1)
    # the strike reached the daemon through the platform's own door: a striker frame or a submit
    assert [e["cmd"].get("via") for e in via_sensors.log if e["cmd"]["type"] == "strike"] == ["striker s1"]
    assert [e["cmd"].get("via") for e in via_truth.log if e["cmd"]["type"] == "strike"] == [None]


def test_run_sim_chooses_the_platform_once_from_speed_and_direct():
    config = parse({})
    clock = SystemClock()
    beams = tuple(config.beams) or default_beams()
    platform, _, why = _virtual_sensors(config, clock, beams, MAX_SPEED * 2, False)
    assert isinstance(platform, TruthPlatform) and why is not None and "--speed" in why
    platform, _, why = _virtual_sensors(config, clock, beams, 1.0, True)
    assert isinstance(platform, TruthPlatform) and why == "--direct"
    platform, sensed_config, why = _virtual_sensors(config, clock, beams, 1.0, False)
    try:
        assert isinstance(platform, SensorPlatform) and why is None
        assert sensed_config.striker.port == platform.rig.base.path  # the daemon's config names the pty
    finally:
        platform.stop()
