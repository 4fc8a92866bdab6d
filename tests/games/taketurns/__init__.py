"""Take Turns: a tiny two-player game that lives only under tests/ — the proof that a game plugs
into the table through the contract (:class:`controller.games.base.Game`) and nothing else.

Rules: a pile of tokens (option ``pile``, default 7). On your turn ``take`` 1-3 tokens. Then the
other player has a reaction window of ``timeout_s`` seconds to ``doubt`` (the taker puts one token
back) or ``pass``; when time is up the table sends ``timeout`` (as a pass). Whoever takes the last
token wins.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from controller.games.base import Bot, Deadline, GameError, State, TableView, Timer, View, require, seat_of
from controller.games.words import Speaker, narrate

NAME = "taketurns"


def describe() -> dict[str, Any]:
    options = {"pile": {"default": 7, "description": "tokens on the pile"},
               "timeout_s": {"default": 5, "description": "seconds to doubt a take"}}
    return {"game": NAME, "name": "Take Turns", "title": "Take Turns", "players": {"min": 2, "max": 2},
            "options": options, "free_seating": True, "phone_inputs": ["take", "doubt", "pass"],
            "modes": [{"mode": "classic", "title": "Take Turns", "summary": "take the last token",
                       "players": [2], "teams": False, "options": options}]}


def new(options: dict[str, Any] | None, seed: int, *, players: Any, mode: str | None = None,
        order: list[int] | None = None) -> State:
    require(isinstance(players, list) and len(players) == 2, "take turns is for exactly 2 players")
    seats = sorted(seat_of(p) for p in players)
    opts = {"pile": 7, "timeout_s": 5, **(options or {})}
    return {"game": NAME, "mode": "classic", "phase": "playing", "pile": int(opts["pile"]),
            "timeout_s": float(opts["timeout_s"]), "players": [
                {"seat": p["seat"], "name": str(p.get("name") or f"Seat {p['seat']}")}
                for p in sorted(players, key=lambda p: p["seat"])],
            "order": seats, "turn": seats[0], "window": None, "windows": 0, "winner": None,
            "last": [{"kind": "new_game", "mode": "classic"}, {"kind": "turn", "seat": seats[0]}]}


def _other(state: State, seat: int) -> int:
    return next(s for s in state["order"] if s != seat)


def apply(state: State, inp: dict[str, Any]) -> State:
    return apply_in_place(copy.deepcopy(state), inp)


def apply_in_place(state: State, inp: dict[str, Any]) -> State:
    require(state["phase"] == "playing", "the game is over")
    kind, window = inp.get("type"), state["window"]
    if kind == "take":
        seat = seat_of(inp)
        require(window is None, "wait: the other player may still doubt")
        require(seat == state["turn"], f"it is not seat {seat}'s turn")
        count = inp.get("count")
        require(count in (1, 2, 3) and count <= state["pile"], f"take 1-3 tokens (at most the pile), got {count!r}")
        state["pile"] -= count
        state["last"] = [{"kind": "take", "seat": seat, "count": count}]
        if state["pile"] == 0:
            state.update(phase="over", turn=None, winner=[seat])
            state["last"].append({"kind": "game_over", "winner": [seat]})
            return state
        state["windows"] += 1
        state["window"] = {"id": state["windows"], "seat": _other(state, seat), "taker": seat}
        state["last"].append({"kind": "window", "seat": _other(state, seat)})
        return state
    if kind in ("doubt", "pass", "timeout"):
        require(window is not None, f"{kind}: no window is open")
        if kind == "timeout":
            require(inp.get("window") == window["id"], f"stale timeout for window {inp.get('window')!r}")
        else:
            require(seat_of(inp) == window["seat"], f"seat {inp.get('seat')} may not answer this window")
        state["last"] = [{"kind": kind, "seat": window["seat"]}]
        if kind == "doubt":
            state["pile"] += 1
        state["window"] = None
        state["turn"] = window["seat"]
        state["last"].append({"kind": "turn", "seat": window["seat"]})
        return state
    raise GameError(f"unknown input type {kind!r} for taketurns (expected: take, doubt, pass, timeout)")


def legal(state: State, seat: int) -> dict[str, Any]:
    moves: list[dict[str, Any]] = []
    if state["phase"] == "playing":
        window = state["window"]
        if window is not None and window["seat"] == seat:
            moves = [{"type": "doubt"}, {"type": "pass"}]
        elif window is None and state["turn"] == seat:
            moves = [{"type": "take", "count": n} for n in (1, 2, 3) if n <= state["pile"]]
    return {"seat": seat, "moves": moves}


def view(state: State, seat: int | None = None) -> View:
    out = {k: copy.deepcopy(state[k]) for k in ("game", "mode", "phase", "pile", "window", "winner", "last")}
    out["players"] = [dict(p, alive=True) for p in state["players"]]
    out["turn"] = None if state["turn"] is None else {"seat": state["turn"]}
    out["questions"] = []
    if seat is not None:
        out["seat"], out["legal"] = seat, legal(state, seat)["moves"]
    return out


def winner(state: State) -> Any:
    return state["winner"]


def public_input(inp: dict[str, Any]) -> dict[str, Any]:
    return inp


def deadlines(state: State) -> list[Deadline]:
    window = state["window"]
    if window is None:
        return []
    return [(f"doubt-{window['id']}", state["timeout_s"], {"type": "timeout", "window": window["id"]})]


def _line(eff: dict[str, Any], speak: Speaker) -> str | None:
    who, kind = speak.who, eff["kind"]
    lines = {"take": lambda: f"{who(eff['seat'])} takes {eff['count']}",
             "window": lambda: f"{who(eff['seat'])} may doubt",
             "doubt": lambda: f"{who(eff['seat'])} doubts: one token goes back",
             "pass": lambda: f"{who(eff['seat'])} lets it stand",
             "timeout": lambda: "Time is up: the take stands"}
    return lines[kind]() if kind in lines else None


def words(inp: dict[str, Any] | None, effects: list[dict[str, Any]], state: View | None) -> list[str]:
    return narrate(inp, effects, state, _line, {"classic": "Take Turns"})


def table_view(state: State) -> TableView:
    window = state["window"]
    return {"phase": state["phase"], "players": [{"seat": p["seat"], "alive": True} for p in state["players"]],
            "turn": None if state["turn"] is None else {"seat": state["turn"]},
            "answer": [window["seat"]] if window else [],
            "until": f"doubt-{window['id']}" if window else None, "winner": state["winner"]}


def with_timers(view: View, timers: dict[str, Timer]) -> View:
    window = view.get("window")
    if isinstance(window, dict):
        timer = timers.get(f"doubt-{window['id']}")
        view["window"] = dict(window, deadline=timer["deadline"] if timer else None,
                              paused=bool(timer and timer["paused"]))
    return view


class TakeBot:
    """Takes what leaves a multiple of four; never doubts."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def observe(self, view: View) -> None:
        pass

    def choose(self, view: View, legal: dict[str, Any]) -> dict[str, Any] | None:
        moves, seat = legal["moves"], legal["seat"]
        takes = [m for m in moves if m["type"] == "take"]
        if takes:
            best = next((m for m in takes if (view["pile"] - m["count"]) % 4 == 0), takes[0])
            return {"type": "take", "seat": seat, "count": best["count"]}
        return {"type": "pass", "seat": seat} if moves else None


def table_adapter(parts: Any) -> Any:
    """Take Turns' own sensor: a token dropped through the bowl's beam (``tests/games/taketurns/bowl.py``)."""
    from tests.games.taketurns.bowl import Bowl

    return Bowl(parts, NAME)


def bots() -> dict[str, Callable[[int], Bot]]:
    return {"default": TakeBot}
