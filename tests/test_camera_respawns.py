"""`gametable sim --camera` with respawns (CAM-2 "Between strikes", CW-7.4): coins placed back by
their owners between strikes are found where they now lie, so nearly every strike is analysed from
the frames -- also right after a placement -- and no coin is placed by a guess."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("cv2")

from controller.daemon import Daemon  # noqa: E402
from controller.default_table import default_beams  # noqa: E402
from gametable.sim_platform import TruthPlatform  # noqa: E402
from gametable.sim_table import VirtualTable  # noqa: E402
from gametable_core.clock import FakeClock  # noqa: E402
from gametable_core.config import CameraConfig, parse  # noqa: E402
from sensors.virtual.camera.rig import CameraRig  # noqa: E402
from sensors.virtual.camera_feed import VirtualCamera  # noqa: E402


@pytest.mark.slow
def test_cw_7_4_a_biohazard_bot_game_with_respawns_is_tracked_by_the_camera_after_every_placement(tmp_path: Path):
    seed, seats = 1, tuple(range(1, 7))  # six seats: two reds (seat 6's with a sticker dot)
    clock = FakeClock()
    camera = CameraConfig()
    daemon = Daemon(replace(parse({"journal": {"path": str(tmp_path / "j.sqlite")}}), camera=camera), clock)
    daemon.start(connect=False)
    platform = TruthPlatform(default_beams(), clock, camera=camera)
    feed = VirtualCamera(CameraRig.random(random.Random(seed)), clock, {int(k): v for k, v in camera.markers.items()},
                         seat_colours=camera.seat_colours, seat_marks=camera.seat_marks)
    vt = VirtualTable(daemon, clock, seed=seed, bots=seats, platform=platform, camera=feed)
    assert daemon.submit({"id": "g-respawns-1", "type": "new_game", "game": "coinwar", "mode": "biohazard",
                          "players": [{"seat": s, "name": f"Bot {s}"} for s in seats], "order": list(seats),
                          "seed": seed})["ok"]
    observer = platform.adapters[0].camera
    opened: list[tuple[bool, dict, dict]] = []  # (tracked, the camera's rest, the physics' truth) per strike
    started = observer.strike_started

    def watch(coin: str) -> None:
        started(coin)
        opened.append((observer._tracker is not None, dict(observer.rest), vt.physics.positions()))

    observer.strike_started = watch  # type: ignore[method-assign]
    vt.play_bots(max_moves=60)
    placed = [i for i, e in enumerate(vt.log) if e["cmd"]["type"] == "placed" and e["result"].get("ok")]
    assert placed, "no coin was placed back: the game did not test what it is for"
    tracked = sum(1 for ok, _rest, _truth in opened if ok)
    assert tracked >= 0.95 * len(opened), f"{len(opened) - tracked} of {len(opened)} strikes not tracked"
    for _ok, rest, truth in opened:  # every coin the camera placed is where it lies (never a stale spot)
        assert all(math.dist(p, truth[c]) < 2.0 for c, p in rest.items() if c in truth), (rest, truth)
    daemon.stop()
