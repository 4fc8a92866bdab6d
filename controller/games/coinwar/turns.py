"""Turn order (CW-3): rotation groups, the two-level team rotation, extra turns.

State keys used here:
- ``groups``: ``[{"key": "A", "members": [1, 3]}, ...]`` — each team's rotation in order; free-for-all
  has one group holding every seat in turn order.
- ``last_group``: index of the group that played the last *regular* turn (None before the first).
- ``last_played``: ``{group_key: seat}`` — who played that group's last regular turn.
Dead players stay in ``members`` and are skipped, which is exactly CW-3.3 ("removed, the others keep
their relative order"); modes that insert players (CW-7.2) edit ``members``.
"""

from __future__ import annotations

from typing import Any

from controller.games.kit import player, rotation

State = dict[str, Any]


def alive(state: State, seat: int) -> bool:
    return player(state, seat)["alive"]


def group_index_of(state: State, seat: int) -> int:
    for i, group in enumerate(state["groups"]):
        if seat in group["members"]:
            return i
    raise KeyError(seat)


def _next_member(state: State, group: dict[str, Any]) -> int | None:
    """CW-3.2: the member after the one who played this group's last turn, skipping the dead."""
    members = group["members"]
    last = state["last_played"].get(group["key"])
    for seat in rotation(members, last) if last in members else members:
        if alive(state, seat):
            return seat
    return None


def next_regular_seat(state: State) -> int | None:
    """The seat of the next regular turn: teams alternate (CW-3.2), then the group's rotation."""
    groups = state["groups"]
    last_group = state["last_group"]
    first = 0 if last_group is None else (last_group + 1) % len(groups)
    for k in range(len(groups)):
        group = groups[(first + k) % len(groups)]
        seat = _next_member(state, group)
        if seat is not None:
            return seat
    return None


def start_regular_turn(state: State, seat: int) -> None:
    """Begin ``seat``'s regular turn and move both rotation levels to it."""
    gi = group_index_of(state, seat)
    state["last_group"] = gi
    state["last_played"][state["groups"][gi]["key"]] = seat
    state["turn"] = {"seat": seat, "strikes": 0, "extra": False}
    state["turn_coin"] = None
    state["strike_limit"] = 2


def start_extra_turn(state: State, seat: int) -> None:
    """CW-3.4 / CW-6.3: an extra turn is out of rotation; neither level moves."""
    state["turn"] = {"seat": seat, "strikes": 0, "extra": True}
    state["turn_coin"] = None
    state["strike_limit"] = 2


def remove_member(state: State, key: str, seat: int) -> None:
    """CW-3.3 / CW-7.2: take ``seat`` out of group ``key``'s rotation, the others keeping their
    order; if it played that group's last turn, its predecessor counts as the last so the member
    after it still plays next."""
    group = next(g for g in state["groups"] if g["key"] == key)
    members = group["members"]
    i = members.index(seat)
    if state["last_played"].get(key) == seat:
        state["last_played"][key] = members[i - 1] if len(members) > 1 else None
    members.pop(i)


def insert_member(state: State, key: str, seat: int, after: int | None) -> None:
    """CW-7.2: put ``seat`` into group ``key``'s rotation right after ``after`` (first if None)."""
    group = next(g for g in state["groups"] if g["key"] == key)
    members = group["members"]
    members.insert(members.index(after) + 1 if after in members else 0, seat)


def next_member(state: State, key: str) -> int | None:
    """Who plays group ``key``'s next regular turn (CW-3.2), without starting it."""
    group = next(g for g in state["groups"] if g["key"] == key)
    return _next_member(state, group)
