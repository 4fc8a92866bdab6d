"""The board's bookkeeping shared by the inputs: effects, dice, gold, minions, knock-outs, the end.

Every function changes the state it is given (already a copy); the checks live with the inputs
(:mod:`.engine`, :mod:`.fights`), so nothing here raises for a player's mistake.
"""

from __future__ import annotations

from typing import Any

from controller.games import rng
from controller.games.base import State
from controller.games.kit import player
from controller.games.sanguosha_map import maps
from controller.games.sanguosha_map.cards import CLASS, EQUIPMENT, WAKE_HEALTH, range_of
from gametable_core.said import Said, listing, say

LOG_KEEP = 12


def emit(state: State, text: str, effect: dict[str, Any]) -> None:
    """One public effect (``events``' ``last``) with its sentence; the log keeps the last few.
    A sentence built with :func:`say` also keeps its message (``says``), so ``words`` can publish it
    for a phone in either language (docs/i18n.md "Log lines on the wire")."""
    effect["text"] = str(text)
    if isinstance(text, Said):
        effect["says"] = text.msg
    state["last"].append(effect)
    log = state["log"]
    log.append(effect["text"])
    if len(log) > LOG_KEEP:
        del log[0]


def name(state: State, seat: int) -> str:
    p = player(state, seat)
    return f"{p['name']} ({p['general']})"


def die(state: State) -> int:
    """SG-8.10: the next stacked die (``setup.dice``), else the seeded RNG."""
    if state["dice"]:
        return int(state["dice"].pop(0))
    return rng.randbelow(state, 6) + 1


# ---------------------------------------------------------------- gold (SG-7, SG-8.7)


def gain(state: State, p: dict[str, Any], n: int) -> None:
    """The bank pays ``n``: players' gold plus the bank's balance stays constant."""
    p["gold"] += n
    state["bank"] -= n


def to_bank(state: State, p: dict[str, Any], n: int) -> int:
    """Pay the bank what is owed, or what there is (never negative); returns what was paid."""
    paid = min(n, p["gold"])
    p["gold"] -= paid
    state["bank"] += paid
    return paid


def transfer(payer: dict[str, Any], payee: dict[str, Any], n: int) -> int:
    paid = min(n, payer["gold"])
    payer["gold"] -= paid
    payee["gold"] += paid
    return paid


# ---------------------------------------------------------------- geometry


def cell(p: dict[str, Any]) -> maps.Cell:
    return p["cell"][0], p["cell"][1]


def geo(state: State) -> maps.Geometry:
    return maps.geometry(state["map"])


def attack_range(p: dict[str, Any]) -> int:
    """SG-8.4: max(class default, weapon range - 1)."""
    return max(CLASS[p["class"]]["range"], range_of(p["weapon"]))


def horse_kind(p: dict[str, Any]) -> str:
    return EQUIPMENT[p["horse"]]["kind"] if p["horse"] else ""


def distance(state: State, attacker: dict[str, Any], target: maps.Cell, target_p: dict[str, Any] | None) -> int:
    """SG-8.3/8.4: the wall-aware distance, +1 for the target's +1 horse and -1 for the
    attacker's -1 horse, both only on distances above 1."""
    d = geo(state).distance(cell(attacker), target)
    if d > 1 and target_p is not None and horse_kind(target_p) == "horse_plus1":
        d += 1
    if d > 1 and horse_kind(attacker) == "horse_minus1":
        d -= 1
    return d


def castle_cells(state: State, side: str) -> list[maps.Cell]:
    return geo(state).cells(maps.CASTLE[side])


def zone_side(letter: str) -> tuple[str, str] | None:
    """(kind, side) of a zone letter, None for roads."""
    for side in maps.SIDES:
        if letter == maps.CASTLE[side]:
            return "castle", side
        if letter == maps.INNER[side]:
            return "inner", side
        if letter == maps.OUTER[side]:
            return "outer", side
    return None


# ---------------------------------------------------------------- minions (SG-5, SG-8.9)


