"""Bang! bots, seeing only their own seat's view: a random one (legal moves only; the property
tests' player) and a heuristic one that answers when it can, equips better blue cards and reads
allegiances from the public events (who shot at the Sheriff)."""

from __future__ import annotations

import random
from typing import Any

from controller.games.bang.cards import CARD, WEAPON_RANGE, role_pool
from controller.games.bang.legal import inputs_for
from controller.games.base import Input, View

VALUE = {"missed": 7, "beer": 8, "bang": 6, "barrel": 6, "volcanic": 3, "scope": 4, "mustang": 5,
         "panic": 6, "cat_balou": 5, "duel": 4, "gatling": 6, "indians": 5, "wells_fargo": 7, "stagecoach": 6,
         "general_store": 3, "saloon": 5, "jail": 5, "dynamite": 1, **{w: 2 + r for w, r in WEAPON_RANGE.items()}}
HOSTILE_TITLES = ("BANG!", "Missed! ", "Duel", "Jail", "Panic!", "Cat Balou")  # Missed! … as BANG!


def _name(card: str) -> str:
    return str(CARD[card]["name"])


def _move(seat: int, move: str, **args: Any) -> Input:
    return {"type": "move", "seat": seat, "move": move, "args": args}


class RandomBot:
    """Any legal input, uniformly; ends its turn a little more often so games move on."""

    def __init__(self, seed: int = 0) -> None:
        self.rnd = random.Random(seed)

    def observe(self, view: View) -> None:
        pass

    def choose(self, view: View, legal: dict[str, Any]) -> Input | None:
        inputs = inputs_for(legal)
        if not inputs:
            return None
        ends = [i for i in inputs if i["move"] == "end_turn"]
        if ends and self.rnd.random() < 0.25:
            return ends[0]
        return self.rnd.choice(inputs)


