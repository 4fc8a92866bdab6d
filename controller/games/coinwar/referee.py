"""The shared Coin War referee: strikes (CW-5), deaths (CW-4), the flying-coin foul (CW-6),
questions (CW-8) and placements (CW-9). Modes plug in through :class:`.modes.Mode`.

Every function here works on a state the caller has already cloned, and raises
:class:`GameError` *before* mutating anything it cannot finish, so a rejected input leaves the
caller's state untouched (the caller discards the clone anyway).
"""

from __future__ import annotations

import itertools
from typing import Any

from controller.games.base import GameError, seat_of
from controller.games.coinwar import open_contacts, turns
from controller.games.coinwar.modes import Mode, ShotContext, State
from controller.games.coinwar.state_copy import copy_state
from gametable_core.said import N_, Said, listing, msg_of, say, term

FACT_FIELDS = ("dead", "flown", "contacts")


# --- input checks ------------------------------------------------------------------------------

def check_playing(state: State) -> None:
    # every input passes here: build the message only when it is needed (not via require)
    if state["phase"] != "playing":
        raise GameError(say("the game is {phase}; start a new game", phase=state["phase"]))


def check_no_question(state: State) -> None:
    if state["questions"]:
        q = state["questions"][0]
        raise GameError(say("question {question} is open ({text}); answer it first",
                            question=q["id"], text=question_text(q)))


def check_not_blocked(mode: Mode, state: State) -> None:
    """A mode may hold the table for a decision of its own (CW-7.5 Elixir, discard) first."""
    message = mode.blocked(state)
    if message:
        raise GameError(message)


def check_active(state: State, inp: dict[str, Any]) -> int:
    seat = seat_of(inp)
    turn = state["turn"]
    if turn is None:
        raise GameError(say("nobody's turn: the game is over"))
    if seat != turn["seat"]:
        raise GameError(say("it is seat {turn}'s turn, not seat {seat}'s (CW-3)", turn=turn["seat"], seat=seat))
    return seat


def confirm_own_placements(state: State, seat: int) -> None:
    """CW-9: a shot by the seat due next confirms its own pending placements; others block it."""
    others = [p for p in state["pending_placements"] if p["by"] != seat]
    if others:
        p = others[0]
        raise GameError(say("waiting for coin {coin} to be placed by seat {by} first (CW-9)", coin=p["coin"], by=p["by"]))
    for p in state["pending_placements"]:
        state["coins"][p["coin"]]["on_table"] = True
    state["pending_placements"] = []


def check_coin_list(mode: Mode, state: State, value: Any, key: str,
                    on_table: list[str] | None = None) -> list[str] | None:
    """``on_table``: ``mode.coins_on_table(state)`` when the caller already has it (a shot checks
    three facts against the same table)."""
    if value is None:
        return None
    if not isinstance(value, list) or any(not isinstance(c, str) for c in value):
        raise GameError(say("'{key}' must be a list of coin ids or null, got {got}", key=key, got=repr(value)))
    if on_table is None:
        on_table = mode.coins_on_table(state)
    for coin in value:
        if coin not in on_table:
            raise GameError(say("'{key}' names coin {coin}, which is not on the table (coins: {coins})",
                                key=key, coin=repr(coin), coins=listing(on_table)))
    if len(set(value)) != len(value):
        raise GameError(say("'{key}' names a coin twice: {coins}", key=key, coins=str(value)))
    return list(value)


def check_contacts(mode: Mode, state: State, value: Any,
                   on_table: list[str] | None = None) -> list[list[str]] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise GameError(say("'contacts' must be a list of coin pairs or null, got {got}", got=repr(value)))
    if on_table is None:
        on_table = mode.coins_on_table(state)
    pairs: list[list[str]] = []
    for pair in value:
        check_pair(pair, "contacts", on_table)
        pairs.append(list(pair))
    return pairs


