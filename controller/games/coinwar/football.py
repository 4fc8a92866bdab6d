"""Coin War Football (CW-7.3): two teams, three coins each and a ball; goals through the mouths.

Facts: a ``shot`` adds ``"mouth": "A" | "B" | null`` (the mouth the ball crossed; team A defends
mouth A). Nothing dies in football (the goal box is not a death zone), so ``dead`` must be empty.
The time limit (option ``minutes``) needs a clock, which the pure engine has not: the daemon sends
``{"type": "time_up"}`` when it has passed; the game then ends on the score (after the strike
being observed, if any), a tie being a draw.
"""

from __future__ import annotations

from typing import Any

from controller.games import rng
from controller.games.base import GameError
from controller.games.coinwar import referee, turns
from controller.games.coinwar.classic import build_team_groups, check_order
from controller.games.coinwar.infinite import OTHER, check_ab_teams, score_winner
from controller.games.coinwar.modes import Mode, Option, ShotContext, State
from controller.games.coinwar.turns import player
from gametable_core.said import say

BALL = "ball"
TEAM_COINS = {"A": ["A1", "A2", "A3"], "B": ["B1", "B2", "B3"]}


def time_up(mode: Mode, state: State, inp: dict[str, Any]) -> None:
    """``{"type": "time_up"}`` from the daemon's clock: the ``minutes`` limit has passed."""
    referee.check_playing(state)
    if state["options"].get("minutes") is None:
        raise GameError(say("this game has no time limit (option 'minutes'); time_up does not apply"))
    if state.get("time_up"):
        raise GameError(say("time is already up; the game ends when the strike being observed is resolved"))
    state["time_up"] = True
    if state["striking"] or state["pending_shot"] is not None:
        state["last"] = [{"kind": "time_up", "ends": "after this strike", "rule": "CW-7.3"}]
        return
    ctx = ShotContext(0, "", [], {}, [], [], [])
    ctx.effects.append({"kind": "time_up", "rule": "CW-7.3"})
    referee.finish_game(state, mode.victory(state, ctx), ctx)


