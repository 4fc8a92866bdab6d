"""The turn's walk and its bookkeeping (CP-2 … CP-5), shared by the input handlers of
:mod:`controller.games.coup.engine`.

A turn is a small state machine kept in ``state["action"]["step"]`` and walked by :func:`run`:

    declared → challenge_action (window) → block (window) → challenge_block (window) → resolve → done

(CP-4.3). Whatever needs a person stops the walk: an open reaction ``window``, or a ``pending``
choice (which influence to lose, which cards to return from an exchange). Influence losses wait in
``losses`` and are taken before the walk goes on, so one player can lose two in a turn (CP-5.2).
"""

from __future__ import annotations

from typing import Any

from controller.games import rng
from controller.games.base import State
from controller.games.coup.cards import BLOCK_CLAIMS
from controller.games.kit import player, rotation

LOG_KEEP = 8  # the log is for people (the last few lines); short keeps cloning cheap


# ---------------------------------------------------------------- small helpers


def alive_seats(state: State) -> list[int]:
    return [p["seat"] for p in state["players"] if p["hand"]]


def who(state: State, seat: int) -> str:
    return f"{player(state, seat)['name']} (seat {seat})"


def say(state: State, text: str, effect: dict[str, Any]) -> None:
    """One thing that happened: words for people (``log``) and a structured effect for the
    table's events topic and LEDs (``last``: the effects of the latest input). Public facts only."""
    lines = state["log"]
    lines.append(text)
    if len(lines) > LOG_KEEP:
        del lines[: len(lines) - LOG_KEEP]
    state["last"].append(effect)


def emit(state: State, item: dict[str, Any]) -> None:
    """An effect with no line in the log (windows opening, turns passing)."""
    state["last"].append(item)


def pay(state: State, p: dict[str, Any], n: int) -> None:
    """Player → treasury (CP-1: coins are conserved)."""
    p["coins"] -= n
    state["treasury"] += n


def gain(state: State, p: dict[str, Any], n: int) -> int:
    """Treasury → player, never more than the treasury holds."""
    n = min(n, state["treasury"])
    state["treasury"] -= n
    p["coins"] += n
    return n


def shuffle_in(state: State, cards: list[str]) -> None:
    """Cards go back into the deck, which is then shuffled (CP-3.2, CP-2.4)."""
    state["deck"] = rng.shuffle(state, state["deck"] + cards)


def reveal(state: State, p: dict[str, Any], card: str) -> None:
    """CP-5.1 the card turns face up; CP-5.3 with none left the player is out, coins to the treasury."""
    p["hand"].remove(card)
    p["revealed"].append(card)
    say(state, f"{who(state, p['seat'])} loses an influence and reveals {card}",
         {"kind": "reveal", "seat": p["seat"], "card": card, "rule": "CP-5.1"})
    if not p["hand"]:
        if p["coins"]:
            pay(state, p, p["coins"])
        say(state, f"{who(state, p['seat'])} is out", {"kind": "out", "seat": p["seat"], "rule": "CP-5.3"})


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
    emit(state, {"kind": "window", "id": window["id"], "window": kind, "seats": list(seats)})


# ---------------------------------------------------------------- the walk


def run(state: State) -> None:
    """Advance the turn until someone has to answer or choose, or the game is over."""
    while state["pending"] is None and state["window"] is None:
        if state["losses"]:
            p = player(state, state["losses"].pop(0))
            if len(p["hand"]) == 1:  # CP-7: with one face-down card it goes at once
                reveal(state, p, p["hand"][0])
            elif p["hand"]:
                state["pending"] = {"kind": "lose_influence", "seat": p["seat"]}
                emit(state, {"kind": "choose", "seat": p["seat"], "choice": "lose_influence"})
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


def after_action_stands(a: dict[str, Any]) -> None:
    a["step"] = "block" if a["move"] in BLOCK_CLAIMS else "resolve"