class HeuristicBot:
    """Plays to its role. ``suspect[s]`` grows when ``s`` attacks the Sheriff (an Outlaw's mark)
    and shrinks when ``s`` attacks someone already suspected (a lawman's mark)."""

    def __init__(self, seed: int = 0) -> None:
        self.rnd = random.Random(seed)
        self.suspect: dict[int, float] = {}
        self._seen: dict[str, None] = {}  # log lines already read (ordered, bounded)

    # -- learning from public events ---------------------------------------------------------
    def observe(self, view: View) -> None:
        """Read the table's log (public sentences, :mod:`.words`): "Ann plays BANG! A♠ at Bo"."""
        sheriff = next((p["seat"] for p in view["players"] if p.get("role") == "sheriff"), None)
        names = {p["name"]: p["seat"] for p in view["players"]}
        for line in view.get("log") or []:
            if line in self._seen:
                continue
            self._seen[line] = None
            if len(self._seen) > 200:
                self._seen.pop(next(iter(self._seen)))
            for a, src in names.items():
                if not line.startswith(f"{a} plays "):
                    continue
                rest = line[len(a) + 7:]
                if not any(rest.startswith(t) for t in HOSTILE_TITLES):
                    continue
                tgt = next((s for b, s in names.items() if line.endswith(f" at {b}")), None)
                if tgt == sheriff:
                    self.suspect[src] = self.suspect.get(src, 0) + 2
                elif tgt is not None and self.suspect.get(tgt, 0) > 0:
                    self.suspect[src] = self.suspect.get(src, 0) - 1

    # -- choosing -----------------------------------------------------------------------------
    def _enemies(self, view: View) -> dict[int, float]:
        """Seat -> how much I want it hurt (<= 0: leave alone). Dead players' roles are public, so a
        lawman who knows no other Deputy is alive treats everyone else as an enemy."""
        me, role = view["seat"], view["role"]
        alive = [p for p in view["players"] if p["alive"] and p["seat"] != me]
        sheriff = next((p["seat"] for p in view["players"] if p.get("role") == "sheriff"), None)
        deputies = role_pool(len(view["players"])).count("deputy") - (role == "deputy") - sum(
            1 for p in view["players"] if not p["alive"] and p.get("role") == "deputy")
        out: dict[int, float] = {}
        for p in alive:
            s, sus = p["seat"], self.suspect.get(p["seat"], 0)
            if role == "outlaw":
                out[s] = 10 if s == sheriff else -sus + 0.5
            elif role in ("sheriff", "deputy"):
                if s == sheriff:
                    out[s] = -5
                else:
                    out[s] = max(sus, 0) + 3 if deputies <= 0 else sus + (0.3 if role == "sheriff" else 0)
            else:  # renegade: the Sheriff last
                out[s] = (1 if len(alive) == 1 else -5) if s == sheriff else 1 + max(0, sus)
        return out

    def choose(self, view: View, legal: dict[str, Any]) -> Input | None:
        self.observe(view)
        moves = legal["moves"]
        if not moves:
            return None
        seat = legal["seat"]
        by = {m["move"]: m for m in moves}
        if "respond" in by:
            m = by["respond"]
            return _move(seat, "respond", cards=m["cards"][: m["count"]])
        if "pick" in by:
            return _move(seat, "pick", card=max(by["pick"]["cards"], key=lambda c: VALUE[_name(c)]))
        if "draw_choice" in by:
            return self._draw_choice(view, seat, by["draw_choice"])
        if "ability" in by and view["window"] is not None and view["window"]["kind"] == "dying":
            return _move(seat, "ability", cards=self._worst(view["hand"], 2))
        if "pass" in by:
            return _move(seat, "pass")
        if "discard" in by:
            return _move(seat, "discard", cards=self._worst(view["hand"], by["discard"]["count"]))
        play = self._best_play(view, [m for m in moves if m["move"] == "play"])
        if play is not None:
            return play
        return _move(seat, "end_turn") if "end_turn" in by else None

    def _worst(self, hand: list[str], n: int) -> list[str]:
        return sorted(hand, key=lambda c: VALUE[_name(c)])[:n]

    def _draw_choice(self, view: View, seat: int, m: dict[str, Any]) -> Input:
        if "return" in m:
            return _move(seat, "draw_choice", **{"return": min(m["return"], key=lambda c: VALUE[_name(c)])})
        options = m["from"]
        if "discard" in options:
            top = view.get("discard_top")
            good = top is not None and VALUE[_name(top)] >= 6
            return _move(seat, "draw_choice", **{"from": "discard" if good else "deck"})
        enemies = self._enemies(view)
        seats = [s for s in options if isinstance(s, int) and enemies.get(s, 0) > 0]
        return _move(seat, "draw_choice", **{"from": seats[0] if seats else "deck"})

    # the heuristic's priority list (heal, equip, shoot the enemy in reach, …) read top to bottom
    def _best_play(self, view: View, plays: list[dict[str, Any]]) -> Input | None:  # noqa: C901
        me = next(p for p in view["players"] if p["seat"] == view["seat"])
        enemies = self._enemies(view)
        in_play = [_name(c) for c in me["in_play"]]
        my_range = max([WEAPON_RANGE[n] for n in in_play if n in WEAPON_RANGE] or [1])
        bangs = sum(_name(c) == "bang" for c in view["hand"])
        best, score = None, 0.0
        for m in plays:
            name = m.get("as") or _name(m["card"])
            target = m.get("target")
            foe = enemies.get(target, 0) if target is not None else 0
            s = 0.0
            if name == "beer":
                s = 9 if me["life"] < me["max_life"] else 0
            elif name in ("stagecoach", "wells_fargo"):
                s = 8
            elif name in ("barrel", "mustang", "scope"):
                s = 7
            elif name in WEAPON_RANGE:
                s = 6 if WEAPON_RANGE[name] > my_range or (name == "volcanic" and bangs > 1) else 0
            elif name == "saloon":
                s = 5 if me["life"] < me["max_life"] else 0
            elif name == "general_store":
                s = 3
            elif name in ("bang", "duel", "jail", "panic", "cat_balou"):
                s = 0 if foe <= 0 else foe + {"bang": 4, "panic": 3, "cat_balou": 2, "jail": 2, "duel": 1}[name]
                if name == "duel" and bangs < 2:
                    s = 0
            elif name in ("gatling", "indians"):
                friends = sum(1 for v in enemies.values() if v <= 0)
                s = 4 if sum(1 for v in enemies.values() if v > 0) > friends else 0
            if s > score:
                best, score = m, s
        if best is None:
            return None
        args = {k: v for k, v in best.items() if k not in ("move", "distance")}
        return _move(view["seat"], "play", **args)
