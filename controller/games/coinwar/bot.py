"""Coin War's decisions off the table for a bot seat (CW-5, CW-6, CW-7.5 cards, CW-8 questions).

Flicks stay with the platform (the virtual table's shot planner, :mod:`controller.games.coinwar.shot_planner`);
this bot answers questions, confirms placements, plays Three Kingdoms cards and ends a turn that
has no strike left, choosing only among the seat's ``legal`` moves.
"""

from __future__ import annotations

import random
from typing import Any

Input = dict[str, Any]
# Three Kingdoms cards a bot keeps longest when it must discard (CW-7.5): the Elixir saves a life.
TK_KEEP = ("burning_camps", "combo", "elixir")


class CoinWarBot:
    """Seeded: the same views and seed give the same decisions. One bot may play several seats
    (the seat is ``legal["seat"]``), sharing one random stream as the runner always has."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"bots|{seed}")

    def observe(self, view: dict[str, Any]) -> None:
        """Nothing to remember between inputs."""

    def choose(self, view: dict[str, Any], legal: dict[str, Any]) -> Input | None:
        """The input of ``legal["seat"]`` now, or None (nothing, or only a physical shot)."""
        seat = legal["seat"]
        by_type: dict[str, list[dict[str, Any]]] = {}
        for m in legal["moves"]:
            by_type.setdefault(m.get("type", ""), []).append(m)
        if "answer" in by_type:  # CW-8: nothing seen is the honest answer of a bot that cannot look
            return {"type": "answer", "seat": seat, "question": by_type["answer"][0]["question"], "value": []}
        cards = {m["move"]: m for m in by_type.get("move", [])}
        if "take_damage" in cards:
            return self._tk_damage(seat, view, by_type["move"])
        if "discard" in cards:
            return self._tk_discard(seat, view, cards["discard"])
        if "placed" in by_type:
            return {"type": "placed", "coin": by_type["placed"][0]["coin"]}
        turn = view.get("turn") or {}
        fresh = not view.get("striking") and turn.get("seat") == seat and not turn.get("strikes")
        if fresh and "burning_camps" in cards:
            pick = self._tk_burn(seat, view, cards["burning_camps"])
            if pick is not None:
                return pick
        if fresh and "combo" in cards and self.rng.random() < 0.5:
            # CW-7.5 Combo: one more strike this turn; played "sometimes", before the first strike
            return {"type": "move", "seat": seat, "move": "combo", "args": {"card": cards["combo"]["cards"][0]}}
        if "end_turn" in by_type and not any(t in by_type for t in ("strike", "shot")):
            return {"type": "end_turn", "seat": seat}  # no strike left (CW-5.1): pass the turn on
        return None

    def _tk_damage(self, seat: int, view: dict[str, Any], moves: list[dict[str, Any]]) -> Input:
        """CW-7.5 Elixir: drink it when the damage would hurt most (low health) or, else, sometimes."""
        elixirs = [m for m in moves if m.get("move") == "elixir"]
        me: dict[str, Any] = next((p for p in view.get("players", []) if p.get("seat") == seat), {})
        health = me.get("health", 1)
        if elixirs and (health <= 2 or self.rng.random() < 0.5):
            m = elixirs[0]
            # keep a hidden identity hidden when allowed (CW-7.5): only the Lord is known to all
            return {"type": "move", "seat": seat, "move": "elixir",
                    "args": {"card": m["card"], "hide": bool(m.get("hide_allowed"))}}
        return {"type": "move", "seat": seat, "move": "take_damage", "args": {}}

    def _tk_discard(self, seat: int, view: dict[str, Any], move: dict[str, Any]) -> Input:
        """CW-7.5 hand limit: discard the least useful cards, low points first."""
        hand = {c["id"]: c for c in view.get("hand", [])}
        ids = list(move["cards"])

        def worth(cid: Any) -> tuple[int, int]:
            c = hand.get(cid, {})
            kind = c.get("kind")
            return (TK_KEEP.index(kind) if kind in TK_KEEP else -1, int(c.get("points", 0)))

        drop = sorted(ids, key=worth)[: move["count"]]
        return {"type": "move", "seat": seat, "move": "discard", "args": {"cards": drop}}

    def _tk_burn(self, seat: int, view: dict[str, Any], move: dict[str, Any]) -> Input | None:
        """CW-7.5 Burning Camps on a likely enemy: rebels burn the Lord, the Lord's side burns others."""
        if self.rng.random() >= 0.6:
            return None
        mine = view.get("identity")
        known = {p["seat"]: p.get("identity") for p in view.get("players", []) if p.get("identity")}
        targets = list(move["targets"])
        if mine == "rebel" and any(known.get(t) == "lord" for t in targets):
            target = next(t for t in targets if known.get(t) == "lord")
        elif mine in ("lord", "loyalist"):
            others = [t for t in targets if known.get(t) != "lord"]
            if not others:
                return None
            target = self.rng.choice(others)
        else:
            target = self.rng.choice(targets)
        return {"type": "move", "seat": seat, "move": "burning_camps",
                "args": {"card": move["cards"][0], "target": target}}
