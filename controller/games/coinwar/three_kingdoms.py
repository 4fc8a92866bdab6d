"""Coin War Three Kingdoms (CW-7.5): free-for-all with hidden Sanguosha identities, health and
hand cards (Elixir, Burning Camps, Combo). Every rule here is an [interpretation] of docs/rules/coinwar.md.

Hidden information lives in ``state["tk"]`` (identities, hands, deck order) and leaves the engine
only through :meth:`ThreeKingdoms.seat_extras` for the owner, or once revealed. Seats are string
keys there, because the state is JSON (a replay must be byte-exact).

Pauses (``blocked``): a player about to lose health who holds cards decides first (``elixir`` /
``take_damage``, CW-7.5 "played at once when you lose health"); a player whose turn ends holding
more cards than their health discards first (``discard``). Both are ``move`` inputs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from controller.games import rng
from controller.games.base import GameError, seat_of
from controller.games.coinwar import referee
from controller.games.coinwar.biohazard import seat_map
from controller.games.coinwar.classic import FreeForAll, check_order
from controller.games.coinwar.modes import Option, ShotContext, State
from controller.games.coinwar.turns import player
from gametable_core.said import listing, say, term

IDENTITIES = ("lord", "loyalist", "rebel", "traitor")
REBELS_FOR = {4: 1, 5: 2, 6: 3}  # CW-7.5: 1 lord, 1 loyalist, 1 traitor, the rest rebels
KINDS = {"elixir": "elixirs", "burning_camps": "burning_camps", "combo": "combos"}


def _k(seat: int) -> str:
    return str(seat)


def check_deck(value: Any) -> list[dict[str, Any]]:
    """Option ``deck``: ``[{"kind": "elixir"|"burning_camps"|"combo", "points": 1-5}, ...]``, top first."""
    if not isinstance(value, list):
        raise GameError(f"option 'deck' must be a list of cards, got {value!r}")
    deck = []
    for i, card in enumerate(value):
        if not isinstance(card, dict) or card.get("kind") not in KINDS:
            raise GameError(f"option 'deck' card {i} needs 'kind' one of {', '.join(KINDS)}, got {card!r}")
        points = card.get("points")
        if isinstance(points, bool) or not isinstance(points, int) or not 1 <= points <= 5:
            raise GameError(f"option 'deck' card {i} needs 'points' 1-5 (CW-7.5), got {points!r}")
        deck.append({"kind": card["kind"], "points": points})
    return deck


class ThreeKingdoms(FreeForAll):
    name = "three_kingdoms"
    title = "Three Kingdoms (币战·三国)"
    summary = ("Free-for-all with hidden Sanguosha identities (Lord, Loyalist, Rebel, Traitor), health "
               "and hand cards: Elixir, Burning Camps, Combo.")
    player_counts = (4, 5, 6)
    options = {
        "lord_health": Option(4, "the Lord's health (CW-7.5)", minimum=1, maximum=9),
        "health": Option(3, "everyone else's health (CW-7.5)", minimum=1, maximum=9),
        "elixirs": Option(10, "Elixir cards in the deck (points 1-5 in turn)", minimum=0, maximum=60),
        "burning_camps": Option(5, "Burning Camps cards in the deck", minimum=0, maximum=60),
        "combos": Option(10, "Combo cards in the deck", minimum=0, maximum=60),
        "identities": Option(None, "seat → lord/loyalist/rebel/traitor for every seat; random when absent",
                             kind=dict),
        "deck": Option(None, "a stacked deck [{kind, points}], top first, not shuffled (teaching, tests); "
                             "replaces elixirs/burning_camps/combos", kind=list, lobby=False),
    }

    # --- setup ------------------------------------------------------------------------------
    def setup(self, state: State, players: list[dict[str, Any]], order: list[int] | None) -> None:
        seats = [p["seat"] for p in state["players"]]
        n = len(seats)
        wanted = ["lord", "loyalist", "traitor"] + ["rebel"] * REBELS_FOR[n]
        if state["options"]["identities"] is not None:
            ids = seat_map(state["options"]["identities"], seats, "identities", IDENTITIES)
            got = sorted(ids.values())
            if got != sorted(wanted):
                raise GameError(f"{n} players need identities {sorted(wanted)} (CW-7.5), got {got}")
            state["options"]["identities"] = {_k(s): i for s, i in sorted(ids.items())}
        else:  # random from the seed
            drawn = rng.shuffle(state, wanted)
            ids = dict(zip(seats, drawn, strict=True))
        order = check_order(seats, order, state)
        lord = next(s for s, i in ids.items() if i == "lord")
        at = order.index(lord)
        state["order"] = order[at:] + order[:at]  # CW-7.5: the Lord plays first, the cycle kept
        state["groups"] = [{"key": "*", "members": list(state["order"])}]
        opts = state["options"]
        health = {_k(s): opts["lord_health"] if ids[s] == "lord" else opts["health"] for s in seats}
        if opts["deck"] is not None:  # a stacked deck, top card first (teaching, tests): not shuffled
            deck = check_deck(opts["deck"])
        else:
            deck = []
            for kind, key in KINDS.items():
                for i in range(opts[key]):
                    deck.append({"kind": kind, "points": i % 5 + 1})
            deck = rng.shuffle(state, deck)
        for i, card in enumerate(deck, start=1):
            card["id"] = f"k{i}"
        tk: dict[str, Any] = {
            "identity": {_k(s): i for s, i in ids.items()},
            "revealed": {_k(s): ids[s] == "lord" for s in seats},  # the Lord is public
            "health": health,
            "max_health": dict(health),
            "hands": {_k(s): [] for s in seats},
            "deck": deck,
            "discard": [],
            "burning": {},
            "reaction": None,
            "hold": None,
        }
        state["tk"] = tk
        for _ in range(2):  # CW-7.5: 2 cards each at the start
            for s in state["order"]:
                self._draw(state, s)

    # --- cards ------------------------------------------------------------------------------
    def _top(self, state: State) -> dict[str, Any] | None:
        tk = state["tk"]
        if not tk["deck"] and tk["discard"]:
            tk["deck"] = rng.shuffle(state, tk["discard"])  # the discard pile is reshuffled
            tk["discard"] = []
        return tk["deck"].pop(0) if tk["deck"] else None

    def _draw(self, state: State, seat: int) -> bool:
        card = self._top(state)
        if card is not None:
            state["tk"]["hands"][_k(seat)].append(card)
        return card is not None

    def _take_card(self, state: State, seat: int, card_id: Any, kind: str) -> dict[str, Any]:
        hand = state["tk"]["hands"][_k(seat)]
        for card in hand:
            if card["id"] == card_id:
                if card["kind"] != kind:
                    raise GameError(say("card {card} is a {kind}, not a {wanted}", card=card_id, kind=card["kind"], wanted=kind))
                hand.remove(card)
                return card
        raise GameError(say("seat {seat} holds no card {card}", seat=seat, card=repr(card_id)))

    # --- health -------------------------------------------------------------------------------
    def damage(self, state: State, seat: int, cause: str, decision: dict[str, Any] | None,
               ctx: ShotContext) -> bool:
        """CW-7.5: lose 1 health; an Elixir played at once heals 1 (then a hidden player not
        carrying Burning Camps may stay hidden); otherwise a hidden player reveals. At 0 the
        player dies and is revealed. Returns True when the player died."""
        tk = state["tk"]
        key = _k(seat)
        tk["health"][key] -= 1
        ctx.effects.append({"kind": "damage", "seat": seat, "cause": cause, "health": tk["health"][key],
                            "rule": "CW-7.5"})
        elixir = decision.get("elixir") if decision else None
        if elixir is not None:
            card = self._take_card(state, seat, elixir, "elixir")
            tk["discard"].append(card)
            tk["health"][key] = min(tk["max_health"][key], tk["health"][key] + 1)
            ctx.effects.append({"kind": "elixir", "seat": seat, "card": card, "health": tk["health"][key],
                                "rule": "CW-7.5"})
        burning = key in tk["burning"]
        if tk["health"][key] <= 0:
            self._die(state, seat, ctx, cause)
            return True
        if not tk["revealed"][key]:
            if decision is not None and elixir is not None and not burning and decision.get("hide"):
                ctx.effects.append({"kind": "stays_hidden", "seat": seat, "rule": "CW-7.5"})
            else:
                self._reveal(state, seat, ctx)
        return False

    def _reveal(self, state: State, seat: int, ctx: ShotContext) -> None:
        tk = state["tk"]
        tk["revealed"][_k(seat)] = True
        ctx.effects.append({"kind": "revealed", "seat": seat, "identity": tk["identity"][_k(seat)], "rule": "CW-7.5"})

    def _die(self, state: State, seat: int, ctx: ShotContext, cause: str) -> None:
        tk = state["tk"]
        key = _k(seat)
        p = player(state, seat)
        p["alive"] = False
        state["coins"][p["coin"]]["on_table"] = False
        tk["revealed"][key] = True
        tk["discard"].extend(tk["hands"][key])
        tk["hands"][key] = []
        if key in tk["burning"]:
            tk["discard"].append(tk["burning"].pop(key))
        if seat == ctx.seat:
            ctx.end_turn = True
        ctx.effects.append({"kind": "out", "seat": seat, "cause": cause, "identity": tk["identity"][key],
                            "rule": "CW-7.5"})

    # --- strikes --------------------------------------------------------------------------------
    def damaged_by_shot(self, state: State, pending: dict[str, Any]) -> list[tuple[int, str]]:
        """Who loses health on this strike, in order: owners of dead coins, then an executed fouler."""
        dead = pending["dead"] or []
        hurt = [(self.owner_seat(state, c), "goal") for c in dead]
        flown = [c for c in (pending["flown"] or []) if c not in dead]
        if len(flown) >= 2 and pending["seat"] not in [s for s, _ in hurt]:
            hurt.append((pending["seat"], "execution"))
        return hurt

    def before_resolve(self, state: State) -> bool:
        """Before a shot is applied, each player about to lose health who holds cards decides
        whether to play an Elixir (asking everyone with cards keeps who holds one hidden)."""
        pending = state["pending_shot"]
        decisions = pending.setdefault("tk_decisions", {})
        for seat, cause in self.damaged_by_shot(state, pending):
            if _k(seat) not in decisions and state["tk"]["hands"][_k(seat)]:
                state["tk"]["reaction"] = {"seat": seat, "cause": cause, "context": "shot"}
                state["last"] = [{"kind": "damage_pending", "seat": seat, "cause": cause, "rule": "CW-7.5"}]
                return True
        state["tk"]["reaction"] = None
        return False

    def before_deaths(self, state: State, ctx: ShotContext, shot: dict[str, Any]) -> None:
        ctx.notes["decisions"] = shot.get("tk_decisions") or {}

    def on_dead_coin(self, state: State, coin: str, ctx: ShotContext) -> None:
        """CW-7.5: a coin in the goal costs its owner 1 health; above 0 they respawn (CW-7.4)."""
        owner = self.owner_seat(state, coin)
        state["coins"][coin]["on_table"] = False
        ctx.deaths.append(owner)
        if owner == ctx.seat:
            ctx.end_turn = True  # CW-7.4
        if not self.damage(state, owner, "goal", ctx.notes["decisions"].get(_k(owner)), ctx):
            ctx.placements.append({"coin": coin, "by": owner, "where": "initial"})

    def execute(self, state: State, seat: int, ctx: ShotContext) -> None:
        """CW-6.4 as if knocked into the goal once: 1 health, and while health remains the coin
        respawns at its initial position, placed by its owner (CW-7.4). CW-6.5: never twice."""
        if seat in ctx.deaths:
            return
        ctx.deaths.append(seat)
        if seat == ctx.seat:
            ctx.end_turn = True
        if not self.damage(state, seat, "execution", ctx.notes["decisions"].get(_k(seat)), ctx):
            ctx.placements.append({"coin": f"c{seat}", "by": seat, "where": "initial"})

    def victory(self, state: State, ctx: ShotContext) -> Any:
        """Sanguosha: the Lord dead → the Traitor if alone left, else the Rebels; every Rebel and
        the Traitor dead → the Lord and the Loyalists. Winners: every seat of that side."""
        ids = {int(s): i for s, i in state["tk"]["identity"].items()}
        alive = [p["seat"] for p in state["players"] if p["alive"]]
        lord = next(s for s, i in ids.items() if i == "lord")
        if lord not in alive:
            if len(alive) == 1 and ids[alive[0]] == "traitor":
                return [alive[0]]
            return sorted(s for s, i in ids.items() if i == "rebel")
        if not any(ids[s] in ("rebel", "traitor") for s in alive):
            return sorted(s for s, i in ids.items() if i in ("lord", "loyalist"))
        return None

    # --- turn start and end -------------------------------------------------------------------
    def turn_started(self, state: State, ctx: ShotContext) -> None:
        """CW-7.5 start of a turn: a Burning Camps carrier reveals the top card (1-2: lose 1
        health, 3-5: the fire goes out), then the player draws 1."""
        seat = state["turn"]["seat"]
        tk = state["tk"]
        key = _k(seat)
        if key in tk["burning"]:
            card = self._top(state)
            if card is None or card["points"] >= 3:
                if card is not None:  # CW-7.5: every judged card goes to the discard pile
                    tk["discard"].append(card)
                tk["discard"].append(tk["burning"].pop(key))
                ctx.effects.append({"kind": "fire_out", "seat": seat, "card": card, "rule": "CW-7.5"})
            else:
                ctx.effects.append({"kind": "burning", "seat": seat, "card": card, "rule": "CW-7.5"})
                if card is not None:
                    tk["discard"].append(card)
                if tk["hands"][key]:
                    tk["reaction"] = {"seat": seat, "cause": "burning_camps", "context": "turn_start"}
                    state["last"] = ctx.effects
                    return
                self._burn(state, seat, None, ctx)
                return
        self._start_draw(state, seat, ctx)

    def _burn(self, state: State, seat: int, decision: dict[str, Any] | None, ctx: ShotContext) -> None:
        died = self.damage(state, seat, "burning_camps", decision, ctx)
        if not died:
            self._start_draw(state, seat, ctx)
            return
        won = self.victory(state, ctx)
        if won is not None:
            referee.finish_game(state, won, ctx)
            return
        end = ShotContext(seat, "", [p["seat"] for p in state["players"] if p["alive"]], {}, [], [], [],
                          effects=ctx.effects)
        referee.finish_turn(self, state, end)  # the burnt player's turn passes

    def _start_draw(self, state: State, seat: int, ctx: ShotContext) -> None:
        if self._draw(state, seat):
            ctx.effects.append({"kind": "draw", "seat": seat, "count": 1, "rule": "CW-7.5"})
        state["last"] = ctx.effects

    def before_turn_end(self, state: State, ctx: ShotContext) -> bool:
        """CW-7.5 hand limit = current health: a living player with too many cards discards first."""
        seat = state["turn"]["seat"]
        key = _k(seat)
        tk = state["tk"]
        if not player(state, seat)["alive"]:
            return False
        excess = len(tk["hands"][key]) - tk["health"][key]
        if excess <= 0:
            return False
        tk["hold"] = {"seat": seat, "count": excess, "alive_before": ctx.alive_before,
                      "extra_turn_for": ctx.extra_turn_for, "placements": ctx.placements}
        ctx.effects.append({"kind": "discard_due", "seat": seat, "count": excess, "rule": "CW-7.5"})
        state["striking"] = False
        state["last"] = ctx.effects
        return True

    # --- moves ----------------------------------------------------------------------------------
    def blocked(self, state: State) -> str | None:
        tk = state["tk"]
        if tk["reaction"]:
            return say("waiting for seat {seat} to answer the damage (elixir or take_damage, CW-7.5)",
                       seat=tk["reaction"]["seat"])
        if tk["hold"]:
            return say("waiting for seat {seat} to discard {count} card(s) (CW-7.5)",
                       seat=tk["hold"]["seat"], count=tk["hold"]["count"])
        return None

    def move(self, state: State, inp: dict[str, Any]) -> None:
        seat = seat_of(inp)
        name = inp.get("move")
        handler = self.MOVES.get(name) if isinstance(name, str) else None
        if handler is None:
            raise GameError(say("unknown Three Kingdoms move {move} (moves: {moves})",
                                move=repr(name), moves=listing(self.MOVES)))
        args = inp.get("args", {})
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise GameError(say("'args' must be an object, got {got}", got=repr(args)))
        if not any(p["seat"] == seat for p in state["players"]):
            raise GameError(say("seat {seat} is not playing", seat=seat))
        handler(self, state, seat, args)

    def _reaction_for(self, state: State, seat: int) -> dict[str, Any]:
        reaction = state["tk"]["reaction"]
        if not reaction or reaction["seat"] != seat:
            raise GameError(say("seat {seat} has no damage to answer now", seat=seat))
        return reaction

    def _move_take_damage(self, state: State, seat: int, args: dict[str, Any]) -> None:
        self._react(state, seat, {"elixir": None, "hide": False})

    def _move_elixir(self, state: State, seat: int, args: dict[str, Any]) -> None:
        self._reaction_for(state, seat)
        card_id = args.get("card")
        hide = args.get("hide", False)
        if not isinstance(hide, bool):
            raise GameError(say("'hide' must be true or false, got {got}", got=repr(hide)))
        hand = state["tk"]["hands"][_k(seat)]
        card = next((c for c in hand if c["id"] == card_id), None)
        if card is None or card["kind"] != "elixir":
            raise GameError(say("seat {seat} holds no Elixir {card}", seat=seat, card=repr(card_id)))
        if hide and not self._may_hide(state, seat):
            why = say("already revealed") if state["tk"]["revealed"][_k(seat)] else say("carrying Burning Camps")
            raise GameError(say("seat {seat} cannot stay hidden: {why} (CW-7.5)", seat=seat, why=why))
        self._react(state, seat, {"elixir": card_id, "hide": hide})

    def _may_hide(self, state: State, seat: int) -> bool:
        tk = state["tk"]
        return not tk["revealed"][_k(seat)] and _k(seat) not in tk["burning"]

    def _react(self, state: State, seat: int, decision: dict[str, Any]) -> None:
        reaction = self._reaction_for(state, seat)
        state["tk"]["reaction"] = None
        if reaction["context"] == "shot":
            state["pending_shot"]["tk_decisions"][_k(seat)] = decision
            if not self.before_resolve(state):
                referee.resolve_pending(self, state)
            return
        ctx = ShotContext(seat, "", [], {}, [], [], [])
        self._burn(state, seat, decision, ctx)

    def _own_turn(self, state: State, seat: int, what: str) -> None:
        referee.check_no_question(state)
        referee.check_not_blocked(self, state)
        turn = state["turn"]
        if turn is None or turn["seat"] != seat:
            raise GameError(say("seat {seat} may play {card} only in their own turn (CW-7.5)", seat=seat, card=term(what)))
        if state["striking"]:
            raise GameError(say("seat {seat}'s strike is still being observed", seat=seat))

    def _move_combo(self, state: State, seat: int, args: dict[str, Any]) -> None:
        """CW-7.5 Combo: one extra strike this turn, 3 at most."""
        self._own_turn(state, seat, "Combo")
        if referee.strike_limit(self, state) >= 3:
            raise GameError(say("this turn already has 3 strikes (Combo allows 3 at most, CW-7.5)"))
        card = self._take_card(state, seat, args.get("card"), "combo")
        state["tk"]["discard"].append(card)
        state["strike_limit"] = referee.strike_limit(self, state) + 1
        state["last"] = [{"kind": "combo", "seat": seat, "card": card,
                          "strikes_allowed": state["strike_limit"], "rule": "CW-7.5"}]

    def _move_burning_camps(self, state: State, seat: int, args: dict[str, Any]) -> None:
        """CW-7.5 Burning Camps: played in your turn on another living player without one."""
        self._own_turn(state, seat, "Burning Camps")
        target = args.get("target")
        targets = self._burn_targets(state, seat)
        if target not in targets:
            raise GameError(say("Burning Camps needs a target among {targets}, got {got}",
                                targets=str(targets), got=repr(target)))
        card = self._take_card(state, seat, args.get("card"), "burning_camps")
        state["tk"]["burning"][_k(target)] = card
        state["last"] = [{"kind": "burning_camps", "seat": seat, "target": target, "card": card, "rule": "CW-7.5"}]

    def _burn_targets(self, state: State, seat: int) -> list[int]:
        return [p["seat"] for p in state["players"]
                if p["alive"] and p["seat"] != seat and _k(p["seat"]) not in state["tk"]["burning"]]

    def _move_discard(self, state: State, seat: int, args: dict[str, Any]) -> None:
        """CW-7.5: discard down to the hand limit, then the turn really ends."""
        tk = state["tk"]
        hold = tk["hold"]
        if not hold or hold["seat"] != seat:
            raise GameError(say("seat {seat} has nothing to discard now", seat=seat))
        cards = args.get("cards")
        if not isinstance(cards, list) or len(cards) != hold["count"] or len(set(map(str, cards))) != len(cards):
            raise GameError(say("discard exactly {count} different card(s) as 'cards': [ids], got {got}",
                                count=hold["count"], got=repr(cards)))
        hand_ids = [c["id"] for c in tk["hands"][_k(seat)]]
        for cid in cards:
            if cid not in hand_ids:
                raise GameError(say("seat {seat} holds no card {card}", seat=seat, card=repr(cid)))
        dropped = [c for c in tk["hands"][_k(seat)] if c["id"] in cards]
        tk["hands"][_k(seat)] = [c for c in tk["hands"][_k(seat)] if c["id"] not in cards]
        tk["discard"].extend(dropped)
        tk["hold"] = None
        ctx = ShotContext(seat, "", hold["alive_before"], {}, [], [], [], extra_turn_for=hold["extra_turn_for"],
                          placements=hold["placements"])
        ctx.effects.append({"kind": "discard", "seat": seat, "cards": dropped, "rule": "CW-7.5"})
        referee.finish_turn(self, state, ctx)

    # The card moves (CW-7.5) by the name a ``move`` input gives, in the order errors list them.
    MOVES: ClassVar[dict[str, Callable[[ThreeKingdoms, State, int, dict[str, Any]], None]]] = {
        "elixir": _move_elixir,
        "take_damage": _move_take_damage,
        "combo": _move_combo,
        "burning_camps": _move_burning_camps,
        "discard": _move_discard,
    }

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        tk = state["tk"]
        key = _k(seat)
        if key not in tk["hands"]:
            return []
        hand = tk["hands"][key]
        if tk["reaction"]:
            if tk["reaction"]["seat"] != seat:
                return []
            moves: list[dict[str, Any]] = [{"type": "move", "move": "take_damage"}]
            moves += [{"type": "move", "move": "elixir", "card": c["id"], "hide_allowed": self._may_hide(state, seat)}
                      for c in hand if c["kind"] == "elixir"]
            return moves
        if tk["hold"]:
            if tk["hold"]["seat"] != seat:
                return []
            return [{"type": "move", "move": "discard", "count": tk["hold"]["count"], "cards": [c["id"] for c in hand]}]
        turn = state["turn"]
        if not turn or turn["seat"] != seat or state["striking"]:
            return []
        moves = []
        combos = [c["id"] for c in hand if c["kind"] == "combo"]
        if combos and referee.strike_limit(self, state) < 3:
            moves.append({"type": "move", "move": "combo", "cards": combos})
        camps = [c["id"] for c in hand if c["kind"] == "burning_camps"]
        targets = self._burn_targets(state, seat)
        if camps and targets:
            moves.append({"type": "move", "move": "burning_camps", "cards": camps, "targets": targets})
        return moves

    # --- views ----------------------------------------------------------------------------------
    def public_player(self, state: State, p: dict[str, Any]) -> dict[str, Any]:
        tk = state["tk"]
        key = _k(p["seat"])
        entry = {"health": tk["health"][key], "max_health": tk["max_health"][key],
                 "cards": len(tk["hands"][key]), "burning_camps": key in tk["burning"]}
        if tk["revealed"][key] or state["phase"] != "playing":
            entry["identity"] = tk["identity"][key]
        return entry

    def public_extras(self, state: State) -> dict[str, Any]:
        tk = state["tk"]
        hold = tk["hold"]
        return {"deck": len(tk["deck"]), "discard_pile": len(tk["discard"]),
                "reaction": {"seat": tk["reaction"]["seat"], "cause": tk["reaction"]["cause"]} if tk["reaction"] else None,
                "discard_due": {"seat": hold["seat"], "count": hold["count"]} if hold else None}

    def seat_extras(self, state: State, seat: int) -> dict[str, Any]:
        tk = state["tk"]
        key = _k(seat)
        if key not in tk["hands"]:
            return {}
        return {"identity": tk["identity"][key], "hand": [dict(c) for c in tk["hands"][key]]}

    # --- random play ----------------------------------------------------------------------------
    def random_move(self, state: State, rnd: Any, seat: int, move: dict[str, Any]) -> dict[str, Any]:
        name = move["move"]
        args: dict[str, Any] = {}
        if name == "elixir":
            args = {"card": move["card"], "hide": bool(move["hide_allowed"] and rnd.random() < 0.5)}
        elif name == "combo":
            args = {"card": rnd.choice(move["cards"])}
        elif name == "burning_camps":
            args = {"card": rnd.choice(move["cards"]), "target": rnd.choice(move["targets"])}
        elif name == "discard":
            args = {"cards": rnd.sample(move["cards"], move["count"])}
        return {"type": "move", "seat": seat, "move": name, "args": args}
