"""The host's bring-up page in a real Chromium: a real daemon
with its Hardware (beams on MockFactory pins, the striker link on a pty to the base station's own
firmware logic), a real Mosquitto and the served panel. The host unlocks with the PIN, sees a beam
toggle and the walk test, opens pairing, sees the waved striker, taps seat 3; the striker's next
strike then counts for seat 3 and its g-value and battery show up."""

from __future__ import annotations

import time

import pytest

from gametable.testing.panel import PIN, Http
from gametable.testing.pty import wait_for
from sensors.beam_health import COIN_HOLD_S
from tests.helpers.browser import PHONE, shot
from tests.helpers.firmware_base import FirmwareBase

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]

MAC, SID = "3485181a2b3c", "st-1a2b3c"
NEW = {"type": "new_game", "game": "coinwar", "mode": "ffa", "seed": 3,
       "players": [{"seat": 1, "name": "Ann"}, {"seat": 3, "name": "Cy"}], "order": [3, 1]}


@pytest.fixture
def real_table(table):
    base = FirmwareBase()
    t = table(table_id="bu", base=base, strikers={"s1": 1}, panel=True, phone=False, config={
        "beams": [{"id": "goal_n", "pin": 17, "kind": "segment", "a": [182.5, 232.5], "b": [242.5, 232.5]},
                  {"id": "goal_s", "pin": 18, "kind": "segment", "a": [182.5, 392.5], "b": [242.5, 392.5]}]})
    try:
        wait_for(lambda: t.hardware.link.is_open, what="the link to open the pty")
        base.boot()
        wait_for(lambda: base.commands, what="peers_set after the base's hello")
        yield t.daemon, t.hardware, base, t.panel, t.pins
    finally:
        t.stop()
        base.close()


def test_the_host_pairs_a_striker_to_seat_3_from_the_bringup_page(real_table, browser):
    daemon, hardware, base, panel, factory = real_table
    page = browser.new_context(**PHONE).new_page()
    page.set_default_timeout(10_000)
    page.goto(panel.url + "/bringup")
    page.locator("#lock").wait_for()  # host only
    page.fill("#pin", PIN)
    page.click("#unlock")
    page.locator("#base").filter(has_text="firmware 1.3.0").wait_for()
    page.locator("#walk").filter(has_text="Not passed yet: goal_n (GPIO17), goal_s (GPIO18)").wait_for()

    pin = factory.pin(17)
    pin.drive_low()  # a coin slides through goal_n: the page shows the edges, and names the flicker
    time.sleep(0.02)
    pin.drive_high()
    page.locator("[data-beam=goal_n]").filter(has_text="(2 edges)").wait_for()
    page.locator("#walk").filter(has_text="goal_n (GPIO17) blocked 1 time(s) but never held 1 s").wait_for()
    pin.drive_low()  # a real coin laid on goal_n for a second passes it (the walk test's COIN_HOLD_S)
    time.sleep(COIN_HOLD_S + 0.1)
    pin.drive_high()
    page.locator("#walk").filter(has_text="Not passed yet: goal_s (GPIO18)").wait_for()
    assert "missing" in page.get_attribute("[data-beam=goal_s]", "class")

    page.click("#pair-open")
    page.locator("#pair-window").filter(has_text="Pairing open").wait_for()
    wait_for(lambda: base.core.pair_until is not None, what="the base's window")
    base.wave("st-far", "aabbccddeeff", g=2.7)  # someone else's striker nudged across the room
    base.wave(SID, MAC, g=6.4)  # the one in the host's hand
    page.locator("#seen li[data-striker='st-1a2b3c']").filter(has_text="6.4 g  ← in your hand?").wait_for()
    shot("bringup-pairing.png", page, full=True)
    page.click(f"#seen [data-action=pair][data-striker='{SID}'][data-seat='3']")
    page.locator("#paired li[data-striker='st-1a2b3c']").filter(has_text="st-1a2b3c → seat 3").wait_for()
    wait_for(lambda: base.core.peers == {MAC: SID}, what="the base's allow-list")
    assert hardware.strikers == {"s1": 1, SID: 3}

    daemon.submit(NEW)
    base.hb(SID, MAC, bat=3.87)
    base.strike(SID, MAC, g=7.25)
    row = page.locator("#strikers tbody[data-striker='st-1a2b3c']")
    row.filter(has_text="7.3").filter(has_text="3.87 V").filter(has_text="n/a").wait_for()
    assert daemon.public_state()["turn"] == {"seat": 3, "strikes": 1, "extra": False}
    shot("bringup-strikers.png", page, full=True)

    page.click(f"#paired [data-action=unpair][data-striker='{SID}']")
    page.locator("#paired li[data-striker='st-1a2b3c']").wait_for(state="detached")
    wait_for(lambda: base.core.peers == {}, what="removed from the base")


