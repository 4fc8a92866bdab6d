"""Coin War on the virtual table: where its coins start, and its answers from the physics' truth.

The virtual table (``gametable/sim_table.py``, ``virtual/``) knows no game: it asks this module where a
coin starts (CW-1.6, CW-2.3, the CW-7.3 kick-off) and how the ground truth of a strike answers an
engine question (CW-8); it logs how far the observer agreed with that truth.
"""

from __future__ import annotations

import logging
from typing import Any

from controller.games.coinwar.sensing import ObservedStrike
from core import table_geometry as geo
from virtual.physics import StrikeTruth

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


def coins_of(st: dict[str, Any]) -> list[tuple[str, int | None, bool]]:
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


UNKNOWN = object()  # the truth cannot answer this question

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
