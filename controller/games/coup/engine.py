"""The Coup referee: ``apply(state, input) -> new state`` (CP-2 … CP-5).

A turn is a small state machine kept in ``state["action"]["step"]`` and walked by :func:`_run`:

    declared → challenge_action (window) → block (window) → challenge_block (window) → resolve → done

(CP-4.3). Whatever needs a person stops the walk: an open reaction ``window``, or a ``pending``
choice (which influence to lose, which cards to return from an exchange). Influence losses wait in
``losses`` and are taken before the walk goes on, so one player can lose two in a turn (CP-5.2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.games import rng
from controller.games.base import GameError, Input, State, clone, seat_of
from controller.games.coup.cards import (
    ACTION_CLAIM,
    BLOCK_CLAIMS,
    COST,
    MUST_COUP_AT,
    TARGETED,
    check_card,
    missing_from,
)

Copy = Callable[[State], State]
ACTIONS = tuple(ACTION_CLAIM)
REACTIONS = ("challenge", "block", "pass")
CHOICES = ("lose_influence", "exchange_return")
MOVES = ACTIONS + REACTIONS + CHOICES
LOG_KEEP = 8  # the log is for people (the last few lines); short keeps cloning cheap

# Which args each move accepts; anything else is rejected rather than silently ignored.
ARGS: dict[str, tuple[str, ...]] = {m: () for m in MOVES}
ARGS.update({m: ("target",) for m in TARGETED})
ARGS.update({"block": ("claim",), "lose_influence": ("card",), "exchange_return": ("cards",)})


# ---------------------------------------------------------------- small helpers


def player(state: State, seat: int) -> dict[str, Any]:
    for p in state["players"]:
        if p["seat"] == seat:
            return p
    raise GameError(f"seat {seat} is not playing this game")


def alive_seats(state: State) -> list[int]:
    return [p["seat"] for p in state["players"] if p["hand"]]


def _who(state: State, seat: int) -> str:
    return f"{player(state, seat)['name']} (seat {seat})"


def _log(state: State, text: str, effect: dict[str, Any]) -> None:
    """One thing that happened: words for people (``log``) and a structured effect for the
    table's events topic and LEDs (``last``: the effects of the latest input). Public facts only."""
    log = state["log"]
    log.append(text)
    if len(log) > LOG_KEEP:
        del log[: len(log) - LOG_KEEP]
    state["last"].append(effect)


def _effect(state: State, effect: dict[str, Any]) -> None:
    """An effect with no line in the log (windows opening, turns passing)."""
    state["last"].append(effect)


def _pay(state: State, p: dict[str, Any], n: int) -> None:
    """Player → treasury (CP-1: coins are conserved)."""
    p["coins"] -= n
    state["treasury"] += n


def _gain(state: State, p: dict[str, Any], n: int) -> int:
    """Treasury → player, never more than the treasury holds."""
    n = min(n, state["treasury"])
    state["treasury"] -= n
    p["coins"] += n
    return n


def _shuffle_in(state: State, cards: list[str]) -> None:
    """Cards go back into the deck, which is then shuffled (CP-3.2, CP-2.4)."""
    state["deck"] = rng.shuffle(state, state["deck"] + cards)


def _reveal(state: State, p: dict[str, Any], card: str) -> None:
    """CP-5.1 the card turns face up; CP-5.3 with none left the player is out, coins to the treasury."""
    p["hand"].remove(card)
    p["revealed"].append(card)
    _log(state, f"{_who(state, p['seat'])} loses an influence and reveals {card}",
         {"kind": "reveal", "seat": p["seat"], "card": card, "rule": "CP-5.1"})
    if not p["hand"]:
        if p["coins"]:
            _pay(state, p, p["coins"])
        _log(state, f"{_who(state, p['seat'])} is out", {"kind": "out", "seat": p["seat"], "rule": "CP-5.3"})


