"""The battlefield referee's inputs: ``apply(state, input) -> new state`` (SG-3 … SG-9).

``apply`` copies the state once and works on the copy, so an illegal input (GameError) leaves the
caller's state untouched; ``apply_in_place`` (journal replay) does the same — the copy is what
makes a refusal free of half-done changes. The round and turn walk lives here; duels and boss
fights in :mod:`.fights`, the board's bookkeeping in :mod:`.board`.
"""

from __future__ import annotations

from typing import Any

from controller.games.base import GameError, Input, State, copy_with_layout, seat_of
from controller.games.kit import player
from controller.games.sanguosha_map import board, fights, maps
from controller.games.sanguosha_map.board import emit, name
from controller.games.sanguosha_map.cards import CARRY, CLASS, EQUIPMENT, GENERALS, PRICE, is_dodge, is_strike
from gametable_core.said import N_, say

TURN_MOVES = ("roll", "reroll", "keep", "move", "attack", "shop", "upgrade", "discard", "request_duel",
              "challenge_boss", "end_turn", "pick_general", "place")
MOVES = TURN_MOVES + ("dodge", "pass", "join", "accept", "refuse", "fight_result", "confirm", "dispute",
                      "join_boss", "flee")
ARGS: dict[str, tuple[str, ...]] = {m: () for m in MOVES}
ARGS.update(roll=("value",), reroll=("value",), move=("path",), attack=("target", "cards"), dodge=("cards",),
            shop=("pile", "drop"), discard=("cards",), request_duel=("target",), join=("target",),
            fight_result=("winner", "health", "knocked_out", "strategy_used", "boss_health", "fled"),
            challenge_boss=("point",), flee=("boss_health",), pick_general=("general",), place=("cell",))


# The map is never changed after ``new``: copies share it (tests/test_sgmap_*.py replay exactly).
# Every other bulky part is copied by hand (str/int/bool/None below the level copied), about
# several times faster than a marshal round trip; the fight and the window go through ``clone``.
LAYOUT: dict[str, Any] = {
    "map": lambda m: m,
    "last": lambda _: [],
    "players": lambda ps: [{**p, "cell": list(p["cell"]), "offers": list(p["offers"]), "action": list(p["action"]),
                            "strategy": list(p["strategy"])} for p in ps],
    "sides": lambda sides: {k: {**v, "boss": dict(v["boss"]),
                                "minions": [{**m, "cell": None if m["cell"] is None else list(m["cell"])}
                                            for m in v["minions"]]} for k, v in sides.items()},
    "decks": lambda d: {k: list(v) for k, v in d.items()},
    "discard": list, "dice": list, "order": list, "log": list, "options": dict, "round": dict, "turn": dict,
}


def _copy(state: State) -> State:
    new = copy_with_layout(state, LAYOUT)
    new["last"] = []
    return new


def apply(state: State, inp: Input) -> State:
    """A new state after ``inp``; GameError (state untouched) for anything illegal."""
    if not isinstance(inp, dict):
        raise GameError(f"an input must be an object, got {type(inp).__name__}")
    if state["phase"] != "playing":
        raise GameError(f"the game is {state['phase']}")
    kind = inp.get("type")
    if kind == "timeout":
        return _timeout(state, inp)
    if kind != "move":
        raise GameError(f"sanguosha_map takes 'move' and 'timeout' inputs, not {kind!r}")
    seat = seat_of(inp)
    player(state, seat)
    move = inp.get("move")
    if not isinstance(move, str) or move not in MOVES:
        raise GameError(f"unknown move {move!r}; moves: {', '.join(MOVES)}")
    args = inp.get("args") or {}
    if not isinstance(args, dict):
        raise GameError(f"{move}: args must be an object")
    extra = sorted(set(args) - set(ARGS[move]))
    if extra:
        raise GameError(f"{move} takes no {extra[0]!r} argument")
    new = _copy(state)
    if new["window"] is not None or (new["fight"] is not None and move in fights.FIGHT_MOVES):
        fights.react(new, seat, move, args)
    elif new["fight"] is not None:
        raise GameError(say(_FIGHT_ON[new["fight"]["kind"] == "duel"], move=move))
    else:
        _turn_move(new, seat, move, args)
    settle(new)
    return new


def apply_in_place(state: State, inp: Input) -> State:
    """As :func:`apply` (the copy keeps a refused input from changing anything)."""
    return apply(state, inp)


