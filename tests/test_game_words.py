"""Each game's ``words`` (the log lines now published on ``events``) say exactly what the panel's
narration said, for every effect of random legal games of every game, and read only public data:
the public input, the effects and the public view after the input."""

from __future__ import annotations

import random

import pytest

from controller.daemon import public_input, words_for
from controller.games import registry
from controller.table import Table
from gametable.testing.bots import new_game_input, random_legal
from tests.helpers.narration_oracle import narrate


def _all_titles() -> dict[str, str]:
    titles: dict[str, str] = {}
    for game in registry().values():
        for m in game.describe()["modes"]:
            titles.setdefault(m["mode"], m.get("title") or m["mode"])
    return titles


@pytest.mark.parametrize("name", ["coinwar", "coup"])
@pytest.mark.parametrize("seed", range(6))
def test_game_words_match_the_panel_narration_for_random_games(name, seed):
    rnd = random.Random(f"words|{name}|{seed}")
    table, titles = Table(), _all_titles()
    before: list = []
    inp = new_game_input(name, rnd)
    for n in range(250):
        result = table.submit({**inp, "id": f"w{n}"})
        assert result.ok, result.error
        shown = public_input(table.game, result.input)
        after = table.public_view()
        expected = narrate(result.effects, before, shown, titles)
        assert words_for(table.game, shown, result.effects, after) == expected
        before = list((after or {}).get("players") or [])
        nxt = random_legal(table, rnd)
        if nxt is None:
            break
        inp = nxt


def test_words_name_players_and_say_the_shared_lines():
    coinwar = registry()["coinwar"]
    state = {"players": [{"seat": 1, "name": "Ann", "coin": "c1"}, {"seat": 2, "name": "Bo", "coin": "c2"}]}
    effects = [{"kind": "shot", "seat": 1, "coin": "c1", "dead": ["c2"]},
               {"kind": "out", "seat": 2, "cause": "goal"}, {"kind": "game_over", "winner": [1]}]
    assert coinwar.words({"type": "shot"}, effects, state) == [
        "Ann knocked Bo's coin into the goal", "Game over: Ann wins"]
    assert words_for(None, {"type": "undo"}, [], None) == ["Undo: the last input was taken back"]


def test_coup_words_never_name_a_hidden_card():
    """An exchange_return's public form keeps only the count (CP-6); its words say the count."""
    coup = registry()["coup"]
    shown = coup.public_input({"type": "move", "seat": 1, "move": "exchange_return",
                               "args": {"cards": ["duke", "captain"]}})
    lines = coup.words(shown, [{"kind": "exchange_return", "seat": 1, "count": 2}],
                       {"players": [{"seat": 1, "name": "Ann"}]})
    assert lines == ["Ann returns 2 cards to the deck"]
    assert "duke" not in " ".join(lines).lower()
