"""Maps of the battlefield (SG-2, SG-8.2, SG-8.3): loading, checking and measuring.

A map is plain data (rows of cell letters, wall edges, minion lines), so the journal replays it
exactly. Every check names what is wrong, because a map is written by people. Distances and
reachable cells are derived once per map and cached by the map's canonical JSON: the cache is a
pure function of the data (no I/O, no clock), and the engine's hottest queries hit it.
"""

from __future__ import annotations

import heapq
import json
from collections import deque
from functools import lru_cache
from importlib import resources
from typing import Any

from controller.games.base import GameError

Cell = tuple[int, int]
SIDES = ("A", "B")
LETTERS = set("ABIiOo.#Xx")
WALKABLE = set("ABIiOo.")
CASTLE = {"A": "A", "B": "B"}
INNER = {"A": "I", "B": "i"}
OUTER = {"A": "O", "B": "o"}
BOSS = {"A": "X", "B": "x"}  # X holds side A's boss (challenged by side B)
MAX_BYTES = 16 * 1024
MINIONS_PER_SIDE = 6


def other(side: str) -> str:
    return "B" if side == "A" else "A"


def builtin(name: str) -> dict[str, Any]:
    """A built-in map by name (only ``"default"`` ships)."""
    if name != "default":
        raise GameError(f"unknown built-in map {name!r}; built-in maps: default")
    text = resources.files("controller.games.sanguosha_map").joinpath("data/default-map.json").read_text()
    data: dict[str, Any] = json.loads(text)
    return data


def parse_cell(value: object, what: str, rows: list[str]) -> Cell:
    """A cell `[row, column]` of the map, or GameError naming ``what`` and the map's size."""
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise GameError(f"map: {what} must be a cell [row, column], got {value!r}")
    r, c = value
    if not (0 <= r < len(rows) and 0 <= c < len(rows[0])):
        raise GameError(f"map: {what} {value!r} is an unknown cell (the map is {len(rows)}x{len(rows[0])})")
    return r, c


def load(option: object) -> dict[str, Any]:
    """The checked map of ``options.map``: a built-in name or an inline object (SG-8.2)."""
    if option is None:
        option = "default"
    if isinstance(option, str):
        return check(builtin(option))
    if not isinstance(option, dict):
        raise GameError(f"options.map must be a built-in map name or a map object, got {option!r}")
    if len(json.dumps(option)) > MAX_BYTES:
        raise GameError("map: an inline map must be under 16 KiB")
    return check(option)


def check(data: dict[str, Any]) -> dict[str, Any]:  # noqa: C901 - one named refusal per fault
    """The map in canonical form (rows, walls, minions, doors), or GameError naming the fault."""
    unknown = sorted(set(data) - {"name", "rows", "walls", "minions"})
    if unknown:
        raise GameError(f"map: unknown key {unknown[0]!r}; keys: name, rows, walls, minions")
    rows = data.get("rows")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) and r for r in rows):
        raise GameError("map: 'rows' must be a non-empty list of strings")
    if len({len(r) for r in rows}) != 1:
        raise GameError("map: all rows must have the same length")
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch not in LETTERS:
                raise GameError(f"map: unknown cell letter {ch!r} at [{r}, {c}]; letters: A B I i O o . # X x")
    letters = "".join(rows)
    for side in SIDES:
        for kind, table in (("castle", CASTLE), ("inner zone", INNER), ("boss point", BOSS)):
            if table[side] not in letters:
                raise GameError(f"map: side {side} has no {kind} ({table[side]!r})")
    walls: list[list[list[int]]] = []
    raw_walls = data.get("walls", [])
    if not isinstance(raw_walls, list):
        raise GameError("map: 'walls' must be a list of [[r1, c1], [r2, c2]]")
    for i, w in enumerate(raw_walls):
        if not isinstance(w, list) or len(w) != 2:
            raise GameError(f"map: wall {i} must be [[r1, c1], [r2, c2]], got {w!r}")
        a, b = parse_cell(w[0], f"wall {i}", rows), parse_cell(w[1], f"wall {i}", rows)
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            raise GameError(f"map: wall {i} is between non-adjacent cells {list(a)} and {list(b)}")
        walls.append(sorted([list(a), list(b)]))
    wall_set: set[tuple[Cell, Cell]] = {((w[0][0], w[0][1]), (w[1][0], w[1][1])) for w in walls}
    minions = data.get("minions")
    if not isinstance(minions, dict) or sorted(minions) != list(SIDES):
        raise GameError("map: 'minions' must have exactly the sides A and B")
    out_minions: dict[str, Any] = {}
    for side in SIDES:
        out_minions[side] = _check_minions(side, minions[side], rows, wall_set)
    doors: dict[str, list[list[int]]] = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in "Xx":
                near = [[r + dr, c + dc] for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                        if 0 <= r + dr < len(rows) and 0 <= c + dc < len(rows[0])
                        and rows[r + dr][c + dc] in WALKABLE and not _walled(wall_set, (r, c), (r + dr, c + dc))]
                if not near:
                    raise GameError(f"map: no door at the boss point [{r}, {c}] (no walkable cell next to it)")
                doors[f"{r},{c}"] = near
    return {"name": str(data.get("name", "inline")), "rows": list(rows), "walls": walls,
            "minions": out_minions, "doors": doors}


