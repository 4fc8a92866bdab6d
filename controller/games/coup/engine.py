"""The Coup referee's inputs: ``apply(state, input) -> new state`` (CP-2 … CP-7).

Each handler checks everything first and only then copies the state and changes the copy, so an
illegal input raises :class:`GameError` with the argument untouched (which also makes
``apply_in_place`` safe for journal replays). The turn's walk lives in :mod:`.flow`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.games.base import GameError, Input, State, copy_flat, layout_copier, seat_of
from controller.games.coup.cards import (
    ACTION_CLAIM,
    COST,
    MUST_COUP_AT,
    TARGETED,
    check_card,
    missing_from,
)
from controller.games.coup.flow import (
    after_action_stands,
    alive_seats,
    challenge,
    close_unanswered,
    emit,
    gain,
    pay,
    player,
    reveal,
    run,
    shuffle_in,
    who,
)
from controller.games.coup.flow import (
    say as tell,  # one public line (flow.say); gametable_core.said.say words an error
)
from gametable_core.said import N_, listing, say

Copy = Callable[[State], State]
# "waiting for Ann (seat 1) to choose …": whole sentences, so each language words them (docs/i18n.md)
WAITING = {True: N_("waiting for {who} to choose an influence to lose"), False: N_("waiting for {who} to choose cards to return")}
ACTIONS = tuple(ACTION_CLAIM)
REACTIONS = ("challenge", "block", "pass")
CHOICES = ("lose_influence", "exchange_return")
MOVES = ACTIONS + REACTIONS + CHOICES

# Which args each move accepts; anything else is rejected rather than silently ignored.
ARGS: dict[str, tuple[str, ...]] = {m: () for m in MOVES}
ARGS.update({m: ("target",) for m in TARGETED})
ARGS.update({"block": ("claim",), "lose_influence": ("card",), "exchange_return": ("cards",)})



# ---------------------------------------------------------------- inputs


def _same(state: State) -> State:
    return state


def _fresh(state: State, copy: Copy) -> State:
    """The state to change: a clone (``apply``) or the argument itself (``apply_in_place``)."""
    new = copy(state)
    new["last"] = []
    return new


def _copy_window(window: dict[str, Any]) -> dict[str, Any]:
    new = {**window, "seats": list(window["seats"]), "action": dict(window["action"])}
    if "claims" in new:
        new["claims"] = list(new["claims"])
    return new


# A deep copy written out per key (layout_copier: ~2.5x a plain clone, and no clone at all when
# every key is known); each holds only str/int below the level copied. tests/test_perf_equivalence.py checks it.
LAYOUT: dict[str, Callable[[Any], Any]] = {
    "players": lambda players: [{**p, "hand": list(p["hand"]), "revealed": list(p["revealed"])}
                                for p in players],  # seat, name, coins, hand, revealed
    "deck": list,
    "order": list,
    "losses": list,
    "log": list,
    "options": dict,  # timeout_s, exchange_to_bottom
    "action": dict,  # move, seat, target, claim, step, blocker, block_claim
    "last_challenge": dict,  # n, challenger, claimant, claim, had
    "winner": list,  # seats
    "window": _copy_window,  # id, kind, seats, claim, claimant, action (move, seat, target, claim), claims
    "pending": copy_flat,  # kind, seat, drawn
}
# The keys that hold a plain value; with LAYOUT's, every key a state has.
PLAIN_KEYS = frozenset({"rng", "game", "mode", "phase", "treasury", "turn", "window_seq", "last"})
_copy = layout_copier(LAYOUT, PLAIN_KEYS)


def copy_state(state: State) -> State:
    """A deep copy equal to ``clone(state)`` but for ``last``, which every input starts afresh
    (its effects are not copied only to be dropped)."""
    new = _copy(state)
    new["last"] = []
    return new


def apply(state: State, inp: Input) -> State:
    """A new state after ``inp``; raises GameError (state untouched) for anything illegal."""
    return _apply(state, inp, copy_state)


def apply_in_place(state: State, inp: Input) -> State:
    """Like :func:`apply` but changes ``state`` itself: for journal replays, where speed matters.

    Every check happens before the first change, so an illegal input still leaves ``state`` intact.
    """
    return _apply(state, inp, _same)


def _apply(state: State, inp: Input, copy: Copy) -> State:
    if not isinstance(inp, dict):
        raise GameError(f"an input must be an object, got {type(inp).__name__}")
    kind = inp.get("type")
    if state["phase"] != "playing":
        raise GameError(f"the game is {state['phase']}")
    if kind == "timeout":
        return _timeout(state, inp, copy)
    if kind != "move":
        raise GameError(f"coup takes 'move' and 'timeout' inputs, not {kind!r}")
    seat = seat_of(inp)
    me = player(state, seat)
    move = inp.get("move")
    if not isinstance(move, str) or move not in MOVES:
        raise GameError(f"unknown move {move!r}; moves: {', '.join(MOVES)}")
    args = inp.get("args")
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise GameError(f"{move}: args must be an object")
    extra = sorted(set(args) - set(ARGS[move]))
    if extra:
        raise GameError(f"{move} takes no {extra[0]!r} argument")
    if not me["hand"]:
        raise GameError(say("{who} is out of the game", who=who(state, seat)))
    if state["pending"] is not None:
        return _choice(state, seat, move, args, copy)
    if state["window"] is not None:
        return _react(state, seat, move, args, copy)
    return _declare(state, seat, move, args, copy)


def _timeout(state: State, inp: Input, copy: Copy) -> State:
    """CP-7: the window closes as if every remaining eligible seat passed."""
    window = state["window"]
    if window is None:
        raise GameError(say("timeout: no reaction window is open"))
    wid = inp.get("window")
    if wid is not None and (isinstance(wid, bool) or not isinstance(wid, int)):
        raise GameError(f"timeout: 'window' must be a window id number, got {wid!r}")
    if wid is not None and wid != window["id"]:
        raise GameError(say("stale timeout for window {stale}; window {window} is open", stale=repr(wid), window=window["id"]))
    new = _fresh(state, copy)
    tell(new, f"time is up for window {window['id']}", {"kind": "timeout", "window": window["id"]})
    close_unanswered(new)
    run(new)
    return new


def _declare(state: State, seat: int, move: str, args: dict[str, Any], copy: Copy) -> State:
    """A turn's one action (CP-2)."""
    if move not in ACTIONS:
        if move in REACTIONS:
            raise GameError(say("{move}: no reaction window is open", move=move))
        raise GameError(say("{move}: nobody has to choose anything now", move=move))
    if seat != state["turn"]:
        raise GameError(say("it is {who}'s turn, not seat {seat}'s", who=who(state, state["turn"]), seat=seat))
    me = player(state, seat)
    if me["coins"] >= MUST_COUP_AT and move != "coup":
        raise GameError(say("{who} has {n} coins and must coup (CP-2.1)", who=me["name"], n=me["coins"]))
    cost = COST.get(move, 0)
    if me["coins"] < cost:
        raise GameError(say("{move} costs {cost} coins; {who} has {n}", move=move, cost=cost, who=me["name"], n=me["coins"]))
    target = _target(state, seat, move, args)
    new = _fresh(state, copy)
    me = player(new, seat)
    claim = ACTION_CLAIM[move]
    a = {"move": move, "seat": seat, "target": target, "claim": claim, "step": "done"}
    a.update({"blocker": None, "block_claim": None})
    new["action"] = a
    if move == "income":
        got = gain(new, me, 1)
        tell(new, f"{who(new, seat)} takes income (+{got})", {"kind": "coins", "seat": seat, "coins": got, "move": move})
    elif move == "coup" and target is not None:  # always: coup is TARGETED, its target checked above
        pay(new, me, cost)
        tell(new, f"{who(new, seat)} launches a coup against {who(new, target)}",
             {"kind": "coup", "seat": seat, "target": target, "coins": cost})
        new["losses"].append(target)
    else:
        if cost:  # CP-2.3 the Assassin pays on declaration
            pay(new, me, cost)
        aim = f" against {who(new, target)}" if target is not None else ""
        said = f" claiming {claim}" if claim else ""
        tell(new, f"{who(new, seat)} declares {move.replace('_', ' ')}{aim}{said}",
             {"kind": "declare", "seat": seat, "move": move, "target": target, "claim": claim, "paid": cost})
        if claim:
            a["step"] = "challenge_action"
        else:
            after_action_stands(a)
    run(new)
    return new


