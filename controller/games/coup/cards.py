"""The court deck (CP-1): five roles, three copies each, with the poker rank the panel shows."""

from __future__ import annotations

from collections import Counter

from controller.games.base import GameError

CARDS: tuple[str, ...] = ("duke", "assassin", "ambassador", "captain", "contessa")
COPIES = 3
DECK_SIZE = COPIES * len(CARDS)  # 15
TOTAL_COINS = 50  # CP-1: treasury + players = 50 always
START_COINS = 2

# The seed plays Coup with a poker deck; the panel shows both names (CP-1).
POKER_RANK: dict[str, str] = {
    "duke": "K",
    "assassin": "Q",
    "ambassador": "J",
    "captain": "10",
    "contessa": "9",
}
# What each role does, in the few words printed on the phones' cards (CP-2, CP-4.1).
POWER: dict[str, str] = {
    "duke": "Tax · blocks aid",
    "assassin": "Assassinate",
    "ambassador": "Exchange · blocks steal",
    "captain": "Steal · blocks steal",
    "contessa": "Blocks assassin",
}

# CP-2: which claim each action makes, and which claims may block it (CP-4.1).
ACTION_CLAIM: dict[str, str | None] = {
    "income": None,
    "foreign_aid": None,
    "coup": None,
    "tax": "duke",
    "assassinate": "assassin",
    "steal": "captain",
    "exchange": "ambassador",
}
BLOCK_CLAIMS: dict[str, tuple[str, ...]] = {
    "foreign_aid": ("duke",),
    "assassinate": ("contessa",),
    "steal": ("captain", "ambassador"),
}
TARGETED = ("coup", "assassinate", "steal")
COST: dict[str, int] = {"coup": 7, "assassinate": 3}  # CP-2.2
MUST_COUP_AT = 10  # CP-2.1


def full_deck() -> list[str]:
    """All 15 cards in a fixed order (shuffled by the caller from the game's seeded rng)."""
    return [card for card in CARDS for _ in range(COPIES)]


def check_card(value: object, what: str) -> str:
    """A valid card name, or a GameError naming the bad value."""
    if not isinstance(value, str) or value not in CARDS:
        raise GameError(f"{what}: unknown card {value!r}; cards are {', '.join(CARDS)}")
    return value


def missing_from(pool: list[str], wanted: list[str]) -> str | None:
    """The first card of ``wanted`` that ``pool`` cannot supply (multiset), or None."""
    have = Counter(pool)
    for card in wanted:
        if have[card] <= 0:
            return card
        have[card] -= 1
    return None
