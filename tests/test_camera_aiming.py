"""CAM-2 contacts, "Flicked away" (docs/camera.md): the pen behind the struck coin, read in the frames
just before the flick, tells which way it was pushed — so a coin pushed away from a neighbour held
by a rail is known not to have bounced off it. Rendered frames of the virtual camera, real OpenCV."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

pytest.importorskip("cv2")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from sensors.camera.aiming import agreed_direction, pen_direction  # noqa: E402
from sensors.camera.calibration import Recalibrator  # noqa: E402
from sensors.camera.recording import CoinInfo  # noqa: E402
from sensors.virtual.camera.render import DEFAULT_MARKERS, Renderer  # noqa: E402
from sensors.virtual.camera.rig import CameraRig  # noqa: E402
from sensors.virtual.camera.scene import hand_at  # noqa: E402


def _pen_reading(at: tuple[float, float], aim: tuple[float, float], t: float, rig_seed: int = 1):
    """The pen's direction read from a frame ``t`` s before the flick, as a table-mm unit vector."""
    rig = CameraRig.random(random.Random(rig_seed))
    coins = {"c1": CoinInfo(1, "#d03030", at, 0)}
    empty = Renderer(rig, {}).render({})
    frame = Renderer(rig, coins).render({"c1": at}, hand=hand_at(at, aim, -t))
    cal = Recalibrator(DEFAULT_MARKERS).update(empty)
    centre = cal.to_image(np.array([at]))[0]
    r_px = cal.coin_px(at, 30.0) / 2
    px = pen_direction(frame, empty, centre, r_px, [(centre, r_px)])
    if px is None:
        return None
    ends = cal.to_table(np.array([centre, centre + px * 10.0]))
    step = ends[1] - ends[0]
    return step / float(np.hypot(*step))


@settings(max_examples=25, deadline=None)
@given(x=st.floats(60, 365), y=st.floats(60, 565), angle=st.floats(0, 2 * math.pi), t=st.sampled_from([0.01, 0.03]),
       rig=st.integers(0, 7))
def test_cam2_the_pen_behind_the_struck_coin_gives_the_way_it_is_pushed(x, y, angle, t, rig) -> None:
    aim = (math.cos(angle), math.sin(angle))
    reading = _pen_reading((x, y), aim, t, rig)
    if reading is not None:  # a pen the frame does not show clearly gives nothing (never a wrong way)
        assert float(np.dot(reading, aim)) > math.cos(math.radians(5.0))


def test_cam2_the_pen_is_read_in_the_middle_of_the_table() -> None:
    reading = _pen_reading((212.0, 312.0), (0.6, 0.8), 0.01)
    assert reading is not None and float(np.dot(reading, (0.6, 0.8))) > math.cos(math.radians(3.0))


def test_cam2_no_pen_in_the_frame_gives_no_direction() -> None:
    rig = CameraRig.random(random.Random(1))
    empty = Renderer(rig, {}).render({})
    frame = Renderer(rig, {"c1": CoinInfo(1, "#d03030", (212.0, 312.0), 0)}).render({"c1": (212.0, 312.0)})
    cal = Recalibrator(DEFAULT_MARKERS).update(empty)
    centre = cal.to_image(np.array([(212.0, 312.0)]))[0]
    r_px = cal.coin_px((212.0, 312.0), 30.0) / 2
    assert pen_direction(frame, empty, centre, r_px, [(centre, r_px)]) is None


def test_cam2_one_reading_or_readings_that_disagree_give_no_direction() -> None:
    east, north_east = np.array([1.0, 0.0]), np.array([math.sqrt(0.5), math.sqrt(0.5)])
    assert agreed_direction([east]) is None
    assert agreed_direction([east, north_east]) is None
    both = agreed_direction([east, np.array([math.cos(0.05), math.sin(0.05)])])
    assert both is not None and float(both @ east) > 0.99


def test_cam2_struck_coin_pushed_away_from_a_neighbour_against_a_rail_did_not_touch_it() -> None:
    """Bench strike 1106: c1 lies against c3, which lies against the right rail; the pen pushes c1
    away from c3. Without the pen a bounce off c3 could not be ruled out and the pair was asked."""
    from sensors.virtual.camera.record import record_strike
    from tests.test_camera_flick import _bench_strike, _tracked

    table, coins, coin, vx, vy, rig = _bench_strike(1106)
    rec, frames, truth = record_strike(table, coin, vx, vy, rig, coins)
    assert ["c1", "c3"] not in [sorted(p) for p in truth.contacts]  # the physics: no touch
    result = _tracked(rec, frames, coin)
    assert result.contacts.get(("c1", "c3"), 0.0) == 0.0  # stated: they did not touch
