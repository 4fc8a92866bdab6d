"""What a game brings to the virtual table (``gametable sim``): its *virtual parts*.

Why: the simulator (``gametable/sim_table.py``) plays the table's physics for any game and must know
none. A game that plays on the table's physics declares ``virtual_parts(state) -> VirtualParts | None``
beside ``table_adapter`` (``controller/games/README.md``): where its coins start, how the physics'
ground truth of a strike becomes its ``shot`` input, how that truth answers its questions and how
its bots aim. A game without the hook (the card games) has nothing on the virtual table; the
simulator then only runs its bots through the bot runner. A game's parts live in its own package
(its ``virtual_table`` module).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from sensors.virtual.physics import PhysicsParams, Point, StrikeTruth

Input = dict[str, Any]
# (coin, owner seat or None, on the table now?)
Coin = tuple[str, int | None, bool]

UNKNOWN = object()  # VirtualParts.answer: the truth cannot answer this question


class VirtualParts(Protocol):
    """One game's things on the virtual table, for the game (and mode) of one public state."""

    def coins(self, state: dict[str, Any]) -> list[Coin]:
        """Every coin of the game in a public state, with its owner and whether it is on the table."""

    def initial_spot(self, coin: str, seat: int | None) -> Point:
        """Where ``coin`` (of ``seat``) starts on the table, in mm."""

    def physics(self, params: PhysicsParams) -> PhysicsParams:
        """The physics this game is played with (e.g. goal mouths in the rails)."""

    def shot(self, seat: int, coin: str, truth: StrikeTruth, facts: Any | None) -> Input:
        """The ``shot`` input of ``seat``'s strike of ``coin`` at rest: from the observer's ``facts``
        (``--ask``), or from the physics' ``truth`` when ``facts`` is None."""

    def compare(self, facts: Any, truth: StrikeTruth) -> dict[str, bool]:
        """Whether what the sensors saw agrees with the truth, per fact (logged, never submitted)."""

    def answer(self, question: dict[str, Any], truth: StrikeTruth, state: dict[str, Any]) -> Any:
        """The answer the truth gives to an engine question, or :data:`UNKNOWN`."""

    def plan(self, positions: dict[str, Point], state: dict[str, Any], seat: int, seed: int,
             coins: Sequence[str] | None) -> tuple[str, float, float]:
        """A bot's strike for ``seat``: (coin, vx, vy) in mm/s, one of ``coins`` when given;
        ValueError (one readable line) when the bot cannot strike now."""

