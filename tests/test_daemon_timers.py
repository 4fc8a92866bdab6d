"""The daemon's clocks on a FakeClock: Coup window timeouts (CP-6), pause/resume, Football's
time limit (CW-7.3). The timeouts are journalled inputs, so replays stay exact."""

from __future__ import annotations

import pytest

COUP = {"type": "new_game", "game": "coup", "seed": 5,
        "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"}],
        "options": {"timeout_s": 8, "setup": {"first": 1}}}
TAX = {"type": "move", "seat": 1, "move": "tax", "args": {}}


@pytest.fixture
def daemon(offline_daemon):
    return offline_daemon


def test_cp_6_window_closes_by_a_journalled_timeout_when_time_is_up(daemon, fake_clock):
    assert daemon.submit(COUP)["ok"]
    assert daemon.submit(TAX)["ok"]
    window = daemon.public_state()["window"]
    assert window is not None and window["deadline"] == pytest.approx(fake_clock.wall() + 8)
    fake_clock.advance(7.9)
    assert daemon.public_state()["window"] is not None
    fake_clock.advance(0.2)
    assert daemon.public_state()["window"] is None
    assert [r.input["type"] for r in daemon.journal.records()][-1] == "timeout"


def test_cp_6_host_pause_stops_the_countdown_and_resume_continues_it(daemon, fake_clock):
    daemon.submit(COUP)
    daemon.submit(TAX)
    fake_clock.advance(3)
    assert daemon.submit({"type": "pause", "id": "p"})["ok"]
    assert daemon.public_state()["window"]["paused"] is True
    fake_clock.advance(60)
    assert daemon.public_state()["window"] is not None  # paused: nothing expired
    assert daemon.submit({"type": "resume", "id": "r"})["ok"]
    fake_clock.advance(4.9)
    assert daemon.public_state()["window"] is not None
    fake_clock.advance(0.2)
    assert daemon.public_state()["window"] is None


def test_pause_without_a_window_is_refused(daemon):
    daemon.submit(COUP)
    r = daemon.submit({"type": "pause", "id": "p"})
    assert r == {"id": "p", "ok": False, "error": "no reaction window is open to pause"}


def test_cw_7_3_football_time_limit_sends_time_up(daemon, fake_clock):
    players = [{"seat": 1, "name": "A", "team": "A"}, {"seat": 2, "name": "B", "team": "B"}]
    r = daemon.submit({"type": "new_game", "game": "coinwar", "mode": "football", "players": players,
                       "order": [1, 2], "options": {"minutes": 2}, "seed": 1})
    assert r["ok"], r
    fake_clock.advance(119)
    assert daemon.public_state()["phase"] == "playing"
    fake_clock.advance(2)
    types = [rec.input["type"] for rec in daemon.journal.records()]
    assert "time_up" in types


def _restarted(daemon, fake_clock):
    """The same journal opened by a new daemon (a crash or power cut, then a restart)."""
    from controller.daemon import Daemon

    path = daemon.journal.path
    daemon.stop()
    again = Daemon(daemon.config, fake_clock, journal_path=str(path))
    again.start(connect=False)
    return again


def test_cw_7_3_football_clock_keeps_counting_from_the_game_start_after_a_restart(daemon, fake_clock):
    players = [{"seat": 1, "name": "A", "team": "A"}, {"seat": 2, "name": "B", "team": "B"}]
    assert daemon.submit({"type": "new_game", "game": "coinwar", "mode": "football", "players": players,
                          "order": [1, 2], "options": {"minutes": 2}, "seed": 1})["ok"]
    fake_clock.advance(100)
    again = _restarted(daemon, fake_clock)
    try:
        fake_clock.advance(21)  # 121 s since the game began: time is up although the daemon is new
        assert "time_up" in [r.input["type"] for r in again.journal.records()]
    finally:
        again.stop()


def test_cp_6_a_window_open_at_a_restart_gets_its_full_time_again(daemon, fake_clock):
    daemon.submit(COUP)
    daemon.submit(TAX)
    fake_clock.advance(6)
    again = _restarted(daemon, fake_clock)
    try:
        assert again.public_state()["window"]["deadline"] == pytest.approx(fake_clock.wall() + 8)
        fake_clock.advance(7.9)
        assert again.public_state()["window"] is not None
        fake_clock.advance(0.2)
        assert again.public_state()["window"] is None
    finally:
        again.stop()


def test_pause_also_stops_a_game_clock(daemon, fake_clock):
    """Host pause works for any game's deadlines, not only Coup's windows."""
    players = [{"seat": 1, "name": "A", "team": "A"}, {"seat": 2, "name": "B", "team": "B"}]
    daemon.submit({"type": "new_game", "game": "coinwar", "mode": "football", "players": players,
                   "order": [1, 2], "options": {"minutes": 1}, "seed": 1})
    fake_clock.advance(30)
    assert daemon.submit({"type": "pause", "id": "p"})["ok"]
    fake_clock.advance(600)
    assert daemon.public_state()["time_up"] is False
    assert daemon.submit({"type": "resume", "id": "r"})["ok"]
    fake_clock.advance(31)
    assert "time_up" in [r.input["type"] for r in daemon.journal.records()]


def test_an_aborted_game_has_no_running_deadline(daemon, fake_clock):
    daemon.submit(COUP)
    daemon.submit(TAX)
    assert daemon.submit({"type": "abort", "id": "a"})["ok"]
    assert daemon.deadlines.timers() == {}
    fake_clock.advance(60)
    assert [r.input["type"] for r in daemon.journal.records()] == ["new_game", "move", "abort"]
