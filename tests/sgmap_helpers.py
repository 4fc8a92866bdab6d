"""Small inline maps and a driver for the battlefield's scenario tests (docs/rules/sanguosha-map.md)."""

from __future__ import annotations

from typing import Any

from controller.games import sanguosha_map as sg

# 8 x 9: castles at the ends, inner/outer zone columns, a road middle, boss points on row 3
# (X holds A's boss, x holds B's); minion pairs on rows (0,1), (4,5), (6,7) of both inner columns.
ROWS = [
    "AIO...oiB",
    "AIO...oiB",
    "#IO...oi#",
    "#IOX.xoi#",
    "#IO...oi#",
    "#IO...oi#",
    "#IO...oi#",
    "#IO...oi#",
]
MINION_ROWS = [0, 1, 4, 5, 6, 7]


def tiny_map(walls: list[Any] | None = None, rows: list[str] | None = None) -> dict[str, Any]:
    return {
        "name": "tiny",
        "rows": list(rows or ROWS),
        "walls": walls or [],
        "minions": {
            "A": {"cells": [[r, 1] for r in MINION_ROWS], "pairs": [[0, 1], [2, 3], [4, 5]], "dir": [0, 1]},
            "B": {"cells": [[r, 7] for r in MINION_ROWS], "pairs": [[0, 1], [2, 3], [4, 5]], "dir": [0, -1]},
        },
    }


def players(n: int = 2) -> list[dict[str, Any]]:
    return [{"seat": s, "name": f"P{s}", "team": "A" if s % 2 else "B"} for s in range(1, n + 1)]


def start(n: int = 2, *, walls: list[Any] | None = None, seed: int = 1, fights: str = "physical",
          **setup: Any) -> dict[str, Any]:
    """A game on the tiny map; ``setup`` keys go to ``options.setup`` (SG-9.1)."""
    setup.setdefault("generals", {s: ("simayi" if s % 2 else "caocao") for s in range(1, n + 1)})
    setup.setdefault("positions", {s: [2, 3 + (s % 2 == 0)] for s in range(1, n + 1)})
    return sg.new({"map": tiny_map(walls), "fights": fights, "setup": setup}, seed, players=players(n))


def move(state: dict[str, Any], seat: int, name: str, **args: Any) -> dict[str, Any]:
    return sg.apply(state, {"type": "move", "seat": seat, "move": name, "args": args})


def timeout(state: dict[str, Any]) -> dict[str, Any]:
    return sg.apply(state, {"type": "timeout", "window": state["window"]["id"]})


def p(state: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(q for q in state["players"] if q["seat"] == seat)


def minion(state: dict[str, Any], mid: str) -> dict[str, Any]:
    return state["sides"][mid[0]]["minions"][int(mid[1:]) - 1]


def total_gold(state: dict[str, Any]) -> int:
    return sum(q["gold"] for q in state["players"]) + state["bank"]


def tap_cell(page: Any, key: str) -> None:
    """Tap a map cell as a player does (docs/phones.md "Sizes"): a cell drawn under 44 px is too
    small to aim at, so the first tap zooms in on it; then the tap picks it."""
    cell = page.locator(f'.sg-cell[data-cell="{key}"]')
    if cell.bounding_box()["width"] < 44:
        cell.click()
        page.wait_for_function("k => document.querySelector(`.sg-cell[data-cell=\"${k}\"]`).getBoundingClientRect().width >= 44", arg=key)
    cell.click()