def _spec(state: State, side: str) -> dict[str, Any]:
    spec: dict[str, Any] = state["map"]["minions"][side]
    return spec


def partner(state: State, side: str, idx: int) -> int:
    for a, b in _spec(state, side)["pairs"]:
        if idx == a:
            return int(b)
        if idx == b:
            return int(a)
    raise AssertionError(idx)


def restart(state: State, side: str, idx: int) -> None:
    m = state["sides"][side]["minions"][idx]
    m.update(cell=list(_spec(state, side)["cells"][idx]), alive=True, waiting=False, arrived=False, step=0)


def minion_dies(state: State, side: str, idx: int) -> None:
    """SG-5: the dead one waits off the board while its partner goes on; when the partner is dead
    or has arrived already, both restart from their start cells."""
    minions = state["sides"][side]["minions"]
    m, other_idx = minions[idx], partner(state, side, idx)
    mate = minions[other_idx]
    if mate["alive"] and not mate["arrived"]:
        m.update(alive=False, waiting=True, cell=None, arrived=False)
    else:
        restart(state, side, idx)
        restart(state, side, other_idx)


def move_minions(state: State, roll: int) -> None:  # noqa: C901 - SG-5's four steps in order, read as one
    """SG-3.1 / SG-8.9: every minion on the board moves ``roll`` cells forward at once, stopping
    on arrival; then collisions, arrivals and minions on enemy generals."""
    for side in maps.SIDES:
        path = _spec(state, side)["paths"]
        for i, m in enumerate(state["sides"][side]["minions"]):
            if not m["alive"] or m["arrived"]:
                continue
            step = min(m.get("step", 0) + roll, len(path[i]))
            m["step"] = step
            if step:
                m["cell"] = list(path[i][step - 1])
            m["arrived"] = step == len(path[i])
    emit(state, say("Minions move {roll}", roll=roll), {"kind": "minions_move", "roll": roll})
    # SG-5: two opposing minions on one final cell both die
    where: dict[tuple[int, int], list[tuple[str, int]]] = {}
    for side in maps.SIDES:
        for i, m in enumerate(state["sides"][side]["minions"]):
            if m["alive"]:
                where.setdefault((m["cell"][0], m["cell"][1]), []).append((side, i))
    for spot, here in where.items():
        sides_here = {s for s, _ in here}
        if len(sides_here) == 2:
            names = listing([f"{s}{i + 1}" for s, i in here], " and ")
            emit(state, say("Minions {names} collide and die", names=names), {"kind": "collision", "cell": list(spot),
                                                              "minions": [f"{s}{i + 1}" for s, i in here]})
            for s, i in here:
                minion_dies(state, s, i)
    # SG-5: arrivals; a pair with both alive damages the enemy castle
    for side in maps.SIDES:
        minions = state["sides"][side]["minions"]
        for a, b in _spec(state, side)["pairs"]:
            ma, mb = minions[a], minions[b]
            arrived = [m for m in (ma, mb) if m["alive"] and m["arrived"]]
            if not arrived:
                continue
            if len(arrived) == 2:
                enemy = maps.other(side)
                castle_damage(state, enemy, 1, say("minions {a} and {b} arrive", a=ma["id"], b=mb["id"]), settle=False)
            elif ma["waiting"] or mb["waiting"]:
                emit(state, say("Minion {minion} arrives alone: no damage", minion=arrived[0]["id"]),
                     {"kind": "arrive_alone", "minion": arrived[0]["id"]})
            else:
                continue  # the partner is still on its way: wait where it stands
            restart(state, side, a)
            restart(state, side, b)
    if any(state["sides"][side]["castle"] == 0 for side in maps.SIDES):
        end_game(state)  # both castles may fall to one minion roll: a draw
        return
    # SG-5: a minion and an enemy general on one cell: the general loses 1
    for side in maps.SIDES:
        for m in state["sides"][side]["minions"]:
            if m["alive"]:
                for p in state["players"]:
                    if p["team"] != side and not p["knocked_out"] and p["cell"] == m["cell"]:
                        hurt(state, p, 1, say("minion {minion}", minion=m["id"]), None)


