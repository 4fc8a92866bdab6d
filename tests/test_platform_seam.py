"""The platform seam (gametable_core.platform): the real drivers and the virtual table implement the same
small interfaces, and a beam change reaches the observer as the same BeamEdge whoever saw it."""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.default_table import default_beams, default_leds
from controller.games.coinwar.sensing import Observer
from gametable_core.beam_geometry import drive
from gametable_core.clock import FakeClock
from gametable_core.platform import BeamEdge, BeamSource, SeatLights, StrikerSource
from sensors.beams import BeamBank
from sensors.leds import GpioSeatLights
from sensors.striker_link import StrikerLink
from sensors.virtual.virtual_beams import VirtualBeams

COIN = {"c1": (212.5, 312.5)}  # a coin in the goal: blocks goal beams of the default layout


def test_real_and_virtual_beams_are_beam_sources_that_agree_on_a_coin():
    clock, factory = FakeClock(), MockFactory()
    beams = default_beams()
    real_edges: list[BeamEdge] = []
    virtual_edges: list[BeamEdge] = []
    bank = BeamBank(beams, clock, real_edges.append, pin_factory=factory)
    vbeams = VirtualBeams(beams, virtual_edges.append)
    try:
        assert isinstance(bank, BeamSource) and isinstance(vbeams, BeamSource)
        assert bank.beam_ids == vbeams.beam_ids
        vbeams.update(clock.now(), COIN)
        drive(factory, beams, vbeams.blocked_ids())  # the sim rig's way: geometry -> pin levels
        clock.advance(0.05)  # past the bank's debounce
        assert vbeams.blocked_ids() and bank.blocked_ids() == vbeams.blocked_ids()
        assert {e.beam_id for e in real_edges if e.blocked} == {e.beam_id for e in virtual_edges}
        assert all(type(e) is BeamEdge for e in real_edges + virtual_edges)
    finally:
        bank.close()
        vbeams.close()


def test_observer_takes_edges_from_either_platform_through_one_door():
    clock = FakeClock()
    beams = default_beams()
    facts = []
    observers = [Observer(beams, clock, facts.append, settle_s=0.5) for _ in range(2)]
    real_side, virtual_side = observers
    bank_edges: list[BeamEdge] = []
    factory = MockFactory()
    bank = BeamBank(beams, clock, bank_edges.append, pin_factory=factory)
    try:
        vbeams = VirtualBeams(beams, virtual_side.on_edge)
        for obs in observers:
            obs.strike(1, "c1", coins_on_table=["c1"])
        vbeams.update(clock.now(), COIN)
        drive(factory, beams, vbeams.blocked_ids())
        clock.advance(0.05)
        for e in bank_edges:
            real_side.on_edge(e)
        clock.advance(1.0)  # both settle
        assert len(facts) == 2 and facts[0].shot() == facts[1].shot()
        assert facts[0].goal_points == facts[1].goal_points != []
    finally:
        bank.close()


def test_real_leds_and_striker_link_implement_the_platform_interfaces():
    clock = FakeClock()
    lights = GpioSeatLights.from_config(default_leds(), clock, pin_factory=MockFactory(pin_class=MockPWMPin))
    link = StrikerLink("/dev/null-no-such-port", 115200, clock, lambda f: None, lambda e: None)
    try:
        assert isinstance(lights, SeatLights)
        assert isinstance(link, StrikerSource) and not link.is_open
    finally:
        lights.close()
