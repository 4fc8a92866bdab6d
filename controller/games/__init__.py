"""The rules engines, each a module offering the interface of :mod:`controller.games.base`."""

from __future__ import annotations

import functools
from types import ModuleType

from controller.games.base import GameError


@functools.cache
def registry() -> dict[str, ModuleType]:
    """Every game the table can referee, by the name used in ``new_game``."""
    from controller.games import coinwar

    games: dict[str, ModuleType] = {"coinwar": coinwar}
    try:
        from controller.games import coup
    except ImportError:  # pragma: no cover - coup lands separately
        pass
    else:
        games["coup"] = coup
    return games


def get_game(name: object) -> ModuleType:
    games = registry()
    if not isinstance(name, str) or name not in games:
        raise GameError(f"unknown game {name!r}; known games: {', '.join(sorted(games))}")
    return games[name]


__all__ = ["GameError", "get_game", "registry"]
