"""What a seat may see and do (SG-9). Views are built field by field from public facts, so the
hands, the decks' order and the rng never leak; ``legal`` offers exactly what ``apply`` accepts."""

from __future__ import annotations

from typing import Any

from controller.games.base import State
from controller.games.kit import player
from controller.games.sanguosha_map import board, fights, maps
from controller.games.sanguosha_map.cards import CARRY, CLASS, PRICE, is_dodge, is_strike

PLAYER_KEYS = ("seat", "name", "team", "general", "class", "health", "max_health", "gold", "cell", "knocked_out",
               "weapon", "horse", "armour")


def _fight(f: dict[str, Any] | None) -> dict[str, Any] | None:
    if f is None:
        return None
    out = {k: v for k, v in f.items() if k not in ("answers", "result")}
    out["joiners"] = list(f["joiners"])
    if f["kind"] == "duel":
        out["defenders"] = list(f["defenders"])
        out["refused"] = list(f["refused"])
        out["refuse_price"] = fights.refuse_price(f)
    out["result"] = None if f["result"] is None else dict(f["result"])
    return out


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    m = state["map"]
    players = []
    for p in state["players"]:
        q = {k: p[k] for k in PLAYER_KEYS}
        q["cell"] = list(p["cell"])
        q["range"] = board.attack_range(p)
        q["action_count"] = len(p["action"])
        q["strategy_count"] = len(p["strategy"])
        players.append(q)
    sides = {side: {"castle": s["castle"],
                    "boss": {"general": s["boss"]["general"], "health": s["boss"]["health"],
                             "max_health": s["boss"]["max_health"]},
                    "minions": [{"id": mi["id"], "cell": None if mi["cell"] is None else list(mi["cell"]),
                                 "alive": mi["alive"], "waiting": mi["waiting"]} for mi in s["minions"]]}
             for side, s in state["sides"].items()}
    turn = state["turn"]
    w = state["window"]
    out: dict[str, Any] = {
        "game": "sanguosha_map", "mode": state["mode"], "phase": state["phase"],
        "options": {k: v for k, v in state["options"].items()},
        "sides": sides, "players": players, "order": list(state["order"]),
        "round": dict(state["round"]),
        "turn": None if turn is None else {k: turn[k] for k in ("seat", "stage", "roll", "rerolled",
                                                                 "movement_left")},
        "fight": _fight(state["fight"]), "window": None if w is None else {**w, "seats": list(w["seats"])},
        "map": {"name": m["name"], "rows": list(m["rows"]), "walls": [list(map(list, x)) for x in m["walls"]],
                "doors": {k: [list(c) for c in v] for k, v in m["doors"].items()}},
        "bank": state["bank"], "winner": state["winner"], "log": list(state["log"]),
        "last": [dict(e) for e in state["last"]],
        "prices": dict(PRICE),
    }
    if seat is not None:
        me = next((p for p in state["players"] if p["seat"] == seat), None)
        if me is not None:
            out["seat"] = seat
            out["action"] = list(me["action"])
            out["strategy"] = list(me["strategy"])
            out["offers"] = list(me["offers"])
            out["legal"] = legal(state, seat)["moves"]
    return out


def _targets(state: State, p: dict[str, Any]) -> list[Any]:
    """SG-4 / SG-8.4: every target within range: enemy seats, enemy minions, the enemy castle."""
    reach = board.attack_range(p)
    enemy = maps.other(p["team"])
    out: list[Any] = []
    for q in state["players"]:
        if q["team"] == enemy and not q["knocked_out"] and board.distance(state, p, board.cell(q), q) <= reach:
            out.append(q["seat"])
    for mi in state["sides"][enemy]["minions"]:
        if mi["alive"] and board.distance(state, p, (mi["cell"][0], mi["cell"][1]), None) <= reach:
            out.append(mi["id"])
    if min(board.distance(state, p, c, None) for c in board.castle_cells(state, enemy)) <= reach:
        out.append("castle")
    return out


def _turn_moves(state: State, p: dict[str, Any]) -> list[dict[str, Any]]:  # noqa: C901 - one entry per move
    turn = state["turn"]
    stage = turn["stage"]
    moves: list[dict[str, Any]] = []
    before = not p["started"] and stage in ("roll", "minion_roll")
    if before and len(p["offers"]) > 1:
        moves.append({"move": "pick_general", "generals": list(p["offers"])})
    if before:
        inner = [[r, c] for r, row in enumerate(state["map"]["rows"]) for c, ch in enumerate(row)
                 if ch == maps.INNER[p["team"]]]
        moves.append({"move": "place", "cells": inner})
    physical = state["options"]["physical_dice"]
    if stage in ("minion_roll", "roll"):
        moves.append({"move": "roll", "minions": stage == "minion_roll", "value": physical})
        return moves
    if stage == "rolled":
        if not turn["rerolled"]:
            moves.append({"move": "reroll", "value": physical})
        moves.append({"move": "keep"})
    drawn = 0
    if stage == "rolled":
        drawn = min(2, len(state["decks"]["action"]) + len(state["discard"]))
    if len(p["action"]) + drawn > CARRY["action"]:
        # SG-8.14: over 6 action cards right after the draw, a discard comes before any other move
        moves.append({"move": "discard", "cards": p["action"] + p["strategy"]})
        return moves
    left = turn["movement_left"]
    g = board.geo(state)
    if left > 0:
        cells, paths = g.moves(board.cell(p), left, bool(p["horse"]))
        if cells:
            # each reachable cell with its cost, and the cheapest path there (the ``move`` input's)
            moves.append({"move": "move", "cells": cells, "paths": paths})
    strikes = [c for c in p["action"] if is_strike(c)]
    if left >= 1 and strikes:
        targets = _targets(state, p)
        if targets:
            moves.append({"move": "attack", "targets": targets, "cards": strikes,
                          "max_cards": len(strikes) if p["weapon"] == "crossbow" else 1})
    letter = state["map"]["rows"][p["cell"][0]][p["cell"][1]]
    if letter in "AB":
        piles = [pile for pile in ("strategy", "weapon", "horse")
                 if p["gold"] >= PRICE[pile] and state["decks"][pile]]
        if piles:
            moves.append({"move": "shop", "piles": piles, "strategy_full": len(p["strategy"]) >= CARRY["strategy"]})
        if p["gold"] >= PRICE["upgrade"] and p["max_health"] < CLASS[p["class"]]["cap"]:
            moves.append({"move": "upgrade"})
    if p["action"] or p["strategy"]:
        moves.append({"move": "discard", "cards": p["action"] + p["strategy"]})
    if not turn.get("dueled"):
        foes = [q["seat"] for q in state["players"] if q["team"] != p["team"] and not q["knocked_out"]
                and q["cell"] == p["cell"]]
        if foes:
            moves.append({"move": "request_duel", "targets": foes})
    if left >= 1:
        enemy = maps.other(p["team"])
        points = [k for k in fights.boss_points(state, enemy) if p["cell"] in state["map"]["doors"][k]]
        if points:
            moves.append({"move": "challenge_boss", "points": [[int(x) for x in k.split(",")] for k in points]})
    moves.append({"move": "end_turn"})
    return moves


