"""One blocking rule for the virtual table and the hardware path (gametable_core/beam_geometry.py):
the sim's indexed edge tracker must see exactly the beams the MockFactory path drives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.default_table import default_beams
from gametable_core.beam_geometry import blocked_beams
from sensors.virtual.virtual_beams import VirtualBeams, blocked_set

BEAMS = tuple(b for b in default_beams() if not b.reference)  # the reference point: test_goal_reference.py
centre = st.tuples(st.floats(-40.0, 465.0), st.floats(-40.0, 665.0))


@settings(max_examples=300, deadline=None)
@given(st.lists(centre, max_size=8))
def test_the_sims_indexed_beams_block_exactly_what_beam_geometry_says(coins):
    assert VirtualBeams(BEAMS).compute(coins) == blocked_beams(BEAMS, coins) == blocked_set(BEAMS, coins)


def test_a_coin_on_a_goal_point_blocks_that_beam_in_both_paths():
    goal1 = next(b for b in BEAMS if b.id == "goal1")
    assert goal1.at is not None
    assert "goal1" in VirtualBeams(BEAMS).compute([goal1.at])
    assert "goal1" in blocked_beams(BEAMS, [goal1.at])
