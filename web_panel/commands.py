"""Checking what a phone or the host asks for, before anything is published on ``cmd``.

The daemon trusts ``cmd`` (docs/architecture.md), so the panel is the gate: the envelope and schema of
each request, the seat it acts for (a phone only ever acts for the seat its token holds), and
whether the move is legal now — from the seats' ``legal`` lists in their private views (every
game publishes them), never from a game's own state keys: an open question is an ``answer`` move
in the legal list of the seats that must answer, a coin to put back a ``placed`` move of the seat
that places it. Only the common fields of every public state are read (``phase``, ``turn``).
The rules themselves stay in the engine; the daemon still rejects anything the engine does not
allow. Pure functions: easy to property-test.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from gametable_core.said import listing, say

REQUEST_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
PHONE_TYPES = ("answer", "end_turn", "move", "placed")
HOST_TYPES = ("abort", "answer", "new_game", "pause", "placed", "resume", "seat_to_bot", "skip_seat", "undo")
NEVER_FROM_A_PHONE = frozenset(HOST_TYPES) | {"timeout", "time_up"}  # the host's and the table's own
INPUT_TYPE = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
MAX_SPEED_MM_S = 4000.0
VENUE_TICKET = re.compile(r"^vt1\.[A-Za-z0-9_.-]{1,190}$")  # gametable/venue/tickets.py's shape


class CommandError(ValueError):
    """A refused request: HTTP status and a one-line reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message  # a gametable_core.said.Said when phones can say it in their language


def _bad(message: str) -> CommandError:
    return CommandError(400, message)


def request_id(body: Any) -> str:
    if not isinstance(body, dict):
        raise _bad(f"the request body must be a JSON object, got {type(body).__name__}")
    rid = body.get("id")
    if not isinstance(rid, str) or not REQUEST_ID.match(rid):
        raise _bad("'id' must be a fresh request id of 8-64 letters, digits, '-' or '_'")
    return rid


def _check_seat_field(body: dict[str, Any], seat: int) -> None:
    if "seat" in body and body["seat"] != seat:
        raise CommandError(403, say("this phone holds seat {seat}; it cannot act for seat {other}", seat=seat, other=repr(body["seat"])))


def _playing(public: dict[str, Any] | None) -> dict[str, Any]:
    if not public:
        raise CommandError(409, say("no game in progress"))
    if public.get("phase") != "playing":
        raise CommandError(409, say("the game is {phase}; start a new game", phase=public.get("phase")))
    return public


def _legal(private: dict[str, Any] | None) -> list[dict[str, Any]]:
    moves = (private or {}).get("legal")
    if isinstance(moves, dict):  # a game may expose legal() as {"seat", "moves"}
        moves = moves.get("moves")
    return [m for m in moves if isinstance(m, dict)] if isinstance(moves, list) else []


SeatMoves = Mapping[int, list[dict[str, Any]]]


def seats_moves(privates: Mapping[int, dict[str, Any] | None]) -> dict[int, list[dict[str, Any]]]:
    """Every seat's legal moves, from the private views the panel holds (seat -> moves)."""
    return {seat: _legal(view) for seat, view in privates.items()}


def _moves_of(kind: str, moves: SeatMoves) -> list[tuple[int, dict[str, Any]]]:
    return [(seat, m) for seat, listed in sorted(moves.items()) for m in listed if m.get("type") == kind]


def _answer_value(body: dict[str, Any], question: dict[str, Any]) -> list[str]:
    value = body.get("value")
    options = question.get("options") or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _bad(f"the answer to {question.get('id')} must be a list of coin ids, got {value!r}")
    if len(set(value)) != len(value):
        raise _bad(f"the answer to {question.get('id')} names a coin twice")
    for v in value:
        if v not in options:
            raise _bad(f"{v!r} is not an option of {question.get('id')} (options: {', '.join(options)})")
    if not question.get("multi", True) and len(value) > 1:
        raise _bad(f"question {question.get('id')} takes one answer")
    return value


