"""The ``new_game`` of a game the simulator's bots play, built from the game's own ``describe()``
(controller/new_game_input.py says how): the simulator knows no game by name, so a game
registered from anywhere gets bot games too. The rest is what the lobby sends: the game, the mode
(asked for, or the game's first), the players, the turn order (their seats as given) and the seed.
"""

from __future__ import annotations

from typing import Any

from controller.games import get_game
from controller.new_game_input import BotGame, BotGameError, declared_in, modes_of, new_game_input


def _modes(game: str) -> list[dict[str, Any]]:
    return modes_of(get_game(game).describe())


def mode_for(game: str, wanted: str | None = None, players: int | None = None) -> str | None:
    """The mode of a bot game: ``wanted`` (the game itself refuses one it lacks), else the game's
    first mode; with ``players``, the first one for that many players if ``wanted`` is not (the
    two-player demo: a teams mode needs four). None for a game without modes."""
    modes = _modes(game)
    if players is not None:
        fits = [m["mode"] for m in modes if players in (m.get("players") or [])]
        if not fits:
            raise BotGameError(f"{game} has no mode for {players} players")
        return wanted if wanted in fits else fits[0]
    if wanted is not None or not modes:
        return wanted
    return str(modes[0]["mode"])


def declared(game: str, mode: str | None) -> BotGame:
    """The ``bot_game`` entry of ``mode``, else of the game, else none (``{}``); checked."""
    return declared_in(get_game(game).describe(), game, mode)


def new_game(game: str, players: list[dict[str, Any]], *, mode: str | None, seed: int | None) -> dict[str, Any]:
    """The ``new_game`` input (without id) for ``players`` (``seat``, ``name``, ``bot``) in turn order."""
    return new_game_input(get_game(game).describe(), game, players, mode=mode, seed=seed)


__all__ = ["BotGame", "BotGameError", "declared", "mode_for", "new_game"]
