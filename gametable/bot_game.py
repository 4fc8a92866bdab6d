"""The ``new_game`` of a game the simulator's bots play, built from the game's own ``describe()``:
the simulator knows no game by name, so a game registered from anywhere gets bot games too.

A game, or one of its modes, may declare beside its lobby fields what a game of bots needs:
``"bot_game": {"options": {...}, "teams": "alternate"}`` -- options that let bots finish on their
own (the battlefield's quick fights) and how the bots form sides (``"alternate"``: teams A, B, A, B
in seat order, for modes played in two teams). A mode's entry wins over the game's; with neither,
the bots play the game's default options and no teams. The rest is what the lobby sends: the game,
the mode (asked for, or the game's first), the players, the turn order (their seats as given) and
the seed.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from controller.games import get_game


class BotGame(TypedDict, total=False):
    """A ``describe()`` (or mode) entry ``bot_game``: see the module's docstring."""

    options: dict[str, Any]
    teams: Literal["alternate"]


class BotGameError(ValueError):
    """A bot game the game cannot offer (e.g. no mode for that many players); one line."""


def _modes(game: str) -> list[dict[str, Any]]:
    return [m for m in get_game(game).describe().get("modes") or [] if isinstance(m, dict)]


def mode_for(game: str, wanted: str | None = None, players: int | None = None) -> str | None:
    """The mode of a bot game: ``wanted`` (the game itself refuses one it lacks), else the game's
    first mode; with ``players``, the first one for that many players if ``wanted`` is not (the
    two-player demo: Coin War's teams modes need four). None for a game without modes."""
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
    entry = next((m.get("bot_game") for m in _modes(game) if m.get("mode") == mode), None)
    entry = entry if entry is not None else get_game(game).describe().get("bot_game")
    if entry is None:
        return {}
    teams = entry.get("teams") if isinstance(entry, dict) else None
    options = entry.get("options", {}) if isinstance(entry, dict) else None
    if not isinstance(options, dict) or teams not in (None, "alternate") or set(entry) - {"options", "teams"}:
        raise BotGameError(f"{game}: describe()'s bot_game must be {{'options': {{...}}, 'teams': 'alternate'}}, "
                           f"got {entry!r}")
    out: BotGame = {"options": dict(options)}
    if teams == "alternate":
        out["teams"] = "alternate"
    return out


def new_game(game: str, players: list[dict[str, Any]], *, mode: str | None, seed: int | None) -> dict[str, Any]:
    """The ``new_game`` input (without id) for ``players`` (``seat``, ``name``, ``bot``) in turn order."""
    decl = declared(game, mode)
    if decl.get("teams") == "alternate":  # two sides, seats alternating (CW-2.2, SG-8.1)
        players = [{**p, "team": "AB"[i % 2]} for i, p in enumerate(players)]
    inp: dict[str, Any] = {"type": "new_game", "game": game, "players": players,
                           "order": [p["seat"] for p in players], "options": dict(decl.get("options") or {})}
    if mode is not None:
        inp["mode"] = mode
    if seed is not None:
        inp["seed"] = seed
    return inp


__all__ = ["BotGame", "BotGameError", "declared", "mode_for", "new_game"]
