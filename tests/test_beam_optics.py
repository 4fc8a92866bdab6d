"""The optics of the rail beams and the goal points (gametable_core/beam_optics.py): a real coin trips them.

Datasheet arithmetic, not a measurement (hardware_docs/hardware_status.md); the printed parts are
checked against the same numbers in tests/test_printable_parts.py.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games.coinwar.sensing import TOLERANCE_MM, uncovered_dead_region
from gametable_core import table_geometry as geo
from gametable_core.beam_optics import FOIL_D_MM, GOAL_SPOT, MIN_MARGIN, RAIL_BEAM, ReflectiveSpot, SlitBeam
from gametable_core.config import load

DEFAULT = load(Path(__file__).resolve().parents[1] / "controller" / "data" / "default-table.toml", layout_only=True)
RAILS = [b for b in DEFAULT.beams if b.kind == "segment"]
POINTS = [b for b in DEFAULT.beams if b.kind == "point" and not b.reference]


# --- rail beams: a cross-check that proves a coin left, never that none did (CW-6.1, CW-8) ---------

@pytest.mark.parametrize("beam", RAILS, ids=lambda b: b.id)
def test_cw_6_1_a_coin_sliding_over_the_rail_top_surely_trips_every_rail_beam(beam):
    assert beam.length_mm is not None
    assert RAIL_BEAM.margin(beam.length_mm) >= MIN_MARGIN  # reads clear with the slits fitted
    assert RAIL_BEAM.surely_trips(0.0, beam.length_mm)  # coin flat on the rail top
    assert RAIL_BEAM.sure_skim_mm(beam.length_mm) >= 0.3  # and skimming up to 0.3 mm above it


@pytest.mark.parametrize("beam", RAILS, ids=lambda b: b.id)
def test_cw_6_1_a_coin_crossing_the_rail_makes_a_pulse_the_observer_counts(beam):
    """The observer takes a rail pulse as "a coin left" only when it looks like a coin
    (COIN_PULSE_S); at every believable speed a coin sliding over the slit beam makes one, and it
    outlasts the bank's debounce."""
    from controller.games.coinwar.sensing import COIN_PULSE_S
    from sensors.beams import DEBOUNCE_S

    assert beam.length_mm is not None
    for speed in (400.0, 1000.0, 3000.0, 5000.0):  # mm/s: a slow hop to a hard flick
        t = RAIL_BEAM.block_s(speed, beam.length_mm)
        assert COIN_PULSE_S[0] <= t <= COIN_PULSE_S[1], (speed, t)
        assert t > 3 * DEBOUNCE_S
    with pytest.raises(ValueError, match="speed"):
        RAIL_BEAM.block_s(0.0, beam.length_mm)


def test_the_band_fits_inside_the_coin_thickness_with_the_mounting_tolerance():
    lo = RAIL_BEAM.slit_bottom_mm - RAIL_BEAM.height_tolerance_mm
    hi = RAIL_BEAM.slit_bottom_mm + RAIL_BEAM.slit_height_mm + RAIL_BEAM.height_tolerance_mm
    assert 0.0 < lo and hi < geo.COIN_THICKNESS_MM


def test_cw_8_a_coin_clearing_the_rail_by_its_thickness_is_invisible_so_no_pulse_never_proves_nobody_flew():
    assert RAIL_BEAM.covered(geo.COIN_THICKNESS_MM) == 0.0
    assert not RAIL_BEAM.surely_trips(1.0, 457.0)


def test_the_old_rail_post_could_not_work_a_coin_on_the_rail_missed_its_beam():
    """Beam axis 3 mm above the rail top behind a 1.5 mm slit: a 2 mm coin sliding over the rail
    covers none of it, and one hopping 1.5 mm covers half, far short of what the receiver needs."""
    old = SlitBeam(slit_bottom_mm=2.25, slit_height_mm=1.5)
    assert old.covered(0.0) == 0.0
    assert old.covered(1.0) == pytest.approx(0.5)
    assert old.sure_skim_mm(657.0) < 0


def test_a_too_long_slit_beam_is_refused_not_trusted():
    with pytest.raises(ValueError, match="margin"):
        RAIL_BEAM.needed_cover(5000.0)
    with pytest.raises(ValueError, match="> 0 mm"):
        RAIL_BEAM.margin(0.0)


@given(st.floats(-5, 10), st.floats(-0.5, 0.5))
def test_covered_share_is_a_share(z, shift):
    c = RAIL_BEAM.covered(z, shift)
    assert 0.0 <= c <= 1.0


# --- goal points: reflective, from below the surface (CW-4.1) ------------------------------------

def test_cw_4_1_the_goal_spot_fits_the_observers_tolerance_margin():
    """The observer's proof counts a point as surely blocked within r - TOLERANCE_MM; the build's
    worst error (drilling, plug slack, aperture offset, half the aperture) must stay inside it."""
    assert GOAL_SPOT.tolerance_mm <= TOLERANCE_MM
    assert not uncovered_dead_region(POINTS, tol=GOAL_SPOT.tolerance_mm)


