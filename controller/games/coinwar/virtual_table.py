"""Coin War on the virtual table: its virtual parts (``controller/virtual_parts.py``).

The virtual table (``gametable/sim_table.py``, ``sensors/virtual/``) knows no game: through
:class:`CoinWarParts` it asks this module where a coin starts (CW-1.6, CW-2.3, the CW-7.3 kick-off),
what a strike's ground truth (or the observer's facts) makes of the ``shot`` input, how that truth
answers an engine question (CW-8) and how a bot aims (``shot_planner.py``); it logs how far the
observer agreed with that truth.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from controller.games.coinwar.sensing import ObservedStrike
from controller.games.coinwar.shot_planner import plan
from controller.virtual_parts import UNKNOWN, Coin, Input
from gametable_core import table_geometry as geo
from sensors.virtual.physics import PhysicsParams, StrikeTruth

log = logging.getLogger("gametable.sim")
Point = tuple[float, float]

# Where each seat's coin starts (CW-2.3: near the rails, in front of the seat); seats go round the table.
SEAT_SPOTS: dict[int, Point] = {
    1: (212.5, 45.0),
    2: (380.0, 160.0),
    3: (380.0, 465.0),
    4: (212.5, 580.0),
    5: (45.0, 465.0),
    6: (45.0, 160.0),
}


BALL = "ball"
# CW-7.3 kick-off: team A (defends mouth A at y = 0) on its half, team B on the other, ball on the centre
FOOTBALL_SPOTS: dict[str, Point] = {
    "A1": (110.0, 170.0), "A2": (212.5, 120.0), "A3": (315.0, 170.0),
    "B1": (110.0, 455.0), "B2": (212.5, 505.0), "B3": (315.0, 455.0),
    BALL: geo.CENTRE,
}


def coins_of(st: dict[str, Any]) -> list[Coin]:
    """(coin, owner seat, on the table?) for every coin of the game in a public state.

    Uses ``coins_on_table`` when the engine publishes it (football's team coins and ball have no
    owner); otherwise one coin per player, on the table while the player is alive."""
    seats = {p.get("coin") or f"c{p['seat']}": p.get("seat") for p in st.get("players", [])}
    if st.get("mode") == "football":
        seats = {c: None for c in FOOTBALL_SPOTS}
    on = st.get("coins_on_table")
    if on is not None:
        names = list(dict.fromkeys(list(seats) + list(on)))
        return [(c, seats.get(c), c in on) for c in names]
    alive = {p.get("coin") or f"c{p['seat']}": p.get("alive", True) for p in st.get("players", [])}
    return [(c, seat, bool(alive.get(c, True))) for c, seat in seats.items()]


def initial_spot(coin: str, seat: int | None) -> Point:
    """The initial position (CW-1.6) of a coin: in front of its seat, near the rail."""
    if coin in FOOTBALL_SPOTS:
        return FOOTBALL_SPOTS[coin]
    if seat in SEAT_SPOTS:
        return SEAT_SPOTS[seat]
    digits = "".join(ch for ch in coin if ch.isdigit())
    n = int(digits) if digits else 1
    return SEAT_SPOTS[(n - 1) % 6 + 1]




def compare_with_truth(facts: ObservedStrike, truth: StrikeTruth) -> dict[str, bool]:
    """Does what the beams saw agree with the physics (``--truth`` on the real path logs it)?

    ``None`` (not observable) agrees with anything; ``[]`` must match the truth exactly."""
    agree = {
        "dead": facts.dead is None or sorted(facts.dead) == sorted(truth.dead),
        "flown": facts.flown is None or sorted(facts.flown) == sorted(truth.flown),
    }
    if all(agree.values()):
        log.debug("sim: observer agrees with the truth (dead %s, flown %s)", facts.dead, facts.flown)
    else:
        log.info("sim: observer saw dead=%s flown=%s, truth dead=%s flown=%s", facts.dead, facts.flown,
                 truth.dead, truth.flown)
    return agree


def answer_from_truth(question: dict[str, Any], truth: StrikeTruth, state: dict[str, Any]) -> Any:
    """The answer the ground truth gives to an engine question (CW-8), by what it asks about.

    The engine's kinds are ``dead``, ``flown`` and ``contacts`` (about the question's ``subject``
    coin, default the struck coin); other wordings are matched on keywords."""
    kind = str(question.get("kind", "")).lower()
    if kind not in ("dead", "flown", "contacts"):
        words = f"{kind} {question.get('text', '')}".lower()
        kind = next((k for k, ws in (("dead", ("dead", "goal", "died")), ("flown", ("flown", "fly", "flew", "foul")),
                                      ("contacts", ("contact", "touch", "attack", "hit"))) if any(w in words for w in ws)), "")
    options = question.get("options")
    multi = bool(question.get("multi"))
    if kind == "dead":
        facts: list[Any] = list(truth.dead)
    elif kind == "flown":
        facts = list(truth.flown)
    elif kind == "contacts":
        subject = question.get("subject") or truth.coin
        facts = sorted({c for pair in truth.contacts if subject in pair for c in pair} - {subject})
        if isinstance(options, list) and options and all(isinstance(o, bool) for o in options):
            players = {p.get("coin") or f"c{p['seat']}": p for p in state.get("players", [])}
            me = players.get(subject, {})
            enemy = [c for c in facts if me.get("team") is None or players.get(c, {}).get("team") != me.get("team")]
            return bool(enemy)
    else:
        return UNKNOWN
    if isinstance(options, list) and options and all(isinstance(o, str) for o in options):
        facts = [c for c in facts if c in options]
    elif isinstance(options, list) and options and all(isinstance(o, int) and not isinstance(o, bool) for o in options):
        seat_of = {p.get("coin") or f"c{p['seat']}": p["seat"] for p in state.get("players", [])}
        facts = [seat_of[c] for c in facts if seat_of.get(c) in options]  # the question names seats
    if multi:
        return list(facts)
    return facts[0] if facts else None


class CoinWarParts:
    """Coin War's virtual parts for one game (``controller/virtual_parts.py``); football (CW-7.3)
    is played on a table with goal mouths and has a ball."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.football = state.get("mode") == "football"

    def coins(self, state: dict[str, Any]) -> list[Coin]:
        return coins_of(state)

    def initial_spot(self, coin: str, seat: int | None) -> Point:
        return initial_spot(coin, seat)

    def physics(self, params: PhysicsParams) -> PhysicsParams:
        """CW-7.3: football tables have goal mouths."""
        return params if params.mouths == self.football else replace(params, mouths=self.football)

    def shot(self, seat: int, coin: str, truth: StrikeTruth, facts: ObservedStrike | None) -> Input:
        if self.football:
            # CW-7.3: a team coin through a mouth is a flown coin; the ball through one is a goal
            truth.flown = sorted(set(truth.flown) | {c for c in truth.mouths if c != BALL})
        shot = facts.shot() if facts is not None else truth.shot(seat)
        shot["coin"] = coin  # the struck coin is the one the player dragged (not a beam fact)
        if self.football:
            # beams cannot tell the ball from a team coin in a mouth: the mouth comes from the truth
            shot["mouth"] = truth.mouths.get(BALL)
            if shot["dead"] is None:
                shot["dead"] = []  # nothing dies in football
        return shot

    def compare(self, facts: ObservedStrike, truth: StrikeTruth) -> dict[str, bool]:
        return compare_with_truth(facts, truth)

    def answer(self, question: dict[str, Any], truth: StrikeTruth, state: dict[str, Any]) -> Any:
        return answer_from_truth(question, truth, state)

    def plan(self, positions: dict[str, Point], state: dict[str, Any], seat: int, seed: int,
             coins: Sequence[str] | None) -> tuple[str, float, float]:
        return plan(positions, state, seat, seed=seed, coins=None if coins is None else list(coins))
