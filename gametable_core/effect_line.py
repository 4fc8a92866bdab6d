"""The generic log line for one effect: ``Ann: steal (target Bo, coins 2)``.

Two places say an effect without knowing its game: the daemon's shared words
(``controller.games.words``) for an effect a game has no sentence for, and the panel's log
(``web_panel.loglines``) for an event from a daemon older than the ``words`` contract
(docs/architecture.md "MQTT"). They must read alike, and the panel may not import a game package,
so the line lives here, below both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Who = Callable[[Any], str]

_SEAT_KEYS = ("target", "by", "claimant")  # an int under these names a seat
_SKIPPED = ("kind", "seat", "rule")  # said by the line's shape, or not for players


def effect_line(eff: dict[str, Any], who: Who, *, blank_kind: str | None = None) -> str:
    """``eff`` as ``Subject: kind (key value, ...)``; seats named by ``who``. ``blank_kind``, when
    given, stands in for a kind that is only blanks or underscores (the panel shows "event")."""
    kind = str(eff["kind"]).replace("_", " ")
    if blank_kind is not None:
        kind = kind.strip() or blank_kind
    subject = who(eff["seat"]) + ": " if "seat" in eff else ""
    details = []
    for key, value in eff.items():
        if key in _SKIPPED:
            continue
        if key in _SEAT_KEYS and isinstance(value, int):
            value = who(value)
        details.append(f"{key.replace('_', ' ')} {value}")
    return f"{subject}{kind}" + (f" ({', '.join(details)})" if details else "")


def seat_names(inp: Any, players: Iterable[Any], unnamed: Callable[[int], str]) -> dict[int, str]:
    """Seat -> name from a ``new_game`` input's players (they are new) first, then the public
    state's; ``unnamed(seat)`` for a player without a name."""
    names: dict[int, str] = {}
    given = inp.get("players") if isinstance(inp, dict) and isinstance(inp.get("players"), list) else []
    for source in (given, players):
        for p in source or []:
            if isinstance(p, dict) and isinstance(p.get("seat"), int):
                names.setdefault(p["seat"], str(p.get("name") or unnamed(p["seat"])))
    return names