def check_open_contacts(value: Any, contacts: list[list[str]] | None, on_table: list[str]) -> list[list[str]]:
    """The shot's ``contacts_open`` (CW-9, open_contacts.py) checked: sorted pairs, [] when absent."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise GameError(say("'contacts_open' must be a list of coin pairs, got {got}", got=repr(value)))
    if value and contacts is None:
        raise GameError(say("'contacts_open' needs 'contacts' (the pairs known to have touched), not null"))
    known = {tuple(sorted(p)) for p in contacts or []}
    out: list[list[str]] = []
    for pair in value:
        check_pair(pair, "contacts_open", on_table)
        if tuple(sorted(pair)) in known:
            raise GameError(say("'contacts_open' lists {pair}, which 'contacts' says touched", pair=str(pair)))
        if sorted(pair) in out:
            raise GameError(say("'contacts_open' lists {pair} twice", pair=str(pair)))
        out.append(sorted(pair))
    return out


def check_pair(pair: Any, key: str, on_table: list[str]) -> None:
    """One entry of a list of coin pairs (``contacts``, ``contacts_open``): two different coins on the table."""
    if not isinstance(pair, list) or len(pair) != 2 or any(not isinstance(c, str) for c in pair):
        raise GameError(say("'{key}' entries must be pairs of coin ids, got {got}", key=key, got=repr(pair)))
    for coin in pair:
        if coin not in on_table:
            raise GameError(say("'{key}' names coin {coin}, which is not on the table", key=key, coin=repr(coin)))
    if pair[0] == pair[1]:
        raise GameError(say("'{key}' pairs a coin with itself: {pair}", key=key, pair=str(pair)))


# --- the inputs --------------------------------------------------------------------------------

def check_players_turn(mode: Mode, state: State, inp: dict[str, Any]) -> int:
    """What every input of the active player needs first: a game being played, no open
    question, nothing the mode waits for (CW-7.5), and the input's seat is the one whose turn it is."""
    check_playing(state)
    check_no_question(state)
    check_not_blocked(mode, state)
    return check_active(state, inp)


def strike(mode: Mode, state: State, inp: dict[str, Any]) -> None:
    """A strike started (striker frame): it counts as one of the turn's 2 strikes (CW-5.1)."""
    seat = check_players_turn(mode, state, inp)
    if state["striking"]:
        raise GameError(say("seat {seat}'s previous strike is still being observed", seat=seat))
    check_strikes_left(mode, state, seat)
    confirm_own_placements(state, seat)
    state["turn"]["strikes"] += 1
    state["striking"] = True
    state["last"] = [{"kind": "strike", "seat": seat}]


def withdraw(mode: Mode, state: State, inp: dict[str, Any]) -> None:
    """CW-5.6: the striker's player withdraws a strike nothing on the table confirmed (a spike as
    the striker was set down): while it is in flight (before its ``shot``), or after a shot that
    saw no beam edge (``beam_edges: 0``) while that shot's questions (CW-8) are still open -- on a
    table whose beams cannot prove that nobody flew that is the "which coins flew?" question, so
    the player has as long as that question stays open. The turn's strike count is restored and
    the turn goes on; placements the strike confirmed (CW-9) stay confirmed, as the player was at
    the table to strike."""
    check_playing(state)
    if state["questions"]:
        withdraw_unseen_shot(state, inp)
        return
    seat = check_players_turn(mode, state, inp)
    if not state["striking"]:
        raise GameError(say("seat {seat} has no strike in flight to withdraw (CW-5.6)", seat=seat))
    state["turn"]["strikes"] -= 1
    state["striking"] = False
    state["last"] = [{"kind": "withdraw", "seat": seat, "rule": "CW-5.6"}]


