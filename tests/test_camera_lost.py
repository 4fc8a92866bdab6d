"""CAM-2: a coin the tracker lost under the hand is found again at rest in the strike's last frame
only where nothing else can be it (sensors/camera/lost.py): a look of its own, a coin's width from
every coin still held, clearly in or out of the goal (CW-4.1). Rendered frames, real OpenCV."""

from __future__ import annotations

import math
import random

import pytest

pytest.importorskip("cv2")

from hypothesis import HealthCheck, assume, example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from gametable_core import table_geometry as geo  # noqa: E402
from sensors.camera.calibration import Recalibrator  # noqa: E402
from sensors.camera.lost import GOAL_CLEAR_MM, refind_lost  # noqa: E402
from sensors.camera.recording import CoinInfo  # noqa: E402
from sensors.virtual.camera.render import DEFAULT_MARKERS, Renderer  # noqa: E402
from sensors.virtual.camera.rig import CameraRig  # noqa: E402
from sensors.virtual.random_shots import random_normal_spots  # noqa: E402

COLOURS = ["#d03030", "#3050d0", "#30a040", "#e0c020", "#202020", "#f0f0f0"]
RIGS = [CameraRig.random(random.Random(300 + i)) for i in range(3)]


def _scene(spots, colours, rig):
    coins = {f"c{i + 1}": CoinInfo(i + 1, colours[i], spots[i], 0) for i in range(len(spots))}
    frame = Renderer(rig, coins).render({c: x.at for c, x in coins.items()})
    return coins, frame, Recalibrator(DEFAULT_MARKERS).update(frame)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layout=st.integers(0, 10_000), rig=st.sampled_from(range(len(RIGS))), lost=st.integers(1, 6))
@example(layout=1434, rig=0, lost=1)  # against the left rail, found 0.3 mm over its line
def test_cam2_a_lost_coin_is_found_at_rest_where_it_lies(layout, rig, lost):
    spots = random_normal_spots(random.Random(layout), 6)
    coins, frame, cal = _scene(spots, COLOURS, RIGS[rig])
    c = f"c{lost}"
    held = {o: x.at for o, x in coins.items() if o != c}
    found = refind_lost(frame, cal, coins, [c], held)
    margin = geo.GOAL.disc_margin(coins[c].at, geo.COIN_RADIUS_MM)
    if abs(margin) >= GOAL_CLEAR_MM + 2.0:
        assert c in found
    if c in found:  # whatever it states is true: where the coin lies, on the right side of the goal line
        assert math.dist(found[c], coins[c].at) < 2.0
        assert abs(margin) >= GOAL_CLEAR_MM - 2.0


def test_cam2_a_lost_coin_with_a_look_alike_is_left_to_the_phones():
    spots = random_normal_spots(random.Random(4), 6)
    colours = COLOURS[:5] + [COLOURS[0]]  # two reds without distinct stickers
    coins, frame, cal = _scene(spots, colours, RIGS[0])
    held = {o: x.at for o, x in coins.items() if o != "c1"}
    assert refind_lost(frame, cal, coins, ["c1"], held) == {}


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layout=st.integers(0, 10_000), rig=st.sampled_from(range(len(RIGS))))
def test_cam2_a_lost_coin_is_not_found_where_a_held_coin_lies(layout, rig):
    spots = random_normal_spots(random.Random(layout), 6)
    coins, frame, cal = _scene(spots, COLOURS, RIGS[rig])
    assume(all(math.dist(spots[0], s) > 40 for s in spots[1:]))
    # the tracker believes c2 rests right where c1 lies: c1's blob proves nothing about c1
    held = {o: x.at for o, x in coins.items() if o != "c1"} | {"c2": (spots[0][0] + 10.0, spots[0][1])}
    assert "c1" not in refind_lost(frame, cal, coins, ["c1"], held)
