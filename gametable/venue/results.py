"""A finished game's results from its public state (docs/architecture.md: ``winner`` is null, a seat
list, or ``{"draw": [...]}``). Pure: no I/O.

Ranks: the winners (or the drawn seats) share rank 1, everyone else rank 2 -- the public state
names who won, not in which order the others fell, so the venue claims no more than that.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PlayerResult:
    seat: int
    name: str
    team: str | None
    rank: int  # 1 = won (or drew), 2 = lost


@dataclass(frozen=True)
class Outcome:
    game: str
    mode: str | None
    players: tuple[PlayerResult, ...]
    draw: bool


def winning_seats(winner: Any) -> tuple[set[int], bool] | None:
    """The seats that won and whether it was a draw; None while the game goes on."""
    if isinstance(winner, list):
        return {int(s) for s in winner}, False
    if isinstance(winner, dict) and isinstance(winner.get("draw"), list):
        return {int(s) for s in winner["draw"]}, True
    return None


def outcome(state: Any) -> Outcome | None:
    """The results of a finished game, None for a game still going (or no game)."""
    if not isinstance(state, dict) or not isinstance(state.get("game"), str):
        return None
    won = winning_seats(state.get("winner"))
    players = state.get("players")
    if won is None or not isinstance(players, list):
        return None
    seats, draw = won
    results = tuple(
        PlayerResult(int(p["seat"]), str(p.get("name") or f"seat {p['seat']}"),
                     str(p["team"]) if p.get("team") is not None else None, 1 if int(p["seat"]) in seats else 2)
        for p in players if isinstance(p, dict) and isinstance(p.get("seat"), int))
    mode = state.get("mode")
    return Outcome(state["game"], str(mode) if mode is not None else None, results, draw)


def game_key(table_id: str, new_game_event: dict[str, Any]) -> str:
    """A game's key from its ``new_game`` event: the table and the command's id (clients make ids
    that never repeat across runs), else the journal position and time of acceptance."""
    inp = new_game_event.get("input") or {}
    ident = inp.get("id") if isinstance(inp, dict) else None
    if ident is not None:
        return f"{table_id}:{ident}"
    return f"{table_id}:seq-{new_game_event.get('seq')}-{new_game_event.get('ts')}"
