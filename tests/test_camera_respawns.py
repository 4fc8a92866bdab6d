"""`gametable sim --camera` with respawns (CAM-2 "Between strikes", CW-7.4): coins placed back by
their owners between strikes are found where they now lie, so nearly every strike is analysed from
the frames -- also right after a placement -- and no coin is placed by a guess."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

pytest.importorskip("cv2")

from tests.helpers.camera_game import camera_bot_game  # noqa: E402


@pytest.mark.slow
def test_cw_7_4_a_biohazard_bot_game_with_respawns_is_tracked_by_the_camera_after_every_placement(tmp_path: Path):
    seed, seats = 1, tuple(range(1, 7))  # six seats: two reds (seat 6's with a sticker dot)
    daemon, vt, observer = camera_bot_game(tmp_path, mode="biohazard", seed=seed, seats=seats, game_id="g-respawns-1")
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