def test_the_bringup_data_and_pairing_need_the_host_pin(real_table):
    daemon, hardware, base, panel, factory = real_table
    phone = Http(panel.port)
    status, _ = phone.get("/api/bringup")
    assert status == 403
    status, body = phone.post("/api/host/bringup", {"id": "phone-tries-pairing", "type": "pair_open"})
    assert status == 403 and "host PIN" in body["error"]
    assert not any(c["t"] == "pair_open" for c in base.commands)
    assert phone.post("/api/host/unlock", {"id": "unlock-0001", "pin": PIN})[0] == 200
    status, body = phone.post("/api/host/bringup", {"id": "host-bad-seat", "type": "pair_striker",
                                                     "striker": SID, "mac": MAC, "seat": 9})
    assert status == 409 and body["error"] == "'seat' must be a seat number from 1 to 6, got 9"
    status, body = phone.post("/api/host/bringup", {"id": "host-new-game", "type": "new_game"})
    assert status == 400 and "pair_open, pair_striker, unpair_striker" in body["error"]


def test_the_host_tunes_a_strikers_threshold_from_the_page_and_sees_it_applied_and_its_rssi(real_table, browser):
    """Firmware 1.2.0: threshold tuning without reflashing. The host sees the striker's recent g-values,
    sets a threshold, sees it pending until the striker (its own firmware logic) reports it, then applied;
    RSSI shows in dBm with a plain word."""
    from tests.helpers.firmware_base import fw

    daemon, hardware, base, panel, factory = real_table
    assert daemon.submit({"type": "pair_striker", "striker": SID, "mac": MAC, "seat": 3, "id": "bu-pair-1"})["ok"]
    wait_for(lambda: base.core.peers == {MAC: SID}, what="the base's allow-list")
    daemon.submit(NEW)
    striker = fw("striker_core").StrikerCore(SID, fw("strike_detector").StrikeDetector(1000))
    base.hb(SID, MAC, thr=striker.detector.threshold)  # a 1.2.0 heartbeat says the threshold: 2.5
    base.strike(SID, MAC, g=4.2)  # the host flicks it ...
    base.report_rssi({MAC: -58})

    page = browser.new_context(**PHONE).new_page()
    page.set_default_timeout(10_000)
    page.goto(panel.url + "/bringup")
    page.fill("#pin", PIN)
    page.click("#unlock")
    row = page.locator("#strikers tbody[data-striker='st-1a2b3c']")
    row.filter(has_text="4.2").filter(has_text="-58 dBm (good)").filter(has_text="2.50 g in use").wait_for()
    assert "reflash" not in page.inner_text("#strikers-card")
    assert page.input_value("#strikers input[data-striker='st-1a2b3c']") == "2.5"

    page.fill("#strikers input[data-striker='st-1a2b3c']", "3.5")
    time.sleep(1.2)  # two refreshes: the number being typed is not overwritten
    assert page.input_value("#strikers input[data-striker='st-1a2b3c']") == "3.5"
    page.click("#strikers [data-action=tune][data-striker='st-1a2b3c']")
    row.locator(".tune-state").filter(has_text="3.50 g pending").wait_for()
    wait_for(lambda: base.commands[-1]["t"] == "tune", what="the tune frame on the serial port")
    assert base.commands[-1]["sid"] == SID and base.commands[-1]["thr"] == 3.5

    mac, payload = base.air_tune()  # the base's radio copy reaches the striker's own firmware logic
    base_mac = bytes.fromhex("3485180000ff")
    radio = fw("radio").StrikerRadio(SID, base_mac)
    assert mac == MAC and radio.receive(base_mac, payload) == "tune" and striker.set_threshold(radio.tune_thr)
    base.hb(SID, MAC, thr=striker.detector.threshold)
    row.locator(".tune-state[data-tune=applied]").filter(has_text="3.50 g applied").wait_for()
    base.report_rssi({MAC: -84})
    row.filter(has_text="-84 dBm (weak)").wait_for()
    shot("bringup-tuning.png", page, full=True)

    page.fill("#strikers input[data-striker='st-1a2b3c']", "40")
    page.click("#strikers [data-action=tune][data-striker='st-1a2b3c']")
    page.locator("#toast").filter(has_text="'threshold_g' must be a number of g from 1 to 16, got 40").wait_for()
    assert base.commands[-1]["thr"] == 3.5  # nothing more was written