# ---------------------------------------------------------------- health, knock-outs, the end


def hurt(state: State, p: dict[str, Any], n: int, by: str, killer: dict[str, Any] | None) -> None:
    """``p`` loses ``n`` health; at 0 a knock-out (SG-4), paying the killer 2 gold if a general."""
    if p["knocked_out"] or state["phase"] != "playing":
        return
    p["health"] = max(0, p["health"] - n)
    emit(state, say("{who} loses {n} health to {by}", who=p["name"], n=n, by=by), {"kind": "damage", "seat": p["seat"], "amount": n,
                                                          "health": p["health"]})
    if p["health"] == 0:
        knock_out(state, p)
        if killer is not None:
            gain(state, killer, 2)  # SG-7 kill a general +2
            emit(state, say("{who} gets 2 gold for the kill", who=killer["name"]),
                 {"kind": "gold", "seat": killer["seat"], "amount": 2, "why": "kill"})


def knock_out(state: State, p: dict[str, Any]) -> None:
    """SG-4: back to the own castle, the weapon back to its deck, the next turn skipped."""
    p["health"] = 0
    p["knocked_out"] = True
    p["skips"] = 1
    p["cell"] = list(castle_cells(state, p["team"])[0])
    if p["weapon"]:
        state["decks"]["weapon"].append(p["weapon"])
        p["weapon"] = None
    emit(state, say("{who} is knocked out", who=p["name"]), {"kind": "knocked_out", "seat": p["seat"]})


def skip_or_wake(state: State, p: dict[str, Any]) -> bool:
    """SG-4 / SG-8.14: a knocked-out general's next turn is skipped (still knocked out, not a
    target); at the start of the turn after it they wake and play it. True when the turn is skipped."""
    if p["skips"] > 0:
        p["skips"] -= 1
        emit(state, say("{who} is knocked out and skips this turn", who=p["name"]), {"kind": "skip", "seat": p["seat"]})
        return True
    p["knocked_out"] = False
    p["health"] = min(WAKE_HEALTH, p["max_health"])
    emit(state, say("{who} wakes with {health} health", who=p["name"], health=p["health"]),
         {"kind": "wake", "seat": p["seat"], "health": p["health"]})
    return False


def castle_damage(state: State, side: str, n: int, why: str, settle: bool = True) -> None:
    s = state["sides"][side]
    s["castle"] = max(0, s["castle"] - n)
    emit(state, say("Castle {side} loses {n} ({why}): {left} left", side=side, n=n, why=why, left=s["castle"]),
         {"kind": "castle", "side": side, "amount": n, "castle": s["castle"]})
    if settle and s["castle"] == 0 and state["phase"] == "playing":
        end_game(state)


def end_game(state: State) -> None:
    """SG-2: a castle at 0 loses; both at once is a draw."""
    down = [side for side in maps.SIDES if state["sides"][side]["castle"] == 0]
    seats = sorted(p["seat"] for p in state["players"])
    if len(down) == 2:
        state["winner"] = {"draw": seats}
        text = say("Both castles fall: a draw")
    else:
        won = maps.other(down[0])
        state["winner"] = sorted(p["seat"] for p in state["players"] if p["team"] == won)
        text = say("Castle {side} falls: side {won} wins", side=down[0], won=won)
    state["phase"] = "over"
    state["window"] = None
    state["fight"] = None
    state["turn"] = None
    emit(state, text, {"kind": "game_over", "winner": state["winner"]})


def draw(state: State, pile: str) -> str | None:
    """The top card of a pile; the action deck is reshuffled from its discards when empty (SG-8.8)."""
    deck = state["decks"][pile]
    if not deck and pile == "action" and state["discard"]:
        deck.extend(rng.shuffle(state, state["discard"]))
        state["discard"] = []
    return deck.pop(0) if deck else None
