"""A deliberately minimal Coin War referee (Classic free-for-all / teams) for the physics tests ONLY.

The lead's full engine replaces it in integration tests. It follows the CW-9 shapes the virtual table
relies on: `strike`, `shot` (null facts -> questions), `answer`, `placed`, `end_turn`, and a public
state with `phase`, `turn`, `players`, `questions`, `pending_placements`, `winner`.
"""

from __future__ import annotations

import copy
from typing import Any

from gametable.testing.fake_daemon import FakeDaemon


class RefError(ValueError):
    pass


def new(cmd: dict[str, Any]) -> dict[str, Any]:
    players = [
        {"seat": p["seat"], "name": p.get("name", f"P{p['seat']}"), "alive": True, "coin": f"c{p['seat']}"}
        | ({"team": p["team"]} if p.get("team") else {})
        for p in cmd["players"]
    ]
    order = list(cmd.get("order") or [p["seat"] for p in players])
    return {
        "game": "coinwar",
        "mode": cmd.get("mode", "ffa"),
        "phase": "playing",
        "players": players,
        "order": order,
        "turn": {"seat": order[0], "strikes": 0, "extra": False},
        "questions": [],
        "pending_placements": [],
        "winner": None,
        "_open": False,
        "_shot": None,
        "_q": 0,
    }


def _player(st, seat):
    return next(p for p in st["players"] if p["seat"] == seat)


def _by_coin(st, coin):
    return next((p for p in st["players"] if p["coin"] == coin), None)


def _next_turn(st):
    order = st["order"]
    seat = st["turn"]["seat"]
    i = order.index(seat)
    for k in range(1, len(order) + 1):
        s = order[(i + k) % len(order)]
        if _player(st, s)["alive"]:
            st["turn"] = {"seat": s, "strikes": 0, "extra": False}
            return


def _check_over(st):
    alive = [p for p in st["players"] if p["alive"]]
    teams = {p.get("team") for p in alive}
    if len(alive) <= 1 or (st["mode"] == "teams" and len(teams) <= 1):
        st["phase"] = "over"
        st["turn"] = None
        st["pending_placements"] = []
        if alive:
            team = alive[0].get("team")
            st["winner"] = sorted(p["seat"] for p in st["players"] if team is not None and p.get("team") == team) or [
                alive[0]["seat"]
            ]
        else:
            st["winner"] = {"draw": sorted(st["_last_alive"])}
        return True
    return False


def _resolve(st):
    shot = st["_shot"]
    st["_shot"] = None
    seat = st["turn"]["seat"]
    me = _player(st, seat)
    st["_last_alive"] = [p["seat"] for p in st["players"] if p["alive"]]
    for coin in shot["dead"]:  # CW-4.2
        p = _by_coin(st, coin)
        if p:
            p["alive"] = False
    flown = [c for c in shot["flown"] if c not in shot["dead"]]
    if len(flown) >= 2 and me["alive"]:  # CW-6.4
        me["alive"] = False
    for c in flown:
        p = _by_coin(st, c)
        if p and p["alive"]:
            st["pending_placements"].append({"coin": c, "by": p["seat"], "where": "normal"})
    if _check_over(st):
        return
    touched = {c for pair in shot["contacts"] for c in pair if shot["coin"] in pair} - {shot["coin"]}
    attack = any(
        (q := _by_coin(st, c)) is not None and (me.get("team") is None or q.get("team") != me.get("team"))
        for c in touched
    )
    st["turn"]["strikes"] += 1
    if attack or flown or not me["alive"] or st["turn"]["strikes"] >= 2:  # CW-5.3, CW-6
        _next_turn(st)


# a whole toy referee as one dispatch, read top to bottom next to the rules it imitates
def apply(state: dict[str, Any] | None, cmd: dict[str, Any]) -> dict[str, Any]:  # noqa: C901
    t = cmd.get("type")
    if t == "new_game":
        return new(cmd)
    if state is None or state["phase"] != "playing":
        raise RefError("no game is being played")
    st = copy.deepcopy(state)
    if t == "strike":
        if cmd.get("seat") != st["turn"]["seat"]:
            raise RefError(f"it is seat {st['turn']['seat']}'s turn")
        if st["pending_placements"] or st["questions"] or st["_open"]:
            raise RefError("the table is not ready for a strike")
        if st["turn"]["strikes"] >= 2:
            raise RefError("no strikes left in this turn")
        st["_open"] = True
        return st
    if t == "shot":
        if not st["_open"]:
            raise RefError("no strike was started")
        st["_open"] = False
        st["_shot"] = {k: cmd.get(k) for k in ("coin", "dead", "flown", "contacts")}
        alive_coins = sorted(p["coin"] for p in st["players"] if p["alive"])
        for key in ("dead", "flown", "contacts"):
            if st["_shot"][key] is None:
                st["_q"] += 1
                st["questions"].append(
                    {"id": f"q{st['_q']}", "kind": key, "text": f"which coins: {key}?", "seats": [],
                     "options": alive_coins, "multi": True}
                )
        if not st["questions"]:
            _resolve(st)
        return st
    if t == "answer":
        q = next((q for q in st["questions"] if q["id"] == cmd.get("question")), None)
        if q is None:
            raise RefError(f"no open question {cmd.get('question')!r}")
        value = cmd.get("value")
        if not isinstance(value, list):
            raise RefError("answer must be a list of coins")
        if q["kind"] == "contacts":
            value = [[st["_shot"]["coin"], c] for c in value]
        st["_shot"][q["kind"]] = value
        st["questions"].remove(q)
        if not st["questions"]:
            _resolve(st)
        return st
    if t == "placed":
        item = next((p for p in st["pending_placements"] if p["coin"] == cmd.get("coin")), None)
        if item is None:
            raise RefError(f"nothing to place for coin {cmd.get('coin')!r}")
        st["pending_placements"].remove(item)
        return st
    if t == "end_turn":
        if cmd.get("seat") != st["turn"]["seat"] or st["turn"]["strikes"] < 1 or st["_open"]:
            raise RefError("cannot end the turn now")
        _next_turn(st)
        return st
    raise RefError(f"unknown input type {t!r}")


def public(state):
    if state is None:
        return None
    return {k: copy.deepcopy(v) for k, v in state.items() if not k.startswith("_")}


def mini_daemon(config: Any = None, clock: Any = None, **_: Any) -> FakeDaemon:
    """The rig's stand-in daemon (gametable/testing/fake_daemon.py) on this referee; the
    signature of the simulator's ``daemon_factory``."""
    return FakeDaemon(apply=apply, view=public, refusals=(RefError, KeyError, TypeError))
