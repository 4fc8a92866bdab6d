"""`gametable run`'s hardware layer end to end: striker frames through a real pty, beams on
MockFactory pins, LEDs — and the state out on a real Mosquitto."""

from __future__ import annotations

import json
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.daemon import Daemon
from controller.hardware import Hardware
from gametable_core.clock import SystemClock
from gametable_core.config import parse
from sensors.beam_health import COIN_HOLD_S

NEW = {"type": "new_game", "game": "coinwar", "mode": "ffa", "seed": 3,
       "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}], "order": [1, 2]}


@pytest.fixture
def hw_table(table):
    """The rig's table with its serial link (a virtual base station, strikers s1 and s2 on a pty),
    beams and LEDs on MockFactory pins, on the real clock (the beam bank debounces on it)."""
    t = table(table_id="hw", serial=True, clock=SystemClock(), config={
        "leds": {"seats": {"1": 12, "2": 13}, "status": [16, 26, 27]},
        "beams": [{"id": "goal_n", "pin": 17, "kind": "segment", "a": [182.5, 232.5], "b": [242.5, 232.5]}],
    })
    return t.daemon, t.hardware, t.base, t.phone


def test_a_strike_frame_from_the_active_seat_counts_as_its_strike(hw_table):
    daemon, hardware, base, phone = hw_table
    daemon.submit(NEW)
    start = len(phone.messages)
    base.strike("s1", g=7.5)
    state = phone.wait_for("gametable/hw/state", lambda m: (m.json().get("turn") or {}).get("strikes") == 1,
                           start=start).json()
    assert state["turn"] == {"seat": 1, "strikes": 1, "extra": False} and state["striking"] is True


def test_a_strike_from_another_seat_is_reported_not_applied(hw_table):
    daemon, hardware, base, phone = hw_table
    daemon.submit(NEW)
    start = len(phone.messages)
    base.strike("s2")
    report = phone.wait_for("gametable/hw/sensors/striker",
                            lambda m: m.json().get("event") == "strike_out_of_turn", start=start).json()
    assert report["seat"] == 2
    assert daemon.public_state()["turn"]["strikes"] == 0


def test_seat_leds_light_the_active_player(hw_table):
    daemon, hardware, base, phone = hw_table
    daemon.submit(NEW)
    plan = phone.wait_for("gametable/hw/leds", lambda m: m.json().get("seats", {}).get("1") == "solid").json()
    assert plan["seats"]["2"] != "solid"
    assert hardware.lights.levels()["1"] == pytest.approx(1.0)


# --- through the real link on a pty, the real daemon and its LED plan ----------------------

@pytest.fixture
def quiet_table(tmp_path):
    from gametable.testing.pty import PtyPair, wait_for
    from gametable_core.clock import FakeClock

    clock = FakeClock()
    pty = PtyPair()
    config = parse({"journal": {"path": str(tmp_path / "j.sqlite")}, "striker": {"port": pty.path},
                    "strikers": {"s1": 1, "s2": 2}, "leds": {"status": [16, 26, 27]}})
    daemon = Daemon(config, clock)
    daemon.start(connect=False)
    hardware = Hardware(config, clock, daemon, pin_factory=MockFactory(pin_class=MockPWMPin))
    hardware.start()
    wait_for(lambda: hardware.link.is_open, what="the link to open the pty")

    def send(*frames: dict) -> None:
        from gametable_core.frames import encode

        before = hardware.link.stats()["frames"]
        pty.write(b"".join(encode(f) for f in frames))
        wait_for(lambda: hardware.link.stats()["frames"] >= before + len(frames), what="frames")

    yield clock, daemon, hardware, send
    hardware.stop()
    daemon.stop()
    pty.close()


def test_a_striker_asleep_by_design_does_not_turn_the_status_led_amber(quiet_table):
    clock, daemon, hardware, send = quiet_table
    send({"t": "hb", "id": "s1", "seq": 1, "bat": 3.9}, {"t": "hb", "id": "s2", "seq": 1, "bat": 3.9})
    send({"t": "sleep", "id": "s1", "seq": 2})
    clock.advance(10.0)
    assert daemon.waiting == "s2 silent for 3.5 s (no heartbeat)"  # s2 vanished: a real fault
    send({"t": "sleep", "id": "s2", "seq": 2})  # ... until it says it went to sleep
    assert daemon.waiting is None
    clock.advance(60.0)
    assert daemon.waiting is None


def test_unknown_striker_ids_never_reach_the_waiting_text(quiet_table):
    clock, daemon, hardware, send = quiet_table
    send(*({"t": "hb", "id": f"other{i}", "seq": 1, "bat": 3.0} for i in range(3000)))
    clock.advance(10.0)
    assert daemon.waiting is None  # no "silent"/"low battery" for strikers of another table
    assert set(hardware.link.stats()["senders"]) == set()


def test_the_beam_walk_test_is_published_for_the_panel(hw_table):
    """The bring-up page's walk test is as strict as ``python -m sensors.hwcheck``: a coin passing
    through a beam is a flicker that the page names; a coin laid on it for COIN_HOLD_S passes it."""
    daemon, hardware, base, phone = hw_table
    start = len(phone.messages)
    pin = hardware._pin_factory.pin(17)
    pin.drive_low()  # a coin passed through goal_n ...
    time.sleep(0.02)  # a real 20 ms pulse (the bank debounces on the real clock: 1 ms)
    pin.drive_high()  # ... and out again (MockFactory pins, the real BeamBank and its debounce)
    flicker = phone.wait_for("gametable/hw/sensors/walk", lambda m: "never held" in json.dumps(m.json()),
                             start=start).json()
    assert flicker["complete"] is False and flicker["done"] == []
    start = len(phone.messages)
    pin.drive_low()  # a real coin laid on goal_n ...
    time.sleep(COIN_HOLD_S + 0.1)  # ... held there (the walk test times the hold on the edges' clock)
    pin.drive_high()
    walk = phone.wait_for("gametable/hw/sensors/walk", lambda m: m.json().get("complete") is True,
                          start=start).json()
    assert walk["done"] == ["goal_n"] and walk["missing"] == []
