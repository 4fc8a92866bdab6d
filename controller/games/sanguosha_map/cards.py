"""The cards and prices of the battlefield (SG-1, SG-4, SG-7, SG-8.8, SG-9.1), as data."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def _load(name: str) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(
        resources.files("controller.games.sanguosha_map").joinpath(f"data/{name}").read_text())
    return data


GENERALS: dict[str, dict[str, Any]] = {g["id"]: g for g in _load("generals.json")}
EQUIPMENT: dict[str, dict[str, Any]] = {e["id"]: e for e in _load("equipment.json")}
WEAPONS = [e for e, d in EQUIPMENT.items() if d["kind"] == "weapon"]
HORSES = [e for e, d in EQUIPMENT.items() if d["kind"].startswith("horse")]
ARMOURS = [e for e, d in EQUIPMENT.items() if d["kind"] == "armour"]

# SG-8.8: 44 杀 (30 + 9 thunder + 5 fire, all plain on the board, SG-8.5) and 24 闪.
STRIKES = [f"strike-{i}" for i in range(1, 45)]
DODGES = [f"dodge-{i}" for i in range(1, 25)]
ACTION_DECK = STRIKES + DODGES

# SG-1 strategy deck: the tricks, Peach and Wine of the second set (used only inside fights, SG-6).
_STRATEGY = {"peach": 8, "wine": 5, "dismantle": 6, "snatch": 5, "duel": 3, "barbarians": 3, "arrows": 1,
             "peach_garden": 1, "harvest": 2, "nullification": 4, "borrowed_sword": 2, "indulgence": 3,
             "something_for_nothing": 4, "lightning": 2}
STRATEGY_DECK = [f"{name}-{i}" for name, n in _STRATEGY.items() for i in range(1, n + 1)]

PILES = ("strategy", "weapon", "horse")
PRICE = {"strategy": 5, "weapon": 10, "horse": 20, "upgrade": 10}  # SG-7
DECKS = {"action": ACTION_DECK, "strategy": STRATEGY_DECK, "weapon": WEAPONS, "horse": HORSES, "armour": ARMOURS}

# SG-4 / SG-9.1: the health class of a general decides range, start health and the cap.
CLASS = {3: {"range": 2, "health": 2, "cap": 4}, 4: {"range": 1, "health": 3, "cap": 5}}
CARRY = {"strategy": 3, "action": 6}
WAKE_HEALTH = 3  # SG-4 (capped by max health, [interpretation])
CASTLE = 20
BOSS_BONUS = 2  # SG-6 boss health = card health + 2


def is_strike(card: str) -> bool:
    return card.startswith("strike-")


def is_dodge(card: str) -> bool:
    return card.startswith("dodge-")


def range_of(weapon: str | None) -> int:
    """SG-4: a weapon's range on the board is the card's range - 1."""
    return EQUIPMENT[weapon]["range"] - 1 if weapon else 0
