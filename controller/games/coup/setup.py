"""Building a fresh Coup state from a ``new_game`` input (CP-1, CP-7), validating every field.

Everything is checked before anything is built, so a bad ``new_game`` fails with one specific line
and no half-made state.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from controller.games import rng
from controller.games.base import GameError, State
from controller.games.coup.cards import (
    BLOCK_CLAIMS,
    CARDS,
    COPIES,
    DECK_SIZE,
    POKER_RANK,
    POWER,
    START_COINS,
    TOTAL_COINS,
    check_card,
)
from controller.games.players import (
    check_mode_and_seed,
    check_players,
    check_seconds,
    check_setup,
    name_of,
    window_option,
)

MODES = ["classic"]
PLAYERS = (2, 6)
DEFAULT_TIMEOUT_S = 8
# CP-2.4: an exchange returns its cards to the bottom of the deck (the seed's "放回牌库底") unless
# ``exchange_to_bottom: false`` asks for the published rule (shuffle them in)
OPTION_DEFAULTS: dict[str, Any] = {"timeout_s": DEFAULT_TIMEOUT_S, "exchange_to_bottom": True}
SETUP_KEYS = ("hands", "deck", "first", "coins")


def describe() -> dict[str, Any]:
    """What the lobby shows, in the same shape as Coin War's ``describe()``, plus the card table
    the phones draw from (rank and power of each role, CP-1; which roles block what, CP-4.1)."""
    lo, hi = PLAYERS
    return {
        "game": "coup",
        "title": "Coup",
        "modes": [
            {
                "mode": "classic",
                "title": "Classic",
                "summary": "Bluff with hidden roles on your phone; the last player with influence wins (coup.md).",
                "players": list(range(lo, hi + 1)),
                "teams": False,
                # the guided first game (docs/phones.md): the newcomer's turn first (CP-1 lets the lobby choose)
                "guided": {"first": ["setup", "first"]},
                "options": {
                    "timeout_s": window_option(
                        DEFAULT_TIMEOUT_S,
                        "seconds a challenge or block window stays open before the table closes it (CP-6)"),
                    "exchange_to_bottom": {
                        "default": OPTION_DEFAULTS["exchange_to_bottom"],
                        "description": "an Ambassador exchange puts the returned cards at the bottom of the "
                        "deck (the seed's way); off, they are shuffled in (the published rule) (CP-2.4)",
                    },
                },
            }
        ],
        "cards": {c: {"rank": POKER_RANK[c], "power": POWER[c]} for c in CARDS},
        "blocks": {move: list(claims) for move, claims in BLOCK_CLAIMS.items()},
    }


def _seat_key(key: object, seats: list[int], what: str) -> int:
    """Setup maps are keyed by seat; JSON makes the keys strings, so accept "2" as well as 2."""
    if isinstance(key, bool):
        raise GameError(f"setup.{what}: {key!r} is not a seat")
    if isinstance(key, str) and key.strip().isdigit():
        key = int(key)
    if not isinstance(key, int) or key not in seats:
        raise GameError(f"setup.{what}: {key!r} is not a seat at this table (seats {seats})")
    return key


def _players(players: object) -> list[dict[str, Any]]:
    if not isinstance(players, list):
        raise GameError("players must be a list of {seat, name}")
    lo, hi = PLAYERS
    if not lo <= len(players) <= hi:
        raise GameError(f"coup needs {lo}-{hi} players, got {len(players)}")
    out = [{"seat": p["seat"], "name": name_of(p)} for p in check_players(players)]
    return sorted(out, key=lambda q: q["seat"])


def _options(options: object) -> tuple[dict[str, Any], dict[str, Any]]:
    """(game options with defaults filled in, setup dict)."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise GameError("options must be an object")
    unknown = sorted(set(options) - set(OPTION_DEFAULTS) - {"setup"})
    if unknown:
        raise GameError(f"unknown coup option {unknown[0]!r}; known: setup, {', '.join(OPTION_DEFAULTS)}")
    timeout = options.get("timeout_s", DEFAULT_TIMEOUT_S)
    check_seconds(timeout, "timeout_s")
    bottom = options.get("exchange_to_bottom", OPTION_DEFAULTS["exchange_to_bottom"])
    if not isinstance(bottom, bool):
        raise GameError(f"exchange_to_bottom must be true or false, got {bottom!r}")
    setup = options.get("setup")
    if setup is None:
        setup = {}
    check_setup(setup, SETUP_KEYS)
    return {"timeout_s": timeout, "exchange_to_bottom": bottom}, setup