class Football(Mode):
    name = "football"
    title = "Football (币战·足球)"
    summary = "Two teams of 1-3 with three coins each and a ball; score through the other team's mouth."
    player_counts = (2, 3, 4, 5, 6)
    teams = True
    scores = True
    options = {
        "target": Option(3, "goals a team needs to win (CW-7.3)", minimum=1, maximum=99),
        "minutes": Option(None, "time limit in minutes; none by default (CW-7.3)", minimum=1, maximum=180),
    }

    @property
    def extra_inputs(self) -> dict[str, Any]:
        return {"time_up": time_up}

    # --- setup ------------------------------------------------------------------------------
    def setup(self, state: State, players: list[dict[str, Any]], order: list[int] | None) -> None:
        given = {p["seat"]: p.get("team") for p in players}
        seats = [p["seat"] for p in state["players"]]
        if all(t is None for t in given.values()):
            drawn = rng.shuffle(state, seats)
            half = (len(seats) + 1) // 2
            for p in state["players"]:
                p["team"] = "A" if p["seat"] in drawn[:half] else "B"
        else:
            for p in state["players"]:
                if given[p["seat"]] not in ("A", "B"):
                    raise GameError(f"every football player needs team 'A' or 'B'; seat {p['seat']} "
                                    f"has {given[p['seat']]!r}")
                p["team"] = given[p["seat"]]
        check_ab_teams(state, self.name)
        sizes = {t: sum(1 for p in state["players"] if p["team"] == t) for t in ("A", "B")}
        if not all(1 <= n <= 3 for n in sizes.values()):
            raise GameError(f"football needs two teams of 1-3 players (CW-7.3), got {sizes}")
        for p in state["players"]:
            p["coin"] = None  # the team's three coins belong to the team, not to one player
        state["coins"] = {c: {"owner": None, "team": t, "on_table": True} for t, cs in TEAM_COINS.items() for c in cs}
        state["coins"][BALL] = {"owner": None, "team": None, "on_table": True}
        state["order"] = check_order(seats, order, state)
        build_team_groups(state)
        state["scores"] = {"A": 0, "B": 0}
        state["time_up"] = False

    # --- sides and striking -------------------------------------------------------------------
    def side(self, state: State, seat: int) -> str:
        return player(state, seat)["team"]

    def coin_side(self, state: State, coin: str) -> str | None:
        return state["coins"][coin]["team"]

    def strikable_coins(self, state: State, seat: int) -> list[str]:
        """CW-7.3: one of the team's three coins (the same one for the whole turn)."""
        return list(TEAM_COINS[self.side(state, seat)])

    def is_enemy_coin(self, state: State, seat: int, coin: str) -> bool:
        """CW-7.3: touching the ball is the analogue of an attack strike: the turn ends."""
        return coin == BALL

    def contact_questions(self, state: State, pending: dict[str, Any]) -> list[dict[str, Any]]:
        coin = pending["coin"]
        ball = [BALL] if BALL in self.coins_on_table(state) else []
        return [{"subject": coin, "options": ball, "witness": ball[0] if ball else None,
                 "text": say("Did {coin} touch the ball? (pick it if so)", coin=coin)}]

    def check_shot(self, state: State, pending: dict[str, Any], inp: dict[str, Any]) -> None:
        mouth = inp.get("mouth")
        if mouth not in ("A", "B", None):
            raise GameError(say("'mouth' must be \"A\", \"B\" or null (the mouth the ball crossed), got {got}",
                                got=repr(mouth)))
        if pending["dead"]:
            raise GameError(say("nothing dies in football (CW-7.3: the goal box is not a death zone); "
                                "'dead' must be empty, got {got}", got=str(pending["dead"])))
        if mouth is not None and BALL in (pending["flown"] or []):
            raise GameError(say("the ball cannot both cross a mouth and be flown"))
        if mouth is not None and BALL not in self.coins_on_table(state):
            raise GameError(say("the ball is not on the table, so it cannot cross a mouth"))
        pending["dead"] = []
        pending["mouth"] = mouth

    # --- consequences ------------------------------------------------------------------------
    def judge_foul(self, state: State, ctx: ShotContext) -> bool:
        """Judged in :meth:`after_foul`, once the goal (if any) is known: see there."""
        return True

    def after_foul(self, state: State, ctx: ShotContext, shot: dict[str, Any]) -> None:
        """CW-7.3: a goal (own goals count for the opponent) → the conceding team kicks off with
        the ball on the centre; else any flown coin is a foul → the other team's free kick (an
        extra turn). Flown team coins go back by their team (the fouler for its own team), a
        flown ball by the next player on the spot it left. [interpretation] a goal scored on a
        fouling strike stands, and the kick-off replaces the free kick."""
        fouler_team = self.side(state, ctx.seat)
        mouth = shot.get("mouth")
        if ctx.flown:
            ctx.end_turn = True
            ctx.effects.append({"kind": "foul", "seat": ctx.seat, "flown": ctx.flown,
                                "free_kick": None if mouth else OTHER[fouler_team], "rule": "CW-7.3"})
        if mouth is not None:
            scorer = OTHER[mouth]
            state["scores"][scorer] += 1
            ctx.end_turn = True
            ctx.effects.append({"kind": "goal", "team": scorer, "mouth": mouth, "seat": ctx.seat,
                                "own_goal": fouler_team == mouth, "scores": dict(state["scores"]),
                                "rule": "CW-7.3"})
            # the conceding team plays next (kick-off): make the scorer's group count as the last one
            state["last_group"] = next(i for i, g in enumerate(state["groups"]) if g["key"] == scorer)
            ctx.placements.append({"coin": BALL, "by": "next", "where": "centre"})
        elif ctx.flown:
            ctx.extra_turn_for = turns.next_member(state, OTHER[fouler_team])
        for coin in ctx.flown:
            team = self.coin_side(state, coin)
            if coin == BALL:
                ctx.placements.append({"coin": BALL, "by": "next", "where": "exit"})
            elif team == fouler_team:
                ctx.placements.append({"coin": coin, "by": ctx.seat, "where": "normal"})
            else:
                assert team is not None  # every coin but the ball belongs to a team (CW-7.3)
                by = ctx.extra_turn_for if ctx.extra_turn_for is not None else turns.next_member(state, team)
                ctx.placements.append({"coin": coin, "by": by, "where": "normal"})

    def victory(self, state: State, ctx: ShotContext) -> Any:
        """CW-7.3: first to ``target``; at time up the better score, a tie being a draw."""
        won = score_winner(state, state["options"]["target"])
        if won is not None or not state.get("time_up"):
            return won
        a, b = state["scores"]["A"], state["scores"]["B"]
        if a == b:
            return {"draw": sorted(p["seat"] for p in state["players"])}
        team = "A" if a > b else "B"
        return sorted(p["seat"] for p in state["players"] if p["team"] == team)

    def public_extras(self, state: State) -> dict[str, Any]:
        return {"scores": dict(state["scores"]), "target": state["options"]["target"],
                "minutes": state["options"]["minutes"], "time_up": state["time_up"]}

    # --- random play ---------------------------------------------------------------------------
    def random_shot_extras(self, state: State, rnd: Any, inp: dict[str, Any]) -> dict[str, Any]:
        mouth = rnd.choice(["A", "B"]) if rnd.random() < 0.15 and BALL in self.coins_on_table(state) else None
        flown = inp["flown"]
        if mouth is not None and flown is not None:
            flown = [c for c in flown if c != BALL]
        return {"dead": [], "mouth": mouth, "flown": flown}
