"""The virtual beams follow a coin across the table on the injected clock (``sensors/virtual/paced_beams.py``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.default_table import default_beams
from gametable_core.clock import FakeClock
from sensors.virtual.paced_beams import PacedBeams
from sensors.virtual.physics import TablePhysics
from sensors.virtual.virtual_beams import VirtualBeams

DT = TablePhysics().dt


def _slide(paced: PacedBeams, steps: int, drive=None) -> None:
    """A coin sliding along the long side, one physics step at a time."""
    for n in range(steps):
        paced.step(n * DT, DT, {"c1": (212.5, 40.0 + 545.0 * n / steps)}, drive)


@settings(max_examples=25, deadline=None)
@given(speed=st.floats(0.25, 8.0), steps=st.integers(1, 400))
def test_a_strike_lasts_its_physics_time_divided_by_the_speed_on_the_clock(speed, steps):
    clock = FakeClock()
    start = clock.now()
    _slide(PacedBeams(VirtualBeams(default_beams()), clock, speed), steps)
    assert abs((clock.now() - start) - (steps - 1) * DT / speed) < 1e-6


def test_with_pins_every_change_of_the_blocked_beams_drives_them_once_and_at_its_own_time():
    clock = FakeClock()
    driven: list[tuple[float, frozenset[str]]] = []
    paced = PacedBeams(VirtualBeams(default_beams()), clock, 1.0)
    _slide(paced, 300, drive=lambda blocked: driven.append((clock.now(), blocked)))
    levels = [blocked for _, blocked in driven]
    assert len(levels) >= 2 and all(a != b for a, b in zip(levels, levels[1:], strict=False))
    assert [t for t, _ in driven] == sorted(t for t, _ in driven)


def test_without_pins_the_edges_go_to_the_observer_and_a_coin_put_back_by_hand_shows_at_once():
    clock = FakeClock()
    edges = []
    vbeams = VirtualBeams(default_beams(), edges.append)
    paced = PacedBeams(vbeams, clock, 1.0)
    _slide(paced, 300)
    assert edges and {e.blocked for e in edges} == {True, False}
    paced.moved({"c1": (212.5, 312.5)}, None)  # into the goal, by hand
    assert vbeams.state == vbeams.reading([(212.5, 312.5)]) and any(b.startswith("goal") for b in vbeams.state)
    assert edges[-1].blocked is True and edges[-1].beam_id.startswith("goal")