def _walled(walls: set[tuple[Cell, Cell]], a: Cell, b: Cell) -> bool:
    return (min(a, b), max(a, b)) in walls


def _check_minions(side: str, spec: object, rows: list[str],  # noqa: C901 - one refusal per fault
                   walls: set[tuple[Cell, Cell]]) -> dict[str, Any]:
    if not isinstance(spec, dict):
        raise GameError(f"map: minions.{side} must be an object with cells, pairs, dir")
    cells = spec.get("cells")
    if not isinstance(cells, list) or len(cells) != MINIONS_PER_SIDE:
        got = len(cells) if isinstance(cells, list) else cells
        raise GameError(f"map: side {side} must have {MINIONS_PER_SIDE} minions (SG-1), got {got}")
    starts = [parse_cell(x, f"minion {side}{i + 1}", rows) for i, x in enumerate(cells)]
    if len(set(starts)) != len(starts):
        raise GameError(f"map: two minions of side {side} start on the same cell")
    for i, (r, c) in enumerate(starts):
        if rows[r][c] != INNER[side]:
            raise GameError(f"map: minion {side}{i + 1} must start in side {side}'s inner zone, not on {rows[r][c]!r}")
    pairs: Any = spec.get("pairs")
    flat = sorted(i for p in pairs for i in p) if isinstance(pairs, list) and all(
        isinstance(p, list) and len(p) == 2 for p in pairs) else None
    if flat != list(range(MINIONS_PER_SIDE)):
        raise GameError(f"map: minions.{side}.pairs must split the 6 minions into 3 pairs, got {pairs!r}")
    for a, b in pairs:
        (r1, c1), (r2, c2) = starts[a], starts[b]
        if abs(r1 - r2) + abs(c1 - c2) != 1:
            raise GameError(f"map: minions {side}{a + 1} and {side}{b + 1} of a pair must start on adjacent cells")
    d: Any = spec.get("dir")
    if d not in ([0, 1], [0, -1], [1, 0], [-1, 0]):
        raise GameError(f"map: minions.{side}.dir must be one orthogonal step, got {d!r}")
    paths = []
    for i, start in enumerate(starts):
        path, cell = [], start
        while True:
            nxt = (cell[0] + d[0], cell[1] + d[1])
            if not (0 <= nxt[0] < len(rows) and 0 <= nxt[1] < len(rows[0])):
                raise GameError(f"map: minion {side}{i + 1} never reaches side {other(side)}'s inner zone")
            if rows[nxt[0]][nxt[1]] not in WALKABLE or _walled(walls, cell, nxt):
                raise GameError(f"map: minion {side}{i + 1}'s line is blocked at {list(nxt)}")
            path.append(list(nxt))
            cell = nxt
            if rows[cell[0]][cell[1]] == INNER[other(side)]:
                break
        paths.append(path)
    return {"cells": [list(s) for s in starts], "pairs": [list(p) for p in pairs], "dir": list(d), "paths": paths}


def key(m: dict[str, Any]) -> str:
    """The cache key of a checked map."""
    return json.dumps([m["rows"], m["walls"]], separators=(",", ":"))


