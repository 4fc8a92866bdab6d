"""What a Coup bot knows about the table: the cards it can see, each seat's claims and record.

Fed only from views (public ones are enough, plus the bot's own hand), so a bot never learns a
hidden card. The numbers are the bot's beliefs, not the engine's truth:

- ``holds(view, seat, card)``: the chance that ``seat`` holds ``card``, from the cards not in
  sight (deck and other hands, dealt at random) and, when it claims the card, from how often that
  seat was caught bluffing and whether its claims since its hand last changed fit in its hand.
- ``challenge_rate(seat)``: how often ``seat`` challenged when it could (its appetite for doubt).
"""

from __future__ import annotations

from collections import Counter
from math import comb
from typing import Any

from controller.games.coup.cards import CARDS, COPIES, DECK_SIZE

BLUFF_PRIOR = (1, 3)  # a seat never challenged is believed to bluff 1 claim in 4 (Beta(1, 3))
DOUBT_PRIOR = (2, 3)  # and to challenge 2 windows in 5 (it must show it is careful before we bluff it)
AID_PRIOR = (1, 2)  # and to block 1 foreign aid in 3


class TableMemory:
    """One bot's memory of one game."""

    def __init__(self) -> None:
        self.challenged: Counter[int] = Counter()  # claims of a seat that were challenged
        self.caught: dict[int, set[str]] = {}  # seat -> claims it was caught bluffing
        self.could_challenge: Counter[int] = Counter()  # challenge windows a seat was eligible for
        self.challenges: Counter[int] = Counter()  # challenges a seat made
        self.claims: dict[int, set[str]] = {}  # seat -> claims since its hand last changed
        self.influence: dict[int, int] = {}
        self.aid_seen: Counter[int] = Counter()  # foreign aids a seat could block
        self.aid_blocked: Counter[int] = Counter()  # foreign aids a seat blocked
        self._challenge_n = 0
        self._windows: set[int] = set()

    # ------------------------------------------------------------ feeding

    def observe(self, view: dict[str, Any]) -> None:
        for p in view["players"]:
            if p["influence"] < self.influence.get(p["seat"], p["influence"]):
                self.claims.pop(p["seat"], None)  # a card left the hand: older claims may be gone
            self.influence[p["seat"]] = p["influence"]
        window = view.get("window")
        if window and window["id"] not in self._windows:
            self._windows.add(window["id"])
            self._note_window(window)
        last = view.get("last_challenge")
        if last and last["n"] > self._challenge_n:
            self._challenge_n = last["n"]
            claimant = last["claimant"]
            self.challenges[last["challenger"]] += 1
            self.challenged[claimant] += 1
            if last["had"]:
                self.claims.pop(claimant, None)  # CP-3.2: the shown card was swapped for a new one
            else:
                self.caught.setdefault(claimant, set()).add(last["claim"])
                self.claims.get(claimant, set()).discard(last["claim"])

    def _note_window(self, window: dict[str, Any]) -> None:
        """Every claim (an action's or a block's) opens a challenge window with a new id: count
        who could challenge, and what the claimant said."""
        move = window["action"]["move"]
        if window["kind"] == "block":
            if move == "foreign_aid":
                for seat in window["seats"]:
                    self.aid_seen[seat] += 1
            return
        for seat in window["seats"]:
            self.could_challenge[seat] += 1
        claimant = window["claimant"]
        if move == "exchange" and window["kind"] == "challenge_action":
            self.claims[claimant] = set()  # its hand is about to change
            return
        self.claims.setdefault(claimant, set()).add(window["claim"])
        if window["kind"] == "challenge_block" and move == "foreign_aid":
            self.aid_blocked[claimant] += 1

    # ------------------------------------------------------------ beliefs

    def bluff_rate(self, seat: int) -> float:
        """How often ``seat``'s challenged claims were bluffs (with a prior)."""
        a, b = BLUFF_PRIOR
        return (len(self.caught.get(seat, ())) + a) / (self.challenged[seat] + a + b)

    def challenge_rate(self, seat: int) -> float:
        a, b = DOUBT_PRIOR
        return (self.challenges[seat] + a) / (self.could_challenge[seat] + a + b)

    def aid_block_rate(self, seat: int) -> float:
        """How often ``seat`` blocked a foreign aid it could block."""
        a, b = AID_PRIOR
        return (self.aid_blocked[seat] + a) / (self.aid_seen[seat] + a + b)

    def holds(self, view: dict[str, Any], seat: int, card: str, *, claimed: bool = False) -> float:
        """The chance that ``seat`` holds at least one ``card`` (0 when every copy is in sight)."""
        seen = visible(view)
        left = COPIES - seen[card]
        if left <= 0:
            return 0.0
        player = next(p for p in view["players"] if p["seat"] == seat)
        k = player["influence"]
        unseen = DECK_SIZE - sum(seen.values())
        if k <= 0 or unseen <= 0:
            return 0.0
        prior = 1 - comb(max(unseen - left, 0), k) / comb(unseen, k) if unseen >= k else 1.0
        if not claimed:
            return prior
        bluff = self.bluff_rate(seat)
        p = prior / (prior + (1 - prior) * bluff)
        told = self.claims.get(seat, set()) | {card}
        if len(told) > k:  # more roles claimed since the hand last changed than cards in it
            p *= k / len(told)
        return p


def visible(view: dict[str, Any]) -> Counter[str]:
    """Cards this seat can see: everyone's face-up cards, its own hand and an exchange's draw."""
    seen: Counter[str] = Counter(view.get("hand", []))
    seen.update(view.get("drawn", []))
    for p in view["players"]:
        seen.update(p["revealed"])
    return seen


def revealed(view: dict[str, Any]) -> Counter[str]:
    """Cards everybody can see (what an opponent knows for sure)."""
    shown: Counter[str] = Counter()
    for p in view["players"]:
        shown.update(p["revealed"])
    return shown


__all__ = ["CARDS", "TableMemory", "revealed", "visible"]
