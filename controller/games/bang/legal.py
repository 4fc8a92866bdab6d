"""What a seat may do now: exactly what :mod:`.engine` accepts (the phones draw from it, bots pick
from it). Plays come from :func:`engine.play_moves`, the referee's own judgement written out per card."""

from __future__ import annotations

from itertools import combinations, islice
from typing import Any

from controller.games.bang.engine import _window_answer_pool, draw_choices, play_moves
from controller.games.base import Input, State


def legal(state: State, seat: int) -> dict[str, Any]:  # noqa: C901 - one case per window
    """``{"seat": S, "moves": [...]}``: ``play`` lists every legal args (with the target's distance),
    ``respond`` the answering cards and how many, ``discard``/``ability`` the cards and count."""
    moves: list[dict[str, Any]] = []
    out = {"seat": seat, "moves": moves}
    if state["phase"] != "playing":
        return out
    for me in state["players"]:
        if me["seat"] == seat:
            break
    else:
        return out  # not playing this game
    if not me["alive"]:
        return out
    window, turn = state["window"], state["turn"]
    sid = (me["character"] == "sid_ketchum" and len(me["hand"]) >= 2 and me["life"] < me["max_life"])
    if window is not None:
        if seat not in window["seats"]:
            return out
        kind = window["kind"]
        if kind == "store":
            moves.append({"move": "pick", "cards": list(window["cards"])})
        elif kind == "draw_choice":
            moves.append({"move": "draw_choice", **draw_choices(state, seat)})
        else:
            pool = _window_answer_pool(state, me, kind)
            if len(pool) >= window["needed"]:
                moves.append({"move": "respond", "cards": pool, "count": window["needed"]})
            moves.append({"move": "pass"})
            if sid:
                moves.append({"move": "ability", "cards": list(me["hand"]), "count": 2})
        return out
    if turn is None or turn["seat"] != seat:
        return out
    if turn["step"] == "play":
        moves += play_moves(state, seat)
        moves.append({"move": "end_turn"})
    elif turn["step"] == "discard":
        need = len(me["hand"]) - me["life"]
        if need > 0:
            moves.append({"move": "discard", "cards": list(me["hand"]), "count": need})
        else:
            moves.append({"move": "end_turn"})
    if sid and turn["step"] in ("play", "discard"):
        moves.append({"move": "ability", "cards": list(me["hand"]), "count": 2})
    return out


def inputs_for(options: dict[str, Any], limit: int = 64) -> list[Input]:
    """Every concrete input a ``legal()`` answer allows (card combinations capped at ``limit``)."""
    seat = options["seat"]
    result: list[Input] = []
    add = result.append
    for m in options["moves"]:
        name = m["move"]
        if name == "play":  # the args are the move's own keys but its name and the target's distance
            args = m.copy()
            del args["move"]
            args.pop("distance", None)
            add({"type": "move", "seat": seat, "move": name, "args": args})
        elif name in ("respond", "discard", "ability"):
            for combo in islice(combinations(m["cards"], m["count"]), limit):
                add({"type": "move", "seat": seat, "move": name, "args": {"cards": list(combo)}})
        elif name == "pick":
            result += [{"type": "move", "seat": seat, "move": name, "args": {"card": c}} for c in m["cards"]]
        elif name == "draw_choice":
            key = "return" if "return" in m else "from"
            result += [{"type": "move", "seat": seat, "move": name, "args": {key: c}} for c in m[key]]
        else:
            add({"type": "move", "seat": seat, "move": name, "args": {}})
    return result
