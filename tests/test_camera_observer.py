"""Coin War's live camera observer between strikes (CAM-1, CAM-2): calibrated from the markers,
re-calibrated when the camera is knocked, the coins at rest found again where they lie."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

pytest.importorskip("cv2")

from controller.games.coinwar.camera_observer import REST_EVERY_S, CameraObserver  # noqa: E402
from controller.games.coinwar.virtual_table import SEAT_SPOTS  # noqa: E402
from gametable_core.clock import FakeClock  # noqa: E402
from gametable_core.config import CameraConfig  # noqa: E402
from sensors.virtual.camera.rig import CameraRig  # noqa: E402
from sensors.virtual.camera_feed import VirtualCamera  # noqa: E402

STATE = {"game": "coinwar", "mode": "ffa", "seed": 1, "coins_on_table": ["c1", "c3"],
         "players": [{"seat": 1, "coin": "c1", "alive": True}, {"seat": 3, "coin": "c3", "alive": True}]}
COINS = {"c1": SEAT_SPOTS[1], "c3": SEAT_SPOTS[3]}


def feed_for(rig: CameraRig, clock: FakeClock, observer: CameraObserver, config: CameraConfig) -> VirtualCamera:
    feed = VirtualCamera(rig, clock, {int(k): v for k, v in config.markers.items()},
                         seat_colours=config.seat_colours, seat_marks=config.seat_marks)
    feed.door = observer.frame
    feed.set_seats({"c1": 1, "c3": 3}, COINS)
    return feed


def test_cam_1_a_knocked_camera_recalibrates_and_still_finds_the_coins_where_they_rest():
    config = CameraConfig()
    clock = FakeClock()
    published: list[dict] = []
    observer = CameraObserver(config, public_state=lambda: STATE, on_rest=published.append)
    rig = CameraRig.random(random.Random(7))
    feed_for(rig, clock, observer, config).at_rest(COINS)
    assert observer.calibrated and observer.recalibrator.recalibrations == 1
    first = observer.recalibrator.calibration
    assert published[-1]["coins"].keys() == {"c1", "c3"}
    # the camera is knocked: a few degrees of yaw and 12 mm off centre
    knocked = replace(rig, yaw_deg=rig.yaw_deg + 2.5, offset_mm=(rig.offset_mm[0] + 12.0, rig.offset_mm[1]))
    clock.advance(REST_EVERY_S + 0.1)
    feed_for(knocked, clock, observer, config).at_rest(COINS)
    assert observer.recalibrator.recalibrations == 2 and observer.recalibrator.calibration is not first
    for coin, (x, y) in published[-1]["coins"].items():  # the same table mm as before the knock
        assert abs(x - COINS[coin][0]) <= 4 and abs(y - COINS[coin][1]) <= 4


def test_cam_2_a_covered_camera_keeps_its_calibration_and_states_no_coin_it_cannot_see():
    import numpy as np

    config = CameraConfig()
    clock = FakeClock()
    published: list[dict] = []
    observer = CameraObserver(config, public_state=lambda: STATE, on_rest=published.append)
    feed_for(CameraRig.random(random.Random(7)), clock, observer, config).at_rest(COINS)
    assert published[-1]["calibrated"] is True
    clock.advance(REST_EVERY_S + 0.1)
    observer.frame(clock.now(), np.zeros((480, 384, 3), np.uint8))  # a cloth over the camera
    assert observer.calibrated is True  # markers hidden (a hand, a cloth) are not markers moved
    assert published[-1]["coins"] == {}  # but no coin is placed where none is seen
