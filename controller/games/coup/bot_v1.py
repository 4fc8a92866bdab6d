"""The first Coup heuristic bot, kept unchanged as the baseline that ``make bench`` measures the
current :class:`controller.games.coup.bot.HeuristicBot` against (``bench_coup_bots``).

Do not improve this file: its worth is that it stays what it was (it challenged with a
flat 8 % chance whatever the table, and most of its challenges lost).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from controller.games.coup.cards import COPIES, COST
from controller.games.coup.legal import inputs_for

Input = dict[str, Any]

KEEP_ORDER = ("ambassador", "contessa", "captain", "assassin", "duke")
ACTION_OF = {"duke": "tax", "assassin": "assassinate", "captain": "steal", "ambassador": "exchange"}


def _move(seat: int, name: str, **args: Any) -> Input:
    return {"type": "move", "seat": seat, "move": name, "args": args}


class HeuristicBotV1:
    """The first heuristic bot, frozen as the bench's baseline: a flat doubt whatever the table.

    Memory (kept here, fed from public views): which seats were caught bluffing which card
    (``view["last_challenge"]`` with ``had`` false).
    """

    def __init__(self, seed: int = 0, *, bluff: float = 0.2, doubt: float = 0.08) -> None:
        self.rng = random.Random(seed)
        self.bluff = bluff
        self.doubt = doubt
        self.caught: dict[int, set[str]] = {}
        self._seen_challenge = 0

    # ------------------------------------------------------------ memory

    def observe(self, view: dict[str, Any]) -> None:
        """Remember exposed bluffs; call with any view (public is enough) after each input."""
        last = view.get("last_challenge")
        if last and last["n"] > self._seen_challenge:
            self._seen_challenge = last["n"]
            if not last["had"]:
                self.caught.setdefault(last["claimant"], set()).add(last["claim"])

    # ------------------------------------------------------------ decisions

    def choose(self, view: dict[str, Any], legal: dict[str, Any]) -> Input | None:
        self.observe(view)
        allowed = inputs_for(legal)
        if not allowed:
            return None
        names = {m["move"]: m for m in legal["moves"]}
        seat = legal["seat"]
        pick: dict[str, Any] | None
        if "lose_influence" in names:
            pick = _move(seat, "lose_influence", card=self._worst(names["lose_influence"]["cards"]))
        elif "exchange_return" in names:
            m = names["exchange_return"]
            pool = sorted(m["cards"], key=KEEP_ORDER.index)
            pick = _move(seat, "exchange_return", cards=sorted(pool[: m["count"]]))
        elif "challenge" in names:
            pick = self._challenge_or_pass(view, seat)
        elif "block" in names:
            pick = self._block_or_pass(view, seat, names["block"]["claims"])
        else:
            pick = self._action(view, seat, names)
        return pick if pick in allowed else self.rng.choice(allowed)

    def _worst(self, cards: list[str]) -> str:
        return min(cards, key=KEEP_ORDER.index)

    def _visible(self, view: dict[str, Any]) -> Counter[str]:
        """Cards this seat can see: everyone's face-up cards plus its own hand."""
        seen: Counter[str] = Counter(view.get("hand", []))
        for p in view["players"]:
            seen.update(p["revealed"])
        return seen

    def _doubt(self, view: dict[str, Any], claimant: int, claim: str) -> float:
        """Probability of challenging ``claimant``'s ``claim``."""
        seen = self._visible(view)[claim]
        if seen >= COPIES:
            return 1.0  # every copy is in sight: certainly a bluff
        p = self.doubt
        if seen == COPIES - 1:
            p = max(p, 0.5)
        if claim in self.caught.get(claimant, set()):
            p = max(p, 0.4)
        return p

    def _challenge_or_pass(self, view: dict[str, Any], seat: int) -> Input:
        w = view["window"]
        p = self._doubt(view, w["claimant"], w["claim"])
        a = w["action"]
        me = _me(view, seat)
        # About to be assassinated with one influence and no Contessa: a challenge is the last hope.
        if a["move"] == "assassinate" and a["target"] == seat and w["kind"] == "challenge_action":
            if me["influence"] == 1 and "contessa" not in view.get("hand", []):
                p = max(p, 0.5)
        return _move(seat, "challenge") if self.rng.random() < p else _move(seat, "pass")

    def _block_or_pass(self, view: dict[str, Any], seat: int, claims: list[str]) -> Input:
        hand = view.get("hand", [])
        real = [c for c in claims if c in hand]
        if real:
            return _move(seat, "block", claim=real[0])
        seen = self._visible(view)
        plausible = [c for c in claims if seen[c] < COPIES]
        if not plausible:
            return _move(seat, "pass")
        move = view["window"]["action"]["move"]
        chance = self.bluff
        if move == "assassinate" and _me(view, seat)["influence"] == 1:
            chance = 0.7  # nothing to lose
        if self.rng.random() < chance:
            return _move(seat, "block", claim=self.rng.choice(plausible))
        return _move(seat, "pass")

    def _action(self, view: dict[str, Any], seat: int, names: dict[str, Any]) -> Input | None:
        me = _me(view, seat)
        hand = view.get("hand", [])
        rivals = [p for p in view["players"] if p["alive"] and p["seat"] != seat]
        strongest = max(rivals, key=lambda p: (p["influence"], p["coins"], -p["seat"]))
        if "coup" in names and (me["coins"] >= COST["coup"] or len(names) == 1):
            return _move(seat, "coup", target=strongest["seat"])
        seen = self._visible(view)
        real = [c for c in hand if c in ACTION_OF and ACTION_OF[c] in names]
        bluffable = [c for c in ACTION_OF if ACTION_OF[c] in names and seen[c] < COPIES - 1]
        claim = None
        if real:
            claim = max(real, key=KEEP_ORDER.index)
        elif bluffable and self.rng.random() < self.bluff:
            claim = self.rng.choice(bluffable)
        if claim == "assassin":
            return _move(seat, "assassinate", target=strongest["seat"])
        if claim == "captain":
            richest = max(rivals, key=lambda p: (p["coins"], -p["seat"]))
            if richest["coins"] >= 1:
                return _move(seat, "steal", target=richest["seat"])
        elif claim is not None:
            return _move(seat, ACTION_OF[claim])
        blockers = seen["duke"] < COPIES and self.rng.random() < 0.5
        return _move(seat, "income" if blockers else "foreign_aid")


def _me(view: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(p for p in view["players"] if p["seat"] == seat)


__all__ = ["HeuristicBotV1"]