def withdraw_unseen_shot(state: State, inp: dict[str, Any]) -> None:
    """CW-5.6 after the shot: only the striker's seat, only a shot no beam saw, only while the
    questions about it are open (an answered shot has resolved: its effects stand)."""
    seat = check_active(state, inp)
    pending = state["pending_shot"]
    if pending is None or pending["seat"] != seat:
        check_no_question(state)  # a question that is not about this seat's strike: answer it first
    if not pending.get("unseen"):
        raise GameError(say("seat {seat}'s shot has arrived and the table's beams saw it (or it did not come "
                            "from the beams); it stands (CW-5.6)", seat=seat))
    state["turn"]["strikes"] -= 1
    state["pending_shot"] = None
    state["questions"] = []
    state["last"] = [{"kind": "withdraw", "seat": seat, "rule": "CW-5.6"}]


def withdrawable(state: State, seat: int) -> bool:
    """CW-5.6: may ``seat`` withdraw its strike now (what :func:`withdraw` accepts)?"""
    turn = state["turn"]
    if state["phase"] != "playing" or turn is None or turn["seat"] != seat:
        return False
    if state["questions"]:
        pending = state["pending_shot"]
        return pending is not None and pending["seat"] == seat and bool(pending.get("unseen"))
    return bool(state["striking"])


def check_beam_edges(inp: dict[str, Any]) -> bool:
    """The observer's optional ``beam_edges`` (how many beam edges it saw during the strike):
    True when it says none (CW-5.6: nothing on the table confirmed the strike)."""
    edges = inp.get("beam_edges")
    if edges is None:
        return False
    if not isinstance(edges, int) or isinstance(edges, bool) or edges < 0:
        raise GameError(say("'beam_edges' must be a whole number of beam edges (0 or more), got {got}", got=repr(edges)))
    return edges == 0


def check_strikes_left(mode: Mode, state: State, seat: int) -> None:
    limit = strike_limit(mode, state)
    if state["turn"]["strikes"] >= limit:
        raise GameError(say("seat {seat} has used all {limit} strikes of this turn (CW-5.1)", seat=seat, limit=limit))


def strike_limit(mode: Mode, state: State) -> int:
    """CW-5.1: 2 strikes a turn; a mode may raise it for one turn (CW-7.5 Combo)."""
    return state.get("strike_limit", 2)


def shot(mode: Mode, state: State, inp: dict[str, Any]) -> None:
    """One complete strike result. Unknown facts (null) become questions (CW-8)."""
    seat = check_players_turn(mode, state, inp)
    coin = inp.get("coin")
    allowed = mode.strikable_coins(state, seat)
    if coin not in allowed:
        raise GameError(say("seat {seat} may strike only {allowed}, not {coin} (CW-5.1)",
                            seat=seat, allowed=listing(allowed, " or "), coin=repr(coin)))
    if state.get("turn_coin") not in (None, coin):
        raise GameError(say("seat {seat} already struck {coin} this turn; one coin per turn",
                            seat=seat, coin=state["turn_coin"]))
    confirm_own_placements(state, seat)
    on_table = mode.coins_on_table(state)
    facts = {
        "dead": check_coin_list(mode, state, inp.get("dead"), "dead", on_table),
        "flown": check_coin_list(mode, state, inp.get("flown"), "flown", on_table),
        "contacts": (contacts := check_contacts(mode, state, inp.get("contacts"), on_table)),
    }
    open_pairs = check_open_contacts(inp.get("contacts_open"), contacts, on_table)
    for key in FACT_FIELDS:
        if key not in inp:
            raise GameError(say("a shot needs '{key}' (a list, or null when the table could not observe it)", key=key))
    unseen = check_beam_edges(inp)
    if not state["striking"]:
        check_strikes_left(mode, state, seat)
        state["turn"]["strikes"] += 1
    state["striking"] = False
    pending = {"seat": seat, "coin": coin, **facts}
    if open_pairs:  # contacts known in part: only the open pairs can be asked (open_contacts.py)
        pending.update(contacts=None, contacts_known=contacts, contacts_open=open_pairs)
    if unseen:
        pending["unseen"] = True  # CW-5.6: withdrawable while its questions are open
    for key in ("mouth",):
        if key in inp:
            pending[key] = inp[key]
    mode.check_shot(state, pending, inp)  # mode-specific facts (CW-7.3 mouth), checked first
    state["pending_shot"] = pending
    advance_questions(mode, state)


