"""What a seat may see (BG-7, BG-8.14). Built field by field from public facts, never by copying
the state and deleting secrets, so a hand, a role, the deck order or the rng cannot leak."""

from __future__ import annotations

from typing import Any

from controller.games.bang.flow import role_shown
from controller.games.bang.legal import legal
from controller.games.bang.setup import describe
from controller.games.bang.words import line
from controller.games.base import State
from controller.games.words import mode_titles, narrate
from gametable_core.said import says

LOG_SHOWN = 12


def _window(window: dict[str, Any] | None, timeout_s: float) -> dict[str, Any] | None:
    if window is None:
        return None
    out = {k: window[k] for k in ("id", "kind", "source", "card", "needed")}
    out["seats"] = list(window["seats"])
    out["deadline_s"] = timeout_s
    if "cards" in window:
        out["cards"] = list(window["cards"])
    return out


def _log(state: State) -> list[str]:
    """The last lines of the table's log, said from the public effects kept in the state."""
    lines = narrate(None, state["log"], state, line, mode_titles(describe()))
    return lines[-LOG_SHOWN:]


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    """The public view for ``seat=None``; a seat's view adds its ``hand``, ``role`` and ``legal``
    (and, for Kit Carlson choosing, the three cards he looks at)."""
    players = []
    for p in state["players"]:
        q = {"seat": p["seat"], "name": p["name"], "alive": p["alive"], "life": p["life"],
             "max_life": p["max_life"], "character": p["character"], "hand_count": len(p["hand"]),
             "in_play": list(p["in_play"])}
        if role_shown(state, p):
            q["role"] = p["role"]
        players.append(q)
    turn = state["turn"]
    log = _log(state)
    out: dict[str, Any] = {
        "game": "bang",
        "mode": state["mode"],
        "phase": state["phase"],
        "ring": list(state["ring"]),
        "players": players,
        "deck_count": len(state["deck"]),
        "discard_top": state["discard"][-1] if state["discard"] else None,
        "turn": None if turn is None else {"seat": turn["seat"], "step": turn["step"], "bangs": turn["bangs"]},
        "window": _window(state["window"], state["options"]["timeout_s"]),
        "winner": None if state["winner"] is None else list(state["winner"]),
        "log": log,
        "log_says": says(log),  # the same lines as messages, for each phone's language (docs/i18n.md)
        "last": [dict(e) for e in state["last"]],
    }
    if seat is not None:
        me = next((p for p in state["players"] if p["seat"] == seat), None)
        if me is not None:
            out["seat"] = seat
            out["hand"] = list(me["hand"])
            out["role"] = me["role"]
            out["legal"] = legal(state, seat)["moves"]
            w = state["window"]
            if (w is not None and w["kind"] == "draw_choice" and seat in w["seats"]
                    and me["character"] == "kit_carlson"):
                out["looking"] = list(state["deck"][:3])
    return out