def _open_window(state: State, kind: str, seats: list[int], claim: str | None, claimant: int) -> None:
    a = state["action"]
    state["window_seq"] += 1
    window: dict[str, Any] = {
        "id": state["window_seq"],
        "kind": kind,
        "seats": seats,
        "claim": claim,
        "claimant": claimant,
        "action": {"move": a["move"], "seat": a["seat"], "target": a["target"], "claim": a["claim"]},
        "timeout_s": state["options"]["timeout_s"],
    }
    if kind == "block":
        window["claims"] = list(BLOCK_CLAIMS[a["move"]])
    state["window"] = window
    _effect(state, {"kind": "window", "id": window["id"], "window": kind, "seats": list(seats)})


# ---------------------------------------------------------------- the walk


def _run(state: State) -> None:
    """Advance the turn until someone has to answer or choose, or the game is over."""
    while state["pending"] is None and state["window"] is None:
        if state["losses"]:
            p = player(state, state["losses"].pop(0))
            if len(p["hand"]) == 1:  # CP-7: with one face-down card it goes at once
                _reveal(state, p, p["hand"][0])
            elif p["hand"]:
                state["pending"] = {"kind": "lose_influence", "seat": p["seat"]}
                _effect(state, {"kind": "choose", "seat": p["seat"], "choice": "lose_influence"})
            continue
        living = alive_seats(state)
        if len(living) <= 1:  # CP-5.4
            _game_over(state, living)
            return
        a = state["action"]
        if a is None:
            return
        step = a["step"]
        if step == "challenge_action":
            others = [s for s in living if s != a["seat"]]
            _open_window(state, "challenge_action", others, a["claim"], a["seat"])
        elif step == "block":
            eligible = _block_seats(state, a, living)
            if eligible:
                _open_window(state, "block", eligible, a["claim"], a["seat"])
            else:
                a["step"] = "resolve"
        elif step == "challenge_block":
            others = [s for s in living if s != a["blocker"]]
            _open_window(state, "challenge_block", others, a["block_claim"], a["blocker"])
        elif step == "resolve":
            a["step"] = "done"
            _resolve(state, a)
        else:  # done
            _end_turn(state)
            return


def _block_seats(state: State, a: dict[str, Any], living: list[int]) -> list[int]:
    """CP-4.1: only the target blocks assassinate/steal; anyone else may block foreign aid."""
    if a["move"] == "foreign_aid":
        return [s for s in living if s != a["seat"]]
    return [a["target"]] if a["target"] in living else []


def _after_action_stands(a: dict[str, Any]) -> None:
    a["step"] = "block" if a["move"] in BLOCK_CLAIMS else "resolve"


def _resolve(state: State, a: dict[str, Any]) -> None:
    """The action takes effect (CP-2)."""
    me = player(state, a["seat"])
    move = a["move"]
    if move == "foreign_aid":
        got = _gain(state, me, 2)
        _log(state, f"{_who(state, me['seat'])} takes foreign aid (+{got})",
             {"kind": "coins", "seat": me["seat"], "coins": got, "move": move})
    elif move == "tax":
        got = _gain(state, me, 3)
        _log(state, f"{_who(state, me['seat'])} collects tax as Duke (+{got})",
             {"kind": "coins", "seat": me["seat"], "coins": got, "move": move})
    elif move == "steal":
        victim = player(state, a["target"])
        n = min(2, victim["coins"])
        victim["coins"] -= n
        me["coins"] += n
        _log(state, f"{_who(state, me['seat'])} steals {n} from {_who(state, victim['seat'])}",
             {"kind": "steal", "seat": me["seat"], "target": victim["seat"], "coins": n})
    elif move == "assassinate":
        if player(state, a["target"])["hand"]:
            _log(state, f"{_who(state, me['seat'])} assassinates {_who(state, a['target'])}",
                 {"kind": "assassinate", "seat": me["seat"], "target": a["target"]})
            state["losses"].append(a["target"])
    elif move == "exchange":
        drawn, state["deck"] = state["deck"][:2], state["deck"][2:]
        state["pending"] = {"kind": "exchange", "seat": me["seat"], "drawn": drawn}
        _effect(state, {"kind": "choose", "seat": me["seat"], "choice": "exchange"})
        _log(state, f"{_who(state, me['seat'])} draws {len(drawn)} cards to exchange",
             {"kind": "exchange_draw", "seat": me["seat"], "count": len(drawn)})


