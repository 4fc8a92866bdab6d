"""The observer: beam edges + strike starts -> per-strike facts (a CW-9 ``shot`` input).

It knows only what the sensors show (docs/architecture.md "Observer", CW-8):

- *which* strike: a strike start (striker -> seat) opens a strike; the struck coin is that seat's;
- *coins at rest*: no beam edge for ``settle_s`` seconds (timer on the injected clock);
- *goal*: from the beams blocked at rest it tries to **prove** that no coin lies entirely inside the
  goal (CW-4.1). Every dead-coin centre must lie in the goal shrunk by the coin radius; if each such
  centre would block at least one beam that is clear now, no coin can be dead -> ``dead: []``.
  Otherwise a coin may be dead, and since beams cannot say *which* coin, ``dead`` is ``null``
  (the engine asks, CW-8). It never guesses an identity.
- *rails*: beams running over the rail tops (outside the surface, unreachable by a flat coin) pulse
  when a coin leaves the table -> ``flown`` is ``null`` (someone flew, identity unknown). Only a
  pulse that looks like a coin counts (``COIN_PULSE_S``, inside the strike's window): a hand or a
  striker resting on or sweeping over a rail is no fact. A beam still blocked at rest may be a coin
  lying on the rail (flown) or a hand: unknown, so ``null`` too.
  Without a pulse, ``flown: []`` is stated only when the layout *proves* it (CW-8): ``flight_proof``
  ``"rails"`` says every coin leaving the table crosses a rail beam (the virtual table, whose
  physics flies coins through the beams' plane). On a real table a coin that clears the rail by
  more than ~0.3 mm passes over the beam's band unseen (gametable_core/beam_optics.py ``RAIL_BEAM``), and a
  coin tilted on another coin is invisible to beams, so the default
  ``"none"`` leaves ``flown`` unknown and the engine asks when it changes the outcome.
- *contacts*: beams cannot see them -> ``null`` unless the struck coin is alone on the table.

Pure logic apart from the clock: feed it ``strike()`` and ``on_edge()``; it calls ``on_facts``.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from controller.referee_api import Referee
from gametable_core import table_geometry as geo
from gametable_core.beam_geometry import beam_distance
from gametable_core.clock import Clock
from gametable_core.config import BeamConfig
from gametable_core.platform import BeamEdge

log = logging.getLogger("gametable.observer")


@dataclass
class ObservedStrike:
    """What the sensors established about one strike (``None`` = not observable)."""

    seat: int
    coin: str | None
    dead: list[str] | None
    flown: list[str] | None
    contacts: list[list[str]] | None
    goal_possible: bool  # a coin may lie entirely in the goal
    rail_crossings: int  # rail-top beam pulses (coins leaving the table)
    goal_points: list[str] = field(default_factory=list)  # goal beams blocked at rest
    goal_min_coins: int = 0  # at least this many coins lie on the goal (points >= 30 mm apart)
    mouth_crossings: dict[str, int] = field(default_factory=dict)  # CW-7.3 mouth beam pulses
    edges: int = 0
    started: float = 0.0
    settled: float = 0.0
    contacts_open: list[list[str]] | None = None  # with ``contacts``: the pairs not decided (CW-9)
    goal_fault: list[str] = field(default_factory=list)  # reference points that read clear: ``dead`` unknown

    def shot(self) -> dict[str, Any]:
        """The CW-9 ``shot`` input (null where the sensors cannot tell), with how many beam edges
        the strike made (CW-5.6)."""
        return {
            "type": "shot",
            "seat": self.seat,
            "coin": self.coin,
            "dead": self.dead,
            "flown": self.flown,
            "contacts": self.contacts,
            "beam_edges": self.edges,  # CW-5.6: 0 = nothing on the table confirmed the strike
            **({"contacts_open": self.contacts_open} if self.contacts_open and self.contacts is not None else {}),
        }


@dataclass(frozen=True)
class BeamRoles:
    surface: tuple[str, ...]  # beams a flat coin can block (goal proof)
    rail: tuple[str, ...]  # over-rail beams: only a coin leaving the table crosses them
    mouths: dict[str, str]  # beam id -> "A"/"B": across a goal mouth (CW-7.3)
    reference: tuple[str, ...] = ()  # goal points under fixed foil: always blocked while working


def classify(beams: Sequence[BeamConfig], r: float = geo.COIN_RADIUS_MM) -> BeamRoles:
    """Sort beams by what they can see, from geometry alone."""
    return _classify(tuple(beams), r)


@lru_cache(maxsize=16)
def _classify(beams: tuple[BeamConfig, ...], r: float) -> BeamRoles:
    surface, rail, mouths, reference = [], [], {}, []
    m0, m1 = geo.mouth_span()
    for b in beams:
        if b.reference:
            reference.append(b.id)
            continue
        if _reachable_by_flat_coin(b, r):
            surface.append(b.id)
            continue
        pts = [b.at] if b.kind == "point" else [b.a, b.b]
        ys = [p[1] for p in pts if p is not None]
        xs = [p[0] for p in pts if p is not None]
        in_mouth = min(xs) >= m0 - 1e-6 and max(xs) <= m1 + 1e-6
        if in_mouth and all(y < 0 for y in ys):
            mouths[b.id] = "A"
        elif in_mouth and all(y > geo.LENGTH_MM for y in ys):
            mouths[b.id] = "B"
        else:
            rail.append(b.id)
    return BeamRoles(tuple(surface), tuple(rail), mouths, tuple(reference))


def _reachable_by_flat_coin(beam: BeamConfig, r: float) -> bool:
    """Can a coin lying flat on the surface (centre inside the surface shrunk by r) block it?"""
    lo_x, hi_x, lo_y, hi_y = r, geo.WIDTH_MM - r, r, geo.LENGTH_MM - r
    if beam.kind == "point":
        assert beam.at is not None
        cx = min(max(beam.at[0], lo_x), hi_x)
        cy = min(max(beam.at[1], lo_y), hi_y)
        return math.hypot(cx - beam.at[0], cy - beam.at[1]) < r
    steps = 200
    assert beam.a is not None and beam.b is not None
    for i in range(steps + 1):
        x = beam.a[0] + (beam.b[0] - beam.a[0]) * i / steps
        y = beam.a[1] + (beam.b[1] - beam.a[1]) * i / steps
        cx, cy = min(max(x, lo_x), hi_x), min(max(y, lo_y), hi_y)
        if math.hypot(cx - x, cy - y) < r:
            return True
    return False


LEAF_MM = 0.05  # smallest cell of the proof's quadtree
# How long a coin flying over a rail blocks a rail-top beam: 30 mm at 0.4-5 m/s is 6-75 ms; allow
# a slow, low hop up to 0.2 s. Longer is a hand, a sleeve or a striker, never a fact.
COIN_PULSE_S = (0.002, 0.2)
FLIGHT_PROOFS = ("none", "rails")


# Mounting tolerances the goal proof allows for: a goal point's real aperture may sit this far from
# its config position, or trip this much later, and the proof stays sound. It covers the reflective
# spot's own figure, gametable_core/beam_optics.py ``GOAL_SPOT.tolerance_mm`` = 1.65 mm: drilling with the 1:1
# jig (hardware_docs/drilling_jig.svg) 0.65 mm (2 sigma), the printed plug's slack in its hole
# 0.1 mm, the aperture's offset in the plug 0.1 mm, the 1.2 mm aperture's radius 0.6 mm (the foil
# must cover all of it) and the foil's edge up to 0.2 mm inside the coin's (the foil covers the
# whole face, hardware_docs/beam_layout.md). Monte Carlo over these: benchmarks/bench_tolerances.py.
TOLERANCE_MM = 1.7


def _dead_masks(beams: tuple[BeamConfig, ...], r: float, tol: float = TOLERANCE_MM) -> tuple[frozenset[str], ...]:
    return _dead_masks_cached(beams, r, tol)


@lru_cache(maxsize=16)
# one quadtree walk: split up, its soundness argument (the docstring) would no longer read in one place
def _dead_masks_cached(beams: tuple[BeamConfig, ...], r: float, tol: float) -> tuple[frozenset[str], ...]:  # noqa: C901
    """Beams a dead coin surely blocks, for every cell of a quadtree over the dead-centre region.

    Every dead coin's centre lies in the goal shrunk by ``r`` (CW-4.1). For a square cell with
    centre q and half-diagonal h, a beam at distance d from q is blocked by *every* centre in the
    cell if d + h < r, by none if d - h >= r; otherwise the cell is split (down to ``LEAF_MM``) and a
    leaf keeps only the sure beams. So the proof is sound: a real dead coin blocks all beams of the
    mask of the cell holding its centre, and "no mask is fully blocked" means "no coin is dead".
    A beam counts as *surely* blocked only within ``r - tol``: a beam mounted up to ``tol`` off its
    config position (or tripping ``tol`` late) is still blocked by every centre of the cell.
    """
    sure_r = r - tol
    g = geo.GOAL
    x0, y0, x1, y1 = g.x0 + r, g.y0 + r, g.x1 - r, g.y1 - r
    masks: set[frozenset[str]] = set()
    side = 10.0
    stack: list[tuple[float, float, float, frozenset[str], tuple[BeamConfig, ...]]] = []
    ny, nx = math.ceil((y1 - y0) / side), math.ceil((x1 - x0) / side)
    for i in range(nx):
        for j in range(ny):
            stack.append((x0 + (i + 0.5) * side, y0 + (j + 0.5) * side, side, frozenset(), beams))
    while stack:
        cx, cy, s, sure, undecided = stack.pop()
        if cx - s / 2 > x1 or cy - s / 2 > y1:
            continue  # the start grid overshoots the region
        h = s * math.sqrt(2) / 2
        still = []
        for b in undecided:
            d = beam_distance(b, (cx, cy))
            if d + h < sure_r:
                sure = sure | {b.id}
            elif d - h < sure_r:
                still.append(b)
        if not still or s <= LEAF_MM:
            masks.add(sure)
            continue
        q = s / 4
        for dx in (-q, q):
            for dy in (-q, q):
                stack.append((cx + dx, cy + dy, s / 2, sure, tuple(still)))
    # a mask that contains another is redundant for "is some mask fully blocked?"
    ordered = sorted(masks, key=len)
    minimal: list[frozenset[str]] = []
    for m in ordered:
        if not any(k <= m for k in minimal):
            minimal.append(m)
    return tuple(minimal)


def dead_possible(beams: Sequence[BeamConfig], blocked: Iterable[str], r: float = geo.COIN_RADIUS_MM,
                  tol: float = TOLERANCE_MM) -> bool:
    """CW-4.1 proof at rest: could some coin lie entirely inside the goal, given these beams?"""
    blocked = frozenset(blocked)
    return any(mask <= blocked for mask in _dead_masks(tuple(beams), r, tol))


def uncovered_dead_region(beams: Sequence[BeamConfig], r: float = geo.COIN_RADIUS_MM,
                          tol: float = TOLERANCE_MM) -> bool:
    """True if the layout has dead-coin positions that surely block no beam, allowing ``tol`` of
    mounting error (it could never prove a miss there)."""
    return any(not m for m in _dead_masks(tuple(beams), r, tol))


def min_coins(points: Sequence[tuple[float, float] | None], r: float = geo.COIN_RADIUS_MM) -> int:
    """A lower bound on the coins covering these point beams: points 2r or more apart cannot share
    a coin, so the largest such set of points needs that many coins (few points: brute force)."""
    pts = [p for p in points if p is not None]
    best = 0
    for mask in range(1, 1 << len(pts)):
        chosen = [pts[i] for i in range(len(pts)) if mask >> i & 1]
        if len(chosen) > best and all(
            math.hypot(a[0] - b[0], a[1] - b[1]) >= 2 * r for i, a in enumerate(chosen) for b in chosen[i + 1 :]
        ):
            best = len(chosen)
    return best


class Observer:
    """Beam edges + strike starts -> :class:`ObservedStrike` through ``on_facts``."""

    def __init__(
        self,
        beams: Sequence[BeamConfig],
        clock: Clock,
        on_facts: Callable[[ObservedStrike], None],
        *,
        settle_s: float = 1.5,
        initially_blocked: Iterable[str] = (),
        public_state: Callable[[], dict[str, Any] | None] | None = None,
        flight_proof: str = "none",
    ) -> None:
        if not math.isfinite(settle_s) or settle_s <= 0:
            raise ValueError(f"settle_s must be a positive number of seconds, got {settle_s!r}")
        if flight_proof not in FLIGHT_PROOFS:
            raise ValueError(f"flight_proof must be one of {FLIGHT_PROOFS}, got {flight_proof!r}")
        self.flight_proof = flight_proof
        self.beams = tuple(beams)
        self._ids = {b.id for b in self.beams}
        self.roles = classify(self.beams)
        self.clock = clock
        self.on_facts = on_facts
        self.settle_s = settle_s
        self.blocked: set[str] = set(initially_blocked) & self._ids
        self._open: dict[str, Any] | None = None
        self._cancel: Callable[[], None] | None = None
        self.unknown_edges = 0
        self._public_state = public_state  # where strike_started learns the coins (the daemon's)
        self._points = {b.id: b.at for b in self.beams if b.kind == "point" and b.id in self.roles.surface}

    @classmethod
    def for_daemon(cls, config: Any, clock: Clock, daemon: Referee, *, settle_s: float = 1.5,
                   on_facts: Callable[[ObservedStrike], None] | None = None,
                   flight_proof: str = "none") -> Observer:
        """An observer for ``config.beams`` that submits its ``shot`` facts to ``daemon``
        (the Daemon API: ``submit``, ``public_state``) -- the wiring ``gametable run`` uses.

        ``on_facts`` replaces the submit: the virtual table takes the facts itself, to submit them
        (``--ask``) or only compare them with the ground truth it submits (``--truth``)."""
        return cls(config.beams, clock, on_facts or facts_submitter(daemon, clock), settle_s=settle_s,
                   public_state=daemon.public_state, flight_proof=flight_proof)

    def strike_started(self, seat: int, t: float | None = None) -> None:
        """A strike input was accepted for ``seat`` (the hardware glue's name for :meth:`strike`):
        the struck coin and the coins on the table come from the daemon's public state."""
        coin, on_table = None, None
        if self._open is not None and self._public_state is not None:
            # the daemon took a new strike, so the open one already ended (withdrawn, CW-5.6, or
            # shot from a phone): its facts would land on the new strike, so they are dropped
            self.close()
        state = self._public_state() if self._public_state is not None else None
        if state:
            coin = next((p.get("coin") for p in state.get("players", []) if p.get("seat") == seat), None)
            on_table = state.get("coins_on_table")
        self.strike(seat, coin if coin else f"c{seat}", coins_on_table=on_table)

    def beam_edge(self, beam_id: str, blocked: bool, t: float) -> None:
        """A debounced beam edge as three values (the hardware glue's form of :meth:`on_edge`)."""
        self.on_edge(BeamEdge(beam_id, blocked, t))

    # --- inputs --------------------------------------------------------------------------------

    def strike(self, seat: int, coin: str | None = None, *, coins_on_table: Sequence[str] | None = None) -> None:
        """A strike started (striker -> seat). A strike still open is closed first."""
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 1:
            raise ValueError(f"seat must be a positive integer, got {seat!r}")
        if self._open is not None:
            self._finish()
        self._open = {
            "seat": seat,
            "coin": coin if coin is not None else f"c{seat}",
            "alone": coins_on_table is not None and list(coins_on_table) == [coin or f"c{seat}"],
            "started": self.clock.now(),
            "rail": 0,
            "rail_since": {},  # rail beam -> when it went blocked inside this strike's window
            "mouths": {},
            "edges": 0,
            "ref_lost": set(self.roles.reference) - self.blocked,  # a reference point read clear
        }
        self._arm()

    def on_edge(self, edge: BeamEdge) -> None:
        """A debounced beam edge, from the real beams or the virtual ones (the platform's one door)."""
        beam_id, blocked = edge.beam_id, bool(edge.blocked)
        if beam_id not in self._ids:
            self.unknown_edges += 1  # not in the layout: ignore, count for diagnostics
            return
        changed = blocked != (beam_id in self.blocked)
        if blocked:
            self.blocked.add(beam_id)
        else:
            self.blocked.discard(beam_id)
        s = self._open
        if s is None:
            return
        if changed:
            s["edges"] += 1  # CW-5.6: a repeated level (e.g. a bank reading its pins afresh) shows nothing
        if beam_id in self.roles.rail:
            self._rail_edge(s, beam_id, blocked, float(edge.t))
        if not blocked and beam_id in self.roles.reference:
            s["ref_lost"].add(beam_id)  # for a moment is enough: a flickering carrier proves nothing
        if blocked and beam_id in self.roles.mouths:
            m = self.roles.mouths[beam_id]
            s["mouths"][m] = s["mouths"].get(m, 0) + 1
        self._arm()

    def flush(self) -> None:
        """Report the open strike now (e.g. the virtual table knows the coins are at rest)."""
        if self._open is not None:
            self._finish()

    def close(self) -> None:
        """Cancel the pending settle timer (nothing is reported after this)."""
        if self._cancel:
            self._cancel()
            self._cancel = None
        self._open = None

    stop = close  # the hardware glue stops its parts with stop()

    @property
    def open_coin(self) -> str | None:
        """The struck coin of the open strike (None: no strike open)."""
        return self._open["coin"] if self._open is not None else None

    @property
    def busy(self) -> bool:
        """A strike is open (coins not yet known to be at rest)."""
        return self._open is not None

    # --- internals -----------------------------------------------------------------------------

    def _rail_edge(self, s: dict[str, Any], beam_id: str, blocked: bool, t: float) -> None:
        """Count a rail pulse only if it starts inside the strike and lasts as long as a coin's."""
        since = s["rail_since"]
        if blocked:
            if t >= s["started"] - 1e-9:  # an edge from before the strike is not this strike's
                since[beam_id] = t
            return
        start = since.pop(beam_id, None)
        if start is not None and COIN_PULSE_S[0] <= t - start <= COIN_PULSE_S[1]:
            s["rail"] += 1

    def _arm(self) -> None:
        if self._cancel:
            self._cancel()
        self._cancel = self.clock.call_later(self.settle_s, self._settled)

    def _settled(self) -> None:
        self._cancel = None
        if self._open is not None:
            self._finish()

    def _finish(self) -> None:
        s, self._open = self._open, None
        if self._cancel:
            self._cancel()
            self._cancel = None
        assert s is not None
        surface_blocked = self.blocked & set(self.roles.surface)
        fault = sorted(s["ref_lost"] | (set(self.roles.reference) - self.blocked))
        # a goal point reads "blocked" only while it sees a reflection: with its carrier, emitter or
        # cable gone every point reads clear, so "no coin died" holds only while the reference does
        possible = bool(fault) or dead_possible(self.beams, surface_blocked)
        goal_points = sorted(b for b in surface_blocked if b in self._points)
        facts = ObservedStrike(
            seat=s["seat"],
            coin=s["coin"],
            dead=None if possible else [],
            flown=self._flown(s),
            contacts=[] if s["alone"] else None,
            goal_possible=possible,
            goal_points=goal_points,
            goal_min_coins=min_coins([self._points[b] for b in goal_points]),
            rail_crossings=s["rail"],
            mouth_crossings=dict(s["mouths"]),
            edges=s["edges"],
            goal_fault=fault,
            started=s["started"],
            settled=self.clock.now(),
        )
        self.on_facts(facts)

    def _flown(self, s: dict[str, Any]) -> list[str] | None:
        """``[]`` only when the geometry proves nobody flew (CW-8); else unknown (``None``)."""
        if s["rail"] or s["mouths"]:
            return None  # a coin crossed a rail, or a mouth (the ball or a flown coin): who is unknown
        if any(b in self.blocked for b in s["rail_since"]):
            return None  # a rail beam blocked at rest since the strike: a coin on the rail, or a hand
        return [] if self.flight_proof == "rails" else None


def facts_submitter(daemon: Referee, clock: Clock) -> Callable[[ObservedStrike], None]:
    """Submits a strike's facts to ``daemon`` as the ``shot`` input (source ``observer``), with a
    command id that never repeats across runs; a strike no longer in flight submits nothing."""
    counter = iter(range(1, 1 << 62))

    def submit(facts: ObservedStrike) -> None:
        state = daemon.public_state()
        if isinstance(state, dict) and state.get("striking") is False:
            # CW-5.6: the strike was withdrawn (or its shot came from a phone): a shot now would
            # count as a new strike of its own
            log.info("observer: seat %s's strike is no longer in flight; its facts are not submitted", facts.seat)
            return
        shot = facts.shot() | {"id": f"obs-{int(clock.wall() * 1000)}-{next(counter)}"}
        try:
            result = daemon.submit(shot, source="observer")
        except Exception as exc:  # e.g. the daemon stopped while a settle timer was pending
            log.warning("observer: could not submit the shot: %s", exc)
            return
        if not result.get("ok"):
            log.warning("observer: shot rejected: %s", result.get("error"))

    return submit


# --- strikers: a frame from the serial link -> the ``strike`` input (the real table's turn rule) ---

def strike_input(frame: dict[str, Any], strikers: dict[str, int]) -> dict[str, Any] | None:
    """Map a ``strike`` frame to the input ``{"type":"strike","seat":S}`` via config ``[strikers]``.

    Returns None for any other frame and for a striker that no seat owns (an unassigned striker
    being waved about must not start anyone's strike).
    """
    if frame.get("t") != "strike":
        return None
    seat = strikers.get(sid) if isinstance(sid := frame.get("id"), str) else None  # ids are strings ([strikers])
    if seat is None:
        return None
    return {"type": "strike", "seat": seat}


def out_of_turn(inp: dict[str, Any], frame: dict[str, Any], view: Any) -> dict[str, Any] | None:
    """The ``sensors/striker`` report for a strike from a seat whose turn it is not, else None.

    Such a strike is reported, never applied: only the seat in ``view["turn"]`` (the game's table
    view) may strike, so a striker knocked or waved at another seat cannot move the game on."""
    turn = view["turn"] if view else None
    if turn and turn["seat"] == inp["seat"]:
        return None
    return {"event": "strike_out_of_turn", "seat": inp["seat"], "striker": frame.get("id"),
            "message": f"seat {inp['seat']} struck out of turn"}
