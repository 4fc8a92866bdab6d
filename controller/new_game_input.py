"""The ``new_game`` input for given players, built from a game's own ``describe()`` alone: the
simulator's bot games (gametable/bot_game.py) and the venue's match offers (controller/venue_offer.py)
build it the same way, and the panel, which knows the games only from ``gametable/T/games``, too.

A game, or one of its modes, may declare beside its lobby fields what a game of bots needs:
``"bot_game": {"options": {...}, "teams": "alternate"}`` -- options that let bots finish on their
own (quick fights, say) and how the bots form sides (``"alternate"``: teams A, B, A, B
in seat order, for modes played in two teams). A mode's entry wins over the game's; with neither,
the game's default options and no teams.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict


class BotGame(TypedDict, total=False):
    """A ``describe()`` (or mode) entry ``bot_game``: see the module's docstring."""

    options: dict[str, Any]
    teams: Literal["alternate"]


class BotGameError(ValueError):
    """A bot game the game cannot offer (e.g. no mode for that many players); one line."""


def modes_of(described: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in described.get("modes") or [] if isinstance(m, dict)]


def declared_in(described: dict[str, Any], game: str, mode: str | None) -> BotGame:
    """The ``bot_game`` entry of ``mode``, else of the game, else none (``{}``); checked."""
    entry = next((m.get("bot_game") for m in modes_of(described) if m.get("mode") == mode), None)
    entry = entry if entry is not None else described.get("bot_game")
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


def new_game_input(described: dict[str, Any], game: str, players: list[dict[str, Any]], *, mode: str | None,
                   seed: int | None) -> dict[str, Any]:
    """The ``new_game`` input (without id) for ``players`` (``seat``, ``name``, ``bot``) in turn order."""
    decl = declared_in(described, game, mode)
    if decl.get("teams") == "alternate":  # two sides, seats alternating (CW-2.2, SG-8.1)
        players = [{**p, "team": "AB"[i % 2]} for i, p in enumerate(players)]
    inp: dict[str, Any] = {"type": "new_game", "game": game, "players": players,
                           "order": [p["seat"] for p in players], "options": dict(decl.get("options") or {})}
    if mode is not None:
        inp["mode"] = mode
    if seed is not None:
        inp["seed"] = seed
    return inp
