"""A Coin War bot game on the virtual table through the live camera observer (`gametable sim --camera`)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

from controller.daemon import Daemon
from controller.default_table import default_beams
from gametable.sim_platform import TruthPlatform
from gametable.sim_table import VirtualTable
from gametable_core.clock import FakeClock
from gametable_core.config import CameraConfig, parse
from sensors.virtual.camera.rig import CameraRig
from sensors.virtual.camera_feed import VirtualCamera


def camera_bot_game(tmp_path: Path, *, mode: str, seed: int, seats: tuple[int, ...],
                    game_id: str) -> tuple[Daemon, VirtualTable, Any]:
    """(daemon, virtual table, its camera observer) of a new game of bots, the camera on
    ``CameraRig.random(Random(seed))``; the caller plays (``play_bots``) and stops the daemon."""
    clock = FakeClock()
    camera = CameraConfig()
    daemon = Daemon(replace(parse({"journal": {"path": str(tmp_path / "j.sqlite")}}), camera=camera), clock)
    daemon.start(connect=False)
    platform = TruthPlatform(default_beams(), clock, camera=camera)
    feed = VirtualCamera(CameraRig.random(random.Random(seed)), clock, {int(k): v for k, v in camera.markers.items()},
                         seat_colours=camera.seat_colours, seat_marks=camera.seat_marks)
    vt = VirtualTable(daemon, clock, seed=seed, bots=seats, platform=platform, camera=feed)
    assert daemon.submit({"id": game_id, "type": "new_game", "game": "coinwar", "mode": mode,
                          "players": [{"seat": s, "name": f"Bot {s}"} for s in seats], "order": list(seats),
                          "seed": seed})["ok"]
    return daemon, vt, platform.adapters[0].camera
