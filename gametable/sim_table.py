"""The virtual table: the platform object of `gametable sim` (pymunk physics instead of the hardware).

Why a module of its own: tests, benchmarks and the serving loop drive a :class:`VirtualTable`
directly, without the CLI, the demo or MQTT around it.

:class:`VirtualTable` is the platform object: on a flick it submits ``strike``, runs the physics,
drives the beams from coin geometry, then submits the ``shot`` -- the ground truth (``--truth``) or
what the observer made of the beams (``--ask``, questions then answered from the ground truth, as
docs/architecture.md says) -- places coins the rules ask to be placed, and plays bot seats.

It knows no game: what a game puts on the table, what a strike means to it and how its bots aim
come from the game's virtual parts (``controller/virtual_parts.py``, looked up by
:func:`virtual_parts`); the physics, the beams following it and the virtual sensors are ``sensors/virtual/``.

It talks to the daemon only through the Daemon API (``submit``, ``public_state``, ``add_listener``),
so tests can use a small fake daemon and the CLI the real one. How strikes and beams reach the
daemon is the job of one :class:`gametable.sim_platform.TablePlatform`, chosen once in
:func:`gametable.sim.run_sim` (no ``if rig`` forks in the table):

- *sensors* (:class:`~gametable.sim_platform.SensorPlatform` on a
  :class:`gametable.sim_rig.SimHardware`; the default of ``gametable sim`` at ``--speed`` <= 2):
  the flick is a striker frame through a pty and the beams are MockFactory pins read by the Pi's
  own ``BeamBank``/``Hardware``/observer, so the strike and (``--ask``) the
  observed facts reach the daemon exactly as on a real table;
- *ground truth* (:class:`~gametable.sim_platform.TruthPlatform`; ``--direct``, fast headless
  runs, where real-time debounce cannot keep up): the simulator submits
  ``strike`` itself and the virtual beams feed its own observer on the injected clock.
"""

from __future__ import annotations

import logging
import math
import random
import re
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from controller.bot_runner import coin_choices
from controller.command_ids import CommandIds
from controller.default_table import default_beams
from controller.games import GameError, get_game
from controller.referee_api import TableReferee
from controller.virtual_parts import UNKNOWN, VirtualParts
from gametable.sim_platform import SimError, TablePlatform, platform_for
from gametable.sim_resting import resting_for
from gametable.sim_rig import SimHardware
from gametable_core.clock import Clock
from gametable_core.config import BeamConfig
from sensors.virtual.flying import FlyModel
from sensors.virtual.paced_beams import PacedBeams
from sensors.virtual.physics import PhysicsParams, Point, StrikeTruth, TablePhysics
from sensors.virtual.random_shots import free_spot_near
from sensors.virtual.virtual_beams import VirtualBeams

if TYPE_CHECKING:  # --camera only: OpenCV and numpy are the optional [camera] extra
    from sensors.virtual.camera_feed import VirtualCamera

log = logging.getLogger("gametable.sim")  # the name the sim has always logged under


BOT_NAME = re.compile(r"^bot( [1-6])?$", re.IGNORECASE)


def virtual_parts(state: dict[str, Any] | None) -> VirtualParts | None:
    """The virtual parts (``controller/virtual_parts.py``) of the game in a public ``state``; None:
    no game, or one with nothing on the table (its bots still play through the bot runner)."""
    if not state:
        return None
    try:
        game = get_game(state.get("game"))
    except GameError:  # a game the table no longer offers (an old journal): nothing to simulate
        return None
    make = getattr(game, "virtual_parts", None)
    parts: VirtualParts | None = make(state) if make is not None else None
    return parts


def bot_seats(players: Any) -> set[int]:
    """The seats a new game gives to the simulator's bots: the lobby's per-seat toggle
    (``"bot": true``), or a seat named exactly "Bot" / "Bot N" (commands typed by hand, old journals)."""
    seats: set[int] = set()
    for p in players if isinstance(players, list) else []:
        if isinstance(p, dict) and isinstance(p.get("seat"), int):
            if p.get("bot") is True or BOT_NAME.match(str(p.get("name", "")).strip()):
                seats.add(p["seat"])
    return seats