def _end_turn(state: State) -> None:
    """CP-7: next seat in the rotation, skipping the out."""
    current = state["action"]["seat"]
    state["action"] = None
    order = state["order"]
    living = set(alive_seats(state))
    i = order.index(current)
    for k in range(1, len(order) + 1):
        seat = order[(i + k) % len(order)]
        if seat in living:
            state["turn"] = seat
            _effect(state, {"kind": "turn", "seat": seat})
            return


def _game_over(state: State, living: list[int]) -> None:
    state.update({"phase": "over", "turn": None, "action": None, "window": None, "pending": None})
    state["losses"] = []
    state["winner"] = list(living)
    if living:
        _log(state, f"{_who(state, living[0])} wins", {"kind": "game_over", "winner": list(living), "rule": "CP-5.4"})


# ---------------------------------------------------------------- challenges


def _challenge(state: State, challenger: int, claimant: int, claim: str) -> bool:
    """CP-3.2/3.3: True when the claimant had the card (the claim stands)."""
    who = player(state, claimant)
    had = claim in who["hand"]
    _log(state, f"{_who(state, challenger)} challenges {_who(state, claimant)}'s {claim}",
         {"kind": "challenge", "seat": challenger, "claimant": claimant, "claim": claim, "had": had,
          "rule": "CP-3.2" if had else "CP-3.3"})
    n = state["last_challenge"]["n"] + 1 if state["last_challenge"] else 1
    state["last_challenge"] = {"n": n, "challenger": challenger, "claimant": claimant, "claim": claim, "had": had}
    if had:
        who["hand"].remove(claim)
        _shuffle_in(state, [claim])
        who["hand"].append(state["deck"].pop(0))
        _log(state, f"{_who(state, claimant)} shows {claim}, shuffles it into the deck and draws a new card",
             {"kind": "show", "seat": claimant, "card": claim, "rule": "CP-3.2"})
        state["losses"].append(challenger)
        return True
    _log(state, f"{_who(state, claimant)} has no {claim}: the claim fails",
         {"kind": "bluff", "seat": claimant, "claim": claim, "rule": "CP-3.3"})
    state["losses"].append(claimant)
    return False


# ---------------------------------------------------------------- inputs


def _same(state: State) -> State:
    return state


def _fresh(state: State, copy: Copy) -> State:
    """The state to change: a clone (``apply``) or the argument itself (``apply_in_place``)."""
    new = copy(state)
    new["last"] = []
    return new


def apply(state: State, inp: Input) -> State:
    """A new state after ``inp``; raises GameError (state untouched) for anything illegal."""
    return _apply(state, inp, clone)


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
        raise GameError(f"{_who(state, seat)} is out of the game")
    if state["pending"] is not None:
        return _choice(state, seat, move, args, copy)
    if state["window"] is not None:
        return _react(state, seat, move, args, copy)
    return _declare(state, seat, move, args, copy)


def _timeout(state: State, inp: Input, copy: Copy) -> State:
    """CP-7: the window closes as if every remaining eligible seat passed."""
    window = state["window"]
    if window is None:
        raise GameError("timeout: no reaction window is open")
    wid = inp.get("window")
    if wid is not None and (isinstance(wid, bool) or not isinstance(wid, int)):
        raise GameError(f"timeout: 'window' must be a window id number, got {wid!r}")
    if wid is not None and wid != window["id"]:
        raise GameError(f"stale timeout for window {wid!r}; window {window['id']} is open")
    new = _fresh(state, copy)
    _log(new, f"time is up for window {window['id']}", {"kind": "timeout", "window": window["id"]})
    _close_unanswered(new)
    _run(new)
    return new


