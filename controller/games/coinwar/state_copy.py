"""A deep copy of a Coin War state, written out for the layout every mode shares.

Every ``apply`` copies the state, and a CW-8 question decision resolves a copy per candidate set
of facts, so copying is the engine's hottest path. Only containers whose entries are plain values
are copied by hand (:func:`controller.games.base.copy_with_layout`); everything else (questions,
the pending shot, narration, a mode's own keys such as ``tk``) goes through one ``clone``.
tests/test_perf_equivalence.py checks on random games of every mode that the copy equals the
state, shares no container with it, and that the hand-copied parts are shared with nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.games.base import State, copy_with_layout

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
    return copy_with_layout(state, LAYOUT)