class VirtualTable:
    """The virtual table platform for one daemon."""

    def __init__(
        self,
        daemon: TableReferee,
        clock: Clock,
        *,
        beams: Sequence[BeamConfig] | None = None,
        seed: int = 1,
        ask: bool = False,
        speed: float = 1.0,
        bots: Iterable[int] = (),
        fly: FlyModel | None = None,
        params: PhysicsParams | None = None,
        settle_s: float = 1.5,
        on_blocked: Callable[[frozenset[str]], None] | None = None,
        bot_seed: int | None = None,
        rig: SimHardware | None = None,
        platform: TablePlatform | None = None,
        camera: VirtualCamera | None = None,
    ) -> None:
        if not math.isfinite(speed) or speed <= 0:
            raise SimError(f"speed must be a positive number, got {speed!r}")
        self.daemon = daemon
        self.clock = clock
        self.camera = camera  # --camera: the facts come from its frames (through the observer), never the truth
        self.ask = ask or camera is not None
        self.speed = speed
        self.fixed_bots = set(bots)  # bots in every game (a caller's own table); `gametable sim` passes none
        resumed = daemon.public_state() or {}
        # a resumed game's too: its new_game's bots and any seat the host handed over ("bots")
        self.bots = self.fixed_bots | bot_seats(resumed.get("players")) | set(resumed.get("bots") or [])
        self.seed = seed
        self.bot_seed = seed if bot_seed is None else bot_seed
        self.physics = TablePhysics(params, fly, seed=seed)
        self.rng = random.Random(seed ^ 0x5EED)
        self.initial: dict[str, Point] = {}
        journal = getattr(daemon, "journal", None)  # a restart puts the coins back where they rested
        self.resting = resting_for(getattr(journal, "path", None))
        self._facts: list[Any] = []  # the observer's facts of a strike (the game's own type)
        self._facts_ready = threading.Event()
        # the platform (how strikes and beams reach the daemon) is chosen once, by the caller
        self.platform: TablePlatform = platform or platform_for(
            rig, default_beams() if beams is None else beams, clock, on_blocked)
        self.beams = self.platform.beams
        self.last_observed: Any = None  # --truth on the sensor path: what the beams saw
        self._strikes: list[dict[str, Any]] = []  # strike inputs the daemon accepted (from any source)
        self._strike_seen = threading.Condition()
        self.platform.start(daemon, self._on_facts, settle_s)
        if camera is not None:
            camera.door = self.platform.camera_frame
        self.observer = self.platform.observer
        on_blocked = self.platform.drive
        self.on_blocked = on_blocked
        self.vbeams = VirtualBeams(self.beams, None if on_blocked else self.observer.on_edge)
        self.paced = PacedBeams(self.vbeams, clock, speed)  # the beams follow the physics on the clock
        self._new_game = False
        self._set_up = False
        self.parts: VirtualParts | None = None  # the virtual parts of the game being played
        self._parts_of: tuple[Any, Any] | None = None  # (game, mode) they were made for
        self.turn_coin: tuple[int, str] | None = None  # (seat, coin) struck in the current turn
        self.on_change: Callable[[dict[str, Point]], None] | None = None  # coins moved (e.g. -> MQTT)
        self.moving = False  # a strike is being played out (the panel animates the coins)
        self._last_frame = 0.0
        self.last_truth: StrikeTruth | None = None
        self.log: list[dict[str, Any]] = []  # every command submitted and its result, for diagnostics
        self._ids = CommandIds("sim")  # never repeats across runs: a restart reuses the journal
        self._lock = threading.RLock()
        self.act: Callable[[], int] | None = None  # e.g. BotRunner.poll: bots' non-shot decisions first
        self.bot_pause_s = 0.0  # serve(): seconds between two bot moves (a demo game people can follow)
        daemon.add_listener(self._on_input)

    def _on_input(self, cmd: dict[str, Any], public_state: dict[str, Any] | None) -> None:
        """Daemon listener: only notes a new game (and its bot seats) and strikes (no submits from
        inside a listener)."""
        if cmd.get("type") == "new_game":
            self._new_game = True
            self.bots = self.fixed_bots | bot_seats(cmd.get("players"))
        elif cmd.get("type") == "seat_to_bot" and isinstance(cmd.get("seat"), int):
            self.bots = self.bots | {cmd["seat"]}  # the host handed a gone phone's seat to a bot
        elif cmd.get("type") == "strike":
            with self._strike_seen:
                self._strikes.append(dict(cmd))
                self._strike_seen.notify_all()

    # --- talking to the daemon -------------------------------------------------------------------

    def submit(self, cmd: dict[str, Any]) -> dict[str, Any]:
        cmd = {**cmd, "id": cmd.get("id") or self._ids()}
        result = self.daemon.submit(cmd, source="sim")
        self.log.append({"cmd": cmd, "result": result})
        if not result.get("ok"):
            log.warning("sim: %s rejected: %s", cmd.get("type"), result.get("error"))
        return result

    def state(self) -> dict[str, Any] | None:
        return self.daemon.public_state()

    # --- keeping the coins in line with the game ---------------------------------------------------

    def sync(self) -> None:
        """Set up a new game's coins, drop coins of players who are out, place pending coins."""
        with self._lock:
            st = self.state()
            parts = self._parts(st)
            if st is None or parts is None:
                return
            if (self._new_game or not self._set_up) and st.get("phase") == "playing":
                # a new game (or a game resumed from the journal): coins at their initial positions
                self._setup(st)
                self._new_game = False
                self._set_up = True
            self._drop_out_coins(st, parts)
            self._place_pending(st)

    def _parts(self, st: dict[str, Any] | None) -> VirtualParts | None:
        """The virtual parts of the game in ``st``, made again only when the game or mode changes."""
        key = (st.get("game"), st.get("mode")) if st else None
        if key != self._parts_of:
            self._parts_of = key
            self.parts = virtual_parts(st)
        return self.parts

    def _setup(self, st: dict[str, Any]) -> None:
        parts = self._parts(st)
        if parts is None:
            return
        params = parts.physics(self.physics.params)
        if params != self.physics.params:  # e.g. CW-7.3: football tables have goal mouths
            self.physics = TablePhysics(params, self.physics.fly, seed=self.seed)
        self.physics.clear()
        self.initial.clear()
        # a game resumed from the journal: its coins where they rested before the restart
        rested = self.resting.load(self._game_id()) if self.resting and not self._new_game else {}
        for coin, seat, on_table in parts.coins(st):
            spot = parts.initial_spot(coin, seat)
            self.initial[coin] = spot
            if on_table:
                self.physics.place(coin, *rested.get(coin, spot))
        self._beams_to(self.physics.positions())

    def _game_id(self) -> str:
        """The current game's ``new_game`` id: whose coins the resting file holds."""
        opening = self.daemon.table.opening() if hasattr(self.daemon, "table") else None
        return str((opening or {}).get("id") or "")

    def _drop_out_coins(self, st: dict[str, Any], parts: VirtualParts) -> None:
        """Coins the game no longer has on the table (e.g. executed, CW-6.4) leave the physics too."""
        keep = {coin for coin, _, on_table in parts.coins(st) if on_table}
        pending = {p["coin"] for p in st.get("pending_placements") or []}
        for coin in set(self.physics.coins()) - keep - pending:
            self.physics.remove(coin)
            self._beams_to(self.physics.positions())

    def _place_pending(self, st: dict[str, Any]) -> None:
        for item in list(st.get("pending_placements") or []):
            coin = item.get("coin")
            spot = self.spot_for(coin, item.get("where", "normal"))
            self.physics.place(coin, *spot)
            self._beams_to(self.physics.positions())
            self.submit({"type": "placed", "coin": coin})

    def spot_for(self, coin: str, where: str) -> Point:
        """Where the physics puts a coin back: its initial position, or a free normal spot
        close to where it left the table (CW-6.2-6.4, CW-7.4)."""
        first = self.initial.get(coin) if where == "initial" else self.physics.off_table().get(coin)
        return free_spot_near(self.physics, coin, first, self.rng)

    def _beams_to(self, positions: dict[str, Point]) -> None:
        """Coins moved by hand (outside a strike): update the beams (edges reach the observer)."""
        if self.on_change:
            self.on_change(dict(positions))
        if self.resting:
            self.resting.save(self._game_id(), positions)
        self.paced.moved(positions, self.on_blocked)

    # --- a strike ---------------------------------------------------------------------------------

    def flick(self, coin: str, vx: float, vy: float) -> dict[str, Any]:
        """Play one strike of the seat whose turn it is: strike -> physics -> shot (-> answers)."""
        with self._lock:
            self.sync()
            st = self.state()
            parts = self.parts
            if not st or parts is None or st.get("phase") != "playing" or not st.get("turn"):
                raise SimError("no game with coins on the table is being played")
            seat = st["turn"]["seat"]
            if coin not in self.physics.coins():
                raise SimError(f"coin {coin!r} is not on the table")
            if self.camera is not None:  # the hand and pen come in before the striker's strike
                self.camera.set_seats({c: s for c, s, _ in parts.coins(st)}, self.physics.positions())
                self.camera.hand_in(self.physics.positions(), coin, vx, vy)
            result = self.platform.strike(self, seat, coin, math.hypot(vx, vy), st)
            if not result.get("ok"):
                return result
            self._facts.clear()  # a strike still open was closed by this one: its facts are stale
            self._facts_ready.clear()
            self.moving = True
            try:
                if self.camera is not None:
                    truth = self.camera.flick(self.physics, coin, vx, vy, on_step=self._on_step)
                else:
                    truth = self.physics.flick(coin, vx, vy, on_step=self._on_step)
            finally:
                self.moving = False
            self.last_truth = truth
            shot = self._shot_of(parts, seat, coin, truth)
            self.turn_coin = (seat, coin)
            self._beams_to(self.physics.positions())  # dead coins are taken off the table (CW-4.2)
            result = self.submit(shot)
            if result.get("ok"):
                # on the sensor path with --ask the questions go to the phones as on a real table:
                # only bot seats answer (from the truth); the ground-truth platform answers them all
                to_phones = self.ask and self.platform.questions_to_phones
                self.answer_questions(truth, seats=self.bots if to_phones else None)
                self.sync()
            return result

    def _shot_of(self, parts: VirtualParts, seat: int, coin: str, truth: StrikeTruth) -> dict[str, Any]:
        """The ``shot`` input of a strike that has come to rest: the observer's facts (``--ask``)
        or the ground truth (checked against what the observer saw, on the real path); the game's
        parts make the input of either."""
        if not self.platform.settled(self.vbeams.state):
            log.warning("sim: the debounced beams did not catch up with the coins")
        if self.ask:
            return parts.shot(seat, coin, truth, self._await_facts())
        self.observer.flush()  # ground truth: close the observer's strike window now
        shot = parts.shot(seat, coin, truth, None)
        if self.platform.checks_truth and self._facts:
            self.last_observed = self._facts[-1]
            parts.compare(self.last_observed, truth)
        self._facts.clear()
        self._facts_ready.clear()
        return shot

    def strikes_seen(self) -> int:
        """How many ``strike`` inputs the daemon has accepted so far (from any source)."""
        with self._strike_seen:
            return len(self._strikes)

    def await_strike(self, before: int, timeout_s: float) -> dict[str, Any] | None:
        """The latest accepted ``strike`` once more than ``before`` were seen; None after ``timeout_s``
        (a bounded wait for real I/O: a frame's trip through the pty and the link thread)."""
        deadline = time.monotonic() + timeout_s
        with self._strike_seen:
            while len(self._strikes) == before:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._strike_seen.wait(min(left, 0.1))
            return self._strikes[-1]

    def _on_step(self, t: float, positions: dict[str, Point]) -> None:
        now = self.clock.now()
        if self.on_change and now - self._last_frame >= 0.05:  # ~20 frames a second for the panel
            self._last_frame = now
            self.on_change(dict(positions))
        self.paced.step(t, self.physics.dt, positions, self.on_blocked)

    def _on_facts(self, facts: Any) -> None:
        self._facts.append(facts)
        self._facts_ready.set()

    def _await_facts(self) -> Any:
        """Let the observer see the coins at rest for its settle time, then take its facts."""
        advance = getattr(self.clock, "advance", None)
        if advance is not None:
            advance(self.observer.settle_s + 0.01)
        else:
            self._facts_ready.wait(self.observer.settle_s + 2.0)
        if not self._facts:
            raise SimError("the observer did not report the strike")
        self._facts_ready.clear()
        return self._facts.pop()

    # --- questions (CW-8): in the virtual table the ground truth answers --------------------------

    def answer_questions(self, truth: StrikeTruth, seats: Iterable[int] | None = None) -> None:
        """Answer the engine's questions from the truth; with ``seats`` only those addressed to them."""
        allowed = None if seats is None else set(seats)
        parts = self.parts
        if parts is None:
            return  # nothing on the table: no truth to answer from
        for _ in range(10):
            st = self.state() or {}
            qs = [q for q in st.get("questions") or [] if allowed is None or set(q.get("seats") or ()) <= allowed]
            if not qs:
                return
            q = qs[0]
            value = parts.answer(q, truth, st)
            if value is UNKNOWN:
                log.warning("sim: cannot answer question %s (%s) from the physics", q.get("id"), q.get("kind"))
                return
            if not self.submit({"type": "answer", "question": q["id"], "value": value}).get("ok"):
                return

    # --- bots -------------------------------------------------------------------------------------

    def play_bots(self, max_moves: int = 1000) -> int:
        """Play while it is a bot seat's turn; returns how many inputs of the bots were accepted
        (0 when nothing could be done, e.g. the engine waits for a decision bots do not make)."""
        done = 0
        for i in range(max_moves):
            self.sync()
            st = self.state()
            if not st or st.get("phase") != "playing" or not st.get("turn"):
                break
            if self.act is not None and self.act():
                done += 1  # the bot runner made a card move, answer or end_turn (not a shot)
                continue
            parts = self.parts  # None: nothing on the table, the game's bots play through the runner only
            seat = st["turn"]["seat"]
            if parts is None or seat not in self.bots or st.get("questions") or st.get("pending_placements"):
                break
            view = self.daemon.seat_view(seat)  # None: a referee without seat views (a test double)
            legal_coins = coin_choices(view) if view is not None else None
            if view is not None and legal_coins is None and self.act is not None:
                break  # no shot is legal now (e.g. a Three Kingdoms pause) and the runner had nothing
            if st["turn"].get("strikes", 0) >= st.get("strikes_allowed", 2):
                if not self.submit({"type": "end_turn", "seat": seat}).get("ok"):
                    break
                done += 1
                continue
            same = self.turn_coin[1] if self.turn_coin and self.turn_coin[0] == seat and st["turn"].get("strikes") else None
            try:
                coin, vx, vy = parts.plan(self.physics.positions(), st, seat, self.bot_seed + i,
                                          [same] if same else legal_coins)
            except ValueError as exc:  # the bot cannot strike now (one readable line)
                log.warning("sim: bot for seat %s: %s", seat, exc)
                if not self.submit({"type": "end_turn", "seat": seat}).get("ok"):
                    break
                done += 1
                continue
            before = st["turn"].get("strikes", 0)
            if not self.flick(coin, vx, vy).get("ok"):
                break
            done += 1
            turn = (self.state() or {}).get("turn") or {}
            if turn.get("seat") == seat and turn.get("strikes", 0) == before:
                break  # nothing moved on: do not loop forever
        return done