def _open_question(body: dict[str, Any], moves: SeatMoves) -> dict[str, Any]:
    """The question ``body`` answers, from the seats' ``answer`` moves: its id, options and seats."""
    qid = body.get("question")
    if not isinstance(qid, str):
        raise _bad("'question' must be the id of the open question, e.g. \"q1\"")
    open_: dict[str, dict[str, Any]] = {}
    for seat, m in _moves_of("answer", moves):
        q = open_.setdefault(str(m.get("question")), {"id": m.get("question"), "options": m.get("options") or [],
                                                       "multi": m.get("multi", True), "seats": []})
        q["seats"].append(seat)
    if qid in open_:
        return open_[qid]
    if open_:
        raise CommandError(409, say("question {q} is not open; the open question is {open}", q=qid, open=next(iter(open_))))
    raise CommandError(409, say("question {q} is not open; there is no open question", q=qid))


def phone_inputs(described: Any) -> tuple[str, ...]:
    """The game's own input types a phone may send (its ``describe()["phone_inputs"]``), never a
    host's or the table's own; anything malformed counts as none."""
    listed = described.get("phone_inputs") if isinstance(described, dict) else None
    if not isinstance(listed, list):
        return ()
    return tuple(t for t in listed if isinstance(t, str) and INPUT_TYPE.match(t)
                 and t not in PHONE_TYPES and t not in NEVER_FROM_A_PHONE)


def _game_input(body: dict[str, Any], seat: int, kind: str, legal: list[dict[str, Any]], cid: str) -> dict[str, Any]:
    """A game's own phone input: exactly one of the seat's legal moves of that type (its fields)."""
    fields = {k: v for k, v in body.items() if k not in ("id", "type", "seat")}
    listed = [{k: v for k, v in m.items() if k != "type"} for m in legal if m.get("type") == kind]
    if fields in listed:
        return {"type": kind, "id": cid, "seat": seat, **fields}
    if not listed:
        raise CommandError(409, say("you cannot {kind} now", kind=kind))
    shown = "; ".join(", ".join(f"{k} {v}" for k, v in m.items()) or kind for m in listed)
    raise CommandError(409, say("that {kind} is not one of your moves now (you may: {moves})", kind=kind, moves=shown))


def seat_command(body: Any, seat: int, public: dict[str, Any] | None,
                 private: dict[str, Any] | None, moves: SeatMoves | None = None,
                 game_inputs: tuple[str, ...] = ()) -> dict[str, Any]:
    """The ``cmd`` a phone holding ``seat`` may publish for ``body``, or :class:`CommandError`.

    ``moves``: every seat's legal moves (:func:`seats_moves`), so a refusal can say whose move it
    is; without it only this seat's are known. ``game_inputs``: the game's own input types a
    phone may send (:func:`phone_inputs`); each must be one of the seat's legal moves exactly."""
    rid = request_id(body)
    kind = body.get("type")
    if kind not in PHONE_TYPES and kind not in game_inputs:
        allowed = ", ".join((*PHONE_TYPES, *game_inputs))
        raise _bad(f"unknown command type {kind!r}; a phone may send: {allowed}")
    _check_seat_field(body, seat)
    public = _playing(public)
    legal = _legal(private)
    moves = {**(moves or {}), seat: legal}
    cid = f"panel-{rid}"
    if kind not in PHONE_TYPES:
        return _game_input(body, seat, kind, legal, cid)
    return _PHONE[kind](body, seat, cid, public, legal, moves)


def _answer(body: dict[str, Any], seat: int, cid: str, public: dict[str, Any], legal: list[dict[str, Any]],
            moves: SeatMoves) -> dict[str, Any]:
    q = _open_question(body, moves)
    if seat not in (q.get("seats") or []):
        raise CommandError(403, say("question {q} is for seat(s) {seats}, not seat {seat}", q=q.get("id"),
                                    seats=listing(map(str, q.get("seats") or [])), seat=seat))
    return {"type": "answer", "id": cid, "seat": seat, "question": q["id"], "value": _answer_value(body, q)}


