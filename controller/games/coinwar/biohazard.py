"""Coin War Biohazard (CW-7.2): mothers and zombies against humans; dead humans may convert.

Faction names are the team names: ``"biohazard"`` (mothers and zombies) and ``"humans"``.
Per-strike bookkeeping: humans who convert are collected while deaths are applied and switch
sides only after the foul has been judged (CW-7.2 "foul first, then the conversion").
"""

from __future__ import annotations

from typing import Any

from controller.games import rng
from controller.games.base import GameError
from controller.games.coinwar import turns
from controller.games.coinwar.classic import Teams, build_team_groups, check_order
from controller.games.coinwar.modes import Option, ShotContext, State
from controller.games.coinwar.turns import player
from gametable_core.said import say

BIO = "biohazard"
HUMANS = "humans"
MOTHERS_FOR = {4: 1, 5: 2, 6: 2}  # CW-7.2 table: 4 → 1/3, 5 → 2/3, 6 → 2/4
MOTHERS_ALLOWED = {4: (1,), 5: (2, 1), 6: (2,)}  # CW-7.2 [interpretation]: options.roles may give 5 players 1/4
ROLES = ("mother", "human")
_SPLIT_TITLES = {(2, 3): "2 mothers · 3 humans", (1, 4): "1 mother · 4 humans"}