def end_turn(mode: Mode, state: State, inp: dict[str, Any]) -> None:
    """CW-5.4: the active player may end the turn (after a move strike, or with none)."""
    seat = check_players_turn(mode, state, inp)
    if state["striking"]:
        raise GameError(say("seat {seat}'s strike is still being observed", seat=seat))
    if state["pending_placements"]:
        p = state["pending_placements"][0]
        raise GameError(say("coin {coin} must be placed by seat {by} first (CW-9)", coin=p["coin"], by=p["by"]))
    ctx = ShotContext(seat, "", [], {}, [], [], [])
    ctx.effects.append({"kind": "end_turn", "seat": seat, "strikes": state["turn"]["strikes"], "rule": "CW-5.4"})
    finish_turn(mode, state, ctx)


def placed(mode: Mode, state: State, inp: dict[str, Any]) -> None:
    """CW-9: ``placed`` clears a pending placement; with nothing pending for that coin it is rejected."""
    coin = inp.get("coin")
    match = [p for p in state["pending_placements"] if p["coin"] == coin]
    if not match:
        waiting = [p["coin"] for p in state["pending_placements"]]
        pending = listing(waiting) if waiting else say("nothing")
        raise GameError(say("nothing to place for coin {coin} (pending: {pending})", coin=repr(coin), pending=pending))
    if "seat" in inp and seat_of(inp) != match[0]["by"]:
        raise GameError(say("coin {coin} is placed by seat {placer}, not seat {seat}",
                            coin=coin, placer=match[0]["by"], seat=inp["seat"]))
    state["pending_placements"] = [p for p in state["pending_placements"] if p["coin"] != coin]
    state["coins"][coin]["on_table"] = True
    state["last"] = [{"kind": "placed", "coin": coin, "seat": match[0]["by"]}]


def answer(mode: Mode, state: State, inp: dict[str, Any]) -> None:
    """CW-8: an answer resolves the open question; then the next one is asked or the shot resolved."""
    check_playing(state)
    qid = inp.get("question")
    if not state["questions"]:
        raise GameError(say("there is no open question to answer (got an answer to {got})", got=repr(qid)))
    question = state["questions"][0]
    if qid != question["id"]:
        raise GameError(say("question {got} is not open; the open question is {question}",
                            got=repr(qid), question=question["id"]))
    if "seat" in inp and seat_of(inp) not in question["seats"]:
        raise GameError(say("seat {seat} may not answer question {question}; it is for seat(s) {seats}",
                            seat=inp["seat"], question=qid, seats=str(question["seats"])))
    value = inp.get("value")
    fact = mode_answer(mode, state, question, value)
    if question["kind"] == "contacts":
        # CW-8: each contact question is about one coin; the answers add up to the contacts fact
        state["pending_shot"].setdefault("contact_answers", {})[question["subject"]] = fact
    else:
        state["pending_shot"][question["kind"]] = fact
    state["questions"] = []
    advance_questions(mode, state)


def mode_answer(mode: Mode, state: State, question: dict[str, Any], value: Any) -> Any:
    """Turn an answer's value into the fact it stands for; the value must be one of the options.

    The value is a list of coin ids (``[]`` for none). Also accepted, as people and scripts write
    them: one coin id as a string, and for a contact question the pairs of the ``contacts`` field
    (each pair must name the coin the question is about).
    """
    if isinstance(value, str):
        value = [value]
    if question["kind"] == "contacts" and isinstance(value, list) and value and all(
            isinstance(v, list) and len(v) == 2 and all(isinstance(c, str) for c in v) for v in value):
        subject = question.get("subject") or state["pending_shot"]["coin"]
        if any(subject not in pair for pair in value):
            raise GameError(say("the answer to {question} is about {coin}: every pair must name it",
                                question=question["id"], coin=subject))
        value = [b if a == subject else a for a, b in value]
    if not isinstance(value, list) or any(not isinstance(v, str) for v in value):
        raise GameError(say("the answer to {question} must be a list of coin ids, got {got}",
                            question=question["id"], got=repr(value)))
    for coin in value:
        if coin not in question["options"]:
            raise GameError(say("{coin} is not an option of {question} (options: {options})",
                                coin=repr(coin), question=question["id"], options=str(question["options"])))
    if len(set(value)) != len(value):
        raise GameError(say("the answer names a coin twice: {coins}", coins=str(value)))
    return list(value)