def _end_turn(body: dict[str, Any], seat: int, cid: str, public: dict[str, Any], legal: list[dict[str, Any]],
              moves: SeatMoves) -> dict[str, Any]:
    move = next((m for m in legal if m.get("type") == "end_turn"), None)
    if move is None:
        turn = public.get("turn") or {}
        if turn.get("seat") != seat:
            raise CommandError(409, say("it is seat {turn}'s turn, not seat {seat}'s", turn=turn.get("seat"), seat=seat))
        raise CommandError(409, say("you cannot end the turn now (a question or a placement is pending)"))
    if move.get("confirm") and body.get("confirm") is not True:
        raise _bad("ending the turn without a strike needs confirmation (send \"confirm\": true)")
    return {"type": "end_turn", "id": cid, "seat": seat}


def _placed(body: dict[str, Any], seat: int, cid: str, public: dict[str, Any], legal: list[dict[str, Any]],
            moves: SeatMoves) -> dict[str, Any]:
    coin = body.get("coin")
    if not isinstance(coin, str):
        raise _bad("'coin' must be the id of the coin you placed, e.g. \"c3\"")
    mine = [m.get("coin") for m in legal if m.get("type") == "placed"]
    if coin not in mine:
        placer = [s for s, m in _moves_of("placed", moves) if m.get("coin") == coin]
        if placer:
            raise CommandError(403, say("coin {coin} is placed by seat {placer}, not seat {seat}", coin=coin, placer=placer[0], seat=seat))
        raise CommandError(409, say("coin {coin} is not waiting to be placed", coin=coin))
    return {"type": "placed", "id": cid, "coin": coin}


def _move(body: dict[str, Any], seat: int, cid: str, public: dict[str, Any], legal: list[dict[str, Any]],
          moves: SeatMoves) -> dict[str, Any]:
    """Card games (docs/architecture.md "move"); names come from the seat's legal list."""
    name = body.get("move")
    if not isinstance(name, str) or not 0 < len(name) <= 40:
        raise _bad("'move' must be a move name from your legal moves, e.g. \"income\"")
    args = body.get("args", {})
    if not isinstance(args, dict):
        raise _bad(f"'args' must be an object, got {args!r}")
    names = [str(m["move"]) for m in legal if isinstance(m.get("move"), str)]
    if name not in names:
        if names:
            raise CommandError(409, say("{move} is not one of your moves now (you may: {moves})", move=repr(name), moves=listing(names)))
        raise CommandError(409, say("{move} is not one of your moves now", move=repr(name)))
    return {"type": "move", "id": cid, "seat": seat, "move": name, "args": args}


_PHONE = {"answer": _answer, "end_turn": _end_turn, "placed": _placed, "move": _move}


def _players(players: Any) -> list[dict[str, Any]]:
    """Who plays, as the lobby sets it (seat, name, team, ``bot: true`` for a seat the virtual
    table's bots play): the daemon's one player-list check (``controller/games/players.py``) says
    what is wrong with it; the panel only bounds the shape."""
    if not isinstance(players, list) or not 1 <= len(players) <= 6 or not all(isinstance(p, dict) for p in players):
        raise _bad("'players' must be a list of 1 to 6 {seat, name}")
    return [{k: p[k] for k in ("seat", "name", "team") if k in p} | ({"bot": True} if p.get("bot") is True else {})
            | ({"venue_ticket": venue_ticket(p["venue_ticket"])} if "venue_ticket" in p else {})
            for p in players]


def venue_ticket(ticket: Any) -> str:
    """A venue seat ticket as a phone brought it (hardware_docs/multi_table.md "Players known at
    every table"): only its shape is checked here; the venue alone can tell whether it binds."""
    if not isinstance(ticket, str) or not VENUE_TICKET.match(ticket):
        raise _bad("'venue_ticket' must be the seat ticket from the venue board (vt1.…); fetch a new one there")
    return ticket


