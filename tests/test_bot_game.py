"""A game of bots starts as each game declares it in ``describe()`` (``bot_game``), so the simulator
(``gametable sim --bots N --game G``) knows no game by name: a game registered only from tests/
gets bot games too."""

from __future__ import annotations

import argparse
import json

import pytest

from controller.games import register, unregister
from gametable import bot_game
from gametable.broker import free_port
from gametable.sim import add_sim_arguments, run_sim
from tests.games import taketurns


def bots(*seats: int) -> list[dict]:
    return [{"seat": s, "name": f"Bot {s}", "bot": True} for s in seats]


@pytest.fixture
def take_turns():
    register(taketurns)
    yield taketurns
    unregister("taketurns")


def test_cw_2_2_coinwar_team_modes_seat_bots_in_alternating_teams_in_seat_order():
    for mode in ("teams", "infinite"):
        inp = bot_game.new_game("coinwar", bots(1, 2, 3, 4), mode=mode, seed=7)
        assert [p["team"] for p in inp["players"]] == ["A", "B", "A", "B"]
        assert (inp["mode"], inp["order"], inp["options"], inp["seed"]) == (mode, [1, 2, 3, 4], {}, 7)
    for mode in ("ffa", "football", "biohazard", "three_kingdoms"):  # no lobby teams in these modes
        inp = bot_game.new_game("coinwar", bots(1, 2, 3, 4), mode=mode, seed=7)
        assert all("team" not in p for p in inp["players"]) and inp["order"] == [1, 2, 3, 4]


def test_sg_8_13_battlefield_bots_play_two_sides_with_quick_fights():
    inp = bot_game.new_game("sanguosha_map", bots(1, 2, 3, 4), mode=bot_game.mode_for("sanguosha_map"), seed=4)
    assert inp["options"] == {"fights": "quick"} and inp["mode"] == "battle"
    assert [p["team"] for p in inp["players"]] == ["A", "B", "A", "B"]


def test_card_games_declare_nothing_and_get_players_seed_and_their_first_mode():
    for game in ("coup", "bang"):
        inp = bot_game.new_game(game, bots(1, 2, 3, 4), mode=bot_game.mode_for(game), seed=3)
        assert inp == {"type": "new_game", "game": game, "mode": "classic", "players": bots(1, 2, 3, 4),
                       "order": [1, 2, 3, 4], "options": {}, "seed": 3}


def test_every_built_in_game_accepts_the_bot_game_it_declares():
    """The declaration and the game agree: ``new`` takes what the simulator will send."""
    from controller.games import get_game

    for game, seats in (("coinwar", 4), ("coup", 3), ("bang", 5), ("sanguosha_map", 4)):
        g = get_game(game)
        for m in g.describe()["modes"]:
            if seats not in m["players"]:
                continue
            inp = bot_game.new_game(game, bots(*range(1, seats + 1)), mode=m["mode"], seed=5)
            state = g.new(inp["options"], inp["seed"], players=inp["players"], mode=inp["mode"], order=inp["order"])
            assert state["phase"] == "playing", (game, m["mode"])


def test_the_demo_picks_a_two_player_mode_and_refuses_a_game_without_one():
    assert bot_game.mode_for("coinwar", "football", players=2) == "football"
    assert bot_game.mode_for("coinwar", "teams", players=2) == "ffa"  # teams need four (CW-2.1)
    assert bot_game.mode_for("coinwar", None, players=2) == "ffa"
    with pytest.raises(bot_game.BotGameError, match="bang has no mode for 2 players"):
        bot_game.mode_for("bang", None, players=2)


def test_a_game_sim_never_heard_of_gets_its_first_mode_and_no_extras(take_turns):
    assert bot_game.mode_for("taketurns") == "classic"
    assert bot_game.new_game("taketurns", bots(1, 2), mode="classic", seed=2) == {
        "type": "new_game", "game": "taketurns", "mode": "classic", "players": bots(1, 2), "order": [1, 2],
        "options": {}, "seed": 2}


def test_a_malformed_declaration_is_one_clear_error(take_turns, monkeypatch):
    desc = take_turns.describe()
    monkeypatch.setattr(take_turns, "describe", lambda: {**desc, "bot_game": {"teams": "random"}})
    with pytest.raises(bot_game.BotGameError, match="bot_game must be"):
        bot_game.new_game("taketurns", bots(1, 2), mode="classic", seed=2)


def _sim_args(tmp_path, *argv: str) -> argparse.Namespace:
    cfg = tmp_path / "sim.toml"  # no [mqtt] host: a private Mosquitto on a free port
    cfg.write_text(f'table_id = "bottest"\n[journal]\npath = "{tmp_path / "j.sqlite"}"\n'
                   f'[panel]\nhost = "127.0.0.1"\nport = {free_port()}\n')
    parser = argparse.ArgumentParser()
    add_sim_arguments(parser)
    return parser.parse_args(["--config", str(cfg), *argv])


def test_headless_sim_plays_a_game_registered_only_from_tests_to_its_end(take_turns, tmp_path, capsys):
    """`gametable sim --headless --bots 2 --game taketurns`: the real daemon, Mosquitto and the
    game's own bot play Take Turns out, with no line of the simulator naming it."""
    args = _sim_args(tmp_path, "--headless", "--bots", "2", "--game", "taketurns", "--seed", "3", "--games", "2")
    assert run_sim(args) == 0
    finals = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert len(finals) == 2
    for final in finals:
        assert final["game"] == "taketurns" and final["phase"] == "over" and final["pile"] == 0
        assert final["winner"] in ([1], [2])


def test_sim_refuses_an_unknown_game_with_the_games_it_knows(tmp_path, capsys):
    args = _sim_args(tmp_path, "--headless", "--bots", "2", "--game", "chess")
    assert run_sim(args) == 2
    out = capsys.readouterr().out
    assert "--game chess: unknown game 'chess'" in out and "coinwar" in out


def test_the_demo_refuses_a_game_two_cannot_play(tmp_path, capsys):
    args = _sim_args(tmp_path, "--bots", "1", "--game", "bang", "--no-browser")
    assert run_sim(args) == 2
    assert "--game bang: bang has no mode for 2 players" in capsys.readouterr().out