def _close_unanswered(state: State) -> None:
    """Nobody challenged/blocked: the walk goes to the next step of CP-4.3."""
    a = state["action"]
    kind = state["window"]["kind"]
    state["window"] = None
    if kind == "challenge_action":
        _after_action_stands(a)
    elif kind == "block":
        a["step"] = "resolve"
    else:  # challenge_block: the block stands and stops the action (CP-4.2)
        _log(state, f"{_who(state, a['blocker'])} blocks with {a['block_claim']}",
             {"kind": "blocked", "seat": a["blocker"], "claim": a["block_claim"], "rule": "CP-4.2"})
        a["step"] = "done"


def _declare(state: State, seat: int, move: str, args: dict[str, Any], copy: Copy) -> State:
    """A turn's one action (CP-2)."""
    if move not in ACTIONS:
        if move in REACTIONS:
            raise GameError(f"{move}: no reaction window is open")
        raise GameError(f"{move}: nobody has to choose anything now")
    if seat != state["turn"]:
        raise GameError(f"it is {_who(state, state['turn'])}'s turn, not seat {seat}'s")
    me = player(state, seat)
    if me["coins"] >= MUST_COUP_AT and move != "coup":
        raise GameError(f"{me['name']} has {me['coins']} coins and must coup (CP-2.1)")
    cost = COST.get(move, 0)
    if me["coins"] < cost:
        raise GameError(f"{move} costs {cost} coins; {me['name']} has {me['coins']}")
    target = None
    if move in TARGETED:
        target = args.get("target")
        if isinstance(target, bool) or not isinstance(target, int):
            raise GameError(f"{move} needs a target seat, got {target!r}")
        if target == seat:
            raise GameError(f"{move}: you cannot target yourself")
        if target not in alive_seats(state):
            raise GameError(f"{move}: seat {target} is not a living player")
    new = _fresh(state, copy)
    me = player(new, seat)
    claim = ACTION_CLAIM[move]
    a = {"move": move, "seat": seat, "target": target, "claim": claim, "step": "done"}
    a.update({"blocker": None, "block_claim": None})
    new["action"] = a
    if move == "income":
        got = _gain(new, me, 1)
        _log(new, f"{_who(new, seat)} takes income (+{got})", {"kind": "coins", "seat": seat, "coins": got, "move": move})
    elif move == "coup":
        _pay(new, me, cost)
        _log(new, f"{_who(new, seat)} launches a coup against {_who(new, target)}",
             {"kind": "coup", "seat": seat, "target": target, "coins": cost})
        new["losses"].append(target)
    else:
        if cost:  # CP-2.3 the Assassin pays on declaration
            _pay(new, me, cost)
        aim = f" against {_who(new, target)}" if target is not None else ""
        said = f" claiming {claim}" if claim else ""
        _log(new, f"{_who(new, seat)} declares {move.replace('_', ' ')}{aim}{said}",
             {"kind": "declare", "seat": seat, "move": move, "target": target, "claim": claim, "paid": cost})
        if claim:
            a["step"] = "challenge_action"
        else:
            _after_action_stands(a)
    _run(new)
    return new


