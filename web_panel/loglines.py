"""The table log's lines for one ``events`` message, without knowing any game.

The game's own words arrive with the event (``"words": [...]``, docs/architecture.md "MQTT"), written
by the game's words module in the daemon; the panel only shows them. An event without words (from
a daemon older than the words contract) still gets one plain line per effect, so the log never
drops an accepted input silently.
"""

from __future__ import annotations

from typing import Any

from gametable_core.effect_line import effect_line, seat_names

MAX_LINES = 40  # one event never floods the phones' log
MAX_CHARS = 300


def log_lines(event: Any, players: list[dict[str, Any]]) -> list[str]:
    """The lines to show for ``event``: its ``words``, else a generic line per effect."""
    return [line for line, _ in log_entries(event, players)]


def log_entries(event: Any, players: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Each line to show with its message (``events``' ``says``, docs/i18n.md), which a phone
    says in its own language; a line without one is shown as it is (``{"text": line}``)."""
    if not isinstance(event, dict):
        return []
    words, said = event.get("words"), event.get("says")
    if isinstance(words, list):
        msgs = said if isinstance(said, list) and len(said) == len(words) else [None] * len(words)
        pairs = [(w, m) for w, m in zip(words, msgs, strict=True) if isinstance(w, str)]
    else:
        pairs = [(line, None) for line in fallback_lines(event, players)]
    return [(_one_line(line), m if isinstance(m, dict) else {"text": _one_line(line)})
            for line, m in pairs if line.strip()][:MAX_LINES]


def _one_line(text: str) -> str:
    return " ".join(text.split())[:MAX_CHARS]


def fallback_lines(event: dict[str, Any], players: list[dict[str, Any]]) -> list[str]:
    """``Ann: steal (target Bo, coins 2)``: readable enough for a game (or daemon) we do not know."""
    names = seat_names(event.get("input"), players, lambda n: f"Seat {n}")  # a new_game's players first

    def who(seat: Any) -> str:
        if isinstance(seat, int) and not isinstance(seat, bool):
            return names.get(seat, f"Seat {seat}")
        return str(seat)

    effects = event.get("effects")
    lines = [effect_line(e, who, blank_kind="event") for e in effects if isinstance(e, dict) and isinstance(e.get("kind"), str)] \
        if isinstance(effects, list) else []
    inp = event.get("input")
    if not lines and isinstance(inp, dict) and inp.get("type") == "undo":
        lines.append("Undo: the last input was taken back")
    return lines

