"""Take Turns: a tiny two-player game that lives only under ``tests/`` (issue 11, "Proof").

It implements :class:`controller.games.base.Game` and ships its own phone view
(``phone/view.js``), so registering it (``controller.games.register``) and giving the panel its
phone folder (``game_views``) is all a new game needs: no file of the daemon or the panel changes.

Rules (TT-):
- TT-1: two players; the first seat of ``order`` starts; everyone starts on 0 points.
- TT-2: on your turn you ``take`` 1 or 2 points; that opens a reaction window for the other player.
- TT-3: in the window the other player may ``block`` (the points are not scored) or ``pass`` (they
  are); when ``timeout_s`` pass without an answer the table sends ``timeout`` and they are scored.
- TT-4: then it is the other player's turn; the first to reach ``goal`` points wins.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from controller.games.base import Bot, Deadline, GameError, State, TableView, Timer, View, require, seat_of
from controller.games.words import Speaker, mode_titles, narrate

NAME = "taketurns"
OPTIONS = {"timeout_s": {"default": 5, "description": "seconds the other player has to block (TT-3)"},
           "goal": {"default": 3, "description": "points that win (TT-4)"}}


def describe() -> dict[str, Any]:
    return {"game": NAME, "name": "Take Turns", "title": "Take Turns", "players": {"min": 2, "max": 2},
            "options": OPTIONS, "free_seating": True,
            "modes": [{"mode": "classic", "title": "Classic", "summary": "Take 1 or 2 points; the other may block.",
                       "players": [2], "teams": False, "options": OPTIONS}]}


def new(options: dict[str, Any] | None, seed: int, *, players: Any, mode: str | None = None,
        order: list[int] | None = None) -> State:
    options = dict(options or {})
    require(isinstance(players, list) and len(players) == 2, "Take Turns is for exactly 2 players (TT-1)")
    seats = [seat_of(p) for p in players]
    require(len(set(seats)) == 2, "the two players need two different seats")
    order = list(order or sorted(seats))
    require(sorted(order) == sorted(seats), f"'order' must list seats {sorted(seats)} once each")
    timeout_s, goal = options.get("timeout_s", 5), options.get("goal", 3)
    require(isinstance(timeout_s, int | float) and 0 < timeout_s <= 60, "'timeout_s' must be 1 to 60 seconds")
    require(isinstance(goal, int) and 1 <= goal <= 20, "'goal' must be 1 to 20 points")
    return {"game": NAME, "mode": mode or "classic", "phase": "playing", "order": order, "turn": order[0],
            "players": [{"seat": seat_of(p), "name": str(p.get("name") or f"Seat {p['seat']}"), "score": 0}
                        for p in players],
            "window": None, "windows": 0, "timeout_s": timeout_s, "goal": goal, "winner": None,
            "last": [{"kind": "new_game", "mode": mode or "classic"}, {"kind": "turn", "seat": order[0]}]}


def apply(state: State, inp: dict[str, Any]) -> State:
    return apply_in_place(copy.deepcopy(state), inp)


def apply_in_place(state: State, inp: dict[str, Any]) -> State:
    require(state["phase"] == "playing", f"the game is {state['phase']}")
    window = state["window"]
    if inp.get("type") == "timeout":  # TT-3: the table's deadline
        require(window is not None and inp.get("window") == window["id"], "no such window is open")
        return _close(state, scored=True, effect={"kind": "timeout", "seat": window["seats"][0]})
    require(inp.get("type") == "move", f"unknown input type {inp.get('type')!r} for {NAME}")
    seat, move = seat_of(inp), inp.get("move")
    names = [m["move"] for m in legal(state, seat)["moves"]]
    require(move in names, f"{move!r} is not a move of seat {seat} now" + (f" (may: {', '.join(names)})" if names else ""))
    if move == "take":
        n = (inp.get("args") or {}).get("n")
        require(n in (1, 2), "take 1 or 2 points (TT-2)")
        state["windows"] += 1
        other = next(p["seat"] for p in state["players"] if p["seat"] != seat)
        state["window"] = {"id": state["windows"], "claimant": seat, "n": n, "seats": [other],
                           "timeout_s": state["timeout_s"]}
        state["last"] = [{"kind": "take", "seat": seat, "n": n}, {"kind": "window", "seats": [other]}]
        return state
    return _close(state, scored=move == "pass", effect={"kind": move, "seat": seat})


def _close(state: State, scored: bool, effect: dict[str, Any]) -> State:
    window = state["window"]
    claimant = window["claimant"]
    effect.update(claimant=claimant, n=window["n"])
    state["window"], state["last"] = None, [effect]
    player = next(p for p in state["players"] if p["seat"] == claimant)
    if scored:
        player["score"] += window["n"]
    if player["score"] >= state["goal"]:
        state.update(phase="over", turn=None, winner=[claimant])
        state["last"].append({"kind": "game_over", "winner": [claimant]})
    else:
        state["turn"] = next(s for s in state["order"] if s != claimant)
        state["last"].append({"kind": "turn", "seat": state["turn"]})
    return state


def legal(state: State, seat: int | None) -> dict[str, Any]:
    moves: list[dict[str, Any]] = []
    if state["phase"] == "playing" and seat is not None:
        window = state["window"]
        if window is not None and seat in window["seats"]:
            moves = [{"move": "block"}, {"move": "pass"}]
        elif window is None and state["turn"] == seat:
            moves = [{"move": "take", "choices": [1, 2]}]
    return {"seat": seat, "moves": moves}


def view(state: State, seat: int | None = None) -> View:
    out = {"game": NAME, "mode": state["mode"], "phase": state["phase"],
           "turn": None if state["turn"] is None else {"seat": state["turn"]},
           "players": [dict(p, alive=True) for p in state["players"]], "questions": [],
           "window": None if state["window"] is None else dict(state["window"], seats=list(state["window"]["seats"])),
           "goal": state["goal"], "winner": state["winner"]}
    if seat is not None:
        out.update(seat=seat, legal=legal(state, seat)["moves"])
    return out


def winner(state: State) -> Any:
    return state["winner"]


def public_input(inp: dict[str, Any]) -> dict[str, Any]:
    return inp


def _deadline_id(window: dict[str, Any]) -> str:
    return f"tt-window-{window['id']}"


def deadlines(state: State) -> list[Deadline]:
    window = state["window"]
    if window is None or state["phase"] != "playing":
        return []
    return [(_deadline_id(window), float(window["timeout_s"]), {"type": "timeout", "window": window["id"]})]


def _line(eff: dict[str, Any], speak: Speaker) -> str | None:
    who, kind = speak.who, eff["kind"]
    if kind == "take":
        return f"{who(eff['seat'])} takes {eff['n']}"
    if kind == "window":
        return f"{', '.join(who(s) for s in eff['seats'])} may block"
    if kind == "block":
        return f"{who(eff['seat'])} blocks: {who(eff['claimant'])} gets nothing"
    if kind == "pass":
        return f"{who(eff['seat'])} lets {who(eff['claimant'])} take {eff['n']}"
    if kind == "timeout":
        return f"Time is up: {who(eff['claimant'])} takes {eff['n']}"
    return None


def words(inp: dict[str, Any] | None, effects: list[dict[str, Any]], state: View | None) -> list[str]:
    return narrate(inp, effects, state, _line, mode_titles(describe()))


def table_view(state: State) -> TableView:
    window = state["window"]
    return {"phase": state["phase"], "players": [{"seat": p["seat"], "alive": True} for p in state["players"]],
            "turn": None if state["turn"] is None else {"seat": state["turn"]},
            "answer": list(window["seats"]) if window else [], "until": _deadline_id(window) if window else None,
            "winner": state["winner"]}


def with_timers(view: View, timers: dict[str, Timer]) -> View:
    window = view.get("window")
    if isinstance(window, dict):
        timer = timers.get(f"tt-window-{window['id']}")
        if timer is None:
            view["window"] = dict(window, deadline=None)
        elif timer["paused"]:
            view["window"] = dict(window, paused=True, deadline=None, remaining_s=timer["remaining_s"])
        else:
            view["window"] = dict(window, deadline=timer["deadline"])
    return view


def bots() -> dict[str, Callable[[int], Bot]]:
    return {}


__all__ = ["GameError"]