def _timeout(state: State, inp: Input) -> State:
    window = state["window"]
    if window is None:
        raise GameError(say("timeout: no window is open"))
    wid = inp.get("window")
    if wid is not None and wid != window["id"]:
        raise GameError(say("stale timeout for window {stale}; window {window} is open", stale=repr(wid), window=window["id"]))
    new = _copy(state)
    emit(new, say("Time is up for window {window}", window=window["id"]), {"kind": "timeout", "window": window["id"]})
    fights.timeout(new)
    settle(new)
    return new


# ---------------------------------------------------------------- rounds and turns (SG-3, SG-8.1)


def start_round(state: State, first: int | None = None) -> None:
    """SG-3: the minion roll (unless a real die is awaited), then the first general's turn."""
    state["round"] = {"n": state["round"]["n"] + 1, "minion_roll": None}
    emit(state, say("Round {n}", n=state["round"]["n"]), {"kind": "round", "n": state["round"]["n"]})
    order = state["order"]
    index = order.index(first) if first is not None else 0
    if state["options"]["physical_dice"]:
        state["turn"] = {"seat": order[index], "index": index, "stage": "minion_roll", "roll": None,
                         "rerolled": False, "movement_left": 0}
        return
    minion_roll(state, board.die(state))
    if state["phase"] == "playing":
        begin_turn(state, index)


def minion_roll(state: State, roll: int) -> None:
    state["round"]["minion_roll"] = roll
    board.move_minions(state, roll)


def begin_turn(state: State, index: int) -> None:
    """The turn of ``order[index]``; a knocked-out general skips it, or wakes and plays it (SG-4,
    SG-8.14)."""
    order = state["order"]
    while index < len(order):
        p = player(state, order[index])
        if p["knocked_out"] and board.skip_or_wake(state, p):
            index += 1
            continue
        state["turn"] = {"seat": p["seat"], "index": index, "stage": "roll", "roll": None, "rerolled": False,
                         "movement_left": 0}
        emit(state, say("{who}'s turn", who=p["name"]), {"kind": "turn", "seat": p["seat"]})
        return
    start_round(state)


def next_turn(state: State) -> None:
    begin_turn(state, state["turn"]["index"] + 1)


def settle(state: State) -> None:
    """After every input: a general knocked out on their own turn ends it (no zone effect)."""
    turn = state["turn"]
    if state["phase"] != "playing" or turn is None or state["fight"] is not None or state["window"] is not None:
        return
    if turn["stage"] != "minion_roll" and player(state, turn["seat"])["knocked_out"]:
        next_turn(state)


def _final(state: State, p: dict[str, Any]) -> None:
    """SG-9.1: the 2 action cards are drawn when the movement value becomes final."""
    turn = state["turn"]
    if turn["stage"] != "rolled":
        return
    turn["stage"] = "act"
    got = [c for c in (board.draw(state, "action"), board.draw(state, "action")) if c]
    p["action"].extend(got)
    emit(state, say("{who} moves up to {movement} and draws {n}", who=p["name"], movement=turn["movement_left"], n=len(got)),
         {"kind": "draw", "seat": p["seat"], "count": len(got), "movement": turn["movement_left"]})


def _die_value(state: State, args: dict[str, Any], what: str) -> int:
    if state["options"]["physical_dice"]:
        v = args.get("value")
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
            raise GameError(f"{what}: enter the real die's value 1-6 (physical dice), got {v!r}")
        return v
    if args.get("value") is not None:
        raise GameError(f"{what}: the table rolls (physical_dice is off); send no value")
    return board.die(state)


