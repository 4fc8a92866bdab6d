"""Bots for the battlefield: a random player (the fuzzer and benchmark) and a path-search player.

A bot sees only its seat's view (which carries ``legal``) and returns one input. Bots are not the
engine, so a seeded ``random.Random`` inside the bot is fine.
"""

from __future__ import annotations

import random
from typing import Any

from controller.games.sanguosha_map import maps
from controller.games.sanguosha_map.cards import is_dodge, is_strike

Input = dict[str, Any]


def _move(seat: int, name: str, **args: Any) -> Input:
    return {"type": "move", "seat": seat, "move": name, "args": args}


class _Base:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._geo: maps.Geometry | None = None
        self._rows: list[str] | None = None

    def observe(self, view: dict[str, Any]) -> None:
        """These bots remember nothing between views."""

    def geo(self, view: dict[str, Any]) -> maps.Geometry:
        m = view["map"]
        if self._geo is None or self._rows != m["rows"]:
            self._geo = maps.geometry({"rows": m["rows"], "walls": m["walls"]})
            self._rows = m["rows"]
        return self._geo

    @staticmethod
    def me(view: dict[str, Any]) -> dict[str, Any]:
        return next(p for p in view["players"] if p["seat"] == view["seat"])

    def path(self, view: dict[str, Any], goal: tuple[int, int]) -> list[list[int]]:
        me = self.me(view)
        reach = self.geo(view).reach((me["cell"][0], me["cell"][1]), view["turn"]["movement_left"],
                                     bool(me["horse"]))
        return maps.path_to(reach, goal)

    def args_for(self, view: dict[str, Any], m: dict[str, Any]) -> dict[str, Any]:
        """Random but valid arguments for one legal move."""
        name, rng = m["move"], self.rng
        if name in ("roll", "reroll"):
            return {"value": rng.randint(1, 6)} if m.get("value") else {}
        if name == "pick_general":
            return {"general": rng.choice(m["generals"])}
        if name == "place":
            return {"cell": rng.choice(m["cells"])}
        if name == "move":
            return {"path": rng.choice(m["paths"])}
        if name == "attack":
            n = rng.randint(1, m["max_cards"])
            return {"target": rng.choice(m["targets"]), "cards": m["cards"][:n]}
        if name == "dodge":
            return {"cards": m["cards"][:m["max_cards"]]}
        if name == "shop":
            pile = rng.choice(m["piles"])
            return {"pile": pile, "drop": "new"} if pile == "strategy" and m["strategy_full"] else {"pile": pile}
        if name == "discard":
            return {"cards": [rng.choice(m["cards"])]}
        if name == "request_duel":
            return {"target": rng.choice(m["targets"])}
        if name == "challenge_boss":
            return {"point": m["points"][0]}
        if name == "fight_result":
            return {"winner": rng.choice(m["sides"])}
        return {}


class RandomBot(_Base):
    """Uniformly random among the legal moves (never a dispute, which could loop forever)."""

    def choose(self, view: dict[str, Any], legal: dict[str, Any]) -> Input | None:
        moves = [m for m in legal.get("moves", []) if m["move"] not in ("dispute", "pick_general", "place")]
        if not moves:
            return None
        m = self.rng.choice(moves)
        return _move(legal["seat"], m["move"], **self.args_for(view, m))


