"""Retried host controls that are not journalled (CP-6 pause/resume) keep the duplicate-id
contract: answered again, never applied twice - even a late retry after the opposite command."""

from __future__ import annotations

import pytest

COUP = {"type": "new_game", "game": "coup", "seed": 5, "id": "g",
        "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"}],
        "options": {"timeout_s": 8, "setup": {"first": 1}}}
TAX = {"type": "move", "seat": 1, "move": "tax", "args": {}, "id": "t"}


@pytest.fixture
def daemon(offline_daemon):
    return offline_daemon


def test_cp_6_a_retried_pause_is_answered_again_and_a_late_one_does_not_pause_again(daemon, fake_clock):
    assert daemon.submit(COUP)["ok"] and daemon.submit(TAX)["ok"]
    assert daemon.submit({"type": "pause", "id": "p1"}) == {"id": "p1", "ok": True}
    assert daemon.submit({"type": "pause", "id": "p1"}) == {"id": "p1", "ok": True, "duplicate": True}
    assert daemon.submit({"type": "resume", "id": "r1"}) == {"id": "r1", "ok": True}
    late = daemon.submit({"type": "pause", "id": "p1"})  # the phone's retry arrives after the resume
    assert late == {"id": "p1", "ok": True, "duplicate": True}
    assert not daemon.public_state()["window"].get("paused")
    fake_clock.advance(8.1)  # the countdown kept running: the window closes by its timeout
    assert daemon.public_state()["window"] is None


def test_a_refused_pause_retried_gets_the_same_refusal(daemon):
    daemon.submit(COUP)
    first = daemon.submit({"type": "pause", "id": "p2"})
    assert first == {"id": "p2", "ok": False, "error": "no reaction window is open to pause"}
    assert daemon.submit({"type": "pause", "id": "p2"}) == {**first, "duplicate": True}
