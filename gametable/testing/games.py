"""Scripted games whose outcomes are known: stacked decks (CP-7 ``options.setup``) for the panel's
tests and benchmarks, and a Coup that ends in five inputs for the venue's."""

from __future__ import annotations

from collections import Counter
from typing import Any

from controller.games.coup.cards import CARDS, COPIES

ANN_HAND = ["duke", "captain"]  # Ann claims Duke for tax truthfully (CP-3.2)
BO_HAND = ["contessa", "assassin"]
CY_HAND = ["ambassador", "contessa"]
PLAYERS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"}]


def stacked_deck(hands: list[list[str]]) -> list[str]:
    """The 9 cards left after dealing ``hands``, in a fixed order (no Captain on top)."""
    left = Counter({c: COPIES for c in CARDS})
    left.subtract(Counter(c for h in hands for c in h))
    return [c for c in CARDS for _ in range(left[c])]


def coup_game(cid: str = "coup-1", timeout_s: float = 30) -> dict[str, Any]:
    """The ``new_game`` command: Ann first, 2 coins each, hands and deck stacked."""
    hands = {"1": ANN_HAND, "2": BO_HAND, "3": CY_HAND}
    return {"type": "new_game", "id": cid, "game": "coup", "mode": "classic", "players": PLAYERS, "seed": 5,
            "options": {"timeout_s": timeout_s,
                        "setup": {"hands": hands, "deck": stacked_deck(list(hands.values())), "first": 1}}}


def quick_coup(game_id: str, names: tuple[str, str] = ("Ann", "Bo")) -> list[dict[str, Any]]:
    """The commands of a two-player Coup that seat 1 wins in five inputs (CP-7 setup: two coups)."""
    new = {"type": "new_game", "game": "coup", "seed": 1, "id": game_id,
           "players": [{"seat": 1, "name": names[0]}, {"seat": 2, "name": names[1]}],
           "options": {"setup": {"hands": {"1": ["duke", "duke"], "2": ["captain", "contessa"]},
                                 "coins": {"1": 14}, "first": 1}}}
    moves = [(1, "coup", {"target": 2}), (2, "lose_influence", {"card": "captain"}), (2, "income", {}),
             (1, "coup", {"target": 2})]
    return [new, *({"type": "move", "seat": seat, "move": move, "args": args, "id": f"{game_id}-m{i}"}
                   for i, (seat, move, args) in enumerate(moves))]