# --- questions (CW-8) --------------------------------------------------------------------------

QUESTION_TEXT = {
    "dead": N_("Which coins are lying entirely inside the goal?"),
    "flown": N_("Which coins flew (off the table, or tilted on a coin or a rail)?"),
    "contacts": N_("Which coins did {coin} touch?"),
}
BALL_CONTACT_TEXT = N_("Did {coin} touch the ball? (pick it if so)")  # Football's (football.py, CW-7.3)


def question_text(question: dict[str, Any]) -> str:
    """An open question's text as a message, so an error quoting it reads in the phone's language
    (docs/i18n.md): the message the question carries, else the template that wrote it; a text no
    template here wrote stays as it is."""
    text: str = question["text"]
    carried = question.get("says")
    if isinstance(carried, dict) and isinstance(carried.get("id"), str):
        return Said(text, carried)
    kind = question.get("kind")
    if kind in ("dead", "flown") and text == QUESTION_TEXT[kind]:
        return term(text)
    subject = question.get("subject")
    if kind == "contacts" and isinstance(subject, str):
        for template in (QUESTION_TEXT["contacts"], BALL_CONTACT_TEXT):
            if text == template.format(coin=subject):
                return say(template, coin=subject)
    return text


def advance_questions(mode: Mode, state: State) -> None:
    """Ask the next unknown fact that changes the outcome, or resolve the shot if none does."""
    pending = state["pending_shot"]
    for kind in FACT_FIELDS:
        if pending[kind] is not None:
            continue
        if kind == "contacts":
            question = open_contact_question(mode, state)
            if question is not None:
                ask(mode, state, kind, question)
                return
        elif kind == "dead" or fact_matters(mode, state, kind):
            ask(mode, state, kind)
            return
    if mode.before_resolve(state):
        return  # the mode waits for a decision first (CW-7.5 Elixir); it resolves the shot later
    resolve_pending(mode, state)


def _subsets(items: list[str]) -> list[list[str]]:
    return [list(c) for r in range(len(items) + 1) for c in itertools.combinations(items, r)]


def _candidates(mode: Mode, state: State, pending: dict[str, Any], kind: str) -> list[Any]:
    if pending[kind] is not None:
        return [pending[kind]]
    if kind == "flown":
        dead = set(pending["dead"] or [])
        return _subsets([c for c in mode.coins_on_table(state) if c not in dead])
    if open_contacts.is_partial(pending):
        return open_contacts.candidates(mode, state, pending, answered_contacts(pending))
    return mode.contact_candidates(state, pending)


def fact_matters(mode: Mode, state: State, kind: str) -> bool:
    """True when two possible values of ``kind`` lead to different outcomes for some value of
    the other unknown facts (CW-8: never stall on facts that do not change the outcome)."""
    pending = state["pending_shot"]
    others = [k for k in FACT_FIELDS if k not in ("dead", kind)]
    other_values = [_candidates(mode, state, pending, k) for k in others]
    mine = _candidates(mode, state, pending, kind)
    for combo in itertools.product(*other_values):
        seen: dict[str, Any] | None = None
        for value in mine:
            facts = dict(zip(others, combo, strict=True))
            facts[kind] = value
            outcome = _outcome(mode, state, {**pending, **facts})
            if seen is None:
                seen = outcome
            elif outcome != seen:
                return True
    return False


