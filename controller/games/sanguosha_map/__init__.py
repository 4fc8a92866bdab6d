"""The Sanguosha battlefield (docs/rules/sanguosha-map.md, SG-1 … SG-9): generals, minions, castles and bosses
on a map, refereed by a pure engine implementing the game contract (:class:`controller.games.base.Game`).
Duels and boss fights are played with the physical deck and entered on the phones (or settled by
a seeded quick model)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.games.base import Bot, GameError, State, TableView, View
from controller.games.kit import WindowClock, lobby_description, winner
from controller.games.sanguosha_map import cards, setup
from controller.games.sanguosha_map.engine import MOVES, apply, apply_in_place
from controller.games.sanguosha_map.setup import PLAYERS, new
from controller.games.sanguosha_map.view import inputs_for, legal, view
from controller.games.words import Speaker, mode_titles, narrate
from gametable_core.said import N_, heard, say


def describe() -> dict[str, Any]:
    return lobby_description(
        setup.describe(), PLAYERS, free_seating=True,
        # the host passes for a seat nobody plays: a window passed, a turn rolled and ended (controller/table.py)
        skip=["pass", "end_turn", "keep", "roll"],
        # bots (gametable sim): two equal sides (SG-8.1), fights settled by the seeded quick
        # model, as no one holds the physical deck (SG-8.13)
        bot_game={"options": {"fights": "quick"}, "teams": "alternate"},
        # the phones name generals and equipment by their Chinese names (docs/i18n.md)
        generals={g: {"name": v["name"], "kingdom": v["kingdom"], "health": v["card_health"]}
                  for g, v in cards.GENERALS.items()},
        equipment={e: {"name": v["name"], "kind": v["kind"], "range": v.get("range")}
                   for e, v in cards.EQUIPMENT.items()})


_TITLES = mode_titles(setup.describe())


def public_input(inp: dict[str, Any]) -> dict[str, Any]:
    """Inputs as everyone may see them: 杀, 闪 and discarded action cards are played face up, but a
    strategy card named in a ``shop`` drop or a ``discard`` stays hidden (only counted)."""
    if not isinstance(inp, dict) or inp.get("move") not in ("shop", "discard"):
        return inp
    raw = inp.get("args")
    args: dict[str, Any] = raw if isinstance(raw, dict) else {}
    if inp["move"] == "shop":
        drop = args.get("drop")
        return inp if drop in (None, "new", "old") else {**inp, "args": {**args, "drop": "a strategy card"}}
    given = args.get("cards")
    cards: list[Any] = given if isinstance(given, list) else []
    shown = [c for c in cards if isinstance(c, str) and c.startswith(("strike-", "dodge-"))]
    return {**inp, "args": {**args, "cards": shown, "count": len(cards)}}


def bots() -> dict[str, Callable[[int], Bot]]:
    """A path-search player (default) and a random one."""
    from controller.games.sanguosha_map.robots import PathBot, RandomBot

    return {"path": PathBot, "random": RandomBot}


# The 闪, duel-offer, boss-join and result-confirm windows close by ``timeout`` after their own
# ``timeout_s`` (SG-9.1); the phones count them down from ``window.deadline``.
_CLOCK = WindowClock("window", lambda state, window: window["timeout_s"])
deadlines = _CLOCK.deadlines
with_timers = _CLOCK.with_timers


# A cell by what it is (the map's letters, SG-2), so a log line says "the road" and not "[3, 5]".
PLACES = {"A": N_("castle A"), "B": N_("castle B"), "I": N_("side A's inner zone"), "i": N_("side B's inner zone"),
          "O": N_("side A's outer zone"), "o": N_("side B's outer zone"), ".": N_("the road"),
          "X": N_("side A's boss point"), "x": N_("side B's boss point")}


def place(rows: list[str], cell: Any) -> str:
    """``[3, 5]`` on the map -> "the road (row 4, column 6)": counted from 1, as people count."""
    r, c = int(cell[0]), int(cell[1])
    letter = rows[r][c] if 0 <= r < len(rows) and 0 <= c < len(rows[r]) else "#"
    return say("{place} (row {row}, column {column})", place=say(PLACES.get(letter, N_("an impassable cell"))),
               row=r + 1, column=c + 1)


def _line(eff: dict[str, Any], speak: Speaker, rows: list[str]) -> str | None:
    kind = eff.get("kind")
    if kind in ("new_game",):
        return None
    if kind in ("move", "place") and isinstance(eff.get("cell"), list) and rows:
        where = place(rows, eff["cell"])
        if kind == "place":
            return say("{who} starts on {place}", who=speak.who(eff.get("seat")), place=where)
        return say("{who} moves to {place}, {n} movement", who=speak.who(eff.get("seat")), place=where,
                   n=eff.get("cost", 0))
    text, msg = eff.get("text"), eff.get("says")
    if isinstance(text, str) and isinstance(msg, dict) and isinstance(msg.get("id"), str):
        return heard(text, msg)  # the engine's own message (board.emit)
    return text if isinstance(text, str) else None


def words(inp: dict[str, Any] | None, effects: list[dict[str, Any]], state: View | None) -> list[str]:
    """Each effect carries its own public sentence (written by the engine from public facts); a
    move and a placing are said here, with the cell in words (the view's map names it)."""
    m = (state or {}).get("map") if isinstance(state, dict) else None
    rows = [r for r in (m or {}).get("rows", []) if isinstance(r, str)] if isinstance(m, dict) else []
    return narrate(inp, effects, state, lambda eff, speak: _line(eff, speak, rows), _TITLES)


def table_view(state: State) -> TableView:
    f = state["fight"]
    turn = state["turn"]
    answer = _CLOCK.answer(state)
    if state["window"] is None and f is not None and f["stage"] == "result":
        answer = [f["requester"] if f["kind"] == "duel" else f["entrant"]]
    return {
        "phase": state["phase"],
        "players": [{"seat": p["seat"], "alive": not p["knocked_out"]} for p in state["players"]],
        "turn": None if turn is None else {"seat": turn["seat"]},
        "answer": answer,
        "until": _CLOCK.until(state),
        "winner": winner(state),
    }


__all__ = ["MOVES", "PLAYERS", "GameError", "apply", "apply_in_place", "bots", "deadlines", "describe", "inputs_for", "legal",
           "new", "place", "public_input", "table_view", "view", "winner", "with_timers", "words"]
