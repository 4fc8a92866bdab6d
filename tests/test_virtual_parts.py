"""The virtual table knows no game: each game brings its own virtual parts (``controller/virtual_parts.py``).

A plug-in game registered from the tests puts its coins where its parts say and gets the shot its
parts make; a game without virtual parts has nothing on the virtual table and a flick says so."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from controller.games import register, unregister
from controller.games.coinwar.virtual_table import CoinWarParts
from controller.virtual_parts import UNKNOWN, Coin
from gametable.sim_platform import SimError
from gametable.sim_table import VirtualTable, virtual_parts
from gametable.testing.fake_daemon import FakeDaemon
from gametable_core.clock import FakeClock
from sensors.virtual.physics import PhysicsParams, Point, StrikeTruth
from tests.helpers.mini_referee import mini_daemon

PLUG = "plugcoin"


class LineParts:
    """A plug-in game's parts: its coins start in a line across the middle; a shot says only who moved."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.made_for = state.get("mode")

    def coins(self, state: dict[str, Any]) -> list[Coin]:
        return [(p["coin"], p["seat"], p.get("alive", True)) for p in state.get("players", [])]

    def initial_spot(self, coin: str, seat: int | None) -> Point:
        return (60.0 * (seat or 1), 312.5)

    def physics(self, params: PhysicsParams) -> PhysicsParams:
        return params

    def shot(self, seat: int, coin: str, truth: StrikeTruth, facts: Any | None) -> dict[str, Any]:
        return {"type": "shot", "seat": seat, "coin": coin, "dead": [], "flown": [], "contacts": []}

    def compare(self, facts: Any, truth: StrikeTruth) -> dict[str, bool]:
        return {}

    def answer(self, question: dict[str, Any], truth: StrikeTruth, state: dict[str, Any]) -> Any:
        return UNKNOWN

    def plan(self, positions: dict[str, Point], state: dict[str, Any], seat: int, seed: int,
             coins: Sequence[str] | None) -> tuple[str, float, float]:
        return (f"c{seat}", 0.0, 300.0)


class PlugGame:
    """Just enough of a game for the registry; its rules are the mini referee's."""

    def describe(self) -> dict[str, Any]:
        return {"game": PLUG, "name": "Plug Coin"}

    def virtual_parts(self, state: dict[str, Any]) -> LineParts:
        return LineParts(state)


@pytest.fixture
def plug_game():
    register(PlugGame())  # type: ignore[arg-type]  # only what the virtual table uses of a game
    yield
    unregister(PLUG)


def _table(game: str, seats=(1, 2)) -> tuple[FakeDaemon, VirtualTable]:
    daemon = mini_daemon()
    vt = VirtualTable(daemon, FakeClock(), seed=3)
    players = [{"seat": s, "name": f"P{s}"} for s in seats]
    assert daemon.submit({"id": "g", "type": "new_game", "game": "coinwar", "players": players, "seed": 1})["ok"]
    assert daemon.state is not None
    daemon.state["game"] = game  # the mini referee plays the rules; the table asks the named game's parts
    vt.sync()
    return daemon, vt


def test_a_plug_in_game_puts_its_coins_where_its_own_virtual_parts_say(plug_game):
    _, vt = _table(PLUG, seats=(1, 3))
    assert vt.physics.positions() == {"c1": (60.0, 312.5), "c3": (180.0, 312.5)}


def test_a_plug_in_games_flick_submits_the_shot_its_parts_make(plug_game):
    daemon, vt = _table(PLUG)
    assert vt.flick("c1", 0.0, 400.0)["ok"]
    assert [e["cmd"]["type"] for e in vt.log] == ["strike", "shot"]
    assert {k: v for k, v in vt.log[1]["cmd"].items() if k != "id"} == {
        "type": "shot", "seat": 1, "coin": "c1", "dead": [], "flown": [], "contacts": []}


def test_a_plug_in_games_bots_strike_with_its_own_aim(plug_game):
    daemon, vt = _table(PLUG)
    vt.bots = {1}
    assert vt.play_bots(max_moves=1) == 1
    assert vt.log[0]["cmd"]["type"] == "strike" and vt.log[1]["cmd"]["coin"] == "c1"


def test_a_game_without_virtual_parts_has_nothing_on_the_table_and_a_flick_says_so():
    daemon, vt = _table("coup")
    assert vt.physics.positions() == {}
    with pytest.raises(SimError, match="no game with coins on the table"):
        vt.flick("c1", 0.0, 400.0)
    assert vt.log == [] and vt.play_bots() == 0


@pytest.mark.parametrize("state", [None, {}, {"game": "no such game"}, {"game": 7}, {"game": "coup"}])
def test_no_virtual_parts_for_no_game_an_unknown_game_or_a_card_game(state):
    assert virtual_parts(state) is None


def test_coin_war_brings_its_parts_and_cw_7_3_football_plays_with_goal_mouths():
    classic = virtual_parts({"game": "coinwar", "mode": "ffa"})
    football = virtual_parts({"game": "coinwar", "mode": "football"})
    assert isinstance(classic, CoinWarParts) and isinstance(football, CoinWarParts)
    assert classic.physics(PhysicsParams()).mouths is False
    assert football.physics(PhysicsParams()).mouths is True


def test_a_game_registered_before_anyone_asked_for_the_registry_does_not_hide_the_built_in_games(monkeypatch):
    import controller.games as games

    monkeypatch.setattr(games, "_GAMES", {})
    monkeypatch.setattr(games, "_loaded_built_in", False)
    register(PlugGame())  # type: ignore[arg-type]
    assert {PLUG, "coinwar", "coup"} <= set(games.registry())
