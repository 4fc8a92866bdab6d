"""The games the table referees, each implementing :class:`controller.games.base.Game`.

Adding a game touches no file here: either call :func:`register` (tests, plug-ins loaded by
your own code) or, for an installed package, declare an entry point in the ``gametable.games``
group whose object is the game (a module or object implementing :class:`Game`)::

    [project.entry-points."gametable.games"]
    bang = "bang_game"

The game's name is ``describe()["game"]``; that is what ``new_game`` inputs name.
"""

from __future__ import annotations

import logging
from importlib.metadata import entry_points

from controller.games import bang, coinwar, coup, sanguosha_map
from controller.games.base import Game, GameError, OnTheTable

log = logging.getLogger("gametable.games")

ENTRY_POINT_GROUP = "gametable.games"

# Checked by mypy: the built-in games implement the contract.
_BUILT_IN: tuple[Game, ...] = (coinwar, coup, bang, sanguosha_map)
_ON_THE_TABLE: tuple[OnTheTable, ...] = (coinwar,)  # and their optional table members
_GAMES: dict[str, Game] = {}
_loaded_entry_points = False
_loaded_built_in = False


def register(game: Game) -> Game:
    """Offer ``game`` under ``describe()["game"]`` (replacing a game of that name)."""
    name = game.describe()["game"]
    if not isinstance(name, str) or not name:
        raise ValueError(f"a game's describe() must name it in 'game', got {name!r}")
    _GAMES[name] = game
    return game


def unregister(name: str) -> None:
    """Withdraw a registered game (tests that registered one of their own)."""
    _GAMES.pop(name, None)


def _load_entry_points() -> None:
    global _loaded_entry_points
    _loaded_entry_points = True
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            register(ep.load())
        except Exception:  # one broken plug-in must not take the table's other games down
            log.exception("cannot load game %s from entry point %s", ep.name, ep.value)


def registry() -> dict[str, Game]:
    """Every game the table can referee, by the name used in ``new_game``."""
    global _loaded_built_in
    if not _loaded_built_in:  # not "if not _GAMES": a game registered first must not hide the built-in ones
        _loaded_built_in = True
        for game in _BUILT_IN:
            _GAMES.setdefault(game.describe()["game"], game)  # one registered earlier under its name wins
    if not _loaded_entry_points:
        _load_entry_points()
    return _GAMES


def get_game(name: object) -> Game:
    games = registry()
    if not isinstance(name, str) or name not in games:
        raise GameError(f"unknown game {name!r}; known games: {', '.join(sorted(games))}")
    return games[name]


__all__ = ["ENTRY_POINT_GROUP", "Game", "GameError", "get_game", "register", "registry", "unregister"]
