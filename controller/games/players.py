"""The one check of a ``new_game``'s player list, shared by every game: a list of
``{"seat": 1-6, "name": 1-40 characters, …}`` with no seat twice. How many players a game or mode
takes is the game's own check."""

from __future__ import annotations

from typing import Any

from controller.games.base import GameError

SEATS = range(1, 7)  # the table's six seats
MAX_NAME = 40


def check_players(players: object) -> list[dict[str, Any]]:
    """The players as given (each dict kept whole: a team, a role), checked; GameError names the
    first bad entry."""
    if not isinstance(players, list) or not players:
        raise GameError("'players' must be a non-empty list of {seat, name}")
    seen: set[int] = set()
    for p in players:
        if not isinstance(p, dict):
            raise GameError(f"each player must be an object with 'seat' and 'name', got {p!r}")
        seat = p.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
            raise GameError(f"player seat must be a number from 1 to 6 (the table's seats), got {seat!r}")
        name = p.get("name", f"Seat {seat}")
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise GameError(f"seat {seat}: name must be 1-{MAX_NAME} characters, got {name!r}")
        if seat in seen:
            raise GameError(f"seat {seat} appears twice in players")
        seen.add(seat)
    return players


def name_of(player: dict[str, Any]) -> str:
    """A checked player's name, trimmed ("Seat N" when none was given)."""
    return str(player.get("name", f"Seat {player['seat']}")).strip()


def setup_seat_key(key: object, seats: list[int], what: str) -> int:
    """A seat key of an ``options.setup`` map: JSON makes keys strings, so "2" is seat 2 too."""
    if isinstance(key, str) and key.strip().isdigit():
        key = int(key)
    if isinstance(key, bool) or not isinstance(key, int) or key not in seats:
        raise GameError(f"setup.{what}: {key!r} is not a seat at this table (seats {seats})")
    return key


def setup_per_seat(setup: dict[str, Any], what: str, seats: list[int]) -> dict[int, Any]:
    """``setup[what]`` (a map from seat to value, for stacking a game in tests and teaching) by seat."""
    given = setup.get(what) or {}
    if not isinstance(given, dict):
        raise GameError(f"setup.{what} must map seats to values")
    return {setup_seat_key(k, seats, what): v for k, v in given.items()}


def check_mode_and_seed(game: str, mode: object, modes: tuple[str, ...] | list[str], seed: object) -> None:
    """The first checks of a card game's ``new``: a mode it offers (or none) and an integer seed."""
    if mode not in (None, *modes):
        raise GameError(f"unknown {game} mode {mode!r}; modes: {', '.join(modes)}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise GameError(f"seed must be an integer, got {seed!r}")


# A beginners' answer window (docs/phones.md: 8 and 10 s cost a newcomer group a life in the first
# minutes): the lobby starts every window-length option here; the game's own default is "Regular".
BEGINNER_WINDOW_S = 25


def window_option(default: float, description: str) -> dict[str, Any]:
    """A window-length option of a game's describe(): its regular default and the beginners' length."""
    return {"default": default, "beginner": BEGINNER_WINDOW_S, "description": description}


def check_seconds(value: object, name: str) -> float:
    """A window's length option (``timeout_s`` …): a number of seconds in (0, 3600]."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 3600:
        raise GameError(f"{name} must be a number of seconds in (0, 3600], got {value!r}")
    return value


def check_setup(setup: object, keys: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """``options.setup`` (stacking for tests and demos): an object with only the game's known keys."""
    if not isinstance(setup, dict):
        raise GameError("options.setup must be an object")
    unknown = sorted(set(setup) - set(keys))
    if unknown:
        raise GameError(f"unknown setup key {unknown[0]!r}; known: {', '.join(keys)}")
    return setup