def host_command(body: Any, public: dict[str, Any] | None, games: Mapping[str, Any],
                 moves: SeatMoves | None = None) -> dict[str, Any]:
    """The ``cmd`` the host (PIN unlocked) may publish for ``body``; ``moves``: every seat's legal
    moves (:func:`seats_moves`): the host answers and places on behalf of the seats."""
    rid = request_id(body)
    kind = body.get("type")
    if kind not in HOST_TYPES:
        raise _bad(f"unknown command type {kind!r}; the host may send: {', '.join(HOST_TYPES)}")
    cid = f"host-{rid}"
    if kind == "new_game":
        return _new_game(body, cid, games)
    if kind in ("undo", "abort"):
        if public is None and kind == "abort":
            raise CommandError(409, say("no game in progress; nothing to abort"))
        return {"type": kind, "id": cid}
    public = _playing(public)
    if kind in ("pause", "resume"):
        # The daemon's timers are the game's deadlines (a reaction window, a game clock): only the
        # daemon knows whether one runs, and it answers "no reaction window is open to pause" …
        return {"type": kind, "id": cid}
    if kind in ("seat_to_bot", "skip_seat"):  # a seat nobody plays (docs/phones.md): the daemon checks the seat
        return {"type": kind, "id": cid, "seat": body.get("seat")}
    moves = moves or {}
    if kind == "answer":
        q = _open_question(body, moves)
        return {"type": "answer", "id": cid, "question": q["id"], "value": _answer_value(body, q)}
    coin = body.get("coin")  # placed, on behalf of whoever places it
    if not any(m.get("coin") == coin for _, m in _moves_of("placed", moves)):
        raise CommandError(409, f"coin {coin!r} is not waiting to be placed")
    return {"type": "placed", "id": cid, "coin": coin}


def flick(body: Any, seat: int, public: dict[str, Any] | None, private: dict[str, Any] | None) -> dict[str, Any]:
    """A slingshot drag on the virtual table -> ``gametable/T/sim/flick`` (only the active seat)."""
    rid = request_id(body)
    _check_seat_field(body, seat)
    public = _playing(public)
    turn = public.get("turn") or {}
    if turn.get("seat") != seat:
        raise CommandError(409, say("it is seat {turn}'s turn, not seat {seat}'s", turn=turn.get("seat"), seat=seat))
    coin = body.get("coin")
    coins = [c for m in _legal(private) if m.get("type") == "shot" for c in m.get("coins") or []]
    if not coins:
        raise CommandError(409, say("you cannot strike now (a question or a placement is pending, or no strikes left)"))
    if coin not in coins:
        raise CommandError(403, say("coin {coin} is not yours to flick (you may flick: {coins})", coin=repr(coin), coins=listing(coins)))
    v = []
    for key in ("vx", "vy"):
        value = body.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise _bad(f"'{key}' must be a speed in mm/s")
        v.append(float(value))
    speed = math.hypot(*v)
    if speed > MAX_SPEED_MM_S:
        raise _bad(f"a flick of {speed:.0f} mm/s is faster than the {MAX_SPEED_MM_S:.0f} mm/s limit")
    if speed < 1:
        raise _bad(say("a flick needs some speed; drag back further"))
    return {"seat": seat, "coin": coin, "vx": round(v[0], 1), "vy": round(v[1], 1), "id": f"flick-{rid}"}


def _new_game(body: dict[str, Any], cid: str, games: Mapping[str, Any]) -> dict[str, Any]:
    """A ``new_game`` for one of the games the table published (its lobby entries)."""
    game = body.get("game")
    if not games:
        raise CommandError(409, say("the table has not listed its games yet (is the daemon running?)"))
    if game not in games:
        raise _bad(f"unknown game {game!r}; known games: {', '.join(sorted(games))}")
    cmd: dict[str, Any] = {"type": "new_game", "id": cid, "game": game, "players": _players(body.get("players"))}
    if body.get("mode") is not None:
        if not isinstance(body["mode"], str):
            raise _bad("'mode' must be a mode name")
        cmd["mode"] = body["mode"]
    order = body.get("order")
    if order is not None:
        seats = sorted(p["seat"] for p in cmd["players"] if isinstance(p.get("seat"), int))
        if not isinstance(order, list) or sorted(o for o in order if isinstance(o, int)) != seats \
                or len(order) != len(cmd["players"]):
            raise _bad(f"'order' must list every seat once ({', '.join(map(str, seats))})")
        cmd["order"] = order
    options = body.get("options", {})
    if not isinstance(options, dict):
        raise _bad("'options' must be an object")
    cmd["options"] = options
    seed = body.get("seed")
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise _bad("'seed' must be an integer")
        cmd["seed"] = seed
    return cmd
