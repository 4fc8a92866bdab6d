"""The virtual table: a pymunk model of CW-1 that knows the ground truth of every strike.

Units are millimetres, grams and seconds. The surface is 425 x 625 mm (CW-1.3) bounded by thick
rails (so no coin tunnels through at any believable speed), 30 mm / 1.5 g coins (CW-1.1) and the
60 x 160 mm goal in the centre (CW-1.4), optionally with goal mouths in the short rails (CW-7.3).

Sliding friction is a pivot joint + gear joint from each coin to the static body with capped
``max_force`` (the pymunk "top-down friction" recipe): it removes at most mu*m*g of force, so a coin
decelerates at a constant rate and comes to a *real* stop, unlike velocity damping which only ever
approaches zero. The step is fixed (240 Hz) and all randomness is one seeded ``random.Random``, so
the same seed and the same flicks give identical results.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import pymunk

from gametable_core import table_geometry as geo
from sensors.virtual.flying import FlyModel

Point = tuple[float, float]
StepHook = Callable[[float, dict[str, Point]], None]

COIN_TYPE = 1
RAIL_TYPE = 2
RAIL_THICKNESS_MM = 60.0
MAX_FLICK_MM_S = 5000.0
PLACE_SLOP_MM = 0.5


@dataclass(frozen=True)
class PhysicsParams:
    """Physical constants of the table; every field can be overridden (e.g. from config)."""

    hz: int = 240
    coin_radius_mm: float = geo.COIN_RADIUS_MM
    coin_mass_g: float = 1.5
    gravity_mm_s2: float = 9810.0
    slide_mu: float = 0.30  # coin on a laminated board: ~3 m/s^2 of deceleration
    coin_elasticity: float = 0.85
    rail_elasticity: float = 0.65
    contact_friction: float = 0.15  # tangential friction of coin-coin and coin-rail contacts
    rest_speed_mm_s: float = 0.5
    max_strike_s: float = 30.0
    mouths: bool = False  # CW-7.3 football: gaps in both short rails
    mouth_w_mm: float = geo.MOUTH_W_MM


@dataclass
class StrikeTruth:
    """What really happened in one strike, once every coin is at rest."""

    coin: str
    dead: list[str]  # CW-4.1: at rest entirely inside the goal; removed from the table
    flown: list[str]  # CW-6.1: left the table or rode up on another coin; off the surface
    contacts: list[tuple[str, str]]  # every coin pair that touched, sorted, first-touch order
    positions: dict[str, Point]  # coins flat on the surface at rest
    left_at: dict[str, Point] = field(default_factory=dict)  # flown/exited coin -> where it left
    mouths: dict[str, str] = field(default_factory=dict)  # coin -> "A"/"B" goal mouth it went through
    duration_s: float = 0.0
    left_table: list[str] = field(default_factory=list)  # flown coins that went over a rail (not riders)
    fly_risk: float = 0.0  # sum over impacts of the chance that one made a coin fly

    def shot(self, seat: int) -> dict:
        """The ``shot`` input of CW-9 for this truth (a complete strike result)."""
        return {
            "type": "shot",
            "seat": seat,
            "coin": self.coin,
            "dead": list(self.dead),
            "flown": list(self.flown),
            "contacts": [list(p) for p in self.contacts],
        }


class TablePhysics:
    """One table's coins and rails. Not thread-safe; one strike at a time."""

    def __init__(
        self, params: PhysicsParams | None = None, fly: FlyModel | None = None, seed: int = 0, *, dice: bool = True
    ) -> None:
        """``dice=False`` never makes a coin fly but still sums the flying risk (for planning bots)."""
        self.params = params or PhysicsParams()
        self.fly = fly or FlyModel()
        self.dice = dice
        self.rng = random.Random(seed)
        self.dt = 1.0 / self.params.hz
        self.space = pymunk.Space()
        self.space.iterations = 6
        self._bodies: dict[str, pymunk.Body] = {}
        self._parts: dict[str, tuple] = {}
        self._by_shape: dict[pymunk.Shape, str] = {}
        self._off: dict[str, Point] = {}  # flown coins waiting to be placed
        self._build_rails()
        # only `begin` handlers (called once per new contact): per-step Python callbacks would cost
        # more than the physics itself
        self.space.on_collision(COIN_TYPE, COIN_TYPE, begin=self._coin_begin)
        self.space.on_collision(COIN_TYPE, RAIL_TYPE, begin=self._rail_begin)
        self._strike: _StrikeLog | None = None

    # --- set-up ------------------------------------------------------------------------------

    def _build_rails(self) -> None:
        t = RAIL_THICKNESS_MM
        w, length = geo.WIDTH_MM, geo.LENGTH_MM
        boxes = [(-t, -t, 0.0, length + t), (w, -t, w + t, length + t)]  # long rails
        if self.params.mouths:
            m0, m1 = geo.mouth_span(self.params.mouth_w_mm)
            for y0, y1 in ((-t, 0.0), (length, length + t)):
                boxes += [(-t, y0, m0, y1), (m1, y0, w + t, y1)]
        else:
            boxes += [(-t, -t, w + t, 0.0), (-t, length, w + t, length + t)]
        for x0, y0, x1, y1 in boxes:
            shape = pymunk.Poly(self.space.static_body, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
            shape.elasticity = self.params.rail_elasticity
            shape.friction = self.params.contact_friction
            shape.collision_type = RAIL_TYPE
            self.space.add(shape)

    def coins(self) -> list[str]:
        return sorted(self._bodies)

    def off_table(self) -> dict[str, Point]:
        """Flown coins not yet placed back, with the point where they left the surface."""
        return dict(self._off)

    def positions(self) -> dict[str, Point]:
        """Coins flat on the surface."""
        return {c: (b.position.x, b.position.y) for c, b in sorted(self._bodies.items())}

    def can_place(self, coin: str, x: float, y: float) -> str | None:
        """Why ``coin`` cannot be put at (x, y), or None if it can.

        A coin at rest can sit a fraction of a millimetre into a rail or a neighbour (the solver's
        slop), so positions the physics produced itself are accepted within ``PLACE_SLOP_MM``."""
        r = self.params.coin_radius_mm - PLACE_SLOP_MM
        if not all(isinstance(v, int | float) and math.isfinite(v) for v in (x, y)):
            return f"position ({x}, {y}) is not a finite number"
        over_mouth = self.params.mouths and _in_mouth(x, self.params.mouth_w_mm) and 0.0 <= y <= geo.LENGTH_MM
        if not geo.SURFACE.contains_disc((x, y), r) and not (over_mouth and r <= x <= geo.WIDTH_MM - r):
            return f"position ({x:.1f}, {y:.1f}) puts {coin} off the surface"
        for other, body in self._bodies.items():
            if other != coin and math.hypot(body.position.x - x, body.position.y - y) < 2 * r:
                return f"position ({x:.1f}, {y:.1f}) overlaps coin {other}"
        return None

    def place(self, coin: str, x: float, y: float, *, as_found: bool = False) -> None:
        """Put a coin flat and still at (x, y) (a new coin, a move, or a flown coin put back).

        ``as_found=True`` copies a position the physics itself produced (e.g. a bot's planning
        table): coins pressed into a corner or against each other are taken as they are."""
        if not isinstance(coin, str) or not coin:
            raise ValueError(f"coin id must be a non-empty string, got {coin!r}")
        problem = self.can_place(coin, x, y)
        if problem and not (as_found and "finite" not in problem):
            raise ValueError(problem)
        self.remove(coin)
        p = self.params
        body = pymunk.Body(p.coin_mass_g, pymunk.moment_for_circle(p.coin_mass_g, 0, p.coin_radius_mm))
        body.position = (x, y)
        shape = pymunk.Circle(body, p.coin_radius_mm)
        shape.elasticity = p.coin_elasticity
        shape.friction = p.contact_friction
        shape.collision_type = COIN_TYPE
        normal_force = p.slide_mu * p.coin_mass_g * p.gravity_mm_s2
        pivot = pymunk.PivotJoint(self.space.static_body, body, (0, 0), (0, 0))
        pivot.max_bias = 0
        pivot.max_force = normal_force
        gear = pymunk.GearJoint(self.space.static_body, body, 0.0, 1.0)
        gear.max_bias = 0
        gear.max_force = normal_force * p.coin_radius_mm * 2 / 3  # friction torque of a flat disc
        self.space.add(body, shape, pivot, gear)
        self._bodies[coin] = body
        self._parts[coin] = (body, shape, pivot, gear)
        self._by_shape[shape] = coin
        self._off.pop(coin, None)

    def remove(self, coin: str) -> None:
        """Take a coin off the table (dead, flown, or being moved)."""
        parts = self._parts.pop(coin, None)
        if parts is None:
            return
        self.space.remove(*parts)
        self._by_shape.pop(parts[1], None)
        del self._bodies[coin]

    def clear(self) -> None:
        """An empty table (a new game)."""
        for coin in list(self._bodies):
            self.remove(coin)
        self._off.clear()

    def kinetic_energy(self) -> float:
        return sum(
            0.5 * b.mass * b.velocity.length_squared + 0.5 * b.moment * b.angular_velocity**2
            for b in self._bodies.values()
        )

    def at_rest(self) -> bool:
        """Every coin slower than ``rest_speed_mm_s`` (friction joints make this a real stop)."""
        rest = self.params.rest_speed_mm_s
        rest2 = rest * rest
        spin = rest / self.params.coin_radius_mm
        for b in self._bodies.values():
            vx, vy = b.velocity
            if vx * vx + vy * vy >= rest2 or abs(b.angular_velocity) >= spin:
                return False
        return True

    # --- a strike -----------------------------------------------------------------------------

    def flick(self, coin: str, vx: float, vy: float, *, on_step: StepHook | None = None) -> StrikeTruth:
        """Give ``coin`` the velocity (vx, vy) mm/s and step until every coin is at rest.

        ``on_step(t, positions)`` is called before the first step and after every step with the
        strike time and the centre of every coin that can block a beam (coins in flight over a
        rail included), so beams can be driven from geometry.
        """
        if coin not in self._bodies:
            raise ValueError(f"coin {coin!r} is not on the table (on it: {', '.join(self.coins()) or 'none'})")
        if not all(isinstance(v, int | float) and math.isfinite(v) for v in (vx, vy)):
            raise ValueError(f"flick velocity must be finite numbers, got ({vx!r}, {vy!r})")
        speed = math.hypot(vx, vy)
        if speed > MAX_FLICK_MM_S:
            raise ValueError(f"flick speed {speed:.0f} mm/s is above the table's limit of {MAX_FLICK_MM_S:.0f} mm/s")
        log = _StrikeLog(coin)
        self._strike = log
        self._bodies[coin].velocity = (vx, vy)
        t = 0.0
        max_steps = int(self.params.max_strike_s * self.params.hz)
        if on_step:
            on_step(t, self._visible(log, t))
        for i in range(1, max_steps + 1):
            self.space.step(self.dt)
            t = i * self.dt
            if log.pending:
                self._apply_flights(log, t)
            if self.params.mouths:
                self._check_mouths(log, t)
            if on_step:
                on_step(t, self._visible(log, t))
            # checking every 4th step (~17 ms) is plenty for "at rest" and keeps the loop cheap
            if i % 4 == 0 and self.at_rest() and not any(t < e for _, _, _, e in log.airborne.values()):
                break
        for body in self._bodies.values():
            body.velocity = (0, 0)
            body.angular_velocity = 0
        self._strike = None
        return self._judge(log, t)

    def _judge(self, log: _StrikeLog, t: float) -> StrikeTruth:
        r = self.params.coin_radius_mm
        self._carry_riders(log)  # where the riders rest: on their supports' final spots
        dead: list[str] = []
        for c, body in sorted(self._bodies.items()):
            p = (body.position.x, body.position.y)
            if not self.params.mouths and geo.is_dead_position(p, r):  # CW-4.1 (football: no death zone)
                dead.append(c)
            elif self.params.mouths and not (0.0 <= p[1] <= geo.LENGTH_MM):
                log.mouths.setdefault(c, "A" if p[1] < 0 else "B")  # tipped over the mouth's edge
                log.left_at.setdefault(c, p)
        for c in dead:  # CW-4.2: dead coins leave the table at once
            self.remove(c)
        for c in log.mouths:
            if c in self._bodies:
                self.remove(c)
        for c in log.flown:
            self._off[c] = log.left_at[c]
        return StrikeTruth(
            coin=log.coin,
            dead=dead,
            flown=list(log.flown),
            contacts=list(log.contacts),
            positions=self.positions(),
            left_at=dict(log.left_at),
            mouths=dict(log.mouths),
            duration_s=t,
            left_table=sorted(log.airborne),
            fly_risk=log.risk,
        )

    def _visible(self, log: _StrikeLog, t: float) -> dict[str, Point]:
        pos = self.positions()
        for c, (start, vel, t0, end) in log.airborne.items():
            if t < end:
                pos[c] = (start[0] + vel[0] * (t - t0), start[1] + vel[1] * (t - t0))
        self._carry_riders(log)
        for c, p in log.riders.items():
            pos[c] = p
        return pos

    def _carry_riders(self, log: _StrikeLog) -> None:
        """Each rider where its support is now (CW-6.1: it stays tilted on that coin); a support
        that left the table (died, flew) leaves its rider where it last was."""
        for c, (support, (dx, dy)) in log.supports.items():
            body = self._bodies.get(support)
            if c in log.riders and body is not None:
                log.riders[c] = (body.position.x + dx, body.position.y + dy)
                log.left_at[c] = log.riders[c]

    # --- collision handlers -------------------------------------------------------------------

    def _coin_begin(self, arb: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
        """A new coin-coin contact: record the pair; maybe one coin rides up on the other (CW-6.1)."""
        log = self._strike
        if log is None:
            return
        s1, s2 = arb.shapes
        a, b = self._by_shape.get(s1), self._by_shape.get(s2)
        if not (a and b):
            return
        pair = (a, b) if a < b else (b, a)
        if pair not in log.contact_set:
            log.contact_set.add(pair)
            log.contacts.append(pair)
        # impulse of the coming impact from the pre-impact velocities: J = m/2 (1 + e) |v_rel . n|
        b1, b2 = _body(s1), _body(s2)
        v1, v2 = b1.velocity, b2.velocity
        impulse = 0.5 * self.params.coin_mass_g * (1 + arb.restitution) * abs((v1 - v2).dot(arb.normal))
        if impulse <= self.fly.coin_threshold:
            return
        log.risk += self.fly.probability(impulse, rail=False)
        if not self.dice or not self.fly.roll(self.rng, impulse, rail=False):
            return
        # the faster coin rides up on the slower one and stays tilted on it
        rider = s1 if v1.length >= v2.length else s2
        coin = self._by_shape[rider]
        if coin not in log.pending and coin not in log.flown_set:
            mid = (b1.position + b2.position) / 2
            log.pending[coin] = ("ride", (mid.x, mid.y), (0.0, 0.0))
            below = _body(s2 if rider is s1 else s1).position
            log.supports[coin] = (self._by_shape[s2 if rider is s1 else s1], (mid.x - below.x, mid.y - below.y))

    def _rail_begin(self, arb: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
        """A coin meets a rail: a hard enough impact may make it hop over the rail (CW-6.1)."""
        log = self._strike
        if log is None:
            return
        shape = arb.shapes[0] if arb.shapes[0].collision_type == COIN_TYPE else arb.shapes[1]
        body = _body(shape)
        n = _outward(body.position)
        v = body.velocity
        impulse = self.params.coin_mass_g * (1 + arb.restitution) * max(0.0, v.dot(n))
        if impulse <= self.fly.rail_threshold:
            return
        log.risk += self.fly.probability(impulse, rail=True)
        if not self.dice or not self.fly.roll(self.rng, impulse, rail=True):
            return
        coin = self._by_shape.get(shape)
        if coin and coin not in log.pending and coin not in log.flown_set:
            vel = v - n * v.dot(n) + n * max(v.dot(n), 400.0)  # keeps going over the rail
            log.pending[coin] = ("off", (body.position.x, body.position.y), (vel.x, vel.y))

    def _apply_flights(self, log: _StrikeLog, t: float) -> None:
        """Take coins that flew in this step out of the space (not allowed inside a callback)."""
        for coin, (kind, where, vel) in sorted(log.pending.items()):
            if coin not in self._bodies:
                continue
            self.remove(coin)
            log.flown.append(coin)
            log.flown_set.add(coin)
            log.left_at[coin] = where
            if kind == "off":
                log.airborne[coin] = (where, vel, t, t + self.fly.airborne_s)
            else:
                log.riders[coin] = where
        log.pending.clear()

    def _check_mouths(self, log: _StrikeLog, t: float) -> None:
        """CW-7.3: a coin whose disc has wholly passed a short rail's line went through a mouth."""
        r = self.params.coin_radius_mm
        for coin, body in list(self._bodies.items()):
            y = body.position.y
            if y < -r or y > geo.LENGTH_MM + r:
                mouth = "A" if y < 0 else "B"
                log.mouths[coin] = mouth
                log.left_at[coin] = (body.position.x, 0.0 if mouth == "A" else geo.LENGTH_MM)
                vel = (body.velocity.x, body.velocity.y)
                self.remove(coin)
                log.airborne[coin] = ((body.position.x, y), vel, t, t + self.fly.airborne_s)


def _in_mouth(x: float, width: float) -> bool:
    """Is ``x`` within a goal mouth's gap (CW-7.3)? A coin there may hang over the table's edge."""
    m0, m1 = geo.mouth_span(width)
    return m0 <= x <= m1


def _body(shape: pymunk.Shape) -> pymunk.Body:
    """The body of a shape we added with one (pymunk types ``Shape.body`` as optional)."""
    body = shape.body
    if body is None:
        raise ValueError("a coin or rail shape without a body")
    return body


def _outward(p: pymunk.Vec2d) -> pymunk.Vec2d:
    """Unit normal from a coin towards the nearest rail (the way a coin hops off)."""
    d = {
        (-1.0, 0.0): p.x,
        (1.0, 0.0): geo.WIDTH_MM - p.x,
        (0.0, -1.0): p.y,
        (0.0, 1.0): geo.LENGTH_MM - p.y,
    }
    return pymunk.Vec2d(*min(d, key=d.__getitem__))


@dataclass
class _StrikeLog:
    coin: str
    contacts: list[tuple[str, str]] = field(default_factory=list)
    contact_set: set[tuple[str, str]] = field(default_factory=set)
    flown: list[str] = field(default_factory=list)
    flown_set: set[str] = field(default_factory=set)
    pending: dict[str, tuple[str, Point, Point]] = field(default_factory=dict)
    left_at: dict[str, Point] = field(default_factory=dict)
    airborne: dict[str, tuple[Point, Point, float, float]] = field(default_factory=dict)
    riders: dict[str, Point] = field(default_factory=dict)
    # rider -> (the coin it rides on, its spot relative to that coin's centre): it stays tilted on
    # that coin, so it goes where that coin goes (a support knocked away carries its rider along)
    supports: dict[str, tuple[str, Point]] = field(default_factory=dict)
    mouths: dict[str, str] = field(default_factory=dict)
    risk: float = 0.0