def _turn_move(state: State, seat: int, move: str, args: dict[str, Any]) -> None:  # noqa: C901 - SG-9.1's turn steps
    if move in fights.FIGHT_MOVES or move in ("dodge", "pass"):
        raise GameError(say("{move}: there is nothing to answer now", move=move))
    turn = state["turn"]
    if turn is None or turn["seat"] != seat:
        raise GameError(say("it is {who}'s turn, not seat {seat}'s", who=name(state, turn["seat"]), seat=seat)
                        if turn else say("no turn"))
    p = player(state, seat)
    stage = turn["stage"]
    if move in ("pick_general", "place"):
        _before_start(state, p, move, args)
        return
    if stage == "minion_roll":
        if move != "roll":
            raise GameError(say("{move}: first roll the minions' die (physical dice)", move=move))
        minion_roll(state, _die_value(state, args, "roll"))
        if state["phase"] == "playing":
            begin_turn(state, turn["index"])  # a knocked-out roller skips or wakes (SG-8.14)
        return
    if move == "roll":
        if stage != "roll":
            raise GameError(say("roll: you rolled already this turn"))
        v = _die_value(state, args, "roll")
        turn.update(roll=v, movement_left=v, stage="rolled")
        p["started"] = True
        emit(state, say("{who} rolls {value}", who=p["name"], value=v), {"kind": "roll", "seat": seat, "value": v})
        return
    if stage == "roll":
        raise GameError(say("{move}: roll the die first (SG-3)", move=move))
    if move == "reroll":
        if stage != "rolled" or turn["rerolled"]:
            raise GameError(say("reroll: only one re-roll, straight after the roll (SG-8.10)"))
        v = _die_value(state, args, "reroll")
        turn.update(roll=v, movement_left=v, rerolled=True)
        emit(state, say("{who} re-rolls {value}", who=p["name"], value=v), {"kind": "roll", "seat": seat, "value": v, "reroll": True})
        _final(state, p)
        return
    if move == "keep":
        if stage != "rolled":
            raise GameError(say("keep: the movement value is final already"))
        _final(state, p)
        return
    _final(state, p)
    if move != "discard" and over_the_limit(p):
        raise GameError(say("{move}: you hold {n} action cards; discard down to {keep} before any other move (SG-8.14)",
                            move=move, n=len(p["action"]), keep=CARRY["action"]))
    HANDLERS[move](state, p, args)


def over_the_limit(p: dict[str, Any]) -> bool:
    """SG-8.8 / SG-8.14: more than 6 action cards right after the draw: only ``discard`` is taken."""
    return len(p["action"]) > CARRY["action"]


def _before_start(state: State, p: dict[str, Any], move: str, args: dict[str, Any]) -> None:
    """SG-1: a player picks their general and start cell before their first roll."""
    if p["started"] or state["turn"]["stage"] not in ("roll", "minion_roll"):
        raise GameError(say("{move}: only before your first roll", move=move))
    if move == "pick_general":
        g = args.get("general")
        if not isinstance(g, str) or g not in p["offers"]:
            raise GameError(f"pick_general: choose one of {', '.join(p['offers'])}, not {g!r}")
        p["class"] = GENERALS[g]["card_health"]
        p.update(general=g, health=CLASS[p["class"]]["health"], max_health=CLASS[p["class"]]["health"])
        # the general as the players name it (its Chinese name), not its id
        emit(state, say("{who} picks {general}", who=p["name"], general=GENERALS[g]["name"]),
             {"kind": "pick_general", "seat": p["seat"], "general": g})
        return
    c = maps.parse_cell(args.get("cell"), "place: cell", state["map"]["rows"])
    if state["map"]["rows"][c[0]][c[1]] != maps.INNER[p["team"]]:
        raise GameError(f"place: {list(c)} is not in your inner zone (SG-1)")
    p["cell"] = list(c)
    emit(state, say("{who} starts on {cell}", who=p["name"], cell=str(list(c))), {"kind": "place", "seat": p["seat"], "cell": list(c)})


def _cells(value: object, rows: list[str]) -> list[maps.Cell]:
    if not isinstance(value, list) or not value:
        raise GameError("move: 'path' must be a non-empty list of cells [row, column]")
    return [maps.parse_cell(v, "move: path cell", rows) for v in value]


def path_cost(state: State, p: dict[str, Any], path: list[maps.Cell]) -> int:
    """SG-8.3: orthogonal steps on walkable cells; a wall edge needs a horse and costs 2."""
    g = board.geo(state)
    cur, total = board.cell(p), 0
    for nxt in path:
        step = g.step_cost(cur, nxt, bool(p["horse"]))
        if step is None:
            if abs(cur[0] - nxt[0]) + abs(cur[1] - nxt[1]) != 1:
                raise GameError(f"move: {list(nxt)} is not next to {list(cur)}")
            if not g.walkable(nxt):
                raise GameError(f"move: {list(nxt)} is not walkable")
            raise GameError(f"move: a wall between {list(cur)} and {list(nxt)}; only a horse jumps it (SG-2)")
        total += step
        cur = nxt
    return total


