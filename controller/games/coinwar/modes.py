"""The mode interface: what differs between Coin War modes, as hooks the shared referee calls.

The shared rules (turns CW-3, strikes CW-5, the foul CW-6, questions CW-8) live in
:mod:`.referee`; a mode says who may strike what, what a death does, and who has won. Classic
free-for-all and teams are in :mod:`.classic`; the CW-7 modes subclass them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random
from typing import Any

from controller.games.base import GameError
from controller.games.coinwar.turns import player
from gametable_core.said import say

State = dict[str, Any]


@dataclass
class ShotContext:
    """What one strike did, gathered while it is resolved (deaths, foul, effects)."""

    seat: int
    coin: str
    alive_before: list[int]
    sides_before: dict[int, str]
    dead: list[str]
    flown: list[str]
    contacts: list[list[str]]
    deaths: list[int] = field(default_factory=list)
    effects: list[dict[str, Any]] = field(default_factory=list)
    end_turn: bool = False
    extra_turn_for: int | None = None
    placements: list[dict[str, Any]] = field(default_factory=list)  # {"coin","by": seat|"next","where"}
    notes: dict[str, Any] = field(default_factory=dict)  # a mode's own bookkeeping for this strike


@dataclass(frozen=True)
class Option:
    default: Any
    description: str
    kind: type = int
    minimum: int | None = None
    maximum: int | None = None
    lobby: bool = True  # offered in the phones' lobby; False: scripted games and tests only (a stacked deck)


class Mode:
    """Hooks a Coin War mode provides. Subclasses override what differs."""

    name = ""
    title = ""
    summary = ""
    player_counts: tuple[int, ...] = ()
    teams = False
    scores = False
    options: dict[str, Option] = {}

    # --- setup ------------------------------------------------------------------------------
    def setup(self, state: State, players: list[dict[str, Any]], order: list[int] | None) -> None:
        raise NotImplementedError

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Fill defaults and validate; unknown options are an error (a typo must not be ignored)."""
        result: dict[str, Any] = {}
        for key in options:
            if key not in self.options and key not in self.extra_option_keys():
                known = ", ".join(sorted(self.options)) or "none"
                raise GameError(f"unknown option {key!r} for mode {self.name} (options: {known})")
        for key, spec in self.options.items():
            value = options.get(key, spec.default)
            if value is not None:
                if spec.kind is int and (isinstance(value, bool) or not isinstance(value, int)):
                    raise GameError(f"option {key!r} must be a whole number, got {value!r}")
                if spec.minimum is not None and value < spec.minimum:
                    raise GameError(f"option {key!r} must be at least {spec.minimum}, got {value!r}")
                if spec.maximum is not None and value > spec.maximum:
                    raise GameError(f"option {key!r} must be at most {spec.maximum}, got {value!r}")
            result[key] = value
        for key in self.extra_option_keys():
            if key in options:
                result[key] = options[key]
        return result

    def extra_option_keys(self) -> set[str]:
        """Options checked by ``setup`` itself (e.g. ``roles``)."""
        return set()

    # --- coins and sides --------------------------------------------------------------------
    def coins_on_table(self, state: State) -> list[str]:
        return [c for c, info in state["coins"].items() if info["on_table"]]

    def owner(self, state: State, coin: str) -> int | None:
        return state["coins"][coin]["owner"]

    def owner_seat(self, state: State, coin: str) -> int:
        """The owner of a coin in a mode where every coin has one (all but Football, whose
        coins are team coins): a coin without an owner there is a setup bug, said plainly."""
        owner = self.owner(state, coin)
        if owner is None:
            raise ValueError(f"{self.name}: coin {coin} has no owner")
        return owner

    def side(self, state: State, seat: int) -> str:
        """The side a seat plays for: its team, or the seat itself in free-for-all."""
        return str(seat)

    def coin_side(self, state: State, coin: str) -> str | None:
        owner = self.owner(state, coin)
        return None if owner is None else self.side(state, owner)

    def strikable_coins(self, state: State, seat: int) -> list[str]:
        """CW-5.1: the active player strikes their own coin only."""
        return [f"c{seat}"]

    def is_enemy_coin(self, state: State, seat: int, coin: str) -> bool:
        """CW-5.2: an enemy coin is one of another side (a teammate's coin is not)."""
        side = self.coin_side(state, coin)
        return side is not None and side != self.side(state, seat)

    # --- consequences -----------------------------------------------------------------------
    def on_dead_coin(self, state: State, coin: str, ctx: ShotContext) -> None:
        """CW-4.2: a dead coin leaves the table and its player leaves the game."""
        owner = self.owner(state, coin)
        state["coins"][coin]["on_table"] = False
        if owner is not None:
            self.kill(state, owner, ctx, cause="goal")

    def execute(self, state: State, seat: int, ctx: ShotContext) -> None:
        """CW-6.4: treated exactly as if their coin had been knocked into the goal once."""
        if seat in ctx.deaths:
            return  # CW-6.5: not killed twice
        state["coins"][f"c{seat}"]["on_table"] = False
        self.kill(state, seat, ctx, cause="execution")

    def kill(self, state: State, seat: int, ctx: ShotContext, cause: str) -> None:
        p = player(state, seat)
        if not p["alive"]:
            return
        p["alive"] = False
        ctx.deaths.append(seat)
        ctx.effects.append({"kind": "out", "seat": seat, "cause": cause, "rule": "CW-4.2"})

    def victory(self, state: State, ctx: ShotContext) -> Any:
        raise NotImplementedError

    def winning_side(self, state: State) -> Any:
        """Who won a finished game, as a side (CW-8: once a strike decides which side wins, nothing
        more is asked, though facts still unknown might change who is listed on it)."""
        return state["winner"]

    def public_extras(self, state: State) -> dict[str, Any]:
        return {}

    def seat_extras(self, state: State, seat: int) -> dict[str, Any]:
        return {}

    def contact_questions(self, state: State, pending: dict[str, Any]) -> list[dict[str, Any]]:
        """The contact facts that can change the outcome, one question per coin (CW-8).

        Each is ``{"subject": coin, "options": [coins shown], "witness": one option whose contact
        has the effect (or None: cannot matter), "text": ...}``. Classic needs only "did the struck
        coin touch an enemy coin" (CW-5.2). Modes whose outcome depends on more contacts add more.
        """
        seat, coin = pending["seat"], pending["coin"]
        others = [c for c in self.coins_on_table(state) if c != coin]
        enemies = [c for c in others if self.is_enemy_coin(state, seat, c)]
        return [{"subject": coin, "options": others, "witness": enemies[0] if enemies else None,
                 "text": say("Which coins did {coin} touch?", coin=coin)}]

    # --- optional hooks: the defaults are "nothing special"; the referee calls every one -------
    @property
    def extra_inputs(self) -> dict[str, Callable[[Mode, State, dict[str, Any]], None]]:
        """Input types of this mode beside the shared ones (CW-7.3 ``time_up``): type -> handler."""
        return {}

    def has_moves(self) -> bool:
        """Whether the mode takes ``{"type": "move"}`` card moves (CW-7.5): it overrides ``move``."""
        return type(self).move is not Mode.move

    def move(self, state: State, inp: dict[str, Any]) -> None:
        """A card move (CW-7.5); only modes with cards override it."""
        raise GameError(say("mode {mode} has no card moves", mode=self.name))

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        """The mode's own moves ``seat`` may make now (listed by ``legal``)."""
        return []

    def blocked(self, state: State) -> str | None:
        """Why the table waits for a decision of the mode's own (CW-7.5 Elixir), or None."""
        return None

    def public_player(self, state: State, p: dict[str, Any]) -> dict[str, Any]:
        """Extra public fields of one player (role, health, a revealed identity: CW-9)."""
        return {}

    def check_shot(self, state: State, pending: dict[str, Any], inp: dict[str, Any]) -> None:
        """Validate the mode's own facts of a shot (CW-7.3 mouth) before anything is decided."""

    def before_resolve(self, state: State) -> bool:
        """True when the mode must wait for a decision before the shot resolves (CW-7.5)."""
        return False

    def before_deaths(self, state: State, ctx: ShotContext, shot: dict[str, Any]) -> None:
        """Runs before the dead coins of a shot are handled."""

    def judge_foul(self, state: State, ctx: ShotContext) -> bool:
        """True when the mode judged the foul itself; False lets the standard CW-6 foul apply."""
        return False

    def after_foul(self, state: State, ctx: ShotContext, shot: dict[str, Any]) -> None:
        """Runs after the foul is judged (CW-7.3 goals, CW-7.2 conversions)."""

    def turn_over(self, state: State, ctx: ShotContext, shot: dict[str, Any]) -> bool:
        """True when the shot ends the turn for a reason of the mode's own."""
        return False

    def before_turn_end(self, state: State, ctx: ShotContext) -> bool:
        """True when the mode finishes the turn later (CW-7.5: discard down to the hand limit)."""
        return False

    def turn_started(self, state: State, ctx: ShotContext) -> None:
        """Start-of-turn effects (CW-7.5 Burning Camps, draw)."""

    def random_shot_extras(self, state: State, rnd: Random, inp: dict[str, Any]) -> dict[str, Any]:
        """Extra random facts for a random shot (property tests, bots), e.g. the mouth."""
        return {}

    def random_move(self, state: State, rnd: Random, seat: int, move: dict[str, Any]) -> dict[str, Any] | None:
        """A random input for one of the mode's own legal moves (property tests)."""
        return None

    def contact_candidates(self, state: State, pending: dict[str, Any]) -> list[list[list[str]]]:
        """Representative contact lists whose differences can change the outcome (CW-8): the
        answered contacts plus, for each open question, no contact or a contact with its witness."""
        import itertools

        answers = pending.get("contact_answers") or {}
        fixed = [[s, c] for s, cs in answers.items() for c in cs]
        open_qs = [q for q in self.contact_questions(state, pending)
                   if q["subject"] not in answers and q["witness"]]
        return [fixed + [[q["subject"], q["witness"]] for q, b in zip(open_qs, bits, strict=True) if b]
                for bits in itertools.product([False, True], repeat=len(open_qs))]
