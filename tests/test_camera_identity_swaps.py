"""CAM-2 identity: a fact that reads the same whichever way two look-alike coins are swapped is
stated even when the camera is unsure which is which (docs/camera.md "Identity"). Two teammates
in one colour who bounce off each other and both stay on the table used to make every fact of the
strike unknown, so a team game fell back to asking everything."""

from __future__ import annotations

from controller.games.coinwar.camera_facts import camera_shot
from sensors.camera.tracking import CoinResult, TrackResult


def _result(rests: dict[str, tuple[float, float]], touched: list[tuple[str, str]], unsure: set[str]) -> TrackResult:
    coins = {c: CoinResult(rest=p, rest_confidence=0.999, identity_confidence=0.0 if c in unsure else 0.999)
             for c, p in rests.items()}
    ids = sorted(rests)
    contacts = {(a, b): (1.0 if (a, b) in touched else 0.0) for i, a in enumerate(ids) for b in ids[i + 1:]}
    return TrackResult(coins=coins, contacts=contacts, contacts_confidence=1.0)


ON_TABLE = {"c1": (60.0, 80.0), "c2": (120.0, 500.0), "c3": (350.0, 90.0), "c4": (140.0, 520.0)}


def test_cam2_teammates_who_hit_each_other_and_both_stay_out_leave_nothing_to_ask():
    """c2 and c4 (one team colour) touched and the ids may have swapped: dead, flown and contacts
    read the same either way, so all are stated."""
    shot = camera_shot(_result(ON_TABLE, [("c2", "c4")], {"c2", "c4"}), seat=2, coin="c2").shot()
    assert shot["dead"] == [] and shot["flown"] == [] and shot["contacts"] == [["c2", "c4"]]


def test_cam2_a_swap_that_would_change_who_died_leaves_dead_unknown():
    """One of the two look-alikes rests in the goal: which one died depends on the ids, so `dead`
    is asked; flown and contacts still read the same and are stated."""
    rests = dict(ON_TABLE, c4=(212.5, 312.5))  # the goal's centre (gametable_core/table_geometry.py)
    shot = camera_shot(_result(rests, [("c2", "c4")], {"c2", "c4"}), seat=2, coin="c2").shot()
    assert shot["dead"] is None and shot["flown"] == [] and shot["contacts"] == [["c2", "c4"]]


def test_cam2_a_swap_that_would_change_who_was_hit_leaves_contacts_unknown():
    """c1 hit one of the two look-alikes: which one depends on the ids, so contacts are asked."""
    shot = camera_shot(_result(ON_TABLE, [("c1", "c2")], {"c2", "c4"}), seat=1, coin="c1").shot()
    assert shot["contacts"] is None and shot["dead"] == [] and shot["flown"] == []