def _answers(state: State, p: dict[str, Any]) -> list[dict[str, Any]]:
    w, f, seat = state["window"], state["fight"], p["seat"]
    if w is not None:
        if seat not in w["seats"]:
            return []
        if w["kind"] == "dodge":
            dodges = [c for c in p["action"] if is_dodge(c)]
            out: list[dict[str, Any]] = []
            if dodges:
                out.append({"move": "dodge", "cards": dodges, "max_cards": w["strikes"]})
            return [*out, {"move": "pass"}]
        if w["kind"] == "duel":
            if seat in f["defenders"]:
                out = [{"move": "accept"}]
                if p["gold"] >= fights.refuse_price(f):
                    out.append({"move": "refuse", "price": fights.refuse_price(f)})
                return out
            return [{"move": "join", "price": 1}, {"move": "pass"}]
        if w["kind"] == "boss_join":
            return [{"move": "join_boss", "price": 2}, {"move": "pass"}]
        return [{"move": "confirm"}, {"move": "dispute"}]
    if f is None or f["stage"] != "result":
        return []
    out = []
    who = f["requester"] if f["kind"] == "duel" else f["entrant"]
    if seat == who:
        seats = fights.participants(f)
        sides = sorted({player(state, s)["team"] for s in seats} | (
            {f["side"]} if f["kind"] == "boss" else set()))
        out.append({"move": "fight_result", "sides": sides, "seats": seats})
    if f["kind"] == "boss" and seat in fights.participants(f) and p["gold"] >= 1:
        out.append({"move": "flee", "price": 1})
    return out


def legal(state: State, seat: int) -> dict[str, Any]:
    """``{"seat": S, "moves": [...]}``; each move names its choices."""
    out: dict[str, Any] = {"seat": seat, "moves": []}
    if state["phase"] != "playing":
        return out
    p = next((q for q in state["players"] if q["seat"] == seat), None)
    if p is None:
        return out
    if state["window"] is not None or state["fight"] is not None:
        out["moves"] = _answers(state, p)
    elif state["turn"] is not None and state["turn"]["seat"] == seat:
        out["moves"] = _turn_moves(state, p)
    return out


def inputs_for(options: dict[str, Any]) -> list[dict[str, Any]]:  # noqa: C901 - one branch per move
    """Every concrete input a ``legal()`` answer allows, one per choice (for generic random play,
    fuzzers and tests); a move along each offered path, an attack with one 杀 (and with all of
    them where the Crossbow allows)."""
    seat = options["seat"]
    out: list[dict[str, Any]] = []
    for m in options["moves"]:
        name = m["move"]
        if name in ("roll", "reroll"):
            arg_sets: list[dict[str, Any]] = [{"value": v} for v in range(1, 7)] if m.get("value") else [{}]
        elif name == "pick_general":
            arg_sets = [{"general": g} for g in m["generals"]]
        elif name == "place":
            arg_sets = [{"cell": c} for c in m["cells"]]
        elif name == "move":
            arg_sets = [{"path": p} for p in m["paths"]]
        elif name == "attack":
            counts = sorted({1, m["max_cards"]})
            arg_sets = [{"target": t, "cards": m["cards"][:n]} for t in m["targets"] for n in counts]
        elif name == "dodge":
            arg_sets = [{"cards": m["cards"][:n]} for n in sorted({1, min(len(m["cards"]), m["max_cards"])})]
        elif name == "shop":
            arg_sets = [{"pile": p, "drop": "new"} if p == "strategy" and m["strategy_full"] else {"pile": p}
                        for p in m["piles"]]
        elif name == "discard":
            arg_sets = [{"cards": [c]} for c in m["cards"]]
        elif name == "request_duel":
            arg_sets = [{"target": t} for t in m["targets"]]
        elif name == "challenge_boss":
            arg_sets = [{"point": p} for p in m["points"]]
        elif name == "fight_result":
            arg_sets = [{"winner": side} for side in m["sides"]]
        else:
            arg_sets = [{}]
        out += [{"type": "move", "seat": seat, "move": name, "args": a} for a in arg_sets]
    return out
