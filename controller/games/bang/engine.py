"""The Bang! referee's inputs (BG-2 … BG-8.14): ``apply(state, input) -> new state``.

Every handler checks first and changes afterwards, so an illegal input raises :class:`GameError`
with the state untouched. :func:`check_play` is the one judge of a card play; ``legal`` enumerates
its candidates through it, so the phones never offer a play the referee refuses.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from controller.games import rng
from controller.games.bang import cards as C
from controller.games.bang.flow import (
    alive_seats,
    answers,
    beer_is_void,
    close_window,
    discard,
    distance,
    distances,
    draw,
    emit,
    has,
    heal,
    hit,
    others_from,
    pick,
    player,
    resolve_draw_choice,
    run,
    take_top,
    weapon_range,
)
from controller.games.base import GameError, Input, State, copy_flat, layout_copier, require, seat_of
from gametable_core.said import say, term

MOVES = ("play", "respond", "pass", "draw_choice", "pick", "ability", "discard", "end_turn")
ARGS: dict[str, tuple[str, ...]] = {
    "play": ("card", "target", "target_card", "as"), "respond": ("cards",), "pass": (),
    "draw_choice": ("from", "return"), "pick": ("card",), "ability": ("cards",), "discard": ("cards",),
    "end_turn": (),
}
_ARG_SETS = {move: frozenset(names) for move, names in ARGS.items()}
UNTARGETED = {"beer", "saloon", "general_store", "indians", "gatling", "stagecoach", "wells_fargo", "dynamite",
              "barrel", "mustang", "scope", *C.WEAPON_RANGE}


# ---------------------------------------------------------------- judging a play


def unlimited_bangs(p: dict[str, Any]) -> bool:
    return p["character"] == "willy_the_kid" or has(p, "volcanic")


def check_play(state: State, seat: int, args: dict[str, Any]) -> dict[str, Any]:  # noqa: C901 - one case per card
    """The play ``args`` normalised (``card``, ``eff`` the card it counts as, ``target``,
    ``target_card``), or GameError naming the first reason it is illegal.

    Plain ifs, not require(): every accepted play passes each check, so a refusal's message
    (a :func:`say`, with the card's title) is built only when the play is refused."""
    me = player(state, seat)
    card: Any = args.get("card")
    if not (isinstance(card, str) and card in me["hand"]):
        raise GameError(f"play: {card!r} is not in your hand")
    eff = C.name(card)
    as_ = args.get("as")
    if as_ is not None:
        ok = (me["character"] == "calamity_janet" and eff == "missed" and as_ == "bang") or (
            state["options"]["saloon_as_beer"] and eff == "saloon" and as_ == "beer")
        if not ok:
            raise GameError(say("play: {card} cannot be played as {as_}", card=term(C.TITLES[eff]), as_=repr(as_)))
        eff = as_
    target: Any = args.get("target")
    tcard: Any = args.get("target_card")
    if eff == "missed":
        raise GameError(say("play: a Missed! is played only in answer to a BANG!"))
    if eff in UNTARGETED:
        if not (target is None and tcard is None):
            raise GameError(say("play: {card} takes no target", card=term(C.TITLES[eff])))
    else:
        if not (isinstance(target, int) and not isinstance(target, bool)
                and any(p["seat"] == target for p in state["players"])):
            raise GameError(f"play: target {target!r} is not a seat")
        if target == seat:
            raise GameError(say("play: you cannot target yourself (BG-8.11)"))
        if not player(state, target)["alive"]:
            raise GameError(say("play: seat {target} is out of the game", target=target))
        if eff not in ("cat_balou", "panic") and tcard is not None:
            raise GameError(f"play: {C.TITLES[eff]} takes no target_card")
    if eff == "bang":
        if not (state["turn"]["bangs"] < 1 or unlimited_bangs(me)):
            raise GameError(say("play: only one BANG! per turn (BG-2.3)"))
        d, r = distance(state, seat, target), weapon_range(me)
        if d > r:
            raise GameError(say("play: seat {target} is out of range (distance {d}, range {r}) (BG-3)",
                                target=target, d=d, r=r))
    elif eff == "beer":
        if me["life"] >= me["max_life"]:
            raise GameError(say("play: Beer at full life is not allowed (BG-8.10)"))
        if beer_is_void(state):
            raise GameError(say("play: Beer has no effect with 2 players left (BG-4)"))
    elif eff in ("cat_balou", "panic"):
        victim = player(state, target)
        if not (victim["hand"] or victim["in_play"]):
            raise GameError(say("play: seat {target} has no cards", target=target))
        if eff == "panic":
            d = distance(state, seat, target)
            if d > 1:
                raise GameError(say("play: Panic! reaches distance 1; seat {target} is at {d} (BG-3)", target=target, d=d))
        if not (tcard == "hand" and bool(victim["hand"]) or tcard in victim["in_play"]):
            raise GameError(f"play: target_card must be 'hand' or a card in front of seat {target}, got {tcard!r}")
    elif eff == "jail":
        victim = player(state, target)
        if victim["role"] == "sheriff":
            raise GameError(say("play: Jail never goes on the Sheriff (BG-8.11)"))
        if has(victim, "jail"):
            raise GameError(say("play: seat {target} is already in Jail (BG-8.11)", target=target))
    elif eff in C.BLUE and eff not in C.WEAPON_RANGE:
        if has(me, eff):
            raise GameError(say("play: you already have a {card} in play (BG-8.11)", card=term(C.TITLES[eff])))
    return {"card": card, "eff": eff, "target": target, "target_card": tcard, "as": as_}


def play_moves(state: State, seat: int) -> list[dict[str, Any]]:  # noqa: C901 - one case per card
    """Every legal ``play`` of ``seat`` now as :func:`.legal.legal` lists it (``move``, the args,
    and a target's ``distance``): the same judgement as :func:`check_play`, written out per card
    for speed, each target's reach computed once (the property tests check the two agree on
    every input)."""
    me = player(state, seat)
    others = others_from(state, seat)
    near = distances(state, seat, others)
    folks = {p["seat"]: p for p in state["players"]}
    reach = weapon_range(me)
    in_reach = [t for t in others if near[t] <= reach] if state["turn"]["bangs"] < 1 or unlimited_bangs(me) else []
    beer_ok = me["life"] < me["max_life"] and len(others) + 1 > 2
    janet = me["character"] == "calamity_janet"
    saloon_as_beer = state["options"]["saloon_as_beer"]
    names = C.NAME
    out: list[dict[str, Any]] = []
    for card in dict.fromkeys(me["hand"]):
        name = names[card]
        if name == "missed":  # only Calamity Janet plays one, as a BANG!
            if janet:
                out += [{"move": "play", "card": card, "target": t, "as": "bang", "distance": near[t]} for t in in_reach]
        elif name == "bang":
            out += [{"move": "play", "card": card, "target": t, "distance": near[t]} for t in in_reach]
        elif name == "beer":
            if beer_ok:
                out.append({"move": "play", "card": card})
        elif name in ("cat_balou", "panic"):
            for t in others:
                d = near[t]
                if name == "panic" and d > 1:
                    continue
                v = folks[t]
                out += [{"move": "play", "card": card, "target": t, "target_card": tc, "distance": d}
                        for tc in (["hand"] if v["hand"] else []) + v["in_play"]]
        elif name == "duel":
            out += [{"move": "play", "card": card, "target": t, "distance": near[t]} for t in others]
        elif name == "jail":
            out += [{"move": "play", "card": card, "target": t, "distance": near[t]} for t in others
                    if folks[t]["role"] != "sheriff" and not has(folks[t], "jail")]
        elif name in C.BLUE and name not in C.WEAPON_RANGE:
            if not has(me, name):
                out.append({"move": "play", "card": card})
        else:
            out.append({"move": "play", "card": card})
            if name == "saloon" and saloon_as_beer and beer_ok:
                out.append({"move": "play", "card": card, "as": "beer"})
    return out


# ---------------------------------------------------------------- doing a play


def _do_play(state: State, seat: int, p: dict[str, Any]) -> None:  # noqa: C901 - one case per card
    me = player(state, seat)
    card, eff, target = p["card"], p["eff"], p["target"]
    me["hand"].remove(card)
    eff_out = {"kind": "play", "seat": seat, "card": card}
    if target is not None:
        eff_out["target"] = target
    if p["as"]:
        eff_out["as"] = p["as"]
    emit(state, eff_out)
    stack = state["stack"]
    if eff in C.BLUE:
        holder = player(state, target) if eff == "jail" else me
        if eff in C.WEAPON_RANGE:
            for old in [c for c in holder["in_play"] if C.name(c) in C.WEAPON_RANGE]:
                holder["in_play"].remove(old)
                discard(state, old)
        holder["in_play"].append(card)
        return
    discard(state, card)
    if eff == "bang":
        state["turn"]["bangs"] += 1
        needed = 2 if me["character"] == "slab_the_killer" else 1
        stack.append({"kind": "shot", "source": seat, "target": target, "card": card, "needed": needed})
    elif eff == "beer":
        heal(state, seat, 1)
    elif eff == "saloon":
        for s in alive_seats(state):
            heal(state, s, 1)
    elif eff in ("cat_balou", "panic"):
        victim = player(state, target)
        if p["target_card"] == "hand":
            taken = victim["hand"].pop(rng.randbelow(state, len(victim["hand"])))
        else:
            taken = p["target_card"]
            victim["in_play"].remove(taken)
        if eff == "cat_balou":
            discard(state, taken)
            emit(state, {"kind": "discards", "seat": target, "cards": [taken], "by": seat})
        else:
            me["hand"].append(taken)
            if p["target_card"] == "hand":  # BG-8.13: a stolen hand card stays private
                emit(state, {"kind": "steals", "seat": seat, "target": target, "count": 1, "why": "panic"})
            else:
                emit(state, {"kind": "steals", "seat": seat, "target": target, "card": taken, "why": "panic"})
    elif eff == "duel":
        stack.append({"kind": "duel", "turn_of": target, "other": seat, "card": card})
    elif eff == "general_store":
        order = [seat] + others_from(state, seat)
        if state["options"]["store_counterclockwise"]:
            order = [seat] + order[1:][::-1]
        shown = []
        for _ in order:
            c = take_top(state)
            if c is not None:
                shown.append(c)
        emit(state, {"kind": "store", "seat": seat, "cards": list(shown)})
        stack.append({"kind": "store", "source": seat, "card": card, "cards": shown, "order": order})
    elif eff in ("indians", "gatling"):
        for t in reversed(others_from(state, seat)):  # BG-8.5: clockwise, first on top
            if eff == "indians":
                stack.append({"kind": "indians", "source": seat, "target": t, "card": card})
            else:
                stack.append({"kind": "shot", "source": seat, "target": t, "card": card, "needed": 1})
    elif eff == "stagecoach":
        draw(state, seat, 2, "stagecoach")
    elif eff == "wells_fargo":
        draw(state, seat, 3, "wells_fargo")


# ---------------------------------------------------------------- inputs


def _cards_arg(args: dict[str, Any], move: str, hand: list[str]) -> list[str]:
    cards: Any = args.get("cards")
    if not (isinstance(cards, list) and all(isinstance(c, str) for c in cards)):
        raise GameError(f"{move}: 'cards' must be a list of card ids")
    if len(set(cards)) != len(cards):
        raise GameError(f"{move}: a card is named twice")
    for c in cards:
        if c not in hand:
            raise GameError(f"{move}: {c!r} is not in your hand")
    return list(cards)


def _window_answer_pool(state: State, p: dict[str, Any], kind: str) -> list[str]:
    if kind == "dying" and beer_is_void(state):
        return []  # BG-8.7: Sid Ketchum's dying window with 2 left: only his ability saves
    pool = answers(p, kind)
    if kind == "dying" and state["options"]["saloon_as_beer"]:
        pool += [c for c in p["hand"] if C.name(c) == "saloon"]
    return pool


# The windows a ``respond`` answers, and the card that answers each (BG-8.4, BG-8.7, BG-8.8).
ANSWERED_WITH = {"shot": "Missed!", "indians": "BANG!", "duel": "BANG!", "dying": "Beer"}


def _check_respond(state: State, seat: int, args: dict[str, Any]) -> list[str]:
    window = state["window"]
    kind = window["kind"]
    if kind not in ANSWERED_WITH:
        raise GameError(f"respond: a {kind} window takes no respond")
    p = player(state, seat)
    cards = _cards_arg(args, "respond", p["hand"])
    if kind == "dying" and beer_is_void(state):
        raise GameError("respond: Beer has no effect with 2 players left (BG-8.7); use your ability or pass")
    pool = _window_answer_pool(state, p, kind)
    for c in cards:
        if c not in pool:
            raise GameError(f"respond: {c} does not answer this window (play a {ANSWERED_WITH[kind]})")
    if len(cards) != window["needed"]:
        raise GameError(f"respond: this window needs {window['needed']} {ANSWERED_WITH[kind]} card(s), "
                        f"you gave {len(cards)}")
    return cards


def _respond(state: State, seat: int, cards: list[str]) -> None:
    """``seat`` answers the open window with ``cards`` (already judged by :func:`_check_respond`)."""
    kind = state["window"]["kind"]
    p = player(state, seat)
    step = close_window(state)
    for c in cards:
        p["hand"].remove(c)
        discard(state, c)
    emit(state, {"kind": "respond", "seat": seat, "cards": cards, "window": kind})
    if kind == "duel":
        state["stack"].append({**step, "turn_of": step["other"], "other": seat})
    elif kind == "dying":
        heal(state, seat, len(cards))
    elif kind == "shot":
        emit(state, {"kind": "missed", "seat": seat, "by": "missed"})


def _take_it(state: State, seat: int) -> None:
    """``pass`` or a timeout in a shot/Indians!/Duel window: take the hit (BG-8.7); in a dying window
    a timeout plays enough Beers if held, a pass dies."""
    window = state["window"]
    step = close_window(state)
    if window["kind"] == "duel":
        hit(state, seat, 1, step["other"], step["card"])
    elif window["kind"] in ("shot", "indians"):
        hit(state, seat, 1, step["source"], step["card"])
    elif window["kind"] == "dying":
        state["stack"].append({"kind": "die", "seat": seat, "source": step["source"]})


def _timeout(state: State, inp: Input, copy: bool) -> State:
    window = state["window"]
    if window is None:
        raise GameError(say("timeout: no response window is open"))
    wid = inp.get("window")
    if wid is not None:
        if isinstance(wid, bool) or not isinstance(wid, int):
            raise GameError(f"timeout: 'window' must be a window id number, got {wid!r}")
        if wid != window["id"]:
            raise GameError(say("stale timeout for window {stale}; window {window} is open",
                                stale=repr(wid), window=window["id"]))
    new = _fresh(state, copy)
    seat, kind = window["seats"][0], window["kind"]
    emit(new, {"kind": "timeout", "seat": seat, "window": kind})
    p = player(new, seat)
    if kind == "dying":
        beers = _window_answer_pool(new, p, "dying")
        if len(beers) >= window["needed"]:  # BG-8.7: enough Beers to reach 1 life play themselves
            _respond(new, seat, beers[: window["needed"]])
        else:
            _take_it(new, seat)
    elif kind == "store":
        step = close_window(new)
        pick(new, step, seat, step["cards"][0])
    elif kind == "draw_choice":
        close_window(new)
        resolve_draw_choice(new, seat, None)
    else:
        _take_it(new, seat)
    run(new)
    return new


def draw_choices(state: State, seat: int) -> dict[str, list[Any]]:
    """What the draw_choice window offers ``seat``: ``from`` (Jesse Jones, Pedro Ramirez) or
    ``return`` (Kit Carlson: one of the top three, which only he sees)."""
    p = player(state, seat)
    if p["character"] == "kit_carlson":
        return {"return": list(state["deck"][:3])}
    if p["character"] == "pedro_ramirez":
        return {"from": ["discard", "deck"]}
    return {"from": [s for s in others_from(state, seat) if player(state, s)["hand"]] + ["deck"]}


# A deep copy written out per key (layout_copier); each holds only str/int/bool/None below the
# level copied (a step's or window's ``cards``, ``order``, ``seats`` are lists of plain values).
# Logged effects are never changed once emitted. tests/test_perf_equivalence.py checks it.
LAYOUT: dict[str, Any] = {
    "players": lambda ps: [{**p, "hand": list(p["hand"]), "in_play": list(p["in_play"])} for p in ps],
    "deck": list, "discard": list, "ring": list, "options": dict, "turn": dict, "log": list,
    "stack": lambda steps: [copy_flat(step) for step in steps], "window": copy_flat, "winner": list,
}
# The keys that hold a plain value; with LAYOUT's, every key a state has.
PLAIN_KEYS = frozenset({"rng", "game", "mode", "phase", "window_seq", "total", "last"})
_copy = layout_copier(LAYOUT, PLAIN_KEYS)


def copy_state(state: State) -> State:
    """A deep copy equal to ``clone(state)`` but for ``last``, which every input starts afresh."""
    new = _copy(state)
    new["last"] = []
    return new


def _fresh(state: State, copy: bool) -> State:
    new = copy_state(state) if copy else state
    new["last"] = []
    return new


def apply(state: State, inp: Input) -> State:
    """A new state after ``inp``; GameError (state untouched) for anything illegal."""
    return _apply(state, inp, True)


def apply_in_place(state: State, inp: Input) -> State:
    """Like :func:`apply` but changes ``state`` (journal replay); checks still come first."""
    return _apply(state, inp, False)


def _apply(state: State, inp: Input, copy: bool) -> State:
    # Plain ifs, not require(): a message is only formatted when the input is refused (hot path).
    if not isinstance(inp, dict):
        raise GameError("an input must be an object")
    if state["phase"] != "playing":
        raise GameError(f"the game is {state['phase']}")
    if inp.get("type") == "timeout":
        return _timeout(state, inp, copy)
    seat, move, args = _parse(state, inp)
    return _move(state, seat, move, args, copy)


def _parse(state: State, inp: Input) -> tuple[int, str, dict[str, Any]]:
    """(seat, move, args) of a well-formed move by a living seat."""
    kind = inp.get("type")
    if kind != "move":
        raise GameError(f"bang takes 'move' and 'timeout' inputs, not {kind!r}")
    seat = seat_of(inp)
    me = player(state, seat)
    if not me["alive"]:
        raise GameError(f"seat {seat} is out of the game")
    move: Any = inp.get("move")
    if not isinstance(move, str) or move not in ARGS:
        raise GameError(f"unknown move {move!r}; moves: {', '.join(MOVES)}")
    args = inp.get("args")
    args = {} if args is None else args
    if not isinstance(args, dict):
        raise GameError(f"{move}: args must be an object")
    if not _ARG_SETS[move].issuperset(args):
        raise GameError(f"{move} takes no {sorted(set(args) - _ARG_SETS[move])[0]!r} argument")
    return seat, move, args


# the move table of BG-8.14: one short branch per move name, each handing over to its rule
def _move(state: State, seat: int, move: str, args: dict[str, Any], copy: bool) -> State:  # noqa: C901
    me = player(state, seat)
    window, turn = state["window"], state["turn"]
    if move == "ability":
        return _ability(state, seat, args, copy)
    if window is not None:
        if seat not in window["seats"]:
            raise GameError(say("seat {seat} may not answer this window (seat {must} must)", seat=seat, must=window["seats"][0]))
        return _answer(state, seat, move, args, copy)
    if turn is None or seat != turn["seat"]:
        raise GameError(say("it is not seat {seat}'s turn", seat=seat))
    if turn["step"] == "discard":
        if not (move == "discard" or (move == "end_turn" and len(me["hand"]) <= me["life"])):
            raise GameError(say("discard down to your life first (BG-2.4)"))
    elif turn["step"] != "play":
        raise GameError(say("seat {seat} cannot move now", seat=seat))
    elif move not in ("play", "end_turn"):
        raise GameError(say("{move}: nothing to answer now; play a card or end your turn", move=move))
    if move == "play":
        p = check_play(state, seat, args)
        new = _fresh(state, copy)
        _do_play(new, seat, p)
    elif move == "end_turn":
        new = _fresh(state, copy)
        if len(me["hand"]) > me["life"]:
            new["turn"]["step"] = "discard"
            emit(new, {"kind": "must_discard", "seat": seat, "count": len(me["hand"]) - me["life"]})
        else:
            _end(new, seat)
    else:
        cards = _cards_arg(args, "discard", me["hand"])
        need = len(me["hand"]) - me["life"]
        if len(cards) != need:
            raise GameError(say("discard: discard exactly {n} card(s) down to your life (BG-2.4)", n=need))
        new = _fresh(state, copy)
        for c in cards:
            player(new, seat)["hand"].remove(c)
            discard(new, c)
        emit(new, {"kind": "discards", "seat": seat, "cards": cards})
        _end(new, seat)
    run(new)
    return new


def _end(state: State, seat: int) -> None:
    emit(state, {"kind": "end_turn", "seat": seat})
    state["turn"]["step"] = "over"
    state["stack"].append({"kind": "end_turn", "seat": seat})


def _answer(state: State, seat: int, move: str, args: dict[str, Any], copy: bool) -> State:
    kind = state["window"]["kind"]
    if kind == "store":
        if move != "pick":
            raise GameError("pick one of the General Store's cards")
        card: Any = args.get("card")
        if card not in state["window"]["cards"]:
            raise GameError(f"pick: {card!r} is not on the General Store's table")
        new = _fresh(state, copy)
        step = close_window(new)
        pick(new, step, seat, card)
    elif kind == "draw_choice":
        if move != "draw_choice":
            raise GameError("choose how to draw first (draw_choice)")
        offered = draw_choices(state, seat)
        key = next(iter(offered))
        if set(args) != {key}:
            raise GameError(f"draw_choice takes {key!r}")
        if args[key] not in offered[key]:
            raise GameError(f"draw_choice: {key} must be one of {offered[key]}")
        new = _fresh(state, copy)
        close_window(new)
        resolve_draw_choice(new, seat, args[key])
    else:
        if move not in ("respond", "pass"):
            raise GameError(say("{move}: answer the window first (respond or pass)", move=move))
        cards = _check_respond(state, seat, args) if move == "respond" else None
        new = _fresh(state, copy)
        if cards is not None:
            _respond(new, seat, cards)
        else:
            emit(new, {"kind": "pass", "seat": seat, "window": kind})
            _take_it(new, seat)
    run(new)
    return new


def _ability(state: State, seat: int, args: dict[str, Any], copy: bool) -> State:
    """Sid Ketchum: discard 2 cards to regain 1 life, in his turn or in a window addressed to him (BG-8.13)."""
    me = player(state, seat)
    require(me["character"] == "sid_ketchum", "ability: only Sid Ketchum has an ability to use")
    window, turn = state["window"], state["turn"]
    if window is not None:
        require(seat in window["seats"] and window["kind"] in ("shot", "indians", "duel", "dying"),
                "ability: only in your turn or in a window addressed to you (BG-8.13)")
    else:
        require(turn is not None and turn["seat"] == seat and turn["step"] in ("play", "discard"),
                "ability: only in your turn or in a window addressed to you (BG-8.13)")
    cards = _cards_arg(args, "ability", me["hand"])
    require(len(cards) == 2, "ability: discard exactly 2 cards")
    require(me["life"] < me["max_life"], "ability: you are at full life")
    new = _fresh(state, copy)
    p = player(new, seat)
    for c in cards:
        p["hand"].remove(c)
        discard(new, c)
    emit(new, {"kind": "ability", "seat": seat, "cards": cards})
    heal(new, seat, 1)
    w = new["window"]
    if w is not None and w["kind"] == "dying":
        if p["life"] >= 1:
            close_window(new)
        else:
            w["needed"] = 1 - p["life"]
    run(new)
    return new


def count_cards(state: State) -> Counter[str]:
    from controller.games.bang.flow import all_cards

    return Counter(all_cards(state))
