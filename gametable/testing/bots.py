"""Random legal play for every game in ``controller.games.registry()`` (Coup joins by itself).

Bots choose only among what the game's ``legal()`` offers, from a local mirror of the table that is
fed exactly the inputs the daemon acknowledged, so the mirror is also the oracle of what the
daemon's state must be.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

from controller.games import registry
from controller.table import Table

# one token per process: a bot's command ids never repeat across runs, and two bots of one seed and
# prefix in one process still send the same ids (the fault tests re-send to see duplicates)
RUN = uuid.uuid4().hex[:8]


def new_game_input(name: str, rnd: random.Random) -> dict[str, Any]:
    """A random ``new_game`` for game ``name`` (random mode and player count where it has them)."""
    if name == "coinwar":
        from controller.games import coinwar as cw
        from controller.games.coinwar.randomplay import random_new_game

        return random_new_game(rnd, rnd.choice(sorted(cw.MODES)))
    described = registry()[name].describe()
    mode = (described.get("modes") or [{}])[0]
    if mode.get("teams"):  # a team game: a player count its lobby offers, sides A and B alternating
        seats = sorted(rnd.sample(range(1, 7), rnd.choice(mode["players"])))
        return {"type": "new_game", "game": name, "seed": rnd.randrange(2**31), "options": {},
                "players": [{"seat": s, "name": f"Bot{s}", "team": "AB"[i % 2]} for i, s in enumerate(seats)]}
    lo, hi = described["players"]["min"], described["players"]["max"]
    seats = sorted(rnd.sample(range(1, 7), rnd.randint(lo, min(hi, 6))))
    return {"type": "new_game", "game": name, "players": [{"seat": s, "name": f"Bot{s}"} for s in seats],
            "options": {}, "seed": rnd.randrange(2**31)}


def random_legal(table: Table, rnd: random.Random) -> dict[str, Any] | None:
    """One random legal input for the table's current game, or None when it is over."""
    state, game = table.state, table.game
    if state is None or game is None or state.get("phase") != "playing":
        return None
    name = game.describe()["game"]
    if name == "coinwar":
        from controller.games.coinwar.randomplay import random_input

        return random_input(state, rnd)
    options: list[dict[str, Any]] = []
    for seat in table.seats():
        legal = game.legal(state, seat)
        if name == "coup":  # Coup's legal moves name their choices; inputs_for spells them out
            from controller.games.coup import inputs_for

            options += inputs_for(legal)
        else:
            options += [{**m, "seat": seat} for m in legal.get("moves", []) if "type" in m]
    return rnd.choice(options) if options else None


class Bot:
    """Plays every registered game in turn, forever: one input at a time, with unique ids."""

    def __init__(self, seed: int, prefix: str = "b", max_inputs_per_game: int = 300) -> None:
        self.rnd = random.Random(seed)
        self.mirror = Table()
        self.history: list[dict[str, Any]] = []  # every input the mirror accepted, in order
        self.prefix = prefix
        self.games = sorted(registry())
        self.count = 0
        self.in_game = 0
        self.max_inputs_per_game = max_inputs_per_game

    def next_command(self) -> dict[str, Any]:
        """The next command to send (an ``id`` included); ``accepted`` must follow if it is ok."""
        inp = None if self.in_game >= self.max_inputs_per_game else random_legal(self.mirror, self.rnd)
        if inp is None:
            game = self.games[self.count % len(self.games)] if self.count else "coinwar"
            inp = new_game_input(game, self.rnd)
            self.in_game = 0
        self.count += 1
        return {**inp, "id": f"{self.prefix}-{RUN}-{self.count}"}

    def accepted(self, cmd: dict[str, Any]) -> None:
        """The daemon accepted ``cmd`` (first time or as a duplicate): the mirror applies it once."""
        result = self.mirror.submit(cmd)
        assert result.ok, f"mirror refused what the daemon accepted: {result.error}"
        if not result.duplicate and result.input is not None:
            self.history.append(result.input)
        self.in_game += 1


def comparable(state: dict[str, Any] | None) -> dict[str, Any] | None:
    """A published state without what only the live daemon knows: a reaction window's wall-clock
    ``deadline`` / ``remaining_s`` (CP-6), which a replay of the journal cannot reproduce."""
    if not state or not isinstance(state.get("window"), dict):
        return state
    window = {k: v for k, v in state["window"].items() if k not in ("deadline", "remaining_s")}
    return {**state, "window": window}
