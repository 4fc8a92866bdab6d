"""A finished game fed to the venue's ingest (gametable/venue/ingest.py) as a bridged table sends
it: the ``new_game`` event, the final state, and the table's ``results`` answer to the venue's
``sync`` (controller/finished_games.py) — the answer is what stores the result."""

from __future__ import annotations

import json
from typing import Any

from gametable.venue.ingest import Venue


def results_answer(game_id: str, players: list[dict[str, Any]], final: dict[str, Any], *, end: int = 5,
                   game_seq: int = 1, ts: float = 0.0) -> bytes:
    """The table's answer naming one finished game (the shape of ``FinishedGames.answer``)."""
    game = {"game_seq": game_seq, "ts": ts, "id": game_id, "end": end, "state": final,
            "opening": {"type": "new_game", "id": game_id, "game": final.get("game"), "players": players}}
    return json.dumps({"id": f"ask-{game_id}", "ok": True, "games": [game], "more": False, "newest": end,
                       "state": final, "seq": end}).encode()


def finish(venue: Venue, table: str, game_id: str, players: list[dict[str, Any]], final: dict[str, Any],
           *, ts: float = 0.0) -> None:
    """One game from its ``new_game`` event to the table's answer (``players``: as the new_game had
    them, tickets included)."""
    venue.on_message(f"gametable/{table}/events", json.dumps(
        {"seq": 1, "input": {"type": "new_game", "id": game_id, "game": final.get("game"), "players": players}}).encode())
    venue.on_message(f"gametable/{table}/state", json.dumps(final).encode())
    venue.on_message(f"gametable/{table}/results", results_answer(game_id, players, final, ts=ts))