def _target(state: State, seat: int, move: str, args: dict[str, Any]) -> int | None:
    """The checked target seat of a targeted action (CP-2.2), None for the others."""
    if move not in TARGETED:
        return None
    target = args.get("target")
    if isinstance(target, bool) or not isinstance(target, int):
        raise GameError(say("{move} needs a target seat, got {got}", move=move, got=repr(target)))
    if target == seat:
        raise GameError(say("{move}: you cannot target yourself", move=move))
    if target not in alive_seats(state):
        raise GameError(say("{move}: seat {target} is not a living player", move=move, target=target))
    return target


def _react(state: State, seat: int, move: str, args: dict[str, Any], copy: Copy) -> State:
    """An answer to the open window: challenge, block or pass (CP-3, CP-4)."""
    kind = state["window"]["kind"]
    claim = _check_reaction(state["window"], seat, move, args)
    new = _fresh(state, copy)
    window = new["window"]
    a = new["action"]
    if move == "pass":
        window["seats"].remove(seat)
        emit(new, {"kind": "pass", "seat": seat, "window": window["id"]})
        if not window["seats"]:
            close_unanswered(new)
    elif move == "block":
        new["window"] = None
        a["blocker"], a["block_claim"], a["step"] = seat, claim, "challenge_block"
        tell(new, f"{who(new, seat)} claims {claim} to block", {"kind": "block", "seat": seat, "claim": claim})
    else:  # challenge; CP-3.4 the first one wins and closes the window
        new["window"] = None
        _challenged(new, seat, kind, a)
    run(new)
    return new


