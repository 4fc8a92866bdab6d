"""The guided first game (docs/phones.md "The guided first game"): a newcomer's phone asks for a
short game against bots, and the panel builds its ``new_game`` here.

Why the panel builds it, not the phone: a seated phone is not the host, so what it may start is
narrow and fixed here. The newcomer plays their own seat; bots take the fewest other seats the mode
allows (free seats only, the lowest first); the windows are long enough to read the guide beside
them; the seed is fixed, so every guided game of a mode deals the same. The phone's guide (its
steps: static/learn.js and each game's view ``tutorial``) points at the controls; the engine
referees the game as any other. Pure functions.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from gametable_core.said import say
from web_panel.commands import CommandError, request_id

SEED = 1  # one deal per guided game of a mode: the guide reads the same for everyone
WINDOW_S = 60  # a reaction window of a guided game: time to read the guide beside it


def playing(public: Mapping[str, Any] | None) -> bool:
    return bool(public) and (public or {}).get("phase") == "playing"


def may_replace(public: Mapping[str, Any] | None, seat: int, taken: Collection[int], *, host: bool,
                virtual: bool, guided_seat: int | None) -> bool:
    """Whether this phone may put a guided game on the table now: the host always may (it may start
    any game); a seated phone when no game is played, when the game is the guided game the panel
    started for this same seat, or, on the virtual table, when no other phone holds a seat of the
    game being played (the demo's bots, or this phone against them)."""
    if host or not playing(public):
        return True
    if guided_seat == seat:
        return True
    seats = {p.get("seat") for p in (public or {}).get("players") or [] if isinstance(p, dict)}
    return virtual and not (seats & (set(taken) - {seat}))


def _mode(described: Mapping[str, Any], mode: Any) -> dict[str, Any]:
    modes = [m for m in described.get("modes") or [] if isinstance(m, dict)]
    if mode is None and modes:
        return modes[0]
    found = next((m for m in modes if m.get("mode") == mode), None)
    if found is None:
        raise CommandError(400, say("unknown mode {mode}; this game's modes: {modes}", mode=repr(mode),
                                    modes=", ".join(str(m.get("mode")) for m in modes)))
    return found


def fewest_players(described: Mapping[str, Any], mode: Mapping[str, Any]) -> int:
    counts = [n for n in mode.get("players") or [] if isinstance(n, int)]
    if counts:
        return min(counts)
    return int((described.get("players") or {}).get("min") or 2)


def guided_options(mode: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """A guided game's options: every answer window (an option with a ``beginner`` length) long
    enough to read the guide beside it, and what the mode's describe() asks of a first game
    (``guided``: ``options``, and ``first``, the option path that names the seat playing first)."""
    guided = mode.get("guided") or {}
    options: dict[str, Any] = {k: max(WINDOW_S, o["beginner"]) for k, o in (mode.get("options") or {}).items()
                               if isinstance(o, dict) and isinstance(o.get("beginner"), int | float)}
    options.update(guided.get("options") or {})
    path = guided.get("first")
    if path:
        *parents, last = path
        node = options
        for key in parents:
            node = node.setdefault(key, {})
        node[last] = seat
    return options


def guided_game(body: Any, seat: int, games: Mapping[str, Any], taken: Collection[int]) -> dict[str, Any]:
    """The ``new_game`` of a guided first game of ``body``'s game and mode for the phone on
    ``seat``: that seat and the fewest bots the mode allows, on free seats (``taken``: the seats
    phones hold). Raises :class:`CommandError` with the reason."""
    rid = request_id(body)
    game = body.get("game")
    if not games:
        raise CommandError(409, say("the table has not listed its games yet (is the daemon running?)"))
    if game not in games:
        raise CommandError(400, f"unknown game {game!r}; known games: {', '.join(sorted(games))}")
    described = games[game]
    mode = _mode(described, body.get("mode"))
    n = fewest_players(described, mode)
    free = [s for s in range(1, 7) if s != seat and s not in taken]
    if len(free) < n - 1:
        raise CommandError(409, say("a guided game needs {n} free seats for its bots; phones hold the others "
                                    "(the host can free them)", n=n - 1))
    bots = free[:n - 1]
    teams = bool(mode.get("teams")) and not (mode.get("seat_roles") or {}).get("teams_from_roles")
    seats = [seat, *bots]
    players = [{"seat": s, "name": f"Seat {s}" if s == seat else f"Bot {s}", **({} if s == seat else {"bot": True}),
                **({"team": "AB"[i % 2]} if teams else {})} for i, s in enumerate(seats)]
    options = guided_options(mode, seat)
    order = sorted(seats) if described.get("free_seating") is False else seats  # around the ring, else you first
    cmd = {"type": "new_game", "id": f"learn-{rid}", "game": game, "players": players, "order": order,
           "options": options, "seed": SEED}
    return cmd | ({"mode": mode["mode"]} if mode.get("mode") is not None else {})