class PathBot(_Base):
    """Kills minion pairs near its inner column, hits the castle in range, finishes weak generals,
    heals at 1, buys a weapon then a horse, refuses duels it can pay for (quick fights)."""

    def choose(self, view: dict[str, Any], legal: dict[str, Any]) -> Input | None:  # noqa: C901 - a priority list
        moves = {m["move"]: m for m in legal.get("moves", [])}
        if not moves:
            return None
        seat = legal["seat"]
        me = self.me(view)
        for answer in ("dodge", "refuse", "confirm", "accept"):
            if answer in moves:
                return _move(seat, answer, **self.args_for(view, moves[answer]))
        if "pass" in moves:
            return _move(seat, "pass")
        if "fight_result" in moves:
            return _move(seat, "fight_result", winner=self.rng.choice(moves["fight_result"]["sides"]))
        if "roll" in moves:
            return _move(seat, "roll", **self.args_for(view, moves["roll"]))
        if "reroll" in moves and view["turn"]["roll"] <= 2:
            return _move(seat, "reroll", **self.args_for(view, moves["reroll"]))
        if "keep" in moves:
            return _move(seat, "keep")
        hand = view["action"]
        if len(hand) > 6:  # SG-8.14: down to 6 right after the draw, before any other move
            dodges = [c for c in hand if is_dodge(c)]
            drop = (dodges[2:] + [c for c in hand if is_strike(c)] + dodges[:2])[:len(hand) - 6]
            return _move(seat, "discard", cards=drop)
        if "shop" in moves:
            piles = moves["shop"]["piles"]
            if me["weapon"] is None and "weapon" in piles:
                return _move(seat, "shop", pile="weapon")
            if me["weapon"] is not None and me["horse"] is None and "horse" in piles:
                return _move(seat, "shop", pile="horse")
        if "upgrade" in moves and me["weapon"] and me["horse"]:
            return _move(seat, "upgrade")
        if "attack" in moves:
            target = self._target(view, me, moves["attack"]["targets"])
            m = moves["attack"]
            return _move(seat, "attack", target=target, cards=m["cards"][:m["max_cards"]])
        if "move" in moves:
            step = self._step(view, me, moves["move"]["cells"])
            if step is not None:
                return _move(seat, "move", path=step)
        if "end_turn" in moves:
            return _move(seat, "end_turn")
        m = self.rng.choice(list(moves.values()))
        return _move(seat, m["move"], **self.args_for(view, m))

    def _target(self, view: dict[str, Any], me: dict[str, Any], targets: list[Any]) -> Any:
        seats = {p["seat"]: p for p in view["players"]}
        weak = [t for t in targets if isinstance(t, int) and seats[t]["health"] <= 1]
        if weak:
            return weak[0]
        if "castle" in targets:
            return "castle"
        minions = [t for t in targets if isinstance(t, str) and t != "castle"]
        if minions:
            home = self._home_col(view, me)
            cells = {mi["id"]: mi["cell"] for mi in view["sides"][maps.other(me["team"])]["minions"]}
            return min(minions, key=lambda t: abs(cells[t][1] - home))
        return targets[0]

    @staticmethod
    def _home_col(view: dict[str, Any], me: dict[str, Any]) -> int:
        letter = maps.INNER[me["team"]]
        row = view["map"]["rows"][0] if letter in view["map"]["rows"][0] else next(
            r for r in view["map"]["rows"] if letter in r)
        return row.index(letter)

    def _goal(self, view: dict[str, Any], me: dict[str, Any]) -> list[tuple[int, int]]:
        rows = view["map"]["rows"]
        own_castle = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == me["team"]]
        if me["health"] <= 1:
            heal = maps.INNER[me["team"]] + me["team"]
            return [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch in heal]
        if me["weapon"] is None and me["gold"] >= 10 or me["weapon"] and not me["horse"] and me["gold"] >= 20:
            return own_castle
        enemy = maps.other(me["team"])
        minions = [mi for mi in view["sides"][enemy]["minions"] if mi["alive"]]
        home = self._home_col(view, me)
        near = [mi for mi in minions if abs(mi["cell"][1] - home) <= 4]
        if near:
            return [(mi["cell"][0], mi["cell"][1]) for mi in near]
        return [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == enemy]

    def _step(self, view: dict[str, Any], me: dict[str, Any], cells: list[list[int]]) -> list[list[int]] | None:
        goals = self._goal(view, me)
        g = self.geo(view)
        here = (me["cell"][0], me["cell"][1])
        enemy_minions = {tuple(mi["cell"]) for mi in view["sides"][maps.other(me["team"])]["minions"]
                         if mi["alive"]}

        def score(c: tuple[int, int]) -> int:
            return min(g.distance(c, goal) for goal in goals)

        best, best_score = None, score(here)
        for r, c, _ in cells:
            if (r, c) in enemy_minions:
                continue
            s = score((r, c))
            if s < best_score:
                best, best_score = (r, c), s
        if best is None:
            return None
        return self.path(view, best)