def _check_reaction(window: dict[str, Any], seat: int, move: str, args: dict[str, Any]) -> str | None:
    """Refuse an answer this window does not take; the claimed card of a block (CP-4), else None."""
    kind = window["kind"]
    if move not in REACTIONS:
        raise GameError(say("{move}: a {window} window is open; answer it first", move=move, window=kind.replace("_", " ")))
    if seat not in window["seats"]:
        if seat == window["claimant"] and kind != "block":
            raise GameError(say("seat {seat} cannot answer a challenge window on its own claim", seat=seat))
        raise GameError(say("seat {seat} may not answer this {window} window", seat=seat, window=kind.replace("_", " ")))
    if move == "challenge" and kind == "block":
        raise GameError(say("challenge: this is a block window (the action's challenge window has closed)"))
    if move == "block" and kind != "block":
        raise GameError(say("block: this is a {window} window, not a block window", window=kind.replace("_", " ")))
    if move != "block":
        return None
    claim = check_card(args.get("claim"), "block")
    if claim not in window["claims"]:
        raise GameError(say("block: {move} can only be blocked by {cards}", move=window["action"]["move"],
                            cards=listing(window["claims"])))
    return claim


def _challenged(new: State, seat: int, kind: str, a: dict[str, Any]) -> None:
    """Settle a challenge of the action's claim or of the block's claim (CP-3, CP-4.2)."""
    if kind == "challenge_action":
        if challenge(new, seat, a["seat"], a["claim"]):
            after_action_stands(a)
        else:
            if a["move"] == "assassinate":  # CP-2.3 refunded only here
                gain(new, player(new, a["seat"]), COST["assassinate"])
                tell(new, f"{who(new, a['seat'])} gets the 3 coins back",
                     {"kind": "refund", "seat": a["seat"], "coins": COST["assassinate"], "rule": "CP-2.3"})
            a["step"] = "done"
    else:
        stands = challenge(new, seat, a["blocker"], a["block_claim"])
        if stands:
            tell(new, f"the block stands: {a['move'].replace('_', ' ')} fails",
                 {"kind": "blocked", "seat": a["blocker"], "claim": a["block_claim"], "rule": "CP-4.2"})
            a["step"] = "done"
        else:
            a["step"] = "resolve"  # CP-4.2 an exposed block fails, the action goes ahead


def _choice(state: State, seat: int, move: str, args: dict[str, Any], copy: Copy) -> State:
    """The pending choice: an influence to lose (CP-5.1) or the cards to return (CP-2.4)."""
    pending = state["pending"]
    if seat != pending["seat"]:
        raise GameError(say(WAITING[pending["kind"] == "lose_influence"], who=who(state, pending["seat"])))
    wanted = "lose_influence" if pending["kind"] == "lose_influence" else "exchange_return"
    if move != wanted:
        raise GameError(say("{move}: {who} must answer with {wanted} first", move=move, who=who(state, seat), wanted=wanted))
    if wanted == "lose_influence":
        card = check_card(args.get("card"), "lose_influence")
        hand = player(state, seat)["hand"]
        if card not in hand:
            raise GameError(say("lose_influence: you have no face-down {card}; choose one of {cards}", card=card,
                                cards=listing(hand)))
        new = _fresh(state, copy)
        new["pending"] = None
        reveal(new, player(new, seat), card)
    else:
        new = _exchange_return(state, seat, args.get("cards"), copy)
    run(new)
    return new


def _exchange_return(state: State, seat: int, cards: object, copy: Copy) -> State:
    """Return as many cards as were drawn; keep the rest (CP-2 exchange, CP-2.4 where they go)."""
    drawn = state["pending"]["drawn"]
    pool = player(state, seat)["hand"] + drawn
    if not isinstance(cards, list) or len(cards) != len(drawn):
        raise GameError(say("exchange_return: return exactly {n} cards as a list, got {got}", n=len(drawn), got=repr(cards)))
    cards = [check_card(c, "exchange_return") for c in cards]
    lacking = missing_from(pool, cards)
    if lacking is not None:
        raise GameError(say("exchange_return: you cannot return {card}; you hold {cards}", card=lacking, cards=listing(pool)))
    new = _fresh(state, copy)
    me = player(new, seat)
    keep = list(pool)
    for c in cards:
        keep.remove(c)
    me["hand"] = keep
    new["pending"] = None
    if new["options"]["exchange_to_bottom"]:
        new["deck"].extend(cards)
        where = "to the bottom of the deck"
    else:
        shuffle_in(new, cards)
        where = "into the deck"
    tell(new, f"{who(new, seat)} returns {len(cards)} cards {where}",
         {"kind": "exchange_return", "seat": seat, "count": len(cards), "rule": "CP-2.4"})
    return new