class Geometry:
    """Distances and movement over one map (SG-8.3), derived once."""

    def __init__(self, rows: list[str], walls: list[list[list[int]]]) -> None:
        self.rows = rows
        self.h, self.w = len(rows), len(rows[0])
        self.walls = {(tuple(a), tuple(b)) for a, b in walls}
        self._dist: dict[Cell, dict[Cell, int]] = {}
        self._reach: dict[tuple[Cell, int, bool], dict[Cell, tuple[int, Cell | None]]] = {}
        self._cells: dict[str, list[Cell]] = {}
        self._moves: dict[tuple[Cell, int, bool], tuple[list[list[int]], list[list[list[int]]]]] = {}
        # the steps out of each cell, without and with a horse: (next cell, cost)
        self.adj: dict[bool, dict[Cell, list[tuple[Cell, int]]]] = {False: {}, True: {}}
        for r in range(self.h):
            for c in range(self.w):
                for horse in (False, True):
                    out = []
                    for n in self.near((r, c)):
                        step = self.step_cost((r, c), n, horse)
                        if step is not None:
                            out.append((n, step))
                    self.adj[horse][(r, c)] = out

    def cells(self, letters: str) -> list[Cell]:
        """Every cell whose letter is in ``letters`` (cached)."""
        got = self._cells.get(letters)
        if got is None:
            got = [(r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch in letters]
            self._cells[letters] = got
        return got

    def letter(self, cell: Cell) -> str:
        return self.rows[cell[0]][cell[1]]

    def walkable(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.h and 0 <= cell[1] < self.w and self.rows[cell[0]][cell[1]] in WALKABLE

    def walled(self, a: Cell, b: Cell) -> bool:
        return (min(a, b), max(a, b)) in self.walls

    def near(self, cell: Cell) -> list[Cell]:
        r, c = cell
        return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= r + dr < self.h and 0 <= c + dc < self.w]

    def distance(self, a: Cell, b: Cell) -> int:
        """Fewest orthogonal steps over any cells, never crossing a wall (SG-8.3)."""
        table = self._dist.get(a)
        if table is None:
            table = {a: 0}
            todo = deque([a])
            while todo:
                cur = todo.popleft()
                for n in self.near(cur):
                    if n not in table and not self.walled(cur, n):
                        table[n] = table[cur] + 1
                        todo.append(n)
            self._dist[a] = table
        return table.get(b, 10 ** 6)

    def step_cost(self, a: Cell, b: Cell, horse: bool) -> int | None:
        """Cost of one step a -> b: 1, 2 over a wall with a horse, None if not allowed."""
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1 or not self.walkable(b):
            return None
        if self.walled(a, b):
            return 2 if horse else None
        return 1

    def reach(self, start: Cell, budget: int, horse: bool) -> dict[Cell, tuple[int, Cell | None]]:
        """Every cell reachable within ``budget``: cost and previous cell (Dijkstra; cached)."""
        k = (start, budget, horse)
        got = self._reach.get(k)
        if got is None:
            got = self._reach[k] = self._search(start, budget, horse)
        return got

    def moves(self, start: Cell, budget: int, horse: bool) -> tuple[list[list[int]], list[list[list[int]]]]:
        """The reachable cells ``[r, c, cost]`` (cost > 0) and the cheapest path to each, cached:
        callers must not change them (``legal`` hands them out read-only)."""
        k = (start, budget, horse)
        got = self._moves.get(k)
        if got is None:
            reach = self.reach(start, budget, horse)
            cells = [[c[0], c[1], cost] for c, (cost, _) in reach.items() if cost > 0]
            got = self._moves[k] = (cells, [path_to(reach, (r, c)) for r, c, _ in cells])
        return got

    def _search(self, start: Cell, budget: int, horse: bool) -> dict[Cell, tuple[int, Cell | None]]:
        adj = self.adj[horse]
        best: dict[Cell, tuple[int, Cell | None]] = {start: (0, None)}
        heap = [(0, start)]
        while heap:
            cost, cur = heapq.heappop(heap)
            if cost > best[cur][0]:
                continue
            for n, step in adj[cur]:
                if cost + step > budget:
                    continue
                if n not in best or cost + step < best[n][0]:
                    best[n] = (cost + step, cur)
                    heapq.heappush(heap, (cost + step, n))
        return best


def path_to(reach: dict[Cell, tuple[int, Cell | None]], goal: Cell) -> list[list[int]]:
    """The cells entered from the start to ``goal`` (as the ``move`` input's ``path``)."""
    out: list[list[int]] = []
    cur: Cell | None = goal
    while cur is not None and reach[cur][1] is not None:
        out.append(list(cur))
        cur = reach[cur][1]
    return out[::-1]


@lru_cache(maxsize=32)
def _geometry(map_key: str) -> Geometry:
    rows, walls = json.loads(map_key)
    return Geometry(rows, walls)


def geometry(m: dict[str, Any]) -> Geometry:
    """The cached geometry of a checked map."""
    k = m.get("_key")
    if k is None:
        k = key(m)
    return _geometry(k)