def _move(state: State, p: dict[str, Any], args: dict[str, Any]) -> None:
    path = _cells(args.get("path"), state["map"]["rows"])
    cost = path_cost(state, p, path)
    turn = state["turn"]
    if cost > turn["movement_left"]:
        raise GameError(say("move: the path costs {cost}; {left} movement left", cost=cost, left=turn["movement_left"]))
    turn["movement_left"] -= cost
    p["cell"] = list(path[-1])
    emit(state, say("{who} moves to {cell} ({cost})", who=p["name"], cell=str(p["cell"]), cost=cost),
         {"kind": "move", "seat": p["seat"], "cell": p["cell"], "cost": cost})
    ended_on_minions(state, p)


def ended_on_minions(state: State, p: dict[str, Any]) -> None:
    """SG-5: ending movement on an own minion kills it; on an enemy minion the general loses 1."""
    for side in maps.SIDES:
        for i, m in enumerate(state["sides"][side]["minions"]):
            if m["alive"] and m["cell"] == p["cell"]:
                if side == p["team"]:
                    emit(state, say("{who} removes own minion {minion}", who=p["name"], minion=m["id"]),
                         {"kind": "minion_killed", "minion": m["id"], "seat": p["seat"]})
                    board.minion_dies(state, side, i)
                else:
                    board.hurt(state, p, 1, say("minion {minion}", minion=m["id"]), None)


def _strikes(p: dict[str, Any], cards: object) -> list[str]:
    if not isinstance(cards, list) or not cards:
        raise GameError("attack: 'cards' must list the 杀 (strike) cards spent")
    if len(set(cards)) != len(cards) or any(not isinstance(c, str) for c in cards):
        raise GameError("attack: a card is listed twice")
    for c in cards:
        if not is_strike(c):
            raise GameError(f"attack: {c!r} is not a 杀 (strike)")
        if c not in p["action"]:
            raise GameError(say("attack: you do not hold {card}", card=c))
    if len(cards) > 1 and p["weapon"] != "crossbow":
        raise GameError(say("attack: one 杀 per attack unless you hold the Crossbow (SG-4)"))
    return list(cards)


def _attack(state: State, p: dict[str, Any], args: dict[str, Any]) -> None:  # noqa: C901 - three target kinds
    """SG-4 / SG-8.4: 1 movement and 杀 on a general (dodge window), a minion or the castle."""
    turn = state["turn"]
    if turn["movement_left"] < 1:
        raise GameError(say("attack: no movement left (an attack costs 1)"))
    cards = _strikes(p, args.get("cards"))
    target = args.get("target")
    reach = board.attack_range(p)
    enemy = maps.other(p["team"])
    if target == "castle":
        d = min(board.distance(state, p, c, None) for c in board.castle_cells(state, enemy))
        if d > reach:
            raise GameError(say("attack: castle {side} is {d} away; your range is {reach}", side=enemy, d=d, reach=reach))
        _spend(state, p, cards)
        # SG-8.14: 1 durability per attack, however many 杀 a Crossbow plays in it
        board.castle_damage(state, enemy, 1, say("{who}'s attack", who=p["name"]))
        return
    if isinstance(target, str):
        side, idx = (target[:1], int(target[1:]) - 1) if target[1:].isdigit() else ("", -1)
        if side not in maps.SIDES or not 0 <= idx < 6:
            raise GameError(f"attack: unknown target {target!r}; a seat, a minion id A1-B6 or 'castle'")
        if side == p["team"]:
            raise GameError(say("attack: that is your own minion (end your movement on it instead, SG-5)"))
        m = state["sides"][side]["minions"][idx]
        if not m["alive"]:
            raise GameError(say("attack: minion {minion} is not on the board", minion=target))
        d = board.distance(state, p, (m["cell"][0], m["cell"][1]), None)
        if d > reach:
            raise GameError(say("attack: minion {minion} is {d} away; your range is {reach}", minion=target, d=d, reach=reach))
        _spend(state, p, cards)
        emit(state, say("{who} kills minion {minion}", who=p["name"], minion=target), {"kind": "minion_killed", "minion": target,
                                                           "seat": p["seat"]})
        board.minion_dies(state, side, idx)
        board.gain(state, p, 1)  # SG-7 kill a minion +1
        return
    if isinstance(target, bool) or not isinstance(target, int):
        raise GameError(f"attack: 'target' must be a seat, a minion id or 'castle', got {target!r}")
    t = player(state, target)
    if t["team"] == p["team"]:
        raise GameError(say("attack: that general is on your side"))
    if t["knocked_out"]:
        raise GameError(say("attack: {who} is knocked out", who=t["name"]))
    d = board.distance(state, p, board.cell(t), t)
    if d > reach:
        raise GameError(say("attack: {who} is {d} away; your range is {reach}", who=t["name"], d=d, reach=reach))
    _spend(state, p, cards)
    state["seq"] += 1
    state["window"] = {"id": state["seq"], "kind": "dodge", "seats": [target], "attacker": p["seat"],
                       "target": target, "strikes": len(cards), "timeout_s": state["options"]["timeout_s"]}
    emit(state, say("{who} attacks {target} with {n} 杀", who=p["name"], target=t["name"], n=len(cards)),
         {"kind": "attack", "seat": p["seat"], "target": target, "strikes": len(cards)})


