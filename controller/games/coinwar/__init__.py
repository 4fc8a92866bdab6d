"""Coin War (币战): the game contract (:class:`controller.games.base.Game`) over the shared
referee and its modes.

``new`` / ``apply`` / ``legal`` / ``view`` / ``winner`` are pure: plain JSON state in, new state
out, :class:`GameError` for anything illegal (the argument is never modified).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.games import rng
from controller.games.base import Bot, Deadline, GameError, TableView, Timer, View
from controller.games.coinwar import referee, turns
from controller.games.coinwar import words as coinwar_words
from controller.games.coinwar.classic import FreeForAll, Teams
from controller.games.coinwar.modes import Mode, ShotContext, State
from controller.games.coinwar.state_copy import copy_state
from controller.games.players import check_players, name_of
from controller.games.words import mode_titles
from gametable_core.said import listing, say

NAME = "coinwar"
TITLE = "Coin War (币战)"

MODES: dict[str, Mode] = {m.name: m for m in (FreeForAll(), Teams())}


def register_mode(mode: Mode) -> None:
    MODES[mode.name] = mode


# CW-7 modes live in their own modules and register themselves (imported after register_mode).
from controller.games.coinwar import extra_modes  # noqa: E402, F401


def _seat_roles() -> dict[str, dict[str, Any]]:
    """Modes whose sides come from a role per seat (an option mapping every seat to a role, drawn
    when absent): the lobby offers a role picker for them and sends no teams (CW-7.2, CW-7.5); with
    ``splits``, the player counts whose roles may split more than one way (the lobby's choice)."""
    from controller.games.coinwar.biohazard import ROLES, role_splits
    from controller.games.coinwar.three_kingdoms import IDENTITIES

    return {"biohazard": {"option": "roles", "values": list(ROLES), "teams_from_roles": True, "splits": role_splits()},
            "three_kingdoms": {"option": "identities", "values": list(IDENTITIES), "teams_from_roles": False}}


def mode_of(state: State) -> Mode:
    return MODES[state["mode"]]


# Modes whose sides are the lobby's teams: a game of bots (gametable sim) seats them A, B, A, B
# (CW-2.2, CW-7.1); football draws its sides when none are given, the role modes deal them.
_BOT_TEAMS = ("teams", "infinite")


def describe() -> dict[str, Any]:
    """What the lobby offers: modes, player counts, options with defaults (each mode has its own
    options; the turn order is chosen in the lobby, so seating is free: CW-3)."""
    counts = [n for m in MODES.values() for n in m.player_counts]
    return {
        "game": NAME,
        "name": TITLE,
        "title": TITLE,
        "players": {"min": min(counts), "max": max(counts)},
        "options": {},
        "free_seating": True,
        "phone_inputs": ["withdraw"],  # CW-5.6: the striker's phone withdraws an unseen strike
        "modes": [
            {
                "mode": m.name,
                "title": m.title,
                "summary": m.summary,
                "players": list(m.player_counts),
                "teams": m.teams,
                "options": {k: {"default": o.default, "description": o.description} for k, o in m.options.items() if o.lobby},
                **({"seat_roles": _seat_roles()[m.name]} if m.name in _seat_roles() else {}),
                **({"bot_game": {"teams": "alternate"}} if m.name in _BOT_TEAMS else {}),
            }
            for m in MODES.values()
        ],
    }


def _check_players(mode: Mode, players: Any) -> list[dict[str, Any]]:
    checked = check_players(players)
    if len(checked) not in mode.player_counts:
        counts = ", ".join(map(str, mode.player_counts))
        raise GameError(f"mode {mode.name} is for {counts} players, got {len(checked)}")
    return checked


def new(options: dict[str, Any] | None, seed: int, *, players: Any, mode: str | None = "ffa",
        order: list[int] | None = None) -> State:
    """A new game from a ``new_game`` input (CW-2, CW-9)."""
    mode_name = mode or "ffa"
    if mode_name not in MODES:
        raise GameError(f"unknown Coin War mode {mode_name!r}; modes: {', '.join(MODES)}")
    m = MODES[mode_name]
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise GameError(f"'options' must be an object, got {options!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise GameError(f"'seed' must be an integer, got {seed!r}")
    checked = _check_players(m, players)
    state: State = {
        "game": NAME,
        "mode": mode_name,
        "phase": "playing",
        "options": m.check_options(options),
        "seed": seed,
        "rng": rng.seed_state(seed),
        "players": [
            {"seat": p["seat"], "name": name_of(p), "alive": True,
             "coin": f"c{p['seat']}"}
            for p in sorted(checked, key=lambda p: p["seat"])
        ],
        "coins": {f"c{p['seat']}": {"owner": p["seat"], "on_table": True}
                  for p in sorted(checked, key=lambda p: p["seat"])},
        "last_group": None,
        "last_played": {},
        "turn": None,
        "striking": False,
        "pending_shot": None,
        "questions": [],
        "pending_placements": [],
        "winner": None,
        "next_question": 1,
        "last": [],
    }
    m.setup(state, checked, order)
    first = turns.next_regular_seat(state)
    if first is None:  # cannot happen: a mode's setup leaves at least two players in the order
        raise GameError(f"mode {mode_name} set up no player to take the first turn")
    turns.start_regular_turn(state, first)
    state["last"] = [{"kind": "new_game", "mode": mode_name}, {"kind": "turn", "seat": first, "extra": False}]
    ctx = ShotContext(first, "", [], {}, [], [], [], effects=state["last"])
    m.turn_started(state, ctx)  # CW-7.5: the first turn's start-of-turn effects (draw)
    return state


_HANDLERS = {
    "strike": referee.strike,
    "shot": referee.shot,
    "end_turn": referee.end_turn,
    "placed": referee.placed,
    "answer": referee.answer,
    "withdraw": referee.withdraw,
}


def apply(state: State, inp: dict[str, Any]) -> State:
    """``state' = apply(state, input)``; raises GameError (state unchanged) for an illegal input."""
    return _apply(copy_state(state), inp)


def apply_in_place(state: State, inp: dict[str, Any]) -> State:
    """Like :func:`apply` but may modify ``state``: for replays, where an error ends the replay."""
    return _apply(state, inp)


def _apply(new_state: State, inp: dict[str, Any]) -> State:
    if not isinstance(inp, dict):
        raise GameError(say("an input must be a JSON object, got {got}", got=repr(inp)))
    kind = inp.get("type")
    state = new_state
    m = mode_of(state)
    if kind == "abort":
        referee.check_playing(state)
        new_state.update(phase="aborted", turn=None, questions=[], pending_shot=None, striking=False)
        new_state["last"] = [{"kind": "aborted"}]
        return new_state
    if kind == "move":
        if not m.has_moves():
            raise GameError(say("mode {mode} has no card moves", mode=m.name))
        referee.check_playing(state)
        m.move(new_state, inp)
        return new_state
    handler = (_HANDLERS.get(kind) or m.extra_inputs.get(kind)) if isinstance(kind, str) else None
    if handler is None:
        expected = [*_HANDLERS, *m.extra_inputs, "move", "abort"]
        raise GameError(say("unknown input type {got} for coinwar (expected: {expected})",
                            got=repr(kind), expected=listing(expected)))
    handler(m, new_state, inp)
    return new_state


def winner(state: State) -> Any:
    return state["winner"]


def legal(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may do now, so panels show only buttons that work."""
    moves: list[dict[str, Any]] = []
    if state["phase"] == "playing" and seat is not None:
        moves = _question_moves(state, seat) if state["questions"] else _table_moves(state, seat)
    return {"seat": seat, "moves": moves}


def _question_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """While a question is open (CW-8): answer it, or withdraw the shot it is about (CW-5.6)."""
    moves: list[dict[str, Any]] = []
    q = state["questions"][0]
    if seat in q["seats"]:
        moves.append({"type": "answer", "question": q["id"], "options": q["options"]})
    if referee.withdrawable(state, seat):
        moves.append({"type": "withdraw"})  # CW-5.6: a shot no beam saw, while it is asked about
    return moves


def _table_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """Placements (CW-9), the turn's strikes (CW-5) and the mode's own moves."""
    m = mode_of(state)
    moves = [{"type": "placed", "coin": p["coin"]} for p in state["pending_placements"] if p["by"] == seat]
    turn = state["turn"]
    others_pending = any(p["by"] != seat for p in state["pending_placements"])
    if m.blocked(state):
        turn = None  # the mode waits for a decision of its own (listed by legal_moves)
    if turn and turn["seat"] == seat and not others_pending:
        coins = m.strikable_coins(state, seat) if state["turn_coin"] is None else [state["turn_coin"]]
        if state["striking"]:
            moves.append({"type": "shot", "coins": coins})
            moves.append({"type": "withdraw"})  # CW-5.6: in flight
        elif turn["strikes"] < referee.strike_limit(m, state):
            moves.append({"type": "strike"})
            moves.append({"type": "shot", "coins": coins})
        if not state["striking"] and not state["pending_placements"]:
            moves.append({"type": "end_turn", "confirm": turn["strikes"] == 0})
    moves.extend(m.legal_moves(state, seat))
    return moves


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    """The public state (``seat=None``) or one seat's view; no hidden information leaks."""
    m = mode_of(state)
    players = []
    for p in state["players"]:
        entry = {"seat": p["seat"], "name": p["name"], "alive": p["alive"], "coin": p["coin"]}
        if "team" in p:
            entry["team"] = p["team"]
        entry.update(m.public_player(state, p))  # role / health / a revealed identity (CW-9)
        players.append(entry)
    public: dict[str, Any] = {
        "game": NAME,
        "mode": state["mode"],
        "phase": state["phase"],
        "turn": dict(state["turn"]) if state["turn"] else None,
        "players": players,
        "order": list(state["order"]),
        "questions": [dict(q) for q in state["questions"]],
        "pending_placements": [dict(p) for p in state["pending_placements"]],
        "striking": state["striking"],
        "strikes_allowed": referee.strike_limit(m, state),
        "coins_on_table": m.coins_on_table(state),
        "winner": state["winner"],
        "last": state["last"],
    }
    public.update(m.public_extras(state))
    if seat is not None:
        public["seat"] = seat
        public["legal"] = legal(state, seat)["moves"]
        public.update(m.seat_extras(state, seat))
    return public


def player(state: State, seat: int) -> dict[str, Any]:
    return turns.player(state, seat)


def table_adapter(parts: Any) -> Any:
    """How the table's beams, strikers and camera become Coin War's inputs (``controller/table_adapter.py``;
    the reading itself: ``controller/games/coinwar/table_sensors.py``)."""
    from controller.games.coinwar.table_sensors import CoinWarTable

    return CoinWarTable(parts)


def virtual_parts(state: dict[str, Any]) -> Any:
    """Coin War on the virtual table (``controller/virtual_parts.py``): its coins' starting spots,
    shots and answers from the physics' truth, its bots' aim (``controller/games/coinwar/virtual_table.py``)."""
    from controller.games.coinwar.virtual_table import CoinWarParts

    return CoinWarParts(state)


def public_input(inp: dict[str, Any]) -> dict[str, Any]:
    """Every Coin War input is public (the daemon already hides a ``new_game``'s seed)."""
    return inp


def deadlines(state: State) -> list[Deadline]:
    """CW-7.3: a Football game with ``minutes`` ends on the score when its time is up. The id is
    the one the daemon's game clock has always used, so journals written before still match."""
    minutes = state["options"].get("minutes") if state["mode"] == "football" else None
    if not minutes or state["phase"] != "playing" or state.get("time_up"):
        return []
    return [("time_up", float(minutes) * 60, {"type": "time_up"})]


def words(inp: dict[str, Any] | None, effects: list[dict[str, Any]], state: View | None) -> list[str]:
    """The log lines of one input (:mod:`controller.games.coinwar.words`)."""
    return coinwar_words.words(inp, effects, state, _titles())


_TITLES: dict[str, str] = {}


def _titles() -> dict[str, str]:
    if len(_TITLES) != len(MODES):
        _TITLES.clear()
        _TITLES.update(mode_titles(describe()))
    return _TITLES


def table_view(state: State) -> TableView:
    """Whose turn, who must answer (the first open question: CW-8), the winner."""
    turn = state["turn"]
    questions = state["questions"]
    return {
        "phase": state["phase"],
        "players": [{"seat": p["seat"], "alive": p["alive"]} for p in state["players"]],
        "turn": {"seat": turn["seat"], "extra": bool(turn.get("extra"))} if turn else None,
        "answer": sorted({s for q in questions for s in q.get("seats") or []}),
        "until": None,
        "winner": state["winner"],
    }


def with_timers(view: View, timers: dict[str, Timer]) -> View:
    """Coin War's phones show no countdown (Football's clock is not in its view)."""
    return view


def bots() -> dict[str, Callable[[int], Bot]]:
    """Coin War's bot decides off the table (questions, placements, cards, ending a turn); its
    flicks are the platform's (the virtual table's shot planner)."""
    from controller.games.coinwar.bot import CoinWarBot

    return {"default": CoinWarBot}