def answered_contacts(pending: dict[str, Any]) -> list[list[str]]:
    """The contact pairs known so far: those the shot gave as known (``contacts_open`` shots) and
    those the answers to contact questions established."""
    known = pending.get("contacts_known")
    if not known:  # the usual case (the hot path of every trial resolution): the answers alone
        return [[subject, c] for subject, coins in (pending.get("contact_answers") or {}).items() for c in coins]
    pairs = [list(p) for p in known]
    seen = {tuple(sorted(p)) for p in pairs}
    for subject, coins in (pending.get("contact_answers") or {}).items():
        for c in coins:
            if tuple(sorted((subject, c))) not in seen:
                seen.add(tuple(sorted((subject, c))))
                pairs.append([subject, c])
    return pairs


def open_contact_question(mode: Mode, state: State) -> dict[str, Any] | None:
    """The first contact question (mode.contact_questions) whose answer changes the outcome for
    some value of the other unknown facts (CW-8), or None when no remaining one matters."""
    pending = state["pending_shot"]
    if open_contacts.is_partial(pending):
        return open_contacts.first_open_question(
            mode, state, pending, answered_contacts(pending), _candidates(mode, state, pending, "flown"),
            lambda facts: _outcome(mode, state, facts))
    answers = pending.get("contact_answers") or {}
    open_qs = [q for q in mode.contact_questions(state, pending) if q["subject"] not in answers and q["witness"]]
    if not open_qs:
        return None
    fixed = answered_contacts(pending)
    flowns = _candidates(mode, state, pending, "flown")
    for i, q in enumerate(open_qs):
        rest = open_qs[:i] + open_qs[i + 1:]
        for bits in itertools.product([False, True], repeat=len(rest)):
            base = fixed + [[r["subject"], r["witness"]] for r, b in zip(rest, bits, strict=True) if b]
            for flown in flowns:
                without = _outcome(mode, state, {**pending, "flown": flown, "contacts": base})
                with_it = _outcome(mode, state, {**pending, "flown": flown,
                                                 "contacts": base + [[q["subject"], q["witness"]]]})
                if without != with_it:
                    return q
    return None


def _outcome(mode: Mode, state: State, pending: dict[str, Any]) -> dict[str, Any]:
    """The state a set of facts leads to, minus the narration of what happened. The trial copy
    leaves the narration (``last``) out: it is dropped here and never read while resolving."""
    trial = copy_state({**state, "last": None})
    trial["pending_shot"] = pending
    resolve_pending(mode, trial)
    if trial["phase"] == "over":
        # CW-8: once the strike has decided which side wins, nothing more is asked: two finished
        # games won by the same side are the same outcome, whatever else differs (a conversion, a score)
        return {"phase": "over", "side": mode.winning_side(trial)}
    trial.pop("last", None)
    trial.pop("log", None)
    return trial


def ask(mode: Mode, state: State, kind: str, contact_q: dict[str, Any] | None = None) -> None:
    pending = state["pending_shot"]
    extra: dict[str, Any] = {}
    template = QUESTION_TEXT[kind]
    text: str = say(template, coin=pending["coin"]) if "{coin}" in template else say(template)
    if contact_q is not None:
        options = list(contact_q["options"])
        text = contact_q["text"]
        extra["subject"] = contact_q["subject"]
    elif kind == "flown":
        dead = set(pending["dead"] or [])
        options = [c for c in mode.coins_on_table(state) if c not in dead]
    else:
        options = mode.coins_on_table(state)
    qid = f"q{state['next_question']}"
    state["next_question"] += 1
    state["questions"] = [{
        "id": qid,
        "kind": kind,
        "text": str(text),
        "says": msg_of(text),  # the question as a message: each phone asks it in its own language (docs/i18n.md)
        "seats": [pending["seat"]],
        "options": options,
        "multi": True,
        "rule": "CW-8",
        **extra,
    }]
    state["last"] = [{"kind": "question", "question": qid, "about": kind, "seat": pending["seat"]}]


