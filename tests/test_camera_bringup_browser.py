"""The host's bring-up page shows a camera still to aim the camera (CAM-6), in a real Chromium: a
real daemon whose Hardware reads the virtual camera's frames through its own camera observer, a
real Mosquitto and the served panel. Only the unlocked host gets an image; a stranger and a seated
phone get none, and the table view draws the coins where the camera sees them."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("cv2")

from gpiozero.pins.mock import MockFactory, MockPWMPin  # noqa: E402

from controller.daemon import Daemon  # noqa: E402
from controller.games.coinwar.virtual_table import SEAT_SPOTS  # noqa: E402
from controller.hardware import Hardware  # noqa: E402
from gametable.testing.panel import PIN, Http  # noqa: E402
from gametable.testing.pty import wait_for  # noqa: E402
from gametable_core.clock import SystemClock  # noqa: E402
from gametable_core.config import parse  # noqa: E402
from sensors.virtual.camera.rig import CameraRig  # noqa: E402
from sensors.virtual.camera_feed import VirtualCamera  # noqa: E402
from tests.helpers.browser import PHONE  # noqa: E402
from web_panel.server import PanelServer  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]

NEW = {"type": "new_game", "game": "coinwar", "mode": "ffa", "seed": 3, "id": "cam-new-1",
       "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}], "order": [1, 2]}


@pytest.fixture
def camera_table(broker, tmp_path):
    config = parse({"table_id": "cam", "mqtt": {"host": broker.host, "port": broker.port},
                    "journal": {"path": str(tmp_path / "j.sqlite")}, "panel": {"host": "127.0.0.1", "pin": PIN},
                    "camera": {}})
    clock = SystemClock()
    daemon = Daemon(config, clock)
    daemon.start()
    assert daemon.bridge.wait_connected(10)
    hardware = Hardware(config, clock, daemon, pin_factory=MockFactory(pin_class=MockPWMPin), capture=False)
    hardware.start()
    assert daemon.submit(dict(NEW))["ok"]
    camera = config.camera
    assert camera is not None
    feed = VirtualCamera(CameraRig.random(random.Random(7)), clock, {int(k): v for k, v in camera.markers.items()},
                         seat_colours=camera.seat_colours, seat_marks=camera.seat_marks)
    feed.door = hardware.camera_frame
    coins = {"c1": SEAT_SPOTS[1], "c2": SEAT_SPOTS[2]}
    feed.set_seats({"c1": 1, "c2": 2}, coins)
    feed.at_rest(coins)  # the camera sees the table at rest: markers, and the coins at their spots
    panel = PanelServer(config, port=0).start()
    assert panel.link.connected.wait(10)
    yield daemon, hardware, panel
    panel.stop()
    hardware.stop()
    daemon.stop()


def test_cam_6_the_host_aims_the_camera_with_a_still_of_its_markers_and_coins(camera_table, browser):
    daemon, hardware, panel = camera_table
    page = browser.new_context(**PHONE).new_page()
    page.set_default_timeout(10_000)
    page.goto(panel.url + "/bringup")
    page.locator("#lock").wait_for()
    page.fill("#pin", PIN)
    page.click("#unlock")
    page.locator("#camera-status").filter(has_text="Markers found: the table is calibrated; 2 coins seen").wait_for()
    page.click("#camera-take")
    page.locator("#camera-still").wait_for(state="visible")
    width = page.eval_on_selector("#camera-still", "img => img.naturalWidth")
    assert width > 100


def test_cam_6_no_one_but_the_host_gets_an_image(camera_table):
    daemon, hardware, panel = camera_table
    stranger = Http(panel.port)
    status, body = stranger.get("/api/host/camera.jpg")
    assert status == 403 and json.loads(body)["error"] == "the camera still needs the host PIN"
    seated = Http(panel.port)
    status, _ = seated.post("/api/seat/claim", {"id": "claim-cam-1", "seat": 1, "name": "Ann"})
    assert status == 200
    status, body = seated.get("/api/host/camera.jpg")
    assert status == 403 and not body.startswith(b"\xff\xd8")
    host = Http(panel.port)
    assert host.post("/api/host/unlock", {"id": "unlock-cam-1", "pin": PIN})[0] == 200
    status, body = host.get("/api/host/camera.jpg")
    assert status == 200 and body.startswith(b"\xff\xd8")  # a JPEG, for the host alone


def test_cam_2_the_table_view_draws_the_coins_where_the_camera_sees_them(camera_table, browser):
    daemon, hardware, panel = camera_table
    wait_for(lambda: (panel.link.table or {}).get("source") == "camera", what="the camera's coins at the panel")
    coins = panel.link.table["coins"]
    assert set(coins) == {"c1", "c2"}
    assert all(abs(coins[c][0] - SEAT_SPOTS[int(c[1])][0]) < 5 for c in coins)
    page = browser.new_context(**PHONE).new_page()
    page.goto(panel.url + "/table")
    page.locator("canvas").first.wait_for()
