"""A deep copy of a Coin War state, written out for the layout every mode shares.

Every ``apply`` copies the state, and a CW-8 question decision resolves a copy per candidate set
of facts, so copying is the engine's hottest path. A generic deep copy (``base.clone``, a
marshal round trip) rebuilds every key string; copying the shared layout by hand keeps the
immutable strings and numbers and is about 2.5x faster. Only containers whose entries are plain
values are copied by hand; everything else (questions, the pending shot, narration, a mode's own
keys such as ``tk``) goes through one ``clone`` together, which also keeps any references they
share. tests/test_perf_equivalence.py checks on random games of every mode that the copy equals
the state, shares no container with it, and that the hand-copied parts are shared with nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.games.base import clone

State = dict[str, Any]

# key -> how to copy its value; each of these holds only str/int/bool/None below the level copied
LAYOUT: dict[str, Callable[[Any], Any]] = {
    "players": lambda players: [dict(p) for p in players],  # seat, name, alive, coin, team, role
    "coins": lambda coins: {c: dict(info) for c, info in coins.items()},  # owner/team, on_table
    "last_played": dict,  # group key -> seat
    "turn": dict,  # seat, strikes, extra
    "order": list,  # seats
    "groups": lambda groups: [{**g, "members": list(g["members"])} for g in groups],
    "pending_placements": lambda placements: [dict(p) for p in placements],  # coin, by, where
}


def copy_state(state: State) -> State:
    """A deep copy equal to ``clone(state)``: same keys in the same order, nothing shared."""
    new = dict(state)
    rest = {k: v for k, v in state.items() if k not in LAYOUT and type(v) in (dict, list)}
    if rest:
        new.update(clone(rest))
    for key, copy in LAYOUT.items():
        value = state.get(key)
        if value is not None:
            new[key] = copy(value)
    return new
