"""CAM-3 (docs/camera.md): a beam-proven fact wins; a contradiction is asked and logged."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from controller.games.coinwar.camera_fusion import fuse

BEAMS = {"type": "shot", "seat": 1, "coin": "c1", "dead": [], "flown": None, "contacts": None, "beam_edges": 4}


def test_cam3_camera_fills_what_the_beams_cannot_see() -> None:
    cam = {"dead": ["c2"][:0], "flown": [], "contacts": [["c1", "c2"]]}
    shot, found = fuse(BEAMS, cam, {"dead": 1.0, "flown": 0.99, "contacts": 0.99}, strike=7)
    assert shot["contacts"] == [["c1", "c2"]] and shot["flown"] == [] and shot["dead"] == []
    assert shot["beam_edges"] == 4 and not found


def test_cam3_beam_proven_fact_wins_and_the_contradiction_is_logged_with_the_strike() -> None:
    shot, found = fuse(BEAMS, {"dead": ["c2"], "flown": [], "contacts": []}, {"dead": 0.99}, strike=12)
    assert shot["dead"] == []
    assert len(found) == 1 and found[0].fact == "dead" and found[0].strike == 12
    assert "strike 12" in found[0].message() and "dead" in found[0].message()


def test_cam3_camera_no_flight_against_a_rail_pulse_is_asked() -> None:
    shot, found = fuse(BEAMS, {"dead": [], "flown": [], "contacts": []}, strike=3, someone_flew=True)
    assert shot["flown"] is None and [d.fact for d in found] == ["flown"]


def test_cam3_no_camera_keeps_the_beam_shot() -> None:
    shot, found = fuse(BEAMS, None)
    assert shot == BEAMS and not found


facts = st.one_of(st.none(), st.lists(st.sampled_from(["c1", "c2", "c3"]), unique=True, max_size=3))


@given(beam_dead=facts, cam_dead=facts, beam_flown=facts, cam_flown=facts)
def test_cam3_fused_fact_is_the_beams_when_proven_else_the_cameras(beam_dead, cam_dead, beam_flown, cam_flown) -> None:
    beams = BEAMS | {"dead": beam_dead, "flown": beam_flown}
    shot, found = fuse(beams, {"dead": cam_dead, "flown": cam_flown, "contacts": None})
    for fact, b, c in (("dead", beam_dead, cam_dead), ("flown", beam_flown, cam_flown)):
        assert shot[fact] == (b if b is not None else c)
        contradicted = b is not None and c is not None and sorted(b) != sorted(c)
        assert contradicted == any(d.fact == fact for d in found)


def test_cw9_contacts_known_in_part_reach_the_referee_and_analyse_prints_them_as_unknown() -> None:
    """The live table sends the camera's open pairs (CW-9 ``contacts_open``); CAM-4's ``analyse``
    prints the specified shot, where such a fact is ``null``; a beam-proven fact drops them."""
    from controller.games.coinwar.camera_facts import CameraShot
    from controller.games.coinwar.sensing import ObservedStrike

    cam = CameraShot(seat=1, coin="c1", dead=[], flown=[], contacts=None,
                     contacts_known=[["c1", "c2"]], contacts_open=[["c3", "c4"]])
    assert cam.shot()["contacts"] is None and "contacts_open" not in cam.shot()
    shot, found = fuse(BEAMS, cam.shot(open_pairs=True), {"contacts": 0.5}, strike=2)
    assert shot["contacts"] == [["c1", "c2"]] and shot["contacts_open"] == [["c3", "c4"]] and not found
    alone = fuse({**BEAMS, "contacts": []}, cam.shot(open_pairs=True), {"contacts": 0.5}, strike=3)[0]
    assert "contacts_open" not in alone and alone["contacts"] == []
    observed = ObservedStrike(seat=1, coin="c1", dead=[], flown=[], contacts=shot["contacts"], goal_possible=False,
                              rail_crossings=0, contacts_open=shot["contacts_open"])
    assert observed.shot()["contacts_open"] == [["c3", "c4"]]
