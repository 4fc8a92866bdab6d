"""Bots for every decision on the table that is not a physical shot.

:class:`BotRunner` plays bot seats through the daemon's public API only: for each bot seat it reads
``daemon.seat_view(seat)`` (what that seat may see, with its ``legal`` moves) and submits one input
that ``legal`` offers. It covers Coup (a :class:`HeuristicBot` per seat: actions, reaction windows,
lose_influence, exchange_return), Coin War Three Kingdoms cards (CW-7.5: elixir / take_damage,
discard, combo, burning camps), questions addressed to a bot seat (CW-8), placements (CW-6) and
ending a turn that has no strike left. Flicks stay with the platform (``VirtualTable.play_bots``).

Why a poll instead of acting inside the daemon listener: a listener runs under the daemon's lock in
the middle of an accepted input, so it only notes that something changed; :meth:`poll` (called by
the sim loops, or by the runner's own thread after :meth:`start`) does the submitting. With a
virtual table, poll from the table's own loop (``table.act = runner.poll``), not from the thread: the
table answers its strike's questions from the physics right after the shot, and a runner thread
could answer them first with "nothing seen".
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Iterable
from typing import Any

from controller.bots.coup_bots import HeuristicBot, RandomBot
from controller.command_ids import CommandIds

log = logging.getLogger("gametable.bots")

Input = dict[str, Any]
# Three Kingdoms cards a bot keeps longest when it must discard (CW-7.5): the Elixir saves a life.
TK_KEEP = ("burning_camps", "combo", "elixir")


class BotRunnerError(ValueError):
    """A bot runner set up wrongly (one readable line)."""


class BotRunner:
    """Makes bot ``seats`` of ``daemon`` act on everything except a physical shot.

    ``coup`` picks the Coup bot ("heuristic" or "random"); ``confirm_placements`` is False on a
    platform that puts coins back itself (the virtual table places and confirms them from its
    physics, CW-6.2). Seeded: the same game, seats and seed give the same decisions.
    """

    def __init__(self, daemon: Any, seats: Iterable[int], seed: int = 0, *, coup: str = "heuristic",
                 confirm_placements: bool = True) -> None:
        if coup not in ("heuristic", "random"):
            raise BotRunnerError(f"coup bot must be 'heuristic' or 'random', got {coup!r}")
        self.daemon = daemon
        self.seats: set[int] = set()
        for s in seats:
            if isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= 6:
                raise BotRunnerError(f"bot seats are numbers from 1 to 6, got {s!r}")
            self.seats.add(s)
        self.seed = seed
        self.coup = coup
        self.confirm_placements = confirm_placements
        self.rng = random.Random(f"bots|{seed}")
        self.log: list[dict[str, Any]] = []  # every input submitted and its result, for diagnostics
        self._coup_bots: dict[int, HeuristicBot | RandomBot] = {}
        self._ids = CommandIds("bot")  # never repeats across runs: a restart reuses the journal
        self.changed = threading.Event()
        self.changed.set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        daemon.add_listener(self._on_input)

    # --- listening -------------------------------------------------------------------------------
    def _on_input(self, cmd: dict[str, Any], state: dict[str, Any] | None) -> None:
        """Daemon listener: note the change only (no submits under the daemon's lock)."""
        if cmd.get("type") == "new_game":
            self._coup_bots = {}  # a Coup bot's memory of caught bluffs belongs to one game
        self.changed.set()

    def start(self) -> None:
        """Act in a thread of its own whenever the state changes (e.g. phones play over MQTT)."""
        if self._thread is not None:
            return
        self._stop.clear()

        def loop() -> None:
            while not self._stop.is_set():
                if self.changed.wait(0.5):
                    self.poll()

        self._thread = threading.Thread(target=loop, name="gametable-bots", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    # --- acting ----------------------------------------------------------------------------------
    def poll(self, max_inputs: int = 200) -> int:
        """Act until no bot seat has anything (non-shot) to do; returns how many inputs were accepted."""
        done = 0
        with self._lock:
            self.changed.clear()
            for _ in range(max_inputs):
                if not self._step():
                    break
                done += 1
        return done

    def _step(self) -> bool:
        """One accepted input from some bot seat, or False when none has one."""
        state = self.daemon.public_state()
        seat_view = getattr(self.daemon, "seat_view", None)  # a bare test double may have none
        if not state or state.get("phase") != "playing" or seat_view is None:
            return False
        for seat in sorted(self.seats):
            view = seat_view(seat)
            if not view or not view.get("legal"):
                continue
            inp = self.decide(seat, view)
            if inp is None:
                continue
            result = self.submit(inp)
            if result.get("ok"):
                return True
        return False

    def submit(self, inp: Input) -> dict[str, Any]:
        cmd = {**inp, "id": self._ids()}
        result = self.daemon.submit(cmd, source="bot")
        self.log.append({"cmd": cmd, "result": result})
        if not result.get("ok"):
            log.warning("bot: %s rejected: %s", inp.get("move") or inp.get("type"), result.get("error"))
        return result

    # --- decisions -------------------------------------------------------------------------------
    def decide(self, seat: int, view: dict[str, Any]) -> Input | None:
        """The input bot ``seat`` makes now from its own view, or None (nothing, or only a shot)."""
        if view.get("game") == "coup":
            return self._coup(seat, view)
        if view.get("game") == "coinwar":
            return self._coinwar(seat, view)
        return None

    def _coup(self, seat: int, view: dict[str, Any]) -> Input | None:
        bot = self._coup_bots.get(seat)
        if bot is None:
            cls = HeuristicBot if self.coup == "heuristic" else RandomBot
            bot = self._coup_bots[seat] = cls(seed=self.seed * 7 + seat)
        return bot.choose(view, {"seat": seat, "moves": view["legal"]})

    def _coinwar(self, seat: int, view: dict[str, Any]) -> Input | None:
        legal = view["legal"]
        by_type: dict[str, list[dict[str, Any]]] = {}
        for m in legal:
            by_type.setdefault(m.get("type", ""), []).append(m)
        if "answer" in by_type:  # CW-8: nothing seen is the honest answer of a bot that cannot look
            return {"type": "answer", "seat": seat, "question": by_type["answer"][0]["question"], "value": []}
        cards = {m["move"]: m for m in by_type.get("move", [])}
        if "take_damage" in cards:
            return self._tk_damage(seat, view, by_type["move"])
        if "discard" in cards:
            return self._tk_discard(seat, view, cards["discard"])
        if "placed" in by_type:
            if not self.confirm_placements:
                return None
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
        me = next((p for p in view.get("players", []) if p.get("seat") == seat), {})
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


def coin_choices(view: dict[str, Any] | None) -> list[str] | None:
    """The coins a seat may strike now, from its ``legal`` (CW-5.1, CW-7.2 mothers, CW-7.3 team coins)."""
    if not view:
        return None
    for m in view.get("legal") or []:
        if m.get("type") == "shot":
            return list(m.get("coins") or [])
    return None

__all__ = ["BotRunner", "BotRunnerError", "coin_choices"]