def _resolve(state: State, a: dict[str, Any]) -> None:
    """The action takes effect (CP-2)."""
    me = player(state, a["seat"])
    move = a["move"]
    if move == "foreign_aid":
        got = gain(state, me, 2)
        say(state, f"{who(state, me['seat'])} takes foreign aid (+{got})",
             {"kind": "coins", "seat": me["seat"], "coins": got, "move": move})
    elif move == "tax":
        got = gain(state, me, 3)
        say(state, f"{who(state, me['seat'])} collects tax as Duke (+{got})",
             {"kind": "coins", "seat": me["seat"], "coins": got, "move": move})
    elif move == "steal":
        victim = player(state, a["target"])
        n = min(2, victim["coins"])
        victim["coins"] -= n
        me["coins"] += n
        say(state, f"{who(state, me['seat'])} steals {n} from {who(state, victim['seat'])}",
             {"kind": "steal", "seat": me["seat"], "target": victim["seat"], "coins": n})
    elif move == "assassinate":
        if player(state, a["target"])["hand"]:
            say(state, f"{who(state, me['seat'])} assassinates {who(state, a['target'])}",
                 {"kind": "assassinate", "seat": me["seat"], "target": a["target"]})
            state["losses"].append(a["target"])
    elif move == "exchange":
        drawn, state["deck"] = state["deck"][:2], state["deck"][2:]
        state["pending"] = {"kind": "exchange", "seat": me["seat"], "drawn": drawn}
        emit(state, {"kind": "choose", "seat": me["seat"], "choice": "exchange"})
        say(state, f"{who(state, me['seat'])} draws {len(drawn)} cards to exchange",
             {"kind": "exchange_draw", "seat": me["seat"], "count": len(drawn)})


def _end_turn(state: State) -> None:
    """CP-7: next seat in the rotation, skipping the out."""
    current = state["action"]["seat"]
    state["action"] = None
    living = set(alive_seats(state))
    for seat in rotation(state["order"], current):
        if seat in living:
            state["turn"] = seat
            emit(state, {"kind": "turn", "seat": seat})
            return


def _game_over(state: State, living: list[int]) -> None:
    state.update({"phase": "over", "turn": None, "action": None, "window": None, "pending": None})
    state["losses"] = []
    state["winner"] = list(living)
    if living:
        say(state, f"{who(state, living[0])} wins", {"kind": "game_over", "winner": list(living), "rule": "CP-5.4"})


# ---------------------------------------------------------------- challenges


def challenge(state: State, challenger: int, claimant: int, claim: str) -> bool:
    """CP-3.2/3.3: True when the claimant had the card (the claim stands)."""
    holder = player(state, claimant)
    had = claim in holder["hand"]
    say(state, f"{who(state, challenger)} challenges {who(state, claimant)}'s {claim}",
         {"kind": "challenge", "seat": challenger, "claimant": claimant, "claim": claim, "had": had,
          "rule": "CP-3.2" if had else "CP-3.3"})
    n = state["last_challenge"]["n"] + 1 if state["last_challenge"] else 1
    state["last_challenge"] = {"n": n, "challenger": challenger, "claimant": claimant, "claim": claim, "had": had}
    if had:
        holder["hand"].remove(claim)
        shuffle_in(state, [claim])
        holder["hand"].append(state["deck"].pop(0))
        say(state, f"{who(state, claimant)} shows {claim}, shuffles it into the deck and draws a new card",
             {"kind": "show", "seat": claimant, "card": claim, "rule": "CP-3.2"})
        state["losses"].append(challenger)
        return True
    say(state, f"{who(state, claimant)} has no {claim}: the claim fails",
         {"kind": "bluff", "seat": claimant, "claim": claim, "rule": "CP-3.3"})
    state["losses"].append(claimant)
    return False


def close_unanswered(state: State) -> None:
    """Nobody challenged/blocked: the walk goes to the next step of CP-4.3."""
    a = state["action"]
    kind = state["window"]["kind"]
    state["window"] = None
    if kind == "challenge_action":
        after_action_stands(a)
    elif kind == "block":
        a["step"] = "resolve"
    else:  # challenge_block: the block stands and stops the action (CP-4.2)
        say(state, f"{who(state, a['blocker'])} blocks with {a['block_claim']}",
             {"kind": "blocked", "seat": a["blocker"], "claim": a["block_claim"], "rule": "CP-4.2"})
        a["step"] = "done"