def _spend(state: State, p: dict[str, Any], cards: list[str]) -> None:
    state["turn"]["movement_left"] -= 1
    for c in cards:
        p["action"].remove(c)
        state["discard"].append(c)


def dodge(state: State, seat: int, move: str, args: dict[str, Any]) -> None:
    """SG-4: the target plays 闪 (one per 杀) or passes; each 杀 not dodged costs 1 health."""
    w = state["window"]
    t = player(state, seat)
    used: list[str] = []
    if move == "dodge":
        cards = args.get("cards")
        if not isinstance(cards, list) or not cards or len(set(cards)) != len(cards):
            raise GameError("dodge: 'cards' must list the 闪 (dodge) cards played")
        for c in cards:
            if not isinstance(c, str) or not is_dodge(c) or c not in t["action"]:
                raise GameError(say("dodge: {card} is not a 闪 you hold", card=repr(c)))
        if len(cards) > w["strikes"]:
            raise GameError(say("dodge: only {n} 杀 to dodge", n=w["strikes"]))
        used = list(cards)
    for c in used:
        t["action"].remove(c)
        state["discard"].append(c)
    state["window"] = None
    if used:
        emit(state, say("{who} dodges {n}", who=t["name"], n=len(used)), {"kind": "dodge", "seat": seat, "count": len(used)})
    hits = w["strikes"] - len(used)
    if hits:
        board.hurt(state, t, hits, say("{who}'s 杀", who=player(state, w["attacker"])["name"]), player(state, w["attacker"]))


def _shop(state: State, p: dict[str, Any], args: dict[str, Any]) -> None:  # noqa: C901 - SG-8.7's checks first
    """SG-7 / SG-8.7: buy in any castle; the full price or refused; the player says what to drop."""
    if state["map"]["rows"][p["cell"][0]][p["cell"][1]] not in "AB":
        raise GameError(say("shop: only inside a castle (SG-2)"))
    pile = args.get("pile")
    if pile not in ("strategy", "weapon", "horse"):
        raise GameError(f"shop: pile must be strategy, weapon or horse, got {pile!r}")
    price = PRICE[pile]
    if p["gold"] < price:
        raise GameError(say("shop: a {pile} card costs {price} gold; you have {gold}", pile=pile, price=price, gold=p["gold"]))
    if not state["decks"][pile]:
        raise GameError(say("shop: the {pile} pile is empty", pile=pile))
    drop = args.get("drop")
    if pile == "strategy":
        if len(p["strategy"]) >= CARRY["strategy"]:
            if drop != "new" and drop not in p["strategy"]:
                raise GameError("shop: you carry 3 strategy cards (SG-4); say which to drop ('drop': a card "
                                "or 'new')")
    elif drop not in (None, "old", "new"):
        raise GameError(f"shop: drop must be 'old' (default) or 'new' for a {pile}, got {drop!r}")
    board.to_bank(state, p, price)
    card = board.draw(state, pile)
    assert card is not None
    if pile == "strategy":
        p["strategy"].append(card)
        if len(p["strategy"]) > CARRY["strategy"]:
            gone = card if drop == "new" else drop
            p["strategy"].remove(gone)
            state["decks"]["strategy"].append(gone)
        emit(state, say("{who} buys a strategy card", who=p["name"]), {"kind": "shop", "seat": p["seat"], "pile": pile})
        return
    old = p[pile]
    if old is not None and drop == "new":
        state["decks"][pile].append(card)
    else:
        if old is not None:
            state["decks"][pile].append(old)
        p[pile] = card
    emit(state, say("{who} buys {item} ({card})", who=p["name"], item=EQUIPMENT[card]["name"], card=card),
         {"kind": "shop", "seat": p["seat"], "pile": pile, "card": card})