def role_splits() -> dict[str, list[dict[str, Any]]]:
    """Player count -> the ways the roles may split (CW-7.2), the engine's draw first: what the
    lobby offers where there is a choice (docs/phones.md, the lobby's ``seat_roles``)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for n, allowed in MOTHERS_ALLOWED.items():
        if len(allowed) > 1:
            out[str(n)] = [{"roles": {"mother": m, "human": n - m}, "title": _SPLIT_TITLES[(m, n - m)]} for m in allowed]
    return out


def seat_map(value: Any, seats: list[int], key: str, allowed: tuple[str, ...]) -> dict[int, str]:
    """Validate an option mapping every seat (JSON keys are strings) to one of ``allowed``."""
    if not isinstance(value, dict):
        raise GameError(f"option {key!r} must map seats to {'/'.join(allowed)}, got {value!r}")
    result: dict[int, str] = {}
    for k, v in value.items():
        try:
            seat = int(k)
        except (TypeError, ValueError):
            raise GameError(f"option {key!r} has {k!r}, which is not a seat number") from None
        if seat not in seats:
            raise GameError(f"option {key!r} names seat {seat}, which is not playing (seats: {seats})")
        if seat in result:
            raise GameError(f"option {key!r} names seat {seat} twice")
        if v not in allowed:
            raise GameError(f"option {key!r} gives seat {seat} {v!r}; expected one of {', '.join(allowed)}")
        result[seat] = v
    missing = [s for s in seats if s not in result]
    if missing:
        raise GameError(f"option {key!r} must give every seat; missing {missing}")
    return result


class Biohazard(Teams):
    name = "biohazard"
    title = "Biohazard (币战·生化危机)"
    summary = ("Mothers (shared 2 lives) and zombies against humans; a human killed by the biohazard "
               "faction turns into a zombie.")
    player_counts = (4, 5, 6)
    teams = True
    options = {
        "lives": Option(2, "the mothers' shared lives (CW-7.2)", minimum=1, maximum=9),
        "roles": Option(None, "seat → mother/human for every seat (4 players: 1 mother; 5: 2, or 1; 6: 2); "
                              "drawn from the seed when absent (5 players: 2 mothers)", kind=dict),
    }

    # --- setup ------------------------------------------------------------------------------
    def setup(self, state: State, players: list[dict[str, Any]], order: list[int] | None) -> None:
        seats = [p["seat"] for p in state["players"]]
        mothers = MOTHERS_FOR[len(seats)]
        if state["options"]["roles"] is not None:
            roles = seat_map(state["options"]["roles"], seats, "roles", ROLES)
            count = sum(1 for r in roles.values() if r == "mother")
            allowed = MOTHERS_ALLOWED[len(seats)]
            if count not in allowed:
                need = " or ".join(map(str, allowed))
                raise GameError(f"{len(seats)} players need {need} mother(s) (CW-7.2), roles give {count}")
            state["options"]["roles"] = {str(s): r for s, r in sorted(roles.items())}
        else:  # CW-9: random from the seed when absent
            drawn = rng.shuffle(state, seats)[:mothers]
            roles = {s: ("mother" if s in drawn else "human") for s in seats}
        given = {p["seat"]: p.get("team") for p in players}
        for p in state["players"]:
            p["role"] = roles[p["seat"]]
            p["team"] = BIO if p["role"] == "mother" else HUMANS
            if given[p["seat"]] not in (None, p["team"]):
                raise GameError(f"seat {p['seat']} is a {p['role']}, so its team is {p['team']!r}, "
                                f"not {given[p['seat']]!r} (CW-7.2: the factions are the teams)")
        state["order"] = check_order(seats, order, state)
        build_team_groups(state)
        state["lives"] = state["options"]["lives"]

    # --- striking ---------------------------------------------------------------------------
    def strikable_coins(self, state: State, seat: int) -> list[str]:
        """CW-7.2 shared body: a mother may strike her own coin or another mother's."""
        if player(state, seat)["role"] != "mother":
            return [f"c{seat}"]
        others = [p["coin"] for p in state["players"]
                  if p["role"] == "mother" and p["seat"] != seat and p["alive"]]
        return [f"c{seat}"] + others

    def contact_questions(self, state: State, pending: dict[str, Any]) -> list[dict[str, Any]]:
        """CW-8 + CW-7.2 condition 2: in a human's turn, for each dead human coin, "did it touch a
        biohazard coin after this strike?" (only asked when the answer decides a conversion)."""
        questions = super().contact_questions(state, pending)
        if self.side(state, pending["seat"]) != HUMANS:
            return questions  # condition 1 converts anyway
        bio_coins = [c for c in self.coins_on_table(state) if self.coin_side(state, c) == BIO]
        for coin in pending["dead"] or []:
            owner = self.owner_seat(state, coin)
            if coin == pending["coin"] or player(state, owner)["role"] != "human":
                continue  # the struck coin's own question already covers it
            options = [c for c in bio_coins if c != coin]
            questions.append({"subject": coin, "options": options, "witness": options[0] if options else None,
                              "text": say("Did {coin} touch a biohazard coin (black or blue) during this strike? "
                                                  "Pick the ones it touched (none: leave empty).", coin=coin)})
        return questions

    # --- deaths -----------------------------------------------------------------------------
    def on_dead_coin(self, state: State, coin: str, ctx: ShotContext) -> None:
        state["coins"][coin]["on_table"] = False
        self.death(state, self.owner_seat(state, coin), ctx, "goal")

    def execute(self, state: State, seat: int, ctx: ShotContext) -> None:
        """CW-6.4: counts as a death with all its consequences; CW-6.5: never twice."""
        if seat in ctx.deaths:
            return
        self.death(state, seat, ctx, "execution")

    def death(self, state: State, seat: int, ctx: ShotContext, cause: str) -> None:
        p = player(state, seat)
        ctx.deaths.append(seat)
        if seat == ctx.seat:
            ctx.end_turn = True  # CW-7.4
        coin = p["coin"]
        if p["role"] == "mother":
            state["lives"] = max(0, state["lives"] - 1)
            respawn = state["lives"] > 0
            ctx.effects.append({"kind": "mother_died", "seat": seat, "cause": cause, "lives": state["lives"],
                                "respawn": respawn, "rule": "CW-7.2"})
            if respawn:  # CW-7.4; an execution too (CW-6.4: as if knocked into the goal once)
                ctx.placements.append({"coin": coin, "by": seat, "where": "initial"})
            else:
                p["alive"] = False
                state["coins"][coin]["on_table"] = False
            return
        if p["role"] == "human" and self.converts(state, seat, ctx):
            ctx.notes.setdefault("conversions", []).append(seat)
            ctx.placements.append({"coin": coin, "by": seat, "where": "initial"})  # CW-7.4, CW-6.4
            return
        p["alive"] = False
        state["coins"][coin]["on_table"] = False
        rule = "CW-7.2" if p["role"] == "zombie" else "CW-4.2"
        ctx.effects.append({"kind": "out", "seat": seat, "cause": cause, "role": p["role"], "rule": rule})

    def converts(self, state: State, seat: int, ctx: ShotContext) -> bool:
        """CW-7.2: (1) died in a mother's or zombie's turn, or (2) in a human's turn, its coin
        touched a biohazard coin during this (the last) strike. Sides as before the strike."""
        if ctx.sides_before.get(ctx.seat) == BIO:
            return True
        coin = f"c{seat}"
        for a, b in ctx.contacts:
            if coin in (a, b):
                other = b if a == coin else a
                owner = self.owner(state, other)
                if owner is not None and ctx.sides_before.get(owner) == BIO:
                    return True
        return False

    def after_foul(self, state: State, ctx: ShotContext, shot: dict[str, Any]) -> None:
        """CW-7.2 conversions, after the foul: out of the humans' rotation, into the biohazard
        rotation after the member who played the faction's last regular turn (CW-3.4, CW-7.2),
        several in the order the deaths were reported, each after the previous insert."""
        conversions = ctx.notes.get("conversions", [])
        if not conversions:
            return
        # The member who played the faction's last *regular* turn: the one playing now in a
        # regular biohazard turn (start_regular_turn recorded it). An extra turn (CW-3.4) never
        # moves the rotation, so a conversion in one goes after that member, not the extra player.
        anchor: int | None = state["last_played"].get(BIO)
        for seat in conversions:
            p = player(state, seat)
            p["role"] = "zombie"
            p["team"] = BIO
            turns.remove_member(state, HUMANS, seat)
            turns.insert_member(state, BIO, seat, anchor)
            ctx.effects.append({"kind": "converted", "seat": seat, "after": anchor, "rule": "CW-7.2"})
            anchor = seat

    def victory(self, state: State, ctx: ShotContext) -> Any:
        """CW-7.2: mothers' lives below 1 → humans win (also when the last human fell on the same
        strike); no human left → the biohazard faction wins. Winners: every member of the side;
        humans converted on the winning strike count as humans."""
        if state["lives"] < 1:
            converted_now = set(ctx.notes.get("conversions", []))
            return sorted(p["seat"] for p in state["players"] if p["team"] == HUMANS or p["seat"] in converted_now)
        if not any(p["alive"] and p["team"] == HUMANS for p in state["players"]):
            return sorted(p["seat"] for p in state["players"] if p["team"] == BIO)
        return None

    def winning_side(self, state: State) -> Any:
        """CW-7.2/CW-8: the faction that won; a conversion on the winning strike changes who is
        listed on it, not which side won (a human whose conversion is unknown counts as human)."""
        return HUMANS if state["lives"] < 1 else BIO

    def public_player(self, state: State, p: dict[str, Any]) -> dict[str, Any]:
        return {"role": p["role"]}

    def public_extras(self, state: State) -> dict[str, Any]:
        return {"lives": state["lives"]}
