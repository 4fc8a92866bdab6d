"""The table's journal keeps every finished game (controller/finished_games.py), so a venue that
missed a result fetches it with a ``sync`` request: the daemon on a fake clock, no broker."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.daemon import Daemon
from controller.finished_games import PAGE_GAMES, parse_request
from gametable.testing.games import quick_coup
from gametable_core.config import parse


def _ask(daemon, after: int = 0, ident: str = "s1") -> dict:
    return daemon.finished.answer(json.dumps({"id": ident, "after": after}).encode(), daemon.public_state())


def _play(daemon, game_id: str) -> None:
    for cmd in quick_coup(game_id):
        assert daemon.submit(cmd)["ok"], cmd


def test_a_finished_game_is_in_the_journal_with_its_final_state_and_its_opening(offline_daemon):
    _play(offline_daemon, "g1")
    answer = _ask(offline_daemon)
    assert answer["ok"] and answer["more"] is False
    [game] = answer["games"]
    assert game["id"] == "g1" and game["game_seq"] == 1 and game["end"] == 5
    assert game["state"]["winner"] == [1] and game["state"]["players"][1]["revealed"] == ["captain", "contessa"]
    assert [p["name"] for p in game["opening"]["players"]] == ["Ann", "Bo"]
    assert "options" not in game["opening"] and "seed" not in game["opening"]  # never a stacked hand
    assert answer["state"]["winner"] == [1]  # and the table's state now


def test_a_game_still_going_or_aborted_is_not_a_result(offline_daemon):
    cmds = quick_coup("g1")
    for cmd in cmds[:-1]:
        offline_daemon.submit(cmd)
    assert _ask(offline_daemon)["games"] == []
    assert offline_daemon.submit({"type": "abort", "id": "a1"})["ok"]
    assert _ask(offline_daemon)["games"] == []


def test_an_undo_of_the_winning_input_takes_the_result_back_and_the_new_win_replaces_it(offline_daemon):
    _play(offline_daemon, "g1")
    assert offline_daemon.submit({"type": "undo", "id": "u1"})["ok"]
    assert _ask(offline_daemon)["games"] == []
    assert offline_daemon.submit({"type": "move", "seat": 1, "move": "coup", "args": {"target": 2}, "id": "again"})["ok"]
    [game] = _ask(offline_daemon)["games"]
    assert game["end"] == 7 and game["state"]["winner"] == [1]


def test_pages_follow_on_from_after_and_newest_names_the_last(offline_daemon):
    for i in range(PAGE_GAMES + 5):
        _play(offline_daemon, f"g{i}")
    first = _ask(offline_daemon)
    assert len(first["games"]) == PAGE_GAMES and first["more"] is True
    rest = _ask(offline_daemon, after=first["games"][-1]["end"])
    assert [g["id"] for g in first["games"] + rest["games"]] == [f"g{i}" for i in range(PAGE_GAMES + 5)]
    assert rest["more"] is False and rest["newest"] == rest["games"][-1]["end"]
    assert _ask(offline_daemon, after=10_000)["games"] == []  # (the venue asks from 0 when newest < after)


def test_a_result_survives_a_restart_and_a_crash_before_it_was_recorded(tmp_path, fake_clock):
    path = str(tmp_path / "j.sqlite")
    config = parse({"journal": {"path": path}})
    d = Daemon(config, fake_clock)
    d.start(connect=False)
    _play(d, "g1")
    d.journal.drop_finished(1)  # as if the daemon died between the winning input and its record
    d.stop()
    again = Daemon(config, fake_clock)
    again.start(connect=False)
    try:
        [game] = _ask(again)["games"]
        assert game["id"] == "g1" and game["state"]["winner"] == [1]
    finally:
        again.stop()


def test_a_bad_sync_request_is_answered_with_the_reason_and_changes_nothing(offline_daemon):
    _play(offline_daemon, "g1")
    for payload, error in [(b"not json", "must be JSON"), (b"[1]", "JSON object"), (b'{"after": 0}', "needs an 'id'"),
                           (b'{"id": "x", "after": -1}', "'after' must be"), (b'{"id": "x", "after": true}', "'after' must be"),
                           (b"\xff", "must be JSON"), (b"[" * 100_000, "must be JSON")]:
        answer = offline_daemon.finished.answer(payload, None)
        assert answer["ok"] is False and error in answer["error"], (payload[:20], answer)
    assert answer["id"] is None
    assert offline_daemon.finished.answer(b'{"id": "x7", "after": "1"}', None)["id"] == "x7"
    assert len(_ask(offline_daemon)["games"]) == 1


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.binary(max_size=64), st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5) | st.none(),
                                                          max_size=3).map(lambda d: json.dumps(d).encode())))
def test_the_sync_parser_accepts_exactly_an_id_and_a_whole_after(payload):
    try:
        request = parse_request(payload)
    except ValueError:
        return
    assert isinstance(request["after"], int) and request["after"] >= 0
    assert isinstance(request["id"], str | int)