# --- resolution --------------------------------------------------------------------------------

def resolve_pending(mode: Mode, state: State) -> None:
    """Resolve the pending shot. A fact still unknown here does not change the outcome (CW-8), so
    any of its possible values will do: the empty one is always possible."""
    pending = state.pop("pending_shot")
    state["pending_shot"] = None
    contacts = pending["contacts"] if pending["contacts"] is not None else answered_contacts(pending)
    resolve(mode, state, pending["seat"], pending["coin"], pending["dead"] or [], pending["flown"] or [],
            contacts, pending)


def resolve(mode: Mode, state: State, seat: int, coin: str, dead: list[str], flown: list[str],
            contacts: list[list[str]], shot: dict[str, Any]) -> None:
    """Apply one complete strike: deaths first, then the foul (CW-6.5), victory, then the turn."""
    alive_before = [p["seat"] for p in state["players"] if p["alive"]]
    ctx = ShotContext(seat, coin, alive_before, {s: mode.side(state, s) for s in alive_before},
                      list(dead), [c for c in flown if c not in dead], contacts)
    ctx.effects.append({"kind": "shot", "seat": seat, "coin": coin, "dead": list(dead),
                        "flown": ctx.flown, "strike": state["turn"]["strikes"]})
    state["turn_coin"] = coin
    touched = {b if a == coin else a for a, b in contacts if coin in (a, b)}
    attack = any(mode.is_enemy_coin(state, seat, c) for c in touched)
    mode_before_deaths(mode, state, ctx, shot)
    for c in dead:
        mode.on_dead_coin(state, c, ctx)
    if not mode.judge_foul(state, ctx):
        foul(mode, state, ctx)
    mode_after_foul(mode, state, ctx, shot)
    winner = mode.victory(state, ctx)
    if winner is not None:
        finish_game(state, winner, ctx)
        return
    active = turns.player(state, seat)
    if attack:
        ctx.effects.append({"kind": "attack", "seat": seat, "rule": "CW-5.3"})
    if (
        ctx.end_turn
        or attack
        or coin in dead
        or not active["alive"]
        or state["turn"]["strikes"] >= strike_limit(mode, state)
        or mode_turn_over(mode, state, ctx, shot)
    ):
        finish_turn(mode, state, ctx)
    else:
        add_placements(state, ctx, seat)  # CW-7.4 respawns while the turn goes on
        state["last"] = ctx.effects


def add_placements(state: State, ctx: ShotContext, next_seat: int) -> None:
    """CW-9: the placements this strike caused become pending (``"next"`` = the next turn's player)."""
    for placement in ctx.placements:
        by = next_seat if placement["by"] == "next" else placement["by"]
        state["pending_placements"] = [p for p in state["pending_placements"] if p["coin"] != placement["coin"]]
        state["pending_placements"].append({"coin": placement["coin"], "by": by, "where": placement["where"]})
        state["coins"][placement["coin"]]["on_table"] = False
    ctx.placements = []
    settle_placements(state)


def settle_placements(state: State) -> None:
    """CW-8.1: a coin whose owner is out of the game never returns to the table, and a placement
    owed by a player who is out passes to the coin's owner. Called whenever placements become
    pending and whenever a player may have died for good outside a strike (CW-7.5 Burning Camps)."""
    placements = state["pending_placements"]
    if not placements:
        return
    kept = []
    for p in placements:
        info = state["coins"][p["coin"]]
        owner = info.get("owner")
        if owner is not None and not turns.alive(state, owner):
            info["on_table"] = False
            continue  # dropped: the coin never comes back
        if not turns.alive(state, p["by"]):
            if owner is None:  # an ownerless coin (Football's ball): the player whose turn it is
                if state["turn"] is None:
                    continue
                owner = state["turn"]["seat"]
            p = {**p, "by": owner}
        kept.append(p)
    state["pending_placements"] = kept


