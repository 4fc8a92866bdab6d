"""The Bang! resolution stack (BG-2, BG-5, BG-6, BG-8.4-8.8, BG-8.12).

Everything that happens after a card is played is a *step* on ``state["stack"]`` (top last): a
shot, an Indians! target, a Duel exchange, damage, a dying window, a death, a turn's checks. A
step may open a window for one seat (``state["window"]``) and wait there; the answer (or the
timeout) resolves it and :func:`run` goes on with the next step. So responses nest for free: a
dying window opened by a Gatling shot sits above the shots still to come.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.games import rng
from controller.games.bang import cards as C
from controller.games.base import State
from controller.games.kit import player, rotation

Step = dict[str, Any]


# ---------------------------------------------------------------- small helpers


def emit(state: State, eff: dict[str, Any]) -> None:
    state["last"].append(eff)


def alive_seats(state: State) -> list[int]:
    return [p["seat"] for p in state["players"] if p["alive"]]


def beer_is_void(state: State) -> bool:
    """BG-4 / BG-8.7: with 2 players left Beer has no effect (nor Saloon played as Beer)."""
    return len(alive_seats(state)) <= 2


def others_from(state: State, seat: int) -> list[int]:
    """The other living seats clockwise from ``seat`` (BG-8.2: the ring ascends)."""
    living = {p["seat"] for p in state["players"] if p["alive"]}
    return [s for s in rotation(state["ring"], seat)[:-1] if s in living]


def next_alive(state: State, seat: int) -> int:
    nxt = others_from(state, seat)
    return nxt[0] if nxt else seat


def has(p: dict[str, Any], name: str) -> bool:
    names = C.NAME
    for c in p["in_play"]:
        if names[c] == name:
            return True
    return False


def weapon_range(p: dict[str, Any]) -> int:
    for c in p["in_play"]:
        r = C.WEAPON_RANGE.get(C.name(c))
        if r:
            return r
    return 1


def distance(state: State, a: int, b: int) -> int:
    """BG-3: fewest living seats between, +1 for Mustang/Paul Regret, -1 for Scope/Rose Doolan."""
    return distances(state, a, [b])[b]


def distances(state: State, a: int, others: list[int]) -> dict[int, int]:
    """:func:`distance` from ``a`` to each of ``others`` (players are kept in ring order)."""
    living = [p for p in state["players"] if p["alive"] or p["seat"] == a or p["seat"] in others]
    pos = {p["seat"]: i for i, p in enumerate(living)}
    pa = living[pos[a]]
    sees = has(pa, "scope") + (pa["character"] == "rose_doolan")
    n = len(living)
    out = {}
    for b in others:
        pb = living[pos[b]]
        d = abs(pos[a] - pos[b])
        d = min(d, n - d) + has(pb, "mustang") + (pb["character"] == "paul_regret") - sees
        out[b] = max(1, d)
    return out


def role_shown(state: State, p: dict[str, Any]) -> bool:
    return p["role"] == "sheriff" or not p["alive"] or state["phase"] == "over"


def all_cards(state: State) -> list[str]:
    """Every card wherever it is (deck, discard, hands, in play, a General Store's table)."""
    out = list(state["deck"]) + list(state["discard"])
    for p in state["players"]:
        out += p["hand"] + p["in_play"]
    for step in state["stack"]:
        out += step.get("cards", [])
    return out


# ---------------------------------------------------------------- cards moving


def _refill(state: State) -> None:
    """BG-8.12: an empty deck takes the shuffled discard pile."""
    if not state["deck"] and state["discard"]:
        state["deck"] = rng.shuffle(state, state["discard"])
        state["discard"] = []
        emit(state, {"kind": "reshuffle", "count": len(state["deck"])})


def take_top(state: State) -> str | None:
    _refill(state)
    return state["deck"].pop(0) if state["deck"] else None


def draw(state: State, seat: int, n: int, why: str = "draw") -> list[str]:
    """``seat`` draws ``n`` (fewer if deck and discard run dry); events show only the count."""
    got = []
    for _ in range(n):
        card = take_top(state)
        if card is None:
            break
        got.append(card)
    player(state, seat)["hand"].extend(got)
    if got:
        emit(state, {"kind": "draw", "seat": seat, "count": len(got), "why": why})
    return got


def discard(state: State, card: str) -> None:
    state["discard"].append(card)


def check(state: State, seat: int, purpose: str, good: Callable[[str], bool]) -> bool:
    """BG-5 / BG-8.4 "draw!": turn the top card (two for Lucky Duke, the good one counts), show, discard."""
    turned = []
    for _ in range(2 if player(state, seat)["character"] == "lucky_duke" else 1):
        card = take_top(state)
        if card is not None:
            turned.append(card)
            discard(state, card)
    ok = any(good(c) for c in turned)
    emit(state, {"kind": "check", "seat": seat, "for": purpose, "cards": turned, "ok": ok})
    return ok


def hearts(card: str) -> bool:
    return C.suit(card) == "hearts"


def heal(state: State, seat: int, n: int) -> int:
    p = player(state, seat)
    gained = max(0, min(n, p["max_life"] - p["life"]))
    if gained:
        p["life"] += gained
        emit(state, {"kind": "heal", "seat": seat, "amount": gained, "life": p["life"]})
    return gained


# ---------------------------------------------------------------- windows


def open_window(state: State, step: Step, kind: str, seat: int, **info: Any) -> None:
    """Park ``step`` on the stack and wait for ``seat``'s answer (BG-7)."""
    state["window_seq"] += 1
    window = {"id": state["window_seq"], "kind": kind, "seats": [seat], "source": info.get("source"),
              "card": info.get("card"), "needed": info.get("needed", 1)}
    if "cards" in info:
        window["cards"] = list(info["cards"])
    state["window"] = window
    state["stack"].append(step)
    emit(state, {"kind": "window", "window": kind, "seat": seat, "source": window["source"],
                 "card": window["card"], "needed": window["needed"]})


def close_window(state: State) -> Step:
    state["window"] = None
    step: Step = state["stack"].pop()
    return step


def answers(p: dict[str, Any], kind: str) -> list[str]:
    """The hand cards that answer a window: Missed! for a shot, BANG! for Indians!/Duel (Calamity
    Janet swaps them, BG character), Beer for dying (Saloon too with ``saloon_as_beer``)."""
    if kind == "shot":
        want = {"missed"}
    elif kind in ("indians", "duel"):
        want = {"bang"}
    else:
        want = {"beer"}
    if p["character"] == "calamity_janet" and want != {"beer"}:
        want = {"bang", "missed"}
    return [c for c in p["hand"] if C.name(c) in want]


def _skip_window(state: State, p: dict[str, Any], kind: str, needed: int) -> bool:
    """BG-8.6: only an empty hand skips a window (hand size is public); ``auto_pass: no_answer`` also
    skips when the held answers are too few (and Sid Ketchum cannot use his ability)."""
    if not p["hand"]:
        return True
    if state["options"]["auto_pass"] == "no_answer":
        pool = answers(p, kind)
        if kind == "dying" and state["options"]["saloon_as_beer"]:
            pool += [c for c in p["hand"] if C.name(c) == "saloon"]
        sid = p["character"] == "sid_ketchum" and len(p["hand"]) >= 2
        return len(pool) < needed and not sid
    return False


# ---------------------------------------------------------------- steps


def _turn_start(state: State, step: Step) -> None:
    seat = step["seat"]
    state["turn"] = {"seat": seat, "step": "start", "bangs": 0}
    emit(state, {"kind": "turn", "seat": seat})
    state["stack"] += [{"kind": "draw_phase", "seat": seat}, {"kind": "jail", "seat": seat},
                       {"kind": "dynamite", "seat": seat}]


def _dynamite(state: State, step: Step) -> None:
    seat = step["seat"]
    p = player(state, seat)
    card = next((c for c in p["in_play"] if C.name(c) == "dynamite"), None)
    if card is None or not p["alive"]:
        return
    if check(state, seat, "dynamite", lambda c: not C.dynamite_explodes(c)):
        to = next_alive(state, seat)
        p["in_play"].remove(card)
        player(state, to)["in_play"].append(card)
        emit(state, {"kind": "dynamite_passes", "seat": seat, "to": to})
    else:
        p["in_play"].remove(card)
        discard(state, card)
        emit(state, {"kind": "dynamite_explodes", "seat": seat})
        state["stack"].append({"kind": "damage", "seat": seat, "amount": 3, "source": None, "card": card})


def _jail(state: State, step: Step) -> None:
    seat = step["seat"]
    p = player(state, seat)
    card = next((c for c in p["in_play"] if C.name(c) == "jail"), None)
    if card is None or not p["alive"]:
        return
    free = check(state, seat, "jail", hearts)
    p["in_play"].remove(card)
    discard(state, card)
    emit(state, {"kind": "jail", "seat": seat, "free": free})
    if free:
        return
    state["stack"] = [s for s in state["stack"] if s["kind"] != "draw_phase"]
    if state["options"]["jail_discard_down"] and len(p["hand"]) > p["life"]:
        state["turn"]["step"] = "discard"
    else:
        state["stack"].append({"kind": "end_turn", "seat": seat})


def _draw_phase(state: State, step: Step) -> None:
    """BG-2.2 with the draw-phase characters."""
    seat = step["seat"]
    p = player(state, seat)
    if not p["alive"]:
        return
    state["turn"]["step"] = "draw"
    ch = p["character"]
    if ch == "jesse_jones":
        choices = [s for s in others_from(state, seat) if player(state, s)["hand"]]
        if choices:
            return open_window(state, step, "draw_choice", seat, source=seat, needed=0)
    elif ch == "pedro_ramirez" and state["discard"]:
        return open_window(state, step, "draw_choice", seat, source=seat, needed=0)
    elif ch == "kit_carlson":
        _refill(state)
        if len(state["deck"]) < 3 and state["discard"]:
            state["deck"] += rng.shuffle(state, state["discard"])
            state["discard"] = []
            emit(state, {"kind": "reshuffle", "count": len(state["deck"])})
        if len(state["deck"]) >= 3:
            return open_window(state, step, "draw_choice", seat, source=seat, needed=0)
    elif ch == "black_jack":
        got = draw(state, seat, 2)
        if len(got) == 2:
            red = C.suit(got[1]) in ("hearts", "diamonds")
            emit(state, {"kind": "shows", "seat": seat, "card": got[1], "extra": red})
            if red:
                draw(state, seat, 1, "black_jack")
        state["turn"]["step"] = "play"
        return
    draw(state, seat, 2)
    state["turn"]["step"] = "play"


def resolve_draw_choice(state: State, seat: int, choice: Any) -> None:
    """Jesse Jones (``from``: a seat or "deck"), Pedro Ramirez ("discard"/"deck"), Kit Carlson
    (``return``: one of the top three). The window's step is already popped."""
    p = player(state, seat)
    ch = p["character"]
    if ch == "kit_carlson":
        top = state["deck"][:3]
        back = choice if choice in top else top[2]
        keep = [c for c in top if c != back]
        state["deck"] = [back] + state["deck"][3:]
        p["hand"].extend(keep)
        emit(state, {"kind": "draw", "seat": seat, "count": 2, "why": "kit_carlson"})
        emit(state, {"kind": "returns", "seat": seat, "count": 1})  # BG-8.13: never the card
    elif ch == "pedro_ramirez" and choice == "discard" and state["discard"]:
        card = state["discard"].pop()
        p["hand"].append(card)
        emit(state, {"kind": "takes_discard", "seat": seat, "card": card})
        draw(state, seat, 1)
    elif ch == "jesse_jones" and isinstance(choice, int) and player(state, choice)["hand"]:
        victim = player(state, choice)
        card = victim["hand"].pop(rng.randbelow(state, len(victim["hand"])))
        p["hand"].append(card)
        emit(state, {"kind": "steals", "seat": seat, "target": choice, "count": 1, "why": "jesse_jones"})
        draw(state, seat, 1)
    else:
        draw(state, seat, 2)
    state["turn"]["step"] = "play"


def _end_turn(state: State, step: Step) -> None:
    seat = step["seat"]
    state["stack"].append({"kind": "turn_start", "seat": next_alive(state, seat)})


def _shot(state: State, step: Step) -> None:
    """A BANG! or a Gatling shot: Barrel/Jourdonnais checks first, then a Missed! window (BG-8.4)."""
    target = player(state, step["target"])
    if not target["alive"]:
        return
    if not step.get("checked"):
        step["checked"] = True
        barrels = has(target, "barrel") + (target["character"] == "jourdonnais")
        for _ in range(barrels):
            if step["needed"] > 0 and check(state, step["target"], "barrel", hearts):
                step["needed"] -= 1
        if step["needed"] <= 0:
            emit(state, {"kind": "missed", "seat": step["target"], "by": "barrel"})
            return
    if _skip_window(state, target, "shot", step["needed"]):
        return hit(state, step["target"], 1, step["source"], step["card"])
    open_window(state, step, "shot", step["target"], source=step["source"], card=step["card"],
                needed=step["needed"])


def _indians(state: State, step: Step) -> None:
    target = player(state, step["target"])
    if not target["alive"]:
        return
    if _skip_window(state, target, "indians", 1):
        return hit(state, step["target"], 1, step["source"], step["card"])
    open_window(state, step, "indians", step["target"], source=step["source"], card=step["card"])


def _duel(state: State, step: Step) -> None:
    """BG-4 Duel: ``turn_of`` must discard a BANG! or lose 1 life to the other (BG-8.8)."""
    me, other = step["turn_of"], step["other"]
    p = player(state, me)
    if not p["alive"] or not player(state, other)["alive"]:
        return
    if _skip_window(state, p, "duel", 1):
        return hit(state, me, 1, other, step["card"])
    open_window(state, step, "duel", me, source=other, card=step["card"])


def _store(state: State, step: Step) -> None:
    """BG-4 General Store: each living player in turn picks one of the revealed cards."""
    while step["order"] and not player(state, step["order"][0])["alive"]:
        step["order"].pop(0)
    if not step["cards"]:
        return
    if not step["order"]:
        state["discard"].extend(step["cards"])
        return
    seat = step["order"][0]
    if len(step["cards"]) == 1:
        return pick(state, step, seat, step["cards"][0])
    open_window(state, step, "store", seat, source=step["source"], card=step["card"], cards=step["cards"],
                needed=1)


def pick(state: State, step: Step, seat: int, card: str) -> None:
    step["cards"].remove(card)
    step["order"].pop(0)
    player(state, seat)["hand"].append(card)
    emit(state, {"kind": "picks", "seat": seat, "card": card})
    if step["cards"]:
        state["stack"].append(step)


def hit(state: State, seat: int, amount: int, source: int | None, card: str | None) -> None:
    """Queue a life loss (the damage step runs next)."""
    state["stack"].append({"kind": "damage", "seat": seat, "amount": amount, "source": source, "card": card})


def _damage(state: State, step: Step) -> None:
    p = player(state, step["seat"])
    if not p["alive"]:
        return
    p["life"] -= step["amount"]
    emit(state, {"kind": "hit", "seat": step["seat"], "amount": step["amount"], "source": step["source"],
                 "life": p["life"]})
    state["stack"].append({**step, "kind": "after_hit"})
    if p["life"] <= 0:
        state["stack"].append({"kind": "dying", "seat": step["seat"], "source": step["source"]})


def _after_hit(state: State, step: Step) -> None:
    """Bart Cassidy draws per life lost; El Gringo draws a random hand card of the shooter (BG-8.13)."""
    seat, amount, source = step["seat"], step["amount"], step["source"]
    p = player(state, seat)
    if not p["alive"]:
        return
    if p["character"] == "bart_cassidy":
        draw(state, seat, amount, "bart_cassidy")
    elif p["character"] == "el_gringo" and source is not None and source != seat:
        victim = player(state, source)
        got = 0
        for _ in range(amount):
            if not victim["hand"]:
                break
            p["hand"].append(victim["hand"].pop(rng.randbelow(state, len(victim["hand"]))))
            got += 1
        if got:
            emit(state, {"kind": "steals", "seat": seat, "target": source, "count": got, "why": "el_gringo"})


def _dying(state: State, step: Step) -> None:
    """BG-6 / BG-8.7: at 0 life a Beer may save; with 2 players left Beer does nothing, so only
    Sid Ketchum holding 2 cards (his ability is no Beer) gets the window."""
    p = player(state, step["seat"])
    if not p["alive"] or p["life"] >= 1:
        return
    needed = 1 - p["life"]
    sid = p["character"] == "sid_ketchum" and len(p["hand"]) >= 2
    if (beer_is_void(state) and not sid) or _skip_window(state, p, "dying", needed):
        state["stack"].append({"kind": "die", "seat": step["seat"], "source": step["source"]})
        return
    open_window(state, step, "dying", step["seat"], source=step["source"], needed=needed)


def _die(state: State, step: Step) -> None:
    seat, source = step["seat"], step["source"]
    p = player(state, seat)
    if not p["alive"]:
        return
    p["alive"] = False
    emit(state, {"kind": "dies", "seat": seat, "role": p["role"], "by": source})
    cards = p["hand"] + p["in_play"]
    p["hand"], p["in_play"] = [], []
    sam = next((q for q in state["players"] if q["alive"] and q["character"] == "vulture_sam"), None)
    if sam is not None and cards:
        sam["hand"].extend(cards)
        emit(state, {"kind": "vulture", "seat": sam["seat"], "target": seat, "count": len(cards)})
    elif cards:
        state["discard"].extend(cards)
    if _game_over(state):
        return
    if source is not None and source != seat and player(state, source)["alive"]:
        if p["role"] == "outlaw":
            draw(state, source, 3, "reward")
        elif p["role"] == "deputy" and player(state, source)["role"] == "sheriff":
            sheriff = player(state, source)
            lost = sheriff["hand"] + sheriff["in_play"]
            sheriff["hand"], sheriff["in_play"] = [], []
            state["discard"].extend(lost)
            emit(state, {"kind": "penalty", "seat": source, "cards": lost})
    if state["turn"] is not None and seat == state["turn"]["seat"]:
        state["stack"] = [{"kind": "end_turn", "seat": seat}]  # BG-8.12


def _game_over(state: State) -> bool:
    """BG-6 / BG-8.9: the winning faction, dead included; the Renegade alone."""
    alive = [p for p in state["players"] if p["alive"]]
    sheriff = next(p for p in state["players"] if p["role"] == "sheriff")
    winner = None
    if not sheriff["alive"]:
        if len(alive) == 1 and alive[0]["role"] == "renegade":
            winner = [alive[0]["seat"]]
        else:
            winner = sorted(p["seat"] for p in state["players"] if p["role"] == "outlaw")
    elif not any(p["role"] in ("outlaw", "renegade") for p in alive):
        winner = sorted(p["seat"] for p in state["players"] if p["role"] in ("sheriff", "deputy"))
    if winner is None:
        return False
    state["winner"] = winner
    state["phase"] = "over"
    state["window"] = None
    state["stack"] = []
    emit(state, {"kind": "game_over", "winner": winner,
                 "roles": {str(p["seat"]): p["role"] for p in state["players"]}})
    return True


HANDLERS: dict[str, Callable[[State, Step], None]] = {
    "turn_start": _turn_start, "dynamite": _dynamite, "jail": _jail, "draw_phase": _draw_phase,
    "end_turn": _end_turn, "shot": _shot, "indians": _indians, "duel": _duel, "store": _store,
    "damage": _damage, "after_hit": _after_hit, "dying": _dying, "die": _die,
}


def _suzy(state: State) -> None:
    for p in state["players"]:
        if p["alive"] and p["character"] == "suzy_lafayette" and not p["hand"]:
            if not draw(state, p["seat"], 1, "suzy_lafayette"):
                return


def run(state: State) -> None:
    """Resolve steps until a window waits for an answer, the active player must act, or the game ends."""
    while state["phase"] == "playing" and state["window"] is None:
        _suzy(state)
        if not state["stack"]:
            return
        step = state["stack"].pop()
        HANDLERS[step["kind"]](state, step)


def start_game(state: State, first: int) -> None:
    state["stack"].append({"kind": "turn_start", "seat": first})
    run(state)
