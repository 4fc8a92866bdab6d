"""Beam geometry (which beams coins block) and driving a real BeamBank through mock pins."""

from __future__ import annotations

import math

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given
from hypothesis import strategies as st

from gametable_core.beam_geometry import (
    COIN_RADIUS_MM,
    blocked_beams,
    blocking_coins,
    distance_to_segment,
    drive,
)
from gametable_core.clock import FakeClock
from gametable_core.config import BeamConfig
from sensors.beams import BeamBank

# A goal mouth beam across y = 0 from x = -50 to 50, a goal-floor point beam, and a rail beam.
MOUTH = BeamConfig("mouth", 17, "segment", a=(-50.0, 0.0), b=(50.0, 0.0))
GOAL = BeamConfig("goal", 27, "point", at=(0.0, 40.0))
RAIL = BeamConfig("rail_n", 22, "segment", active_high=True, a=(-400.0, 300.0), b=(400.0, 300.0))
LAYOUT = [MOUTH, GOAL, RAIL]

coord = st.floats(-500, 500, allow_nan=False)
pt = st.tuples(coord, coord)


def test_coin_on_the_mouth_blocks_it_and_only_it() -> None:
    assert blocked_beams(LAYOUT, [(10.0, 5.0)]) == {"mouth"}


def test_coin_just_past_the_segment_end_does_not_block() -> None:
    assert blocked_beams(LAYOUT, [(65.0, 0.0)]) == frozenset()  # 15 mm from the end: touching only
    assert blocked_beams(LAYOUT, [(64.9, 0.0)]) == {"mouth"}


def test_point_beam_blocked_only_within_radius() -> None:
    assert blocked_beams(LAYOUT, [(0.0, 40.0 + 14.99)]) == {"goal"}
    assert blocked_beams(LAYOUT, [(0.0, 40.0 + 15.0)]) == frozenset()


def test_several_coins_union_and_ground_truth_per_beam() -> None:
    coins = {"c1": (0.0, 2.0), "c2": (3.0, 38.0), "c3": (200.0, 290.0)}
    assert blocked_beams(LAYOUT, coins) == {"mouth", "goal", "rail_n"}
    assert blocking_coins(LAYOUT, coins) == {"mouth": ["c1"], "goal": ["c2"], "rail_n": ["c3"]}


def test_bad_coin_centre_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="coin centre must be a finite"):
        blocked_beams(LAYOUT, [(1.0, float("nan"))])
    with pytest.raises(ValueError, match="coin radius must be > 0"):
        blocked_beams(LAYOUT, [], radius=0)


@given(pt, pt, pt)
def test_segment_distance_matches_dense_sampling(p, a, b) -> None:
    d = distance_to_segment(p, a, b)
    samples = [
        math.hypot(p[0] - (a[0] + (b[0] - a[0]) * k / 400), p[1] - (a[1] + (b[1] - a[1]) * k / 400))
        for k in range(401)
    ]
    seg_len = math.hypot(b[0] - a[0], b[1] - a[1])
    assert d <= min(samples) + 1e-6
    assert d >= min(samples) - seg_len / 400 - 1e-6
    assert distance_to_segment(p, b, a) == pytest.approx(d, abs=1e-9)


@given(pt, pt, st.floats(0, 1), st.floats(-14.9, 14.9))
def test_any_coin_centred_near_the_beam_blocks_it(a, b, u, off) -> None:
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length < 1e-3:
        return
    nx, ny = -(b[1] - a[1]) / length, (b[0] - a[0]) / length
    c = (a[0] + (b[0] - a[0]) * u + nx * off, a[1] + (b[1] - a[1]) * u + ny * off)
    beam = BeamConfig("s", 4, "segment", a=a, b=b)
    assert blocked_beams([beam], [c]) == {"s"}


@given(pt, st.lists(pt, max_size=6))
def test_point_beam_blocked_iff_some_coin_within_radius(at, coins) -> None:
    beam = BeamConfig("p", 4, "point", at=at)
    expected = any(math.hypot(c[0] - at[0], c[1] - at[1]) < COIN_RADIUS_MM for c in coins)
    assert (blocked_beams([beam], coins) == {"p"}) is expected


def test_drive_moves_a_real_bank_with_polarity() -> None:
    clock, factory, edges = FakeClock(), MockFactory(), []
    bank = BeamBank(LAYOUT, clock, edges.append, pin_factory=factory)
    try:
        # The pull-up leaves an undriven active-high receiver "blocked" until the scene is drawn.
        assert bank.blocked_ids() == {"rail_n"}
        drive(factory, LAYOUT, set())
        clock.advance(0.002)
        assert bank.blocked_ids() == frozenset()
        edges.clear()
        drive(factory, LAYOUT, blocked_beams(LAYOUT, {"c1": (0.0, 0.0), "c3": (0.0, 295.0)}))
        clock.advance(0.002)
        assert bank.blocked_ids() == {"mouth", "rail_n"}
        assert factory.pin(22).state is True and factory.pin(17).state is False
        drive(factory, LAYOUT, set())
        clock.advance(0.002)
        assert bank.blocked_ids() == frozenset()
        assert [(e.beam_id, e.blocked) for e in edges] == [
            ("mouth", True), ("rail_n", True), ("mouth", False), ("rail_n", False)
        ]
    finally:
        bank.close()


def test_drive_with_unknown_id_touches_nothing() -> None:
    factory = MockFactory()
    drive(factory, LAYOUT, set())
    with pytest.raises(ValueError, match="unknown beam id\\(s\\) nope"):
        drive(factory, LAYOUT, {"mouth", "nope"})
    assert factory.pin(17).state is True  # mouth still clear (active low → high)


@pytest.mark.parametrize("speed_mm_s", [500.0, 2000.0, 6000.0])
def test_coin_sliding_through_the_mouth_gives_one_pulse_at_240hz(speed_mm_s: float) -> None:
    """The virtual-table path: physics steps → geometry → mock pins → debounced edges."""
    clock, factory, edges = FakeClock(), MockFactory(), []
    bank = BeamBank(LAYOUT, clock, edges.append, pin_factory=factory)
    try:
        drive(factory, LAYOUT, set())
        clock.advance(0.01)
        edges.clear()
        dt, y = 1 / 240, -60.0
        while y < 60.0:  # straight across the mouth segment (y = 0) at x = -40, clear of the goal
            y += speed_mm_s * dt
            drive(factory, LAYOUT, blocked_beams(LAYOUT, [(-40.0, y)]))
            clock.advance(dt)
        clock.advance(0.01)
        assert [(e.beam_id, e.blocked) for e in edges] == [("mouth", True), ("mouth", False)]
        assert edges[1].t - edges[0].t >= dt - 1e-9
    finally:
        bank.close()