def mode_before_deaths(mode: Mode, state: State, ctx: ShotContext, shot: dict[str, Any]) -> None:
    mode.before_deaths(state, ctx, shot)


def mode_after_foul(mode: Mode, state: State, ctx: ShotContext, shot: dict[str, Any]) -> None:
    mode.after_foul(state, ctx, shot)


def mode_turn_over(mode: Mode, state: State, ctx: ShotContext, shot: dict[str, Any]) -> bool:
    return mode.turn_over(state, ctx, shot)


def foul(mode: Mode, state: State, ctx: ShotContext) -> None:
    """CW-6: the flying-coin foul, judged on the sides as they were before the strike."""
    flown = ctx.flown
    if not flown:
        return
    ctx.end_turn = True
    fouler = ctx.seat
    if len(flown) == 1:
        coin = flown[0]
        owner = mode.owner(state, coin)
        owner_side = ctx.sides_before.get(owner) if owner is not None else None
        if owner is None or owner_side == ctx.sides_before.get(fouler):
            # CW-6.2: the next turn's player places it back.
            ctx.effects.append({"kind": "foul", "seat": fouler, "flown": flown, "rule": "CW-6.2"})
            ctx.placements.append({"coin": coin, "by": "next", "where": "normal"})
        else:
            # CW-6.3: that opponent places it and gets an extra turn (CW-6.6: not if dead).
            ctx.effects.append({"kind": "foul", "seat": fouler, "flown": flown, "rule": "CW-6.3",
                                "extra_turn": owner})
            if turns.alive(state, owner):
                ctx.placements.append({"coin": coin, "by": owner, "where": "normal"})
                ctx.extra_turn_for = owner
        return
    # CW-6.4: two or more coins flown: the fouler is executed.
    ctx.effects.append({"kind": "foul", "seat": fouler, "flown": flown, "rule": "CW-6.4", "executed": fouler})
    mode.execute(state, fouler, ctx)
    respawning = {p["coin"] for p in ctx.placements}  # an executed player's coin respawns at its initial position
    for coin in flown:
        owner = mode.owner(state, coin)
        if coin in respawning:
            continue
        if owner is not None and turns.alive(state, owner):  # the executed, if removed, does not
            ctx.placements.append({"coin": coin, "by": owner, "where": "normal"})


def finish_game(state: State, winner: Any, ctx: ShotContext) -> None:
    """CW-4.4/4.5: the game is over; CW-6.6: nothing is placed any more."""
    state["winner"] = winner
    state["phase"] = "over"
    state["turn"] = None
    state["pending_placements"] = []
    state["striking"] = False
    ctx.effects.append({"kind": "game_over", "winner": winner})
    state["last"] = ctx.effects


def finish_turn(mode: Mode, state: State, ctx: ShotContext) -> None:
    """End the turn: an extra turn first (CW-6.3), else the next regular turn (CW-3)."""
    if mode.before_turn_end(state, ctx):
        return  # the mode finishes the turn later (CW-7.5: discard down to the hand limit first)
    extra = ctx.extra_turn_for
    next_seat: int | None
    if extra is not None and turns.alive(state, extra):
        turns.start_extra_turn(state, extra)
        next_seat = extra
    else:
        next_seat = turns.next_regular_seat(state)
        if next_seat is None:  # nobody can play: cannot happen before victory, but never crash
            finish_game(state, {"draw": sorted(ctx.alive_before)}, ctx)
            return
        turns.start_regular_turn(state, next_seat)
    state["striking"] = False
    add_placements(state, ctx, next_seat)
    ctx.effects.append({"kind": "turn", "seat": next_seat, "extra": state["turn"]["extra"]})
    state["last"] = ctx.effects
    mode.turn_started(state, ctx)  # CW-7.5: start-of-turn effects (Burning Camps, draw)
