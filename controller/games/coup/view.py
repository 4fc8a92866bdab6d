"""What a seat may see (CP-6, CP-7). Built field by field from public facts, never by copying the
state and deleting secrets, so a hidden card (hands, deck order, rng) cannot leak by accident."""

from __future__ import annotations

from typing import Any

from controller.games.base import State
from controller.games.coup.cards import POKER_RANK
from controller.games.coup.legal import legal

LOG_SHOWN = 8


def _window(window: dict[str, Any] | None) -> dict[str, Any] | None:
    if window is None:
        return None
    out = {k: window[k] for k in ("id", "kind", "claim", "claimant", "timeout_s")}
    out["seats"] = list(window["seats"])
    out["action"] = dict(window["action"])
    if "claims" in window:
        out["claims"] = list(window["claims"])
    return out


def _pending(pending: dict[str, Any] | None) -> dict[str, Any] | None:
    if pending is None:
        return None
    out = {"kind": pending["kind"], "seat": pending["seat"]}
    if pending["kind"] == "exchange":
        out["count"] = len(pending["drawn"])
    return out


def _action(a: dict[str, Any] | None) -> dict[str, Any] | None:
    if a is None:
        return None
    keys = ("move", "seat", "target", "claim", "blocker", "block_claim")
    return {k: a[k] for k in keys}


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    """Public view for ``seat=None``; a seat's view adds its ``hand``, its ``legal`` moves (as the
    Coin War views do, so the panel draws buttons from them) and, while it exchanges, ``drawn``."""
    players = [
        {
            "seat": p["seat"],
            "name": p["name"],
            "alive": bool(p["hand"]),
            "coins": p["coins"],
            "influence": len(p["hand"]),
            "revealed": list(p["revealed"]),
        }
        for p in state["players"]
    ]
    log = state["log"]
    out: dict[str, Any] = {
        "game": "coup",
        "mode": state["mode"],
        "phase": state["phase"],
        "turn": None if state["turn"] is None else {"seat": state["turn"]},
        "players": players,
        "order": list(state["order"]),
        "deck_size": len(state["deck"]),
        "treasury": state["treasury"],
        "window": _window(state["window"]),
        "pending": _pending(state["pending"]),
        "action": _action(state["action"]),
        "questions": [],
        "last_challenge": None if state["last_challenge"] is None else dict(state["last_challenge"]),
        "winner": None if state["winner"] is None else list(state["winner"]),
        "log": list(log[-LOG_SHOWN:]),
        "last": [dict(e) for e in state["last"]],
        "ranks": dict(POKER_RANK),
    }
    if seat is not None:
        me = next((p for p in state["players"] if p["seat"] == seat), None)
        if me is not None:
            out["seat"] = seat
            out["hand"] = list(me["hand"])
            out["legal"] = legal(state, seat)["moves"]
            pending = state["pending"]
            if pending is not None and pending["kind"] == "exchange" and pending["seat"] == seat:
                out["drawn"] = list(pending["drawn"])
    return out
