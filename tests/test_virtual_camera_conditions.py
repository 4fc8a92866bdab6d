"""CAM-5 the virtual camera's condition matrix (docs/camera_heldout.md): each condition renders,
deterministically for its seed, and differs from the plain table the way it is meant to; with no
conditions the rendering is the one the bench and the tests were built on, bit for bit. Real
OpenCV (the ArUco detector) on rendered frames, small resolutions and few frames."""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import replace

import pytest

pytest.importorskip("cv2")

import numpy as np  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from gametable_core import table_geometry as geo  # noqa: E402
from sensors.camera.calibration import detect_markers  # noqa: E402
from sensors.camera.recording import CoinInfo  # noqa: E402
from sensors.virtual.camera import conditions as cond  # noqa: E402
from sensors.virtual.camera.layouts import table_for  # noqa: E402
from sensors.virtual.camera.record import known_spot, record_strike  # noqa: E402
from sensors.virtual.camera.render import Renderer  # noqa: E402
from sensors.virtual.camera.rig import CameraRig  # noqa: E402
from sensors.virtual.physics import TablePhysics  # noqa: E402
from sensors.virtual.random_shots import random_flick, random_table  # noqa: E402

SMALL = (320, 240)
COINS = {"c1": CoinInfo(1, "#d03030", (0.0, 0.0), 0), "c2": CoinInfo(2, "#3050d0", (0.0, 0.0), 0)}
SPOTS = {"c1": (150.0, 300.0), "c2": (280.0, 420.0)}


def _two_coins() -> TablePhysics:
    table = TablePhysics(seed=3)
    for c, p in SPOTS.items():
        table.place(c, *p)
    return table


def _frame(rig: CameraRig, conditions: cond.Conditions | None = None, t: float = 0.0) -> np.ndarray:
    return Renderer(rig, COINS, conditions=conditions).render(SPOTS, t=t)


def test_cam5_no_conditions_render_as_before_bit_for_bit() -> None:
    """The plain strike the bench and the camera tests rely on (hash taken before the matrix, then
    again when the coins were drawn at their 2 mm top face, the height the lens sees them at)."""
    rng = random.Random(4)
    phys = random_table(rng, 3)
    coins = {c: CoinInfo(i + 1, ["#d03030", "#3050d0", "#d03030"][i], (0.0, 0.0), 1 if i == 2 else 0)
             for i, c in enumerate(phys.coins())}
    rig = CameraRig.random(rng)
    coin, vx, vy = random_flick(rng, phys.positions())
    _rec, frames, _truth = record_strike(phys, coin, vx, vy, rig, coins)
    h = hashlib.sha256()
    for f in frames:
        h.update(f.tobytes())
    assert len(frames) == 77
    assert h.hexdigest() == "3915425074a25306ed7cfb9a1c6a595585f11ed63c1659fb0d0ef21861edc8e4"


@pytest.mark.parametrize("name", list(cond.CONDITIONS))
def test_cam5_every_condition_draws_deterministically_for_its_seed(name: str) -> None:
    a = cond.draw(7, name, "heldout", n_coins=4)
    assert a == cond.draw(7, name, "heldout", n_coins=4)
    assert a != cond.draw(8, name, "heldout", n_coins=4)
    assert cond.FPS_RANGE[0] <= a.rig.fps <= cond.FPS_RANGE[1] or a.rig.fps == cond.STRESS_FPS
    assert abs(a.rig.tilt_deg) <= cond.TILT_TOLERANCE_DEG and abs(a.rig.roll_deg) <= cond.TILT_TOLERANCE_DEG
    assert 0.0 <= a.reaim_mm <= cond.REAIM_MAX_MM


def test_cam5_the_tune_split_never_draws_the_held_out_renderer_variants() -> None:
    for i in range(60):
        for name in ("mixed", "hands", "noise"):
            c = cond.draw(i, name, "tune")
            assert c.hand.shape in cond.TUNE_HANDS and c.rig.noise_model == "gaussian"
    held = [cond.draw(i, "hands", "heldout") for i in range(60)]
    assert any(c.hand.shape == "flat" for c in held)


def test_cam5_each_condition_renders_the_same_frame_for_the_same_seed() -> None:
    for name in cond.CONDITIONS:
        c = cond.draw(3, name, "heldout", n_coins=2)
        rig = replace(c.rig, resolution=SMALL)
        c = replace(c, rig=rig)
        assert np.array_equal(_frame(rig, c, t=0.1), _frame(rig, c, t=0.1)), name


def test_cam5_tilt_moves_the_marker_corners() -> None:
    straight = detect_markers(_frame(CameraRig(resolution=(480, 360), seed=1)))
    tilted = detect_markers(_frame(CameraRig(resolution=(480, 360), seed=1, tilt_deg=cond.TILT_TOLERANCE_DEG,
                                             roll_deg=-cond.TILT_TOLERANCE_DEG)))
    assert set(straight) == set(tilted) == {0, 1, 2, 3}  # at the tolerance's edge every marker is seen
    assert max(math.dist(straight[i], tilted[i]) for i in straight) > 5.0