@settings(max_examples=400, deadline=None)
@given(
    shifts=st.lists(st.tuples(st.floats(0, 2 * math.pi), st.floats(0, 1)), min_size=12, max_size=12),
    u=st.floats(0, 1), v=st.floats(0, 1),
)
def test_cw_4_1_every_dead_coin_covers_a_whole_aperture_on_any_build_within_tolerance(shifts, u, v):
    """Each aperture anywhere within its position error of the config point; a dead coin anywhere
    (centre in the goal shrunk by r): some aperture lies entirely under the coin."""
    g, r = geo.GOAL, geo.COIN_RADIUS_MM
    centre = (g.x0 + r + u * (g.x1 - g.x0 - 2 * r), g.y0 + r + v * (g.y1 - g.y0 - 2 * r))
    assert geo.is_dead_position(centre)
    err = GOAL_SPOT.tolerance_mm - GOAL_SPOT.aperture_d_mm / 2
    real = [(b.at[0] + f * err * math.cos(a), b.at[1] + f * err * math.sin(a))
            for b, (a, f) in zip(POINTS, shifts, strict=True) if b.at is not None]
    assert any(math.dist(centre, p) + GOAL_SPOT.aperture_d_mm / 2 <= r for p in real)


def test_cw_4_1_the_proof_holds_for_the_documented_coin_and_not_for_a_smaller_foil():
    """The checker on the coin the docs tell a builder to make: foil over the whole 30 mm face,
    its edge within the build tolerance. A dead coin anywhere surely covers a goal point; the
    28 mm foil disc the docs once gave would leave dead coins no point surely sees."""
    layout = (Path(__file__).resolve().parents[1] / "hardware_docs" / "beam_layout.md").read_text(encoding="utf-8")
    assert "foil tape over its whole underside" in layout and FOIL_D_MM == 2 * geo.COIN_RADIUS_MM
    r = geo.COIN_RADIUS_MM  # dead coins: centre in the goal shrunk by the coin's radius (CW-4.1)
    build_error = GOAL_SPOT.tolerance_mm - GOAL_SPOT.foil_inset_mm  # the aperture's error and radius

    def bare_rim(foil_d_mm: float) -> float:  # how far the foil's edge lies inside the coin's, at worst
        return r - foil_d_mm / 2 + GOAL_SPOT.foil_inset_mm

    assert build_error + bare_rim(FOIL_D_MM) <= TOLERANCE_MM
    assert not uncovered_dead_region(POINTS, tol=build_error + bare_rim(FOIL_D_MM))
    assert not uncovered_dead_region(POINTS, tol=TOLERANCE_MM)  # the observer's own margin
    assert uncovered_dead_region(POINTS, tol=build_error + bare_rim(28.0))  # a 28 mm foil disc fails


FOIL_WORN = 0.4  # scratched, dull foil


def test_the_goal_spot_sees_a_foil_coin_and_not_a_hand():
    assert GOAL_SPOT.zone_height_mm() < 3.0  # ray bundles part 2.5 mm above the surface
    assert GOAL_SPOT.margin() >= 4 * MIN_MARGIN  # worn foil still trips it with room
    assert GOAL_SPOT.margin(reflectance=FOIL_WORN) >= MIN_MARGIN


def test_a_pair_aimed_too_steeply_would_see_hands_all_the_way_up():
    assert ReflectiveSpot(tilt_deg=5.0).zone_height_mm() == math.inf


def test_the_emitter_resistor_gives_the_designed_current():
    assert GOAL_SPOT.emitter_resistor_ohm() == pytest.approx(1850.0)  # 1.8 kOhm in the BOM


def test_the_docs_state_the_optics_as_computed():
    """beam_layout.md and the BOM quote these numbers: a parameter change must update them."""
    root = Path(__file__).resolve().parents[1] / "hardware_docs"
    layout = (root / "beam_layout.md").read_text(encoding="utf-8")
    bom = (root / "bill_of_materials.md").read_text(encoding="utf-8")
    for text in (layout, bom):
        assert f"{RAIL_BEAM.margin(657.0):.1f}×" in text and f"{RAIL_BEAM.margin(457.0):.0f}×" in text
        assert f"{GOAL_SPOT.margin():.0f}×" in text and f"{GOAL_SPOT.margin(FOIL_WORN):.0f}×" in text
    assert f"{RAIL_BEAM.needed_cover(657.0):.0%}".replace("%", " %") in layout
    assert f"{RAIL_BEAM.needed_cover(457.0):.0%}".replace("%", " %") in layout
    assert f"{GOAL_SPOT.zone_height_mm():.1f} mm above the" in layout
    assert f"{GOAL_SPOT.tolerance_mm:.2f} mm" in layout