def _react(state: State, seat: int, move: str, args: dict[str, Any], copy: Copy) -> State:
    """An answer to the open window: challenge, block or pass (CP-3, CP-4)."""
    window = state["window"]
    kind = window["kind"]
    if move not in REACTIONS:
        raise GameError(f"{move}: a {kind.replace('_', ' ')} window is open; answer it first")
    if seat not in window["seats"]:
        if seat == window["claimant"] and kind != "block":
            raise GameError(f"seat {seat} cannot answer a challenge window on its own claim")
        raise GameError(f"seat {seat} may not answer this {kind.replace('_', ' ')} window")
    if move == "challenge" and kind == "block":
        raise GameError("challenge: this is a block window (the action's challenge window has closed)")
    if move == "block" and kind != "block":
        raise GameError(f"block: this is a {kind.replace('_', ' ')} window, not a block window")
    claim = None
    if move == "block":
        claim = check_card(args.get("claim"), "block")
        if claim not in window["claims"]:
            raise GameError(f"block: {window['action']['move']} can only be blocked by {', '.join(window['claims'])}")
    new = _fresh(state, copy)
    window = new["window"]
    a = new["action"]
    if move == "pass":
        window["seats"].remove(seat)
        _effect(new, {"kind": "pass", "seat": seat, "window": window["id"]})
        if not window["seats"]:
            _close_unanswered(new)
    elif move == "block":
        new["window"] = None
        a["blocker"], a["block_claim"], a["step"] = seat, claim, "challenge_block"
        _log(new, f"{_who(new, seat)} claims {claim} to block", {"kind": "block", "seat": seat, "claim": claim})
    else:  # challenge; CP-3.4 the first one wins and closes the window
        new["window"] = None
        if kind == "challenge_action":
            if _challenge(new, seat, a["seat"], a["claim"]):
                _after_action_stands(a)
            else:
                if a["move"] == "assassinate":  # CP-2.3 refunded only here
                    _gain(new, player(new, a["seat"]), COST["assassinate"])
                    _log(new, f"{_who(new, a['seat'])} gets the 3 coins back",
                         {"kind": "refund", "seat": a["seat"], "coins": COST["assassinate"], "rule": "CP-2.3"})
                a["step"] = "done"
        else:
            stands = _challenge(new, seat, a["blocker"], a["block_claim"])
            if stands:
                _log(new, f"the block stands: {a['move'].replace('_', ' ')} fails",
                     {"kind": "blocked", "seat": a["blocker"], "claim": a["block_claim"], "rule": "CP-4.2"})
                a["step"] = "done"
            else:
                a["step"] = "resolve"  # CP-4.2 an exposed block fails, the action goes ahead
    _run(new)
    return new


def _choice(state: State, seat: int, move: str, args: dict[str, Any], copy: Copy) -> State:
    """The pending choice: an influence to lose (CP-5.1) or the cards to return (CP-2.4)."""
    pending = state["pending"]
    if seat != pending["seat"]:
        what = "an influence to lose" if pending["kind"] == "lose_influence" else "cards to return"
        raise GameError(f"waiting for {_who(state, pending['seat'])} to choose {what}")
    wanted = "lose_influence" if pending["kind"] == "lose_influence" else "exchange_return"
    if move != wanted:
        raise GameError(f"{move}: {_who(state, seat)} must answer with {wanted} first")
    if wanted == "lose_influence":
        card = check_card(args.get("card"), "lose_influence")
        hand = player(state, seat)["hand"]
        if card not in hand:
            raise GameError(f"lose_influence: you have no face-down {card}; choose one of {', '.join(hand)}")
        new = _fresh(state, copy)
        new["pending"] = None
        _reveal(new, player(new, seat), card)
    else:
        new = _exchange_return(state, seat, args.get("cards"), copy)
    _run(new)
    return new


def _exchange_return(state: State, seat: int, cards: object, copy: Copy) -> State:
    """Return as many cards as were drawn; keep the rest (CP-2 exchange, CP-2.4 where they go)."""
    drawn = state["pending"]["drawn"]
    pool = player(state, seat)["hand"] + drawn
    if not isinstance(cards, list) or len(cards) != len(drawn):
        raise GameError(f"exchange_return: return exactly {len(drawn)} cards as a list, got {cards!r}")
    cards = [check_card(c, "exchange_return") for c in cards]
    lacking = missing_from(pool, cards)
    if lacking is not None:
        raise GameError(f"exchange_return: you cannot return {lacking}; you hold {', '.join(pool)}")
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
        _shuffle_in(new, cards)
        where = "into the deck"
    _log(new, f"{_who(new, seat)} returns {len(cards)} cards {where}",
         {"kind": "exchange_return", "seat": seat, "count": len(cards), "rule": "CP-2.4"})
    return new