def _upgrade(state: State, p: dict[str, Any], args: dict[str, Any]) -> None:
    """SG-4 / SG-8.7: +1 max and +1 health for 10 gold, in any castle, up to the class's cap."""
    if state["map"]["rows"][p["cell"][0]][p["cell"][1]] not in "AB":
        raise GameError(say("upgrade: only inside a castle"))
    cap = CLASS[p["class"]]["cap"]
    if p["max_health"] >= cap:
        raise GameError(say("upgrade: max health is at its cap of {cap}", cap=cap))
    if p["gold"] < PRICE["upgrade"]:
        raise GameError(say("upgrade: costs {price} gold; you have {gold}", price=PRICE["upgrade"], gold=p["gold"]))
    board.to_bank(state, p, PRICE["upgrade"])
    p["max_health"] += 1
    p["health"] += 1
    emit(state, say("{who} upgrades to {n} max health", who=p["name"], n=p["max_health"]),
         {"kind": "upgrade", "seat": p["seat"], "max_health": p["max_health"]})


def _discard(state: State, p: dict[str, Any], args: dict[str, Any]) -> None:
    cards = args.get("cards")
    if not isinstance(cards, list) or not cards or len(set(cards)) != len(cards):
        raise GameError("discard: 'cards' must list distinct cards you hold")
    for c in cards:
        if c not in p["action"] and c not in p["strategy"]:
            raise GameError(f"discard: you do not hold {c!r}")
    for c in cards:
        if c in p["action"]:
            p["action"].remove(c)
            state["discard"].append(c)
        else:
            p["strategy"].remove(c)
            state["decks"]["strategy"].append(c)
    shown = [c for c in cards if is_strike(c) or is_dodge(c)]  # action cards go face up; strategy cards stay hidden
    emit(state, say("{who} discards {n}", who=p["name"], n=len(cards)), {"kind": "discard", "seat": p["seat"], "cards": shown,
                                                       "count": len(cards)})


ZONE = {("castle", True): 2, ("castle", False): -1, ("inner", True): 1, ("inner", False): -1,
        ("outer", False): -1}
_FIGHT_ON = {True: N_("{move}: a duel fight is being played; finish it first"),
             False: N_("{move}: a boss fight is being played; finish it first")}
# The zone's line by kind, whole sentences so each language words them its own way (docs/i18n.md).
_HEAL_IN = {"castle": N_("{who} heals to {health} in the castle zone"),
            "inner": N_("{who} heals to {health} in the inner zone"),
            "outer": N_("{who} heals to {health} in the outer zone")}
_ENEMY_ZONE = {"castle": N_("the enemy castle zone"), "inner": N_("the enemy inner zone"),
               "outer": N_("the enemy outer zone")}


def _end_turn(state: State, p: dict[str, Any], args: dict[str, Any]) -> None:
    """SG-3 / SG-8.6: the zone's heal or damage on the final cell (the 6-card limit was met right
    after the draw, SG-8.14)."""
    kind = board.zone_side(state["map"]["rows"][p["cell"][0]][p["cell"][1]])
    if kind is not None:
        delta = ZONE.get((kind[0], kind[1] == p["team"]), 0)
        if delta > 0 and p["health"] < p["max_health"]:
            p["health"] = min(p["max_health"], p["health"] + delta)
            emit(state, say(_HEAL_IN[kind[0]], who=p["name"], health=p["health"]),
                 {"kind": "heal", "seat": p["seat"], "health": p["health"]})
        elif delta < 0:
            board.hurt(state, p, -delta, say(_ENEMY_ZONE[kind[0]]), None)
    if state["phase"] == "playing":
        next_turn(state)


HANDLERS = {"move": _move, "attack": _attack, "shop": _shop, "upgrade": _upgrade, "discard": _discard,
            "end_turn": _end_turn, "request_duel": fights.request_duel, "challenge_boss": fights.challenge_boss}
fights.DODGE = dodge
