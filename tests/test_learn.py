"""The guided first game's game and who may start it (docs/phones.md "The guided first game"): the
``new_game`` the panel builds is one the real table accepts for every game and mode, with the
newcomer's seat and bots on free seats only; a seated phone never replaces a game another phone
plays in; over HTTP against the real daemon and panel, the phone's game starts and a refusal
changes nothing."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.games import registry
from controller.table import Table
from gametable.testing.panel import PIN, Http
from tests.security.lan import Phone, lan
from web_panel.commands import CommandError
from web_panel.learn import guided_game, may_replace

GAMES = {name: game.describe() for name, game in registry().items()}
MODES = [(name, m["mode"]) for name, d in GAMES.items() for m in d.get("modes") or []]


def _body(game: str, mode: str | None) -> dict:
    return {"id": "learn-test-0001", "game": game, "mode": mode}


@pytest.mark.parametrize(("game", "mode"), MODES)
def test_every_guided_game_is_one_the_table_starts_with_the_newcomer_and_bots(game, mode):
    cmd = guided_game(_body(game, mode), 3, GAMES, taken=[1])
    table = Table()
    result = table.submit(cmd)
    assert result.ok, result.error
    seats = [p["seat"] for p in cmd["players"]]
    assert seats[0] == 3 and 1 not in seats  # the newcomer, and no seat another phone holds
    assert [p.get("bot", False) for p in cmd["players"]] == [False] + [True] * (len(seats) - 1)
    mode_players = next(m for m in GAMES[game]["modes"] if m["mode"] == mode)["players"]
    assert len(seats) == min(mode_players)  # the shortest game the mode allows
    state = table.public_view()
    if game in ("coinwar", "coup") and mode != "three_kingdoms":  # your turn first (Coup: CP-1; Three Kingdoms: the Lord's)
        assert state["turn"]["seat"] == 3
    assert cmd["id"].startswith("learn-") and cmd["seed"] == guided_game(_body(game, mode), 3, GAMES, [1])["seed"]


@given(seat=st.integers(1, 6), taken=st.sets(st.integers(1, 6)), pick=st.sampled_from(MODES))
def test_bots_sit_only_on_free_seats_or_the_phone_is_told_why(seat, taken, pick):
    game, mode = pick
    try:
        cmd = guided_game(_body(game, mode), seat, GAMES, taken)
    except CommandError as exc:
        assert exc.status == 409 and "free seats" in str(exc.message)
        return
    bots = [p["seat"] for p in cmd["players"] if p.get("bot")]
    assert not set(bots) & (taken | {seat}) and len(set(bots)) == len(bots)
    assert sorted(cmd["order"]) == sorted([seat, *bots])


def test_a_bad_request_is_refused_with_its_reason():
    with pytest.raises(CommandError, match="unknown game"):
        guided_game(_body("chess", None), 1, GAMES, [])
    with pytest.raises(CommandError, match="unknown mode"):
        guided_game(_body("coinwar", "golf"), 1, GAMES, [])
    with pytest.raises(CommandError, match="request id"):
        guided_game({"game": "coup"}, 1, GAMES, [])


PLAYING = {"phase": "playing", "players": [{"seat": 1}, {"seat": 2}]}


def test_a_phone_replaces_only_a_game_no_other_phone_plays():
    assert may_replace(None, 1, [1, 2], host=False, virtual=False, guided_seat=None)
    assert may_replace({**PLAYING, "phase": "over"}, 1, [1, 2], host=False, virtual=False, guided_seat=None)
    # the demo's bots (no phone in the game) and this phone against them, on the virtual table
    assert may_replace(PLAYING, 3, [3], host=False, virtual=True, guided_seat=None)
    assert may_replace(PLAYING, 1, [1], host=False, virtual=True, guided_seat=None)
    # another phone plays: never; on the real table nobody can tell people without phones from bots
    assert not may_replace(PLAYING, 1, [1, 2], host=False, virtual=True, guided_seat=None)
    assert not may_replace(PLAYING, 3, [3], host=False, virtual=False, guided_seat=None)
    assert may_replace(PLAYING, 1, [1, 2], host=False, virtual=False, guided_seat=1)  # its own guided game
    assert not may_replace(PLAYING, 2, [1, 2], host=False, virtual=False, guided_seat=1)
    assert may_replace(PLAYING, 1, [1, 2], host=True, virtual=False, guided_seat=None)


@pytest.mark.mqtt
def test_a_seated_phone_starts_its_guided_game_and_cannot_replace_the_hosts(stack):
    screen = Http(stack.panel.port)  # the table's own screen: it shows the join code
    code = parse_qs(urlsplit(json.loads(screen.get("/api/info")[1])["join_url"]).query)["code"][0]
    ann, bo = Phone(stack.panel.port, lan(1)), Phone(stack.panel.port, lan(2))
    assert ann.post("/api/learn", {"id": "learn-ann-0001", "game": "coup", "mode": "classic"})[0] == 403  # no seat
    for phone, seat in ((ann, 2), (bo, 5)):
        status, body = phone.post("/api/seat/claim", {"id": f"learn-claim-{seat}", "seat": seat, "code": code})
        assert status == 200, body
    status, body = ann.post("/api/learn", {"id": "learn-ann-0002", "game": "coup", "mode": "classic"})
    assert status == 200, body
    state = stack.wait(lambda: (s := stack.daemon.public_state()) and s.get("game") == "coup" and s, what="the guided game")
    assert [p["seat"] for p in state["players"]] == [1, 2]  # Ann and a bot on seat 1 (seat 5 is Bo's phone)
    assert state["turn"]["seat"] == 2
    # Ann may start another guided game over her own; Bo may not replace it
    status, body = bo.post("/api/learn", {"id": "learn-bo-0001", "game": "bang", "mode": "classic"})
    assert status == 409 and "other players" in body["error"], body
    assert ann.post("/api/learn", {"id": "learn-ann-0003", "game": "coup", "mode": "classic"})[0] == 200
    # the host's game is no guided game: Ann's next one is refused, the host's game goes on
    host = Http(stack.panel.port)
    assert host.post("/api/host/unlock", {"id": "learn-unlock-1", "pin": PIN})[0] == 200
    new = {"id": "learn-host-game", "type": "new_game", "game": "coup",
           "players": [{"seat": 2, "name": "Ann"}, {"seat": 5, "name": "Bo"}], "options": {"setup": {"first": 5}}}
    assert host.post("/api/host/cmd", new)[0] == 200
    stack.wait(lambda: (stack.daemon.public_state() or {}).get("turn", {}).get("seat") == 5, what="the host's game")
    status, body = ann.post("/api/learn", {"id": "learn-ann-0004", "game": "coup", "mode": "classic"})
    assert status == 409, body
    assert [p["name"] for p in stack.daemon.public_state()["players"]] == ["Ann", "Bo"]
