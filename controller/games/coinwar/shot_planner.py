"""A Coin War bot: plans a flick by simulating candidate flicks on a copy of the table.

Candidates aim the bot's coin at each enemy coin so that the enemy is driven towards the goal
(the "ghost coin" aim of billiards), at a few speeds, plus seeded jitter and a few gentle repositioning
moves. Each candidate is simulated with pymunk (no flying dice, but the flying *risk* is summed) and
scored: enemies killed (CW-5.5) good; suicide, killing a teammate or a likely flying-coin foul
(CW-6) bad; enemies near the goal and our coin away from it mildly good. Seeded, so the same table,
state and seed always give the same shot.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from gametable_core import table_geometry as geo
from sensors.virtual.physics import PhysicsParams, TablePhysics

Point = tuple[float, float]


class BotError(ValueError):
    """The bot cannot play for this seat now (one line, readable)."""


@dataclass(frozen=True)
class BotSettings:
    speeds: tuple[float, ...] = (900.0, 1600.0)  # for shots the speed formula cannot plan
    speed_factors: tuple[float, ...] = (0.93, 1.0, 1.07)
    max_speed: float = 3000.0
    jitter_candidates: int = 4
    reposition_candidates: int = 2
    kill_enemy: float = 100.0
    suicide: float = -250.0
    kill_teammate: float = -150.0
    foul_risk: float = -60.0  # per expected flown coin
    enemy_near_goal: float = 0.05  # per mm an enemy got closer to the goal centre
    own_near_goal: float = -0.03  # per mm our coin got closer to the goal centre


def _sides(state: dict[str, Any], seat: int) -> tuple[str, set[str], set[str]]:
    players = state.get("players") or []
    me = next((p for p in players if p.get("seat") == seat), None)
    if me is None:
        raise BotError(f"seat {seat} is not a player of this game")
    if not me.get("alive", True):
        raise BotError(f"seat {seat} is out of the game")
    own = me.get("coin") or f"c{seat}"
    team = me.get("team")
    enemies, friends = set(), set()
    for p in players:
        if p.get("seat") == seat or not p.get("alive", True):
            continue
        coin = p.get("coin") or f"c{p['seat']}"
        if team is not None and p.get("team") == team:
            friends.add(coin)
        else:
            enemies.add(coin)
    return own, enemies, friends


def _dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def needed_speed(here: Point, ghost: Point, enemy: Point, mu_g: float = 0.30 * 9810.0, e: float = 0.85) -> float | None:
    """Flick speed that leaves ``enemy`` at rest on the goal centre after a hit from ``ghost``.

    Friction decelerates at mu*g, so a coin needs v = sqrt(2 mu g d) to slide d; an impact at cut
    angle theta passes on v cos(theta) (1 + e) / 2 to an equal coin. None for too thin a cut.
    """
    sx, sy = ghost[0] - here[0], ghost[1] - here[1]
    ex, ey = enemy[0] - ghost[0], enemy[1] - ghost[1]
    s, n = math.hypot(sx, sy), math.hypot(ex, ey)
    if s < 1e-6 or n < 1e-6:
        return None
    cos_t = (sx * ex + sy * ey) / (s * n)
    if cos_t < 0.35:
        return None
    d = _dist(enemy, geo.CENTRE)
    v_hit = math.sqrt(2 * mu_g * d) / (cos_t * (1 + e) / 2)
    return math.sqrt(v_hit * v_hit + 2 * mu_g * s)


def candidates(positions: dict[str, Point], own: str, enemies: set[str], rng: random.Random, s: BotSettings):
    """(vx, vy) candidate flicks for ``own``: aimed shots, jittered shots, gentle moves."""
    here = positions[own]
    out: list[tuple[float, float]] = []
    aims: list[tuple[float, float]] = []
    for e in sorted(enemies & positions.keys()):
        ep = positions[e]
        to_goal = (geo.CENTRE[0] - ep[0], geo.CENTRE[1] - ep[1])
        n = math.hypot(*to_goal) or 1.0
        ghost = (ep[0] - to_goal[0] / n * 2 * geo.COIN_RADIUS_MM, ep[1] - to_goal[1] / n * 2 * geo.COIN_RADIUS_MM)
        angle = math.atan2(ghost[1] - here[1], ghost[0] - here[0])
        v = needed_speed(here, ghost, ep)
        if v is not None:
            aims.append((angle, v))
            for f in s.speed_factors:
                out.append(_polar(min(v * f, s.max_speed), angle))
        else:
            for v in s.speeds:
                out.append(_polar(v, angle))
    for _ in range(s.jitter_candidates if aims else 0):
        a, v = rng.choice(aims)
        out.append(_polar(min(v * rng.uniform(0.85, 1.15), s.max_speed), a + rng.gauss(0.0, 0.03)))
    for _ in range(s.reposition_candidates):
        out.append(_polar(rng.uniform(300.0, 700.0), rng.uniform(0, 2 * math.pi)))
    return out


def _polar(v: float, a: float) -> tuple[float, float]:
    return (v * math.cos(a), v * math.sin(a))


def score(before: dict[str, Point], truth, own: str, enemies: set[str], friends: set[str], s: BotSettings) -> float:
    """How good a simulated outcome is for the bot (higher is better)."""
    total = 0.0
    dead = set(truth.dead)
    total += s.kill_enemy * len(dead & enemies)
    total += s.suicide * (own in dead)
    total += s.kill_teammate * len(dead & friends)
    total += s.foul_risk * truth.fly_risk
    after = truth.positions
    for e in enemies & after.keys() & before.keys():
        total += s.enemy_near_goal * (_dist(before[e], geo.CENTRE) - _dist(after[e], geo.CENTRE))
    if own in after:
        total += s.own_near_goal * (_dist(before[own], geo.CENTRE) - _dist(after[own], geo.CENTRE))
    return total


def plan(
    positions: dict[str, Point],
    state: dict[str, Any],
    seat: int,
    *,
    seed: int = 0,
    settings: BotSettings | None = None,
    coins: list[str] | None = None,
) -> tuple[str, float, float]:
    """The flick (coin, vx mm/s, vy mm/s) the bot plays for ``seat`` (CW-5.1: its own coin).

    ``coins`` restricts the coins it may strike (e.g. the one already struck this turn)."""
    s = settings or BotSettings()
    if state.get("mode") == "football":
        return plan_football(positions, state, seat, seed=seed, settings=s, coins=coins)
    own, enemies, friends = _sides(state, seat)
    # CW-7.2: a Biohazard mother may strike another mother's coin (legal lists it); else own coin only
    choices = [c for c in (coins if coins is not None else [own]) if c not in enemies]
    if not choices:
        raise BotError(f"seat {seat} may strike none of {', '.join(coins or [])}")
    on_table = [c for c in choices if c in positions]
    if not on_table:
        raise BotError(f"coin {' / '.join(choices)} of seat {seat} is not on the table")
    rng = _rng(seed, seat, positions)
    best: tuple[float, tuple[str, float, float]] | None = None
    for coin in on_table:
        side = (friends | {own}) - {coin}  # the struck coin plays "own"; the rest of our side are friends
        for vx, vy in candidates(positions, coin, enemies, rng, s):
            truth = _simulate(positions, coin, vx, vy, mouths=False)
            value = score(positions, truth, coin, enemies, side, s)
            if best is None or value > best[0]:
                best = (value, (coin, vx, vy))
    assert best is not None
    return best[1]


def _rng(seed: int, seat: int, positions: dict[str, Point]) -> random.Random:
    key = ";".join(f"{c}:{p[0]:.1f},{p[1]:.1f}" for c, p in sorted(positions.items()))
    return random.Random(f"{seed}|{seat}|{key}")


def _simulate(positions: dict[str, Point], coin: str, vx: float, vy: float, *, mouths: bool):
    table = TablePhysics(PhysicsParams(mouths=mouths), seed=0, dice=False)
    for c, p in positions.items():
        table.place(c, *p, as_found=True)
    return table.flick(coin, vx, vy)


# --- CW-7.3 football ---------------------------------------------------------------------------------

BALL = "ball"
TEAM_COINS = {"A": ("A1", "A2", "A3"), "B": ("B1", "B2", "B3")}


def plan_football(
    positions: dict[str, Point],
    state: dict[str, Any],
    seat: int,
    *,
    seed: int = 0,
    settings: BotSettings | None = None,
    coins: list[str] | None = None,
) -> tuple[str, float, float]:
    """CW-7.3: strike one of the team's coins so the ball goes through the *other* team's mouth
    (team A defends mouth A at y = 0, so it attacks mouth B at y = 625)."""
    s = settings or BotSettings()
    me = next((p for p in state.get("players") or [] if p.get("seat") == seat), None)
    if me is None or me.get("team") not in TEAM_COINS:
        raise BotError(f"seat {seat} is not a football player with team A or B")
    team = me["team"]
    mine = [c for c in (coins or TEAM_COINS[team]) if c in positions]
    if not mine:
        raise BotError(f"none of the coins seat {seat} may strike is on the table")
    goal_y = geo.LENGTH_MM if team == "A" else 0.0
    target = (geo.CENTRE[0], goal_y)
    rng = _rng(seed, seat, positions)
    options: list[tuple[str, float, float]] = []
    if BALL in positions:
        ball = positions[BALL]
        to_goal = (target[0] - ball[0], target[1] - ball[1])
        n = math.hypot(*to_goal) or 1.0
        ghost = (ball[0] - to_goal[0] / n * 2 * geo.COIN_RADIUS_MM, ball[1] - to_goal[1] / n * 2 * geo.COIN_RADIUS_MM)
        mu_g = 0.30 * 9810.0
        for c in mine:
            here = positions[c]
            a = math.atan2(ghost[1] - here[1], ghost[0] - here[0])
            d_self = _dist(here, ghost)
            v_hit = math.sqrt(2 * mu_g * (n + 40.0)) / 0.925  # the ball must get past the rail line
            v = min(math.sqrt(v_hit * v_hit + 2 * mu_g * d_self), s.max_speed)
            for f in (0.9, 1.0, 1.15):
                options.append((c, *_polar(min(v * f, s.max_speed), a + rng.gauss(0.0, 0.01))))
    for _ in range(s.reposition_candidates):
        c = rng.choice(mine)
        options.append((c, *_polar(rng.uniform(300.0, 700.0), rng.uniform(0, 2 * math.pi))))
    best: tuple[float, tuple[str, float, float]] | None = None
    for c, vx, vy in options:
        truth = _simulate(positions, c, vx, vy, mouths=True)
        value = s.foul_risk * truth.fly_risk
        mouth = truth.mouths.get(BALL)
        if mouth is not None:
            value += s.kill_enemy if mouth != team else s.suicide  # a goal, or an own goal
        if any(m and k != BALL for k, m in truth.mouths.items()):
            value += s.foul_risk  # a team coin through a mouth is a flown coin
        if BALL in truth.positions and BALL in positions:
            value += s.enemy_near_goal * (_dist(positions[BALL], target) - _dist(truth.positions[BALL], target))
        if best is None or value > best[0]:
            best = (value, (c, vx, vy))
    assert best is not None
    return best[1]
