"""The Bang! deck and characters (BG-4, BG-8.3), loaded once from the package's data files.

Cards are named by id (``bang-AS``); everything else about a card (name, suit, rank) is looked
up here, so the state holds only short strings.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from controller.games.base import GameError


def _load(name: str) -> list[dict[str, Any]]:
    text = resources.files("controller.games.bang").joinpath("data", name).read_text(encoding="utf-8")
    data: list[dict[str, Any]] = json.loads(text)
    return data


DECK: list[dict[str, Any]] = _load("bang-deck.json")
# BG-8.3 option seed_deck: the seed's counts add one Stagecoach and two Wells Fargo.
SEED_EXTRA: list[dict[str, Any]] = [
    {"id": "stagecoach-9S-3", "name": "stagecoach", "rank": "9", "suit": "spades"},
    {"id": "wells_fargo-3H-2", "name": "wells_fargo", "rank": "3", "suit": "hearts"},
    {"id": "wells_fargo-3D", "name": "wells_fargo", "rank": "3", "suit": "diamonds"},
]
CARD: dict[str, dict[str, Any]] = {c["id"]: c for c in DECK + SEED_EXTRA}
DECK_IDS: list[str] = [c["id"] for c in DECK]
CHARACTERS: dict[str, dict[str, Any]] = {c["id"]: c for c in _load("bang-characters.json")}

WEAPON_RANGE = {"volcanic": 1, "schofield": 2, "remington": 3, "rev_carabine": 4, "winchester": 5}
BLUE = {"barrel", "mustang", "scope", "jail", "dynamite", *WEAPON_RANGE}
TITLES = {
    "bang": "BANG!", "missed": "Missed!", "beer": "Beer", "cat_balou": "Cat Balou", "panic": "Panic!",
    "duel": "Duel", "jail": "Jail", "general_store": "General Store", "indians": "Indians!",
    "stagecoach": "Stagecoach", "wells_fargo": "Wells Fargo", "saloon": "Saloon", "gatling": "Gatling",
    "dynamite": "Dynamite", "barrel": "Barrel", "mustang": "Mustang", "scope": "Scope",
    "volcanic": "Volcanic", "schofield": "Schofield", "remington": "Remington",
    "rev_carabine": "Rev. Carabine", "winchester": "Winchester",
}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ROLES = ("sheriff", "deputy", "outlaw", "renegade")
# BG-1: players -> (deputies, outlaws); one Sheriff and one Renegade always.
ROLE_TABLE = {4: (0, 2), 5: (1, 2), 6: (1, 3), 7: (2, 3)}


def role_pool(n: int) -> list[str]:
    deputies, outlaws = ROLE_TABLE[n]
    return ["sheriff", "renegade"] + ["outlaw"] * outlaws + ["deputy"] * deputies


NAME: dict[str, str] = {c: str(v["name"]) for c, v in CARD.items()}


def name(card: str) -> str:
    return NAME[card]


def suit(card: str) -> str:
    return str(CARD[card]["suit"])


def rank_value(card: str) -> int:
    return RANKS.index(CARD[card]["rank"]) + 1


def title(card: str) -> str:
    c = CARD[card]
    return f"{TITLES[c['name']]} {c['rank']}{'♠♥♦♣'[['spades', 'hearts', 'diamonds', 'clubs'].index(c['suit'])]}"


def check_card(card: object, where: str, known: dict[str, Any] | None = None) -> str:
    if not isinstance(card, str) or card not in (known or CARD):
        raise GameError(f"{where}: {card!r} is not a Bang! card id (like 'bang-AS')")
    return card


def dynamite_explodes(card: str) -> bool:
    """BG-5: Spades 2-9 explode."""
    return suit(card) == "spades" and 2 <= rank_value(card) <= 9