def _stacked_hands(setup: dict[str, Any], seats: list[int]) -> dict[int, list[str]]:
    hands = setup.get("hands")
    if hands is None:
        hands = {}
    if not isinstance(hands, dict):
        raise GameError("setup.hands must map seats to two card names")
    out: dict[int, list[str]] = {}
    for key, cards in hands.items():
        seat = _seat_key(key, seats, "hands")
        if seat in out:
            raise GameError(f"setup.hands: seat {seat} is given twice")
        if not isinstance(cards, list) or len(cards) != 2:
            raise GameError(f"setup.hands: seat {seat} must hold exactly 2 cards, got {cards!r}")
        out[seat] = [check_card(c, f"setup.hands seat {seat}") for c in cards]
    return out


def _stacked_coins(setup: dict[str, Any], seats: list[int]) -> dict[int, int]:
    coins = setup.get("coins")
    if coins is None:
        coins = {}
    if not isinstance(coins, dict):
        raise GameError("setup.coins must map seats to coin counts")
    out: dict[int, int] = {}
    for key, n in coins.items():
        seat = _seat_key(key, seats, "coins")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise GameError(f"setup.coins: seat {seat} must have a whole number of coins >= 0, got {n!r}")
        out[seat] = n
    total = sum(out.get(s, START_COINS) for s in seats)
    if total > TOTAL_COINS:
        raise GameError(f"setup.coins hands out {total} coins; the treasury only has {TOTAL_COINS}")
    return out


def _deal(state: State, setup: dict[str, Any], seats: list[int]) -> tuple[dict[int, list[str]], list[str]]:
    """Hands for every seat and the deck (top first), honouring the stacking of CP-7.

    Unstacked hands are dealt two at a time in seat order from the top of the deck; with
    ``setup.deck`` that is the given deck in its order, otherwise the shuffled rest of the 15 cards.
    """
    hands = _stacked_hands(setup, seats)
    stacked = [c for cards in hands.values() for c in cards]
    deck_given = "deck" in setup and setup["deck"] is not None
    if deck_given:
        deck = setup["deck"]
        if not isinstance(deck, list):
            raise GameError("setup.deck must be a list of card names, top first")
        deck = [check_card(c, "setup.deck") for c in deck]
    counts = Counter(stacked + (deck if deck_given else []))
    for card in CARDS:
        if counts[card] > COPIES:
            raise GameError(f"setup uses {counts[card]} {card} cards; the court deck has {COPIES}")
    if deck_given:
        accounted = len(stacked) + len(deck)
        if accounted != DECK_SIZE:
            missing = [c for c in CARDS for _ in range(COPIES - counts[c])]
            raise GameError(
                f"setup.hands and setup.deck hold {accounted} cards; all {DECK_SIZE} must be accounted for"
                f" (missing: {', '.join(missing)})"
            )
    else:
        rest = [c for c in CARDS for _ in range(COPIES - counts[c])]
        deck = rng.shuffle(state, rest)
    for seat in seats:
        if seat not in hands:
            hands[seat], deck = deck[:2], deck[2:]
    return hands, deck


def new(
    options: dict[str, Any] | None,
    seed: int,
    *,
    players: list[dict[str, Any]],
    mode: str | None = None,
    order: list[int] | None = None,
) -> State:
    """A fresh game (CP-1). ``order`` (optional) is the turn rotation; seats ascending otherwise (CP-7)."""
    check_mode_and_seed("coup", mode, MODES, seed)
    people = _players(players)
    seats = [p["seat"] for p in people]
    if order is None:
        rotation = list(seats)
    elif not isinstance(order, list) or sorted(order) != seats or len(set(order)) != len(order):
        raise GameError(f"order must list every seat once ({seats}), got {order!r}")
    else:
        rotation = list(order)
    opts, setup = _options(options)
    state: State = {"rng": rng.seed_state(seed)}
    hands, deck = _deal(state, setup, seats)
    coins = _stacked_coins(setup, seats)
    first = setup.get("first")
    if first is None:
        first = rotation[rng.randbelow(state, len(rotation))]
    elif isinstance(first, bool) or not isinstance(first, int) or first not in seats:
        raise GameError(f"setup.first must be a seat at this table ({seats}), got {first!r}")
    table = [
        {
            "seat": p["seat"],
            "name": p["name"],
            "coins": coins.get(p["seat"], START_COINS),
            "hand": hands[p["seat"]],
            "revealed": [],
        }
        for p in people
    ]
    state.update(
        {
            "game": "coup",
            "mode": "classic",
            "phase": "playing",
            "options": opts,
            "order": rotation,
            "players": table,
            "deck": deck,
            "treasury": TOTAL_COINS - sum(p["coins"] for p in table),
            "turn": first,
            "action": None,
            "window": None,
            "window_seq": 0,
            "pending": None,
            "losses": [],
            "last_challenge": None,
            "winner": None,
            "log": [f"{_name(table, first)} (seat {first}) plays first"],
            "last": [{"kind": "new_game", "mode": "classic"}, {"kind": "turn", "seat": first}],
        }
    )
    return state


def _name(table: list[dict[str, Any]], seat: int) -> str:
    return next(p["name"] for p in table if p["seat"] == seat)
