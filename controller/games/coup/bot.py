"""Coup bots for empty seats, demos and tests.

A bot gets only what its seat may see: ``view(state, seat)`` and ``legal(state, seat)``; it never
touches the state. ``choose`` returns an input dict for ``apply`` (or None when the seat has nothing
to do). Bots are not the engine, so a seeded ``random.Random`` inside the bot is fine.
"""

from __future__ import annotations

import random
from typing import Any

from controller.games.coup.bot_memory import TableMemory, revealed, visible
from controller.games.coup.cards import COPIES, COST
from controller.games.coup.legal import inputs_for

Input = dict[str, Any]

# Which cards a bot would rather keep (last = most precious): Duke taxes, Assassin kills.
KEEP_ORDER = ("ambassador", "contessa", "captain", "assassin", "duke")
ACTION_OF = {"duke": "tax", "assassin": "assassinate", "captain": "steal", "ambassador": "exchange"}


def _move(seat: int, name: str, **args: Any) -> Input:
    return {"type": "move", "seat": seat, "move": name, "args": args}


class RandomBot:
    """Uniformly random among the legal inputs: the fuzzer of the engine and the benchmark."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def observe(self, view: dict[str, Any]) -> None:
        """Random play remembers nothing."""

    def choose(self, view: dict[str, Any], legal: dict[str, Any]) -> Input | None:
        options = inputs_for(legal)
        return self.rng.choice(options) if options else None


class HeuristicBot:
    """A careful player: plays its real cards, bluffs when it is unlikely to be called, and
    challenges or blocks only when what it knows makes it pay.

    Every reaction weighs the odds (:class:`.coup_memory.TableMemory`: the cards in sight, each
    seat's record of caught bluffs and of challenging, the claims a seat made since its hand last
    changed) against the stakes in influence: losing one's last card is worth more than losing one
    of two, a rival's lost card is shared among the rivals left, and 7 coins buy a coup.
    """

    COIN = 1 / 7  # 7 coins buy a coup: one influence
    OUT = 3.0  # losing one's last influence, in influences

    def __init__(self, seed: int = 0, *, bluff: float = 0.25, caution: float = 1.0) -> None:
        """``bluff`` scales its willingness to bluff, ``caution`` the margin a challenge needs."""
        self.rng = random.Random(seed)
        self.bluff = bluff
        self.caution = caution
        self.memory = TableMemory()

    @property
    def caught(self) -> dict[int, set[str]]:
        """Which seats were caught bluffing which claims."""
        return self.memory.caught

    # ------------------------------------------------------------ memory

    def observe(self, view: dict[str, Any]) -> None:
        """Remember what the table showed; call with any view (public is enough) after each input."""
        self.memory.observe(view)

    # ------------------------------------------------------------ decisions

    def choose(self, view: dict[str, Any], legal: dict[str, Any]) -> Input | None:
        self.observe(view)
        allowed = inputs_for(legal)
        if not allowed:
            return None
        names = {m["move"]: m for m in legal["moves"]}
        seat = legal["seat"]
        pick: Input | None
        if "lose_influence" in names:
            pick = _move(seat, "lose_influence", card=self._worst(view, names["lose_influence"]["cards"]))
        elif "exchange_return" in names:
            m = names["exchange_return"]
            pick = _move(seat, "exchange_return", cards=sorted(self._give_back(m["cards"], m["count"])))
        elif "challenge" in names:
            pick = self._challenge_or_pass(view, seat)
        elif "block" in names:
            pick = self._block_or_pass(view, seat, names["block"]["claims"])
        else:
            pick = self._action(view, seat, names)
        return pick if pick in allowed else self.rng.choice(allowed)

    # ------------------------------------------------------------ cards

    def _worst(self, view: dict[str, Any], cards: list[str]) -> str:
        return min(cards, key=KEEP_ORDER.index)

    def _give_back(self, pool: list[str], count: int) -> list[str]:
        """Keep the best cards, two different ones when it can (two claims it can prove)."""
        ranked = sorted(pool, key=KEEP_ORDER.index, reverse=True)
        keep: list[str] = []
        for card in ranked:
            if len(keep) < len(pool) - count and card not in keep:
                keep.append(card)
        for card in ranked:
            if len(keep) < len(pool) - count and keep.count(card) < ranked.count(card):
                keep.append(card)
        back = list(pool)
        for card in keep:
            back.remove(card)
        return back

    # ------------------------------------------------------------ stakes

    def _loss(self, lost: int, influence: int) -> float:
        """What losing ``lost`` influences costs a seat holding ``influence`` of them."""
        return self.OUT if lost >= influence else float(lost)

    def _rival(self, view: dict[str, Any], seat: int) -> float:
        """What a rival's lost influence is worth to me: shared among the rivals left."""
        return 1.0 / max(1, sum(1 for p in view["players"] if p["alive"] and p["seat"] != seat))

    # ------------------------------------------------------------ reactions

    def _challenge_or_pass(self, view: dict[str, Any], seat: int) -> Input:
        w = view["window"]
        claimant, claim, a = w["claimant"], w["claim"], w["action"]
        me = _me(view, seat)
        hand = view.get("hand", [])
        bluff = 1 - self.memory.holds(view, claimant, claim, claimed=True)
        rival = self._rival(view, seat)
        mine = me["influence"]
        if w["kind"] == "challenge_action":
            gain, loss = self._stakes_action(view, seat, a, hand, mine, rival)
        else:
            gain, loss = self._stakes_block(view, seat, a, mine, rival)
        if gain <= 0:
            return _move(seat, "pass")
        if bluff >= 1.0:
            return _move(seat, "challenge")  # every copy is in sight: certainly a bluff
        # several others may answer this window: a little more margin, someone else may call it
        others = len(w["seats"]) - 1
        margin = 0.05 * self.caution * (1 + others) + self.rng.uniform(-0.05, 0.05)
        value = bluff * gain - (1 - bluff) * loss
        return _move(seat, "challenge") if value > margin else _move(seat, "pass")

    def _stakes_action(self, view: dict[str, Any], seat: int, a: dict[str, Any], hand: list[str],
                       mine: int, rival: float) -> tuple[float, float]:
        """(gain if the challenged action claim is a bluff, loss if it is true), in influences."""
        move = a["move"]
        gain = rival  # the claimant loses an influence
        loss = self._loss(1, mine)
        if move == "tax":
            gain += 3 * self.COIN * rival
        elif move == "steal":
            if a["target"] == seat:
                if "captain" in hand or "ambassador" in hand:
                    return 0.0, loss  # it blocks for free
                gain += 2 * self.COIN * (1 + rival)
        elif move == "assassinate":
            if a["target"] != seat:
                return 0.0, loss  # a rival losing a card is good for me
            if "contessa" in hand:
                return 0.0, loss  # it blocks with the real Contessa
            gain += self._loss(1, mine)  # the assassination fails
            loss = self._loss(2, mine) - self._loss(1, mine)  # vs passing: lose one more
            if mine == 1:  # passing means bluffing Contessa: the challenge must beat its odds
                survive = 1 - self._called(view, a["seat"], "contessa")
                return self.OUT, self.OUT * survive / max(1e-6, 1 - survive)
        elif move == "exchange":
            gain += 0.1 * rival
        return gain, loss

    def _stakes_block(self, view: dict[str, Any], seat: int, a: dict[str, Any], mine: int,
                      rival: float) -> tuple[float, float]:
        """(gain if the challenged block is a bluff, loss if it is true), in influences."""
        gain = rival  # the blocker loses an influence
        loss = self._loss(1, mine)
        move = a["move"]
        if a["seat"] == seat:  # my action goes ahead
            if move == "foreign_aid":
                gain += 2 * self.COIN
            elif move == "steal":
                gain += 2 * self.COIN * (1 + rival)
            elif move == "assassinate":
                gain += rival
        elif move == "foreign_aid":
            gain -= 2 * self.COIN * rival
        elif move == "assassinate":
            gain += rival
        return gain, loss

    def _called(self, view: dict[str, Any], seat: int, claim: str) -> float:
        """The chance ``seat`` challenges my claim of ``claim``: its record, and the copies it sees."""
        shown = revealed(view)[claim]
        if shown >= COPIES:
            return 1.0
        base = self.memory.challenge_rate(seat)
        return min(0.95, base + 0.2 * shown)

    def _block_or_pass(self, view: dict[str, Any], seat: int, claims: list[str]) -> Input:
        hand = view.get("hand", [])
        real = [c for c in claims if c in hand]
        if real:
            return _move(seat, "block", claim=real[0])
        a = view["window"]["action"]
        me = _me(view, seat)
        mine = me["influence"]
        plausible = [c for c in claims if visible(view)[c] < COPIES]
        if not plausible:
            return _move(seat, "pass")
        claim = min(plausible, key=lambda c: self._called(view, a["seat"], c))
        called = self._called(view, a["seat"], claim)
        if a["move"] == "assassinate":
            # pass: lose one; bluff: lose none, or two if called (CP-5.2)
            worth = self._loss(1, mine) - called * self._loss(2, mine)
        elif a["move"] == "steal":
            worth = min(2, me["coins"]) * self.COIN * 2 - called * self._loss(1, mine)
        else:  # foreign aid for a rival: deny 2 coins, more so when they near a coup
            rich = 3 if _me(view, a["seat"])["coins"] + 2 >= COST["coup"] else 1
            worth = 2 * self.COIN * self._rival(view, seat) * rich - called * self._loss(1, mine)
        if worth * self.bluff > self.rng.uniform(0, 0.1):
            return _move(seat, "block", claim=claim)
        return _move(seat, "pass")

    # ------------------------------------------------------------ actions

    def _threat(self, view: dict[str, Any], p: dict[str, Any]) -> tuple[int, int, int]:
        return (p["influence"], p["coins"], -p["seat"])

    def _action(self, view: dict[str, Any], seat: int, names: dict[str, Any]) -> Input | None:
        me = _me(view, seat)
        hand = view.get("hand", [])
        rivals = [p for p in view["players"] if p["alive"] and p["seat"] != seat]
        strongest = max(rivals, key=lambda p: self._threat(view, p))
        if "coup" in names and (me["coins"] >= COST["coup"] or len(names) == 1):
            return _move(seat, "coup", target=strongest["seat"])
        target = self._assassin_target(view, rivals)
        if "assassinate" in names and target is not None:  # prefer Assassinate over Tax when it can
            if "assassin" in hand or self._dare(view, seat, "assassin", rivals, 1.0):
                return _move(seat, "assassinate", target=target["seat"])
        if "duke" in hand:
            return _move(seat, "tax")
        victim = self._steal_target(view, rivals)
        if "captain" in hand and victim is not None:
            return _move(seat, "steal", target=victim["seat"])
        if "ambassador" in hand and not any(c in hand for c in ("duke", "assassin", "captain")):
            return _move(seat, "exchange")
        if self._dare(view, seat, "duke", rivals, 3 * self.COIN):
            return _move(seat, "tax")
        if victim is not None and self._dare(view, seat, "captain", rivals, 4 * self.COIN):
            return _move(seat, "steal", target=victim["seat"])
        free = 1.0  # foreign aid goes through only if no rival blocks it (their record so far)
        for p in rivals:
            free *= 1 - self.memory.aid_block_rate(p["seat"])
        return _move(seat, "foreign_aid" if 2 * free > 1 + self.rng.uniform(-0.1, 0.1) else "income")

    def _dare(self, view: dict[str, Any], seat: int, claim: str, rivals: list[dict[str, Any]],
              worth: float) -> bool:
        """Bluff ``claim`` when what it brings beats the chance that someone calls it."""
        if visible(view)[claim] >= COPIES - 1:
            return False
        safe = 1.0
        for p in rivals:
            safe *= 1 - self._called(view, p["seat"], claim)
        risk = (1 - safe) * self._loss(1, _me(view, seat)["influence"])
        return worth * self.bluff - risk > self.rng.uniform(0, 0.15)

    def _claimed(self, seat: int, *cards: str) -> bool:
        """Did ``seat`` claim one of ``cards`` since its hand last changed (it would block again)?"""
        return bool(self.memory.claims.get(seat, set()) & set(cards))

    def _assassin_target(self, view: dict[str, Any], rivals: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The strongest rival, among those least likely to hold a Contessa; none when every rival
        just blocked with one (paying 3 coins into the same block again and again goes nowhere)."""
        open_ = [p for p in rivals if not self._claimed(p["seat"], "contessa")]
        if not open_:
            return None
        return max(open_, key=lambda p: (round(1 - self.memory.holds(view, p["seat"], "contessa"), 1),
                                         self._threat(view, p)))

    def _steal_target(self, view: dict[str, Any], rivals: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The rival with coins least likely to block; none that just blocked a steal (CP-4.1)."""
        rich = [p for p in rivals if p["coins"] >= 1 and not self._claimed(p["seat"], "captain", "ambassador")]
        if not rich:
            return None
        return max(rich, key=lambda p: (min(p["coins"], 2), -self.memory.holds(view, p["seat"], "captain"),
                                        p["coins"], -p["seat"]))


def _me(view: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(p for p in view["players"] if p["seat"] == seat)


__all__ = ["HeuristicBot", "RandomBot"]