@pytest.mark.parametrize("t0", [0.0, 0.2])
def test_cam5_a_covered_marker_is_not_detected_while_covered(t0: float) -> None:
    rig = CameraRig(resolution=(480, 360), seed=2)
    c = cond.Conditions(rig=rig, cover=cond.Cover(marker=2, share=0.3, side=0, t0=t0, t1=t0 + 0.1))
    draw = Renderer(rig, COINS, conditions=c)
    assert 2 not in detect_markers(draw.render(SPOTS, t=t0))  # covered (frame 0 too)
    assert set(detect_markers(draw.render(SPOTS, t=t0 + 0.3))) == {0, 1, 2, 3}  # uncovered again


def test_cam5_fps_changes_the_frame_count() -> None:
    counts = {}
    for fps in (60.0, 200.0):
        rig = CameraRig(resolution=SMALL, fps=fps, seed=4)
        rec, frames, _ = record_strike(_two_coins(), "c1", 600.0, 0.0, rig, COINS, hand=False,
                                       conditions=cond.Conditions(rig=rig))
        assert len(frames) == len(rec.frames)
        counts[fps] = len(frames)
    assert counts[200.0] > 3 * counts[60.0] * 0.9


def test_cam5_a_reaimed_coin_lies_off_its_known_spot() -> None:
    """meta.json keeps the spot the table last knew; the frames show the coin where it lies."""
    rig = CameraRig(resolution=SMALL, seed=5)
    c = cond.Conditions(rig=rig, reaim_mm=12.0, reaim_angle=0.5)
    rec, frames, _ = record_strike(_two_coins(), "c1", 500.0, 0.0, rig, COINS, hand=False, conditions=c)
    assert math.dist(rec.coins["c1"].at, SPOTS["c1"]) == pytest.approx(12.0)
    assert rec.coins["c2"].at == SPOTS["c2"]
    plain, _, _ = record_strike(_two_coins(), "c1", 500.0, 0.0, rig, COINS, hand=False)
    assert plain.coins["c1"].at == SPOTS["c1"]
    assert np.array_equal(frames[0], Renderer(rig, COINS).render(SPOTS))  # drawn where it lies


@given(st.floats(0.5, cond.REAIM_MAX_MM), st.floats(0.0, 2 * math.pi), st.integers(0, 10_000))
@settings(max_examples=60, deadline=None)
def test_cam5_a_known_spot_is_on_the_surface_and_clear_of_every_other_coin(d: float, a: float, seed: int) -> None:
    rng = random.Random(seed)
    start = table_for(rng.choice(cond.LAYOUTS), rng, 6).positions()
    coin = rng.choice(sorted(start))
    p = known_spot(start, coin, d, a)
    assert all(math.dist(p, q) >= 2 * geo.COIN_RADIUS_MM - 1e-6 for c, q in start.items() if c != coin) or p == start[coin]


def test_cam5_looks_hands_and_light_change_the_picture() -> None:
    rig = CameraRig(resolution=SMALL, seed=6)
    plain = _frame(rig)
    looks = _frame(rig, cond.Conditions(rig=rig, looks=("number", "two_tone")))
    assert np.abs(looks.astype(int) - plain).max() > 60
    glare = CameraRig(resolution=SMALL, seed=6, glare=(0.5, 0.5, 0.08, 1.0), gradient=(0.25, 1.0))
    assert _frame(glare)[120, 160].mean() > plain[120, 160].mean() + 40  # the glare spot washes out
    from sensors.virtual.camera.scene import hand_at

    hand = hand_at(SPOTS["c1"], (1.0, 0.0), -0.05)
    seen = set()
    for shape in cond.HELDOUT_HANDS:
        c = cond.Conditions(rig=rig, hand=cond.HandLook(shape=shape, skin_bgr=cond.SKIN_TONES_BGR[3]))
        img = Renderer(rig, COINS, conditions=c).render(SPOTS, hand=hand)
        seen.add(hashlib.sha256(img.tobytes()).hexdigest())
    assert len(seen) == len(cond.HELDOUT_HANDS)


@pytest.mark.parametrize("layout", ["touching", "cluster", "rails"])
def test_cam5_layouts_lay_coins_as_named(layout: str) -> None:
    r = geo.COIN_RADIUS_MM
    for seed in range(5):
        spots = table_for(layout, random.Random(seed), 5).positions()
        gaps = [math.dist(p, q) - 2 * r for a, p in spots.items() for b, q in spots.items() if a < b]
        if layout in ("touching", "cluster"):
            assert sum(g < 1.0 for g in gaps) >= (2 if layout == "cluster" else 1)
        else:
            assert all(min(x, geo.WIDTH_MM - x, y, geo.LENGTH_MM - y) < r + 1.0 for x, y in spots.values())
