"""Duels and boss fights (SG-6, SG-8.11 … SG-8.13) and the answers of every window.

A fight is refereed around the physical game: the offer (joiners, defenders, refusals), the
entered result and its confirmation, or a seeded quick model when ``fights`` is ``"quick"``.
Gold moves exactly as SG-7 / SG-8.7 say, never below zero.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.games.base import GameError, State
from controller.games.kit import player
from controller.games.sanguosha_map import board, maps
from controller.games.sanguosha_map.board import emit
from controller.games.sanguosha_map.cards import is_strike
from gametable_core.said import say

FIGHT_MOVES = ("join", "accept", "refuse", "fight_result", "confirm", "dispute", "join_boss", "flee")
def _no_dodge(state: State, seat: int, move: str, args: dict[str, Any]) -> None:
    raise AssertionError("the engine sets fights.DODGE")


DODGE: Callable[[State, int, str, dict[str, Any]], None] = _no_dodge  # the 杀/闪 window, set by the engine


def _open(state: State, kind: str, seats: list[int], timeout_key: str = "timeout_s") -> None:
    state["seq"] += 1
    state["window"] = {"id": state["seq"], "kind": kind, "seats": seats,
                       "timeout_s": state["options"][timeout_key]}


def participants(fight: dict[str, Any]) -> list[int]:
    if fight["kind"] == "duel":
        return [fight["requester"], *fight["joiners"], *fight["defenders"]]
    return [fight["entrant"], *fight["joiners"]]


def _enemies_on(state: State, p: dict[str, Any]) -> list[dict[str, Any]]:
    return [q for q in state["players"] if q["team"] != p["team"] and not q["knocked_out"]
            and q["cell"] == p["cell"]]


# ---------------------------------------------------------------- duels (SG-6)


def request_duel(state: State, p: dict[str, Any], args: dict[str, Any]) -> None:
    target = args.get("target")
    t = player(state, target) if isinstance(target, int) and not isinstance(target, bool) else None
    if t is None or t not in _enemies_on(state, p):
        raise GameError(say("request_duel: the target must be an enemy general on your cell (SG-6)"))
    if state["turn"].get("dueled"):
        raise GameError(say("request_duel: one duel request per turn"))
    state["turn"]["dueled"] = True
    state["turn"]["movement_left"] = 0  # SG-8.14: a duel comes at the end of movement
    state["fight"] = {"kind": "duel", "stage": "offer", "requester": p["seat"], "joiners": [],
                      "defenders": [t["seat"]], "answers": {}, "refused": [], "result": None}
    emit(state, say("{who} challenges {target} to a duel", who=p["name"], target=t["name"]),
         {"kind": "duel_request", "seat": p["seat"], "target": t["seat"]})
    _offer_window(state)


def duel_joiners(state: State) -> list[int]:
    """Who may still join the duel: the requester's side, sharing a cell with an enemy general,
    holding the 1 gold (SG-6; seed example 2: A and C on B's cell make 2 v 1); nobody once a
    defender has refused."""
    f = state["fight"]
    if f["refused"]:
        return []
    req = player(state, f["requester"])
    out = []
    for q in state["players"]:
        if (q["team"] == req["team"] and q["seat"] != req["seat"] and q["seat"] not in f["joiners"]
                and not q["knocked_out"] and q["gold"] >= 1 and str(q["seat"]) not in f["answers"]
                and _enemies_on(state, q)):
            out.append(q["seat"])
    return out


def refuse_price(fight: dict[str, Any]) -> int:
    """A refusing defender pays 1 to the requester and 1 to each joiner (SG-6)."""
    return 1 + len(fight["joiners"])


def _offer_window(state: State) -> None:
    f = state["fight"]
    seats = [d for d in f["defenders"] if str(d) not in f["answers"]] + duel_joiners(state)
    if seats:
        _open(state, "duel", seats)
        return
    state["window"] = None
    if f["refused"]:
        req = player(state, f["requester"])
        for d in f["refused"]:
            dp = player(state, d)
            for s in [f["requester"], *f["joiners"]]:
                board.transfer(dp, player(state, s), 1)
            emit(state, say("{who} refuses the duel and pays {n}", who=dp["name"], n=refuse_price(f)),
                 {"kind": "duel_refused", "seat": d, "paid": refuse_price(f)})
        emit(state, say("The duel of {who} is cancelled", who=req["name"]), {"kind": "duel_cancelled"})
        state["fight"] = None
        return
    emit(state, say("The duel is on"), {"kind": "duel_on", "seats": participants(f)})
    _play(state)


def _play(state: State) -> None:
    f = state["fight"]
    if state["options"]["fights"] == "quick":
        _quick(state)
    else:
        f["stage"] = "result"
        state["window"] = None


# ---------------------------------------------------------------- bosses (SG-6, SG-8.12)


def boss_points(state: State, side: str) -> list[str]:
    """The ``"r,c"`` keys of the boss points holding ``side``'s boss."""
    letter = maps.BOSS[side]
    return [k for k in state["map"]["doors"]
            if state["map"]["rows"][int(k.split(",")[0])][int(k.split(",")[1])] == letter]


def challenge_boss(state: State, p: dict[str, Any], args: dict[str, Any]) -> None:
    """Enter the enemy boss point from one of its doors for 1 movement."""
    enemy = maps.other(p["team"])
    points = [k for k in boss_points(state, enemy) if p["cell"] in state["map"]["doors"][k]]
    want = args.get("point")
    if want is not None:
        points = [k for k in points if want == [int(x) for x in k.split(",")]]
    if not points:
        raise GameError(say("challenge_boss: stand on a door of the enemy boss point (SG-6)"))
    if state["turn"]["movement_left"] < 1:
        raise GameError(say("challenge_boss: entering costs 1 movement"))
    state["turn"]["movement_left"] -= 1
    boss = state["sides"][enemy]["boss"]
    state["fight"] = {"kind": "boss", "stage": "join", "entrant": p["seat"], "joiners": [], "side": enemy,
                      "point": points[0], "answers": {}, "result": None}
    emit(state, say("{who} challenges boss {boss} ({health} health)", who=p["name"], boss=boss["general"],
                    health=boss["health"]),
         {"kind": "boss_challenge", "seat": p["seat"], "boss": boss["general"], "health": boss["health"]})
    _boss_join_window(state)


def boss_joiners(state: State) -> list[int]:
    f = state["fight"]
    if f["joiners"]:
        return []  # 2 challengers at most
    team = player(state, f["entrant"])["team"]
    doors = state["map"]["doors"][f["point"]]
    return [q["seat"] for q in state["players"]
            if q["team"] == team and q["seat"] != f["entrant"] and not q["knocked_out"] and q["gold"] >= 2
            and q["cell"] in doors and str(q["seat"]) not in f["answers"]]


def _boss_join_window(state: State) -> None:
    seats = boss_joiners(state)
    if seats:
        _open(state, "boss_join", seats)
        return
    state["window"] = None
    state["fight"]["stage"] = "fight"
    _play(state)


# ---------------------------------------------------------------- answers


def react(state: State, seat: int, move: str, args: dict[str, Any]) -> None:  # noqa: C901 - one branch per window
    """An answer to the open window, or a move of the fight being played."""
    w, f = state["window"], state["fight"]
    if w is not None and seat not in w["seats"]:
        raise GameError(say("{move}: seat {seat} has nothing to answer in this window", move=move, seat=seat))
    if w is not None and w["kind"] == "dodge":
        if move not in ("dodge", "pass"):
            raise GameError(say("{move}: answer the attack with dodge or pass", move=move))
        DODGE(state, seat, move, args)
        return
    if w is not None and w["kind"] == "duel":
        _duel_answer(state, seat, move, args)
        return
    if w is not None and w["kind"] == "boss_join":
        if move not in ("join_boss", "pass"):
            raise GameError(say("{move}: join_boss (2 gold) or pass", move=move))
        if move == "join_boss":
            q = player(state, seat)
            board.to_bank(state, q, 2)  # SG-7 join a boss fight -2 (eligibility checked the 2)
            f["joiners"].append(seat)
            emit(state, say("{who} joins the boss fight for 2 gold", who=q["name"]), {"kind": "boss_join", "seat": seat})
        f["answers"][str(seat)] = move
        _boss_join_window(state)
        return
    if w is not None and w["kind"] == "confirm":
        if move not in ("confirm", "dispute"):
            raise GameError(say("{move}: confirm or dispute the fight's result", move=move))
        if move == "confirm":
            emit(state, say("{who} confirms the result", who=player(state, seat)["name"]), {"kind": "confirm", "seat": seat})
            finish(state, f["result"])
        else:
            emit(state, say("{who} disputes the result: enter it again (or the host undoes)",
                                    who=player(state, seat)["name"]),
                 {"kind": "dispute", "seat": seat})
            f.update(stage="result", result=None)
            state["window"] = None
        return
    # no window: the fight is being played at the table
    if move == "fight_result":
        _enter_result(state, seat, args)
    elif move == "flee":
        _flee(state, seat, args)
    else:
        raise GameError(say("{move}: the fight is being played; enter its result or flee", move=move))


def _duel_answer(state: State, seat: int, move: str, args: dict[str, Any]) -> None:
    f = state["fight"]
    q = player(state, seat)
    if seat in f["defenders"]:
        if move not in ("accept", "refuse"):
            raise GameError(say("{move}: accept or refuse the duel", move=move))
        if move == "refuse":
            price = refuse_price(f)
            if q["gold"] < price:
                raise GameError(say("refuse: refusing costs {price} gold; you have {gold} (SG-8.7)", price=price, gold=q["gold"]))
            f["refused"].append(seat)
        f["answers"][str(seat)] = move
        emit(state, say("{who} accepts", who=q["name"]) if move == "accept" else say("{who} refuses", who=q["name"]),
             {"kind": "duel_answer", "seat": seat, "answer": move})
    else:
        if move not in ("join", "pass"):
            raise GameError(say("{move}: join the duel (1 gold) or pass", move=move))
        if move == "join":
            foes = _enemies_on(state, q)
            free = [e for e in foes if e["seat"] not in f["defenders"]]
            target = args.get("target")
            pick = next((e for e in foes if e["seat"] == target), None) if target is not None else (
                free[0] if free else None)
            if target is not None and pick is None:
                raise GameError(f"join: seat {target!r} is not an enemy on your cell")
            board.to_bank(state, q, 1)  # SG-7 join a duel -1
            f["joiners"].append(seat)
            if pick is not None and pick["seat"] not in f["defenders"]:
                f["defenders"].append(pick["seat"])  # the enemy on the joiner's cell defends too
                emit(state, say("{who} joins the duel for 1 gold; {defender} defends", who=q["name"],
                                     defender=pick["name"]),
                     {"kind": "duel_join", "seat": seat, "defender": pick["seat"]})
            else:
                emit(state, say("{who} joins the duel for 1 gold", who=q["name"]), {"kind": "duel_join", "seat": seat})
        f["answers"][str(seat)] = move
    _offer_window(state)


def _seat_list(value: object, allowed: list[int], what: str) -> list[int]:
    value = value or []
    if not isinstance(value, list) or any(v not in allowed for v in value):
        raise GameError(f"fight_result: {what} must list seats of the fight ({allowed}), got {value!r}")
    return list(value)


def _boss_health(state: State, value: object, winner: object) -> int | None:
    """SG-8.14: the boss's health after the fight, 0 up to its full health (Peach and Peach Garden
    heal it in the fight); a boss at 0 has lost."""
    f = state["fight"]
    if f["kind"] != "boss" or value is None:
        return None
    mx = state["sides"][f["side"]]["boss"]["max_health"]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= mx:
        raise GameError(f"fight_result: boss_health must be 0-{mx}, got {value!r}")
    if value == 0 and winner == f["side"]:
        raise GameError(f"fight_result: a boss at 0 health is beaten; side {f['side']} cannot be the winner")
    return value


def _enter_result(state: State, seat: int, args: dict[str, Any]) -> None:
    """SG-8.11: the requester (boss: the entrant) enters the result; the other side confirms."""
    f = state["fight"]
    who = f["requester"] if f["kind"] == "duel" else f["entrant"]
    if seat != who:
        raise GameError(f"fight_result: {player(state, who)['name']} enters the result")
    seats = participants(f)
    sides = sorted({player(state, s)["team"] for s in seats} | ({f["side"]} if f["kind"] == "boss" else set()))
    winner = args.get("winner")
    if winner not in sides:
        raise GameError(f"fight_result: winner must be a side of the fight ({', '.join(sides)}), got {winner!r}")
    out = _seat_list(args.get("knocked_out"), seats, "knocked_out")
    health = args.get("health") or {}
    if not isinstance(health, dict):
        raise GameError("fight_result: health must map seats to health")
    hp: dict[str, int] = {}
    for k, v in health.items():
        s = int(k) if isinstance(k, str) and k.isdigit() else k
        if s not in seats:
            raise GameError(f"fight_result: health of {k!r}, who is not in the fight")
        mx = player(state, s)["max_health"]
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= mx:
            raise GameError(f"fight_result: health of seat {s} must be 1-{mx}, got {v!r}")
        hp[str(s)] = v
    used = args.get("strategy_used") or []
    if not isinstance(used, list) or any(not any(c in player(state, s)["strategy"] for s in seats) for c in used):
        raise GameError(f"fight_result: strategy_used must list strategy cards the fighters hold, got {used!r}")
    boss_health = _boss_health(state, args.get("boss_health"), winner)
    if f["kind"] == "duel" and args.get("fled"):  # fleeing belongs to boss fights (SG-6, SG-8.12)
        raise GameError(say("fight_result: nobody flees a duel: every loser is knocked out (SG-8.11); "
                            "leave 'fled' out"))
    fled = _seat_list(args.get("fled"), seats, "fled")
    for s in fled:  # SG-8.14: leaving always costs 1 gold, by flee or listed here
        if player(state, s)["gold"] < 1:
            raise GameError(f"fight_result: seat {s} cannot have fled: leaving costs 1 gold and they have 0 "
                            "(SG-8.14)")
    f["result"] = {"winner": winner, "knocked_out": out, "health": hp, "strategy_used": list(used),
                   "boss_health": boss_health, "fled": fled}
    f["stage"] = "confirm"
    me = player(state, seat)["team"]
    others = [s for s in (seats if f["kind"] == "duel" else [p["seat"] for p in state["players"]])
              if player(state, s)["team"] != me]
    emit(state, say("Fight result entered: side {side} wins", side=winner), {"kind": "fight_result", "winner": winner})
    _open(state, "confirm", others, "fight_timeout_s")


def _flee(state: State, seat: int, args: dict[str, Any]) -> None:
    """SG-6 / SG-8.12 / SG-8.14: a challenger leaves for 1 gold (the entrant keeps unused movement);
    the fight ends only when no challenger is left, so a joiner fights on without the entrant."""
    f = state["fight"]
    if f["kind"] != "boss" or seat not in participants(f):
        raise GameError("flee: only a boss fight's challenger may flee")
    q = player(state, seat)
    if q["gold"] < 1:
        raise GameError("flee: fleeing costs 1 gold; you have 0 (SG-8.14)")
    rest = [s for s in participants(f) if s != seat]
    bh = args.get("boss_health")
    boss = state["sides"][f["side"]]["boss"]
    if bh is not None and rest:
        raise GameError(f"flee: {player(state, rest[0])['name']} fights on; the boss's health is entered when "
                        "the fight ends")
    if bh is not None and (isinstance(bh, bool) or not isinstance(bh, int) or not 1 <= bh <= boss["max_health"]):
        raise GameError(f"flee: boss_health must be 1-{boss['max_health']} (a boss at 0 is beaten: enter "
                        f"fight_result), got {bh!r}")
    board.to_bank(state, q, 1)
    emit(state, say("{who} flees the boss fight for 1 gold", who=q["name"]), {"kind": "flee", "seat": seat})
    if rest:
        # the challenger left enters the result (SG-8.11)
        f["entrant"], f["joiners"] = rest[0], rest[1:]
        emit(state, say("{who} fights the boss on", who=player(state, rest[0])["name"]), {"kind": "fights_on", "seat": rest[0]})
        return
    if bh is not None:
        boss["health"] = bh
    state["fight"] = None


def timeout(state: State) -> None:
    """A window's time is up: a dodge is a pass, a duel offer is accepted by the silent, a join
    window passes, a result is confirmed (SG-8.11)."""
    w, f = state["window"], state["fight"]
    if w["kind"] == "dodge":
        DODGE(state, w["seats"][0], "pass", {})
    elif w["kind"] == "duel":
        for d in f["defenders"]:
            f["answers"].setdefault(str(d), "accept")
        for s in duel_joiners(state):
            f["answers"][str(s)] = "pass"
        _offer_window(state)
    elif w["kind"] == "boss_join":
        for s in w["seats"]:
            f["answers"][str(s)] = "pass"
        _boss_join_window(state)
    else:
        finish(state, f["result"])


# ---------------------------------------------------------------- results


def _quick(state: State) -> None:
    """SG-8.13: a seeded abstract fight from health and 杀 counts; the defending side wins ties."""
    f = state["fight"]
    if f["kind"] == "duel":
        req = player(state, f["requester"])["team"]
        sides = {req: [f["requester"], *f["joiners"]], maps.other(req): list(f["defenders"])}
        score = {}
        for side, seats in sides.items():
            ps = [player(state, s) for s in seats]
            score[side] = (sum(p["health"] for p in ps) + sum(is_strike(c) for p in ps for c in p["action"]) // 2
                           + board.die(state))
        winner = req if score[req] > score[maps.other(req)] else maps.other(req)
        hp = {}
        for s in sides[winner]:
            p = player(state, s)
            hp[str(s)] = max(1, p["health"] - (1 if board.die(state) <= 3 else 0))
        boss_health = None
    else:
        ps = [player(state, s) for s in participants(f)]
        boss = state["sides"][f["side"]]["boss"]
        mine = sum(p["health"] for p in ps) + board.die(state)
        theirs = boss["health"] + board.die(state)
        winner = ps[0]["team"] if mine > theirs else f["side"]
        hp = {str(p["seat"]): max(1, p["health"] - 1) for p in ps} if winner != f["side"] else {}
        boss_health = max(1, boss["health"] - len(ps))
    finish(state, {"winner": winner, "knocked_out": [], "health": hp, "strategy_used": [],
                   "boss_health": boss_health, "fled": []})


def finish(state: State, result: dict[str, Any]) -> None:  # noqa: C901 - duel and boss results side by side
    """Apply a confirmed result: losers knocked out, SG-7's fight gold, boss damage or rewards."""
    f = state["fight"]
    state["window"] = None
    state["fight"] = None
    seats = participants(f)
    for c in result["strategy_used"]:
        for s in seats:
            p = player(state, s)
            if c in p["strategy"]:
                p["strategy"].remove(c)
                state["decks"]["strategy"].append(c)
                break
    for k, v in result["health"].items():
        player(state, int(k))["health"] = v
    winner = result["winner"]
    if f["kind"] == "duel":
        winners = [player(state, s) for s in seats if player(state, s)["team"] == winner]
        losers = [player(state, s) for s in seats if player(state, s)["team"] != winner]
        for lp in losers:  # SG-7 lose a duel -1 per winner (what they have, SG-8.7)
            for wp in winners:
                board.transfer(lp, wp, 1)
        emit(state, say("Side {side} wins the duel", side=winner), {"kind": "duel_over", "winner": winner,
                                                     "winners": [p["seat"] for p in winners]})
        down = {p["seat"] for p in losers} | set(result["knocked_out"])
    else:
        boss = state["sides"][f["side"]]["boss"]
        challengers = [player(state, s) for s in seats]
        fled = [p for p in challengers if p["seat"] in result["fled"]]
        for p in fled:  # SG-6: leaving costs 1 gold (what they have)
            board.to_bank(state, p, 1)
        challengers = [p for p in challengers if p not in fled]
        dead = [p for p in challengers if p["seat"] in result["knocked_out"]]
        if winner != f["side"]:
            boss["health"] = boss["max_health"]
            for p in dead:  # SG-6: a challenger who dies is knocked out and pays 2
                board.to_bank(state, p, 2)
            challengers = [p for p in challengers if p not in dead]
            for p in challengers:
                armour = board.draw(state, "armour")
                if armour:
                    if p["armour"]:
                        state["decks"]["armour"].append(p["armour"])
                    p["armour"] = armour
                board.gain(state, p, 2)  # SG-7 beat a boss +2
            emit(state, say("Boss {boss} is beaten", boss=boss["general"]), {"kind": "boss_beaten", "side": f["side"]})
            down = {p["seat"] for p in dead}
        else:
            if result.get("boss_health") is not None:
                boss["health"] = result["boss_health"]
            for p in challengers:
                board.to_bank(state, p, 2)  # SG-6 a challenger who dies pays 2
            emit(state, say("Boss {boss} wins ({health} health left)", boss=boss["general"], health=boss["health"]),
                 {"kind": "boss_wins", "side": f["side"], "health": boss["health"]})
            down = {p["seat"] for p in challengers}
    for s in sorted(down):
        p = player(state, s)
        if not p["knocked_out"]:
            board.knock_out(state, p)
