"""`gametable sim`: the daemon on the virtual table (pymunk physics instead of the hardware).

:class:`VirtualTable` is the platform object: on a flick it submits ``strike``, runs the physics,
drives the beams from coin geometry, then submits the ``shot`` -- the ground truth (``--truth``) or
what the observer made of the beams (``--ask``, questions then answered from the ground truth, as
architecture.md says) -- places coins the rules ask to be placed, and plays bot seats.

It talks to the daemon only through the Daemon API (``submit``, ``public_state``, ``add_listener``),
so tests can use a small fake daemon and the CLI the real one. How strikes and beams reach the
daemon is the job of one :class:`gametable.sim_platform.TablePlatform`, chosen once in
:func:`run_sim` (issue 11, item 5: no ``if rig`` forks in the table):

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

import argparse
import logging
import math
import random
import re
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

from controller.bot_runner import BotRunner, coin_choices
from controller.command_ids import CommandIds, new_id
from controller.default_table import default_beams
from controller.games import GameError, get_game
from controller.games.coinwar.sensing import ObservedStrike
from controller.games.coinwar.shot_planner import BotError, plan
from controller.games.coinwar.virtual_table import (
    BALL,
    UNKNOWN,
    Point,
    answer_from_truth,
    coins_of,
    compare_with_truth,
    initial_spot,
)
from controller.referee_api import TableReferee
from controller.topics import Topics, client_id
from core import table_geometry as geo
from core.clock import Clock
from core.config import BeamConfig, Config
from gametable import bot_game
from gametable.sim_platform import SensorPlatform, SimError, TablePlatform, TruthPlatform, platform_for
from gametable.sim_rig import MAX_SPEED, SimHardware, SimHardwareError, direct_reason
from virtual.flying import FlyModel
from virtual.physics import PhysicsParams, StrikeTruth, TablePhysics
from virtual.random_shots import random_normal_spots
from virtual.virtual_beams import VirtualBeams

log = logging.getLogger("gametable.sim")


BOT_NAME = re.compile(r"^bot( [1-6])?$", re.IGNORECASE)


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
    ) -> None:
        if not math.isfinite(speed) or speed <= 0:
            raise SimError(f"speed must be a positive number, got {speed!r}")
        self.daemon = daemon
        self.clock = clock
        self.ask = ask
        self.speed = speed
        self.fixed_bots = set(bots)  # bots in every game (a caller's own table); `gametable sim` passes none
        self.bots = self.fixed_bots | bot_seats((daemon.public_state() or {}).get("players"))  # a resumed game's too
        self.seed = seed
        self.bot_seed = seed if bot_seed is None else bot_seed
        self.physics = TablePhysics(params, fly, seed=seed)
        self.rng = random.Random(seed ^ 0x5EED)
        self.initial: dict[str, Point] = {}
        self._facts: list[ObservedStrike] = []
        self._facts_ready = threading.Event()
        # the platform (how strikes and beams reach the daemon) is chosen once, by the caller
        self.platform: TablePlatform = platform or platform_for(
            rig, default_beams() if beams is None else beams, clock, on_blocked)
        self.beams = self.platform.beams
        self.last_observed: ObservedStrike | None = None  # --truth on the sensor path: what the beams saw
        self._strikes: list[dict[str, Any]] = []  # strike inputs the daemon accepted (from any source)
        self._strike_seen = threading.Condition()
        self.platform.start(daemon, self._on_facts, settle_s)
        self.observer = self.platform.observer
        on_blocked = self.platform.drive
        self.on_blocked = on_blocked
        self.vbeams = VirtualBeams(self.beams, None if on_blocked else self.observer.on_edge)
        self._new_game = False
        self._set_up = False
        self.turn_coin: tuple[int, str] | None = None  # (seat, coin) struck in the current turn
        self.on_change: Callable[[dict[str, Point]], None] | None = None  # coins moved (e.g. -> MQTT)
        self.moving = False  # a strike is being played out (the panel animates the coins)
        self._last_frame = 0.0
        self.last_truth: StrikeTruth | None = None
        self.log: list[dict[str, Any]] = []  # every command submitted and its result, for diagnostics
        self._ids = CommandIds("sim")  # never repeats across runs: a restart reuses the journal
        self._lock = threading.RLock()
        self._owed = 0.0
        self.act: Callable[[], int] | None = None  # e.g. BotRunner.poll: bots' non-shot decisions first
        self.bot_pause_s = 0.0  # serve(): seconds between two bot moves (a demo game people can follow)
        daemon.add_listener(self._on_input)

    def _on_input(self, cmd: dict[str, Any], public_state: dict[str, Any] | None) -> None:
        """Daemon listener: only notes a new game (and its bot seats) and strikes (no submits from
        inside a listener)."""
        if cmd.get("type") == "new_game":
            self._new_game = True
            self.bots = self.fixed_bots | bot_seats(cmd.get("players"))
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
            if not st or st.get("game") != "coinwar":
                return
            if (self._new_game or not self._set_up) and st.get("phase") == "playing":
                # a new game (or a game resumed from the journal): coins at their initial positions
                self._setup(st)
                self._new_game = False
                self._set_up = True
            self._drop_out_coins(st)
            self._place_pending(st)

    def _setup(self, st: dict[str, Any]) -> None:
        football = st.get("mode") == "football"
        if football != self.physics.params.mouths:  # CW-7.3: football tables have goal mouths
            self.physics = TablePhysics(replace(self.physics.params, mouths=football), self.physics.fly, seed=self.seed)
        self.physics.clear()
        self.initial.clear()
        for coin, seat, on_table in coins_of(st):
            spot = initial_spot(coin, seat)
            self.initial[coin] = spot
            if on_table:
                self.physics.place(coin, *spot)
        self._beams_to(self.physics.positions())

    def _drop_out_coins(self, st: dict[str, Any]) -> None:
        """Coins the game no longer has on the table (e.g. executed, CW-6.4) leave the physics too."""
        keep = {coin for coin, _, on_table in coins_of(st) if on_table}
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
        taken = {c: p for c, p in self.physics.positions().items() if c != coin}
        first = self.initial.get(coin) if where == "initial" else self.physics.off_table().get(coin)
        if first is not None:
            r = geo.COIN_RADIUS_MM
            p = (min(max(first[0], r + 1), geo.WIDTH_MM - r - 1), min(max(first[1], r + 1), geo.LENGTH_MM - r - 1))
            for ring in range(0, 200, 10):
                for k in range(12 if ring else 1):
                    a = k * math.pi / 6
                    q = (p[0] + ring * math.cos(a), p[1] + ring * math.sin(a))
                    if geo.is_normal_position(q) and self.physics.can_place(coin, *q) is None:
                        return q
        return random_normal_spots(self.rng, 1, taken)[0]

    def _beams_to(self, positions: dict[str, Point]) -> None:
        """Coins moved by hand (outside a strike): update the beams (edges reach the observer)."""
        if self.on_change:
            self.on_change(dict(positions))
        if self.on_blocked:
            self.vbeams.state = self.vbeams.compute(positions.values())
            self.on_blocked(self.vbeams.state)
        else:
            self.vbeams.update(self.clock.now(), positions)

    # --- a strike ---------------------------------------------------------------------------------

    def flick(self, coin: str, vx: float, vy: float) -> dict[str, Any]:
        """Play one strike of the seat whose turn it is: strike -> physics -> shot (-> answers)."""
        with self._lock:
            self.sync()
            st = self.state()
            if not st or st.get("phase") != "playing" or not st.get("turn"):
                raise SimError("no Coin War game is being played")
            seat = st["turn"]["seat"]
            if coin not in self.physics.coins():
                raise SimError(f"coin {coin!r} is not on the table")
            result = self.platform.strike(self, seat, coin, math.hypot(vx, vy), st)
            if not result.get("ok"):
                return result
            self._facts.clear()  # a strike still open was closed by this one: its facts are stale
            self._facts_ready.clear()
            self.moving = True
            try:
                truth = self.physics.flick(coin, vx, vy, on_step=self._on_step)
            finally:
                self.moving = False
            self.last_truth = truth
            shot = self._shot_of(seat, coin, truth)
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

    def _shot_of(self, seat: int, coin: str, truth: StrikeTruth) -> dict[str, Any]:
        """The ``shot`` input of a strike that has come to rest: the observer's facts (``--ask``)
        or the ground truth (checked against what the observer saw, on the real path)."""
        football = self.physics.params.mouths
        if football:
            # CW-7.3: a team coin through a mouth is a flown coin; the ball through one is a goal
            truth.flown = sorted(set(truth.flown) | {c for c in truth.mouths if c != BALL})
        if not self.platform.settled(self.vbeams.state):
            log.warning("sim: the debounced beams did not catch up with the coins")
        if self.ask:
            facts = self._await_facts()
            shot = facts.shot()  # the struck coin is the one the player dragged (not a beam fact)
        else:
            self.observer.flush()  # ground truth: close the observer's strike window now
            if self.platform.checks_truth and self._facts:
                self.last_observed = self._facts[-1]
                compare_with_truth(self.last_observed, truth)
            self._facts.clear()
            self._facts_ready.clear()
            shot = truth.shot(seat)
        shot["coin"] = coin
        if football:
            # beams cannot tell the ball from a team coin in a mouth: the mouth comes from the truth
            shot["mouth"] = truth.mouths.get(BALL)
            if shot["dead"] is None:
                shot["dead"] = []  # nothing dies in football
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
        new = self.vbeams.compute(positions.values()) if self.on_blocked else None
        changed = new is not None and new != self.vbeams.state
        if t > 0:
            # pace the physics on the injected clock: a fake clock advances at once, a real one sleeps
            # in slices of >= 10 ms (per-step sleeps of 4 ms would be dominated by overhead) -- but
            # before a pin changes it catches up, so every beam level lasts its real (scaled) time
            # and a short pulse is not squeezed below the bank's debounce
            self._owed += self.physics.dt / self.speed
            if self._owed >= 0.01 or changed or hasattr(self.clock, "advance"):
                self.clock.sleep(self._owed)
                self._owed = 0.0
        if new is not None and self.on_blocked is not None:
            if changed:
                self.vbeams.state = new
                self.on_blocked(new)
        else:
            self.vbeams.update(self.clock.now(), positions)

    def _on_facts(self, facts: ObservedStrike) -> None:
        self._facts.append(facts)
        self._facts_ready.set()

    def _await_facts(self) -> ObservedStrike:
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
        for _ in range(10):
            st = self.state() or {}
            qs = [q for q in st.get("questions") or [] if allowed is None or set(q.get("seats") or ()) <= allowed]
            if not qs:
                return
            q = qs[0]
            value = answer_from_truth(q, truth, st)
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
            seat = st["turn"]["seat"]
            if seat not in self.bots or st.get("questions") or st.get("pending_placements"):
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
                coin, vx, vy = plan(self.physics.positions(), st, seat, seed=self.bot_seed + i,
                                    coins=[same] if same else legal_coins)
            except BotError as exc:
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


# --- CLI glue ---------------------------------------------------------------------------------------

def add_sim_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `gametable sim` (skips any the caller's parser already has)."""
    have = set(getattr(parser, "_option_string_actions", {}))

    def add(*names: str, **kw: Any) -> None:
        if not have.intersection(names):
            parser.add_argument(*names, **kw)

    add("--config", default=None, help="TOML config file (default: built-in, with the default beam layout)")
    add("--bots", type=int, default=0, metavar="N", help="bots to play (headless: a free-for-all of N bots)")
    add("--headless", action="store_true",
        help="for tests: no browser; play --games bot games to their end, print each, exit")
    add("--games", type=int, default=1, metavar="K", help="headless: how many bot games to play (default 1)")
    add("--mode", default=None, help="mode of the bots' game (default: the game's first, e.g. ffa)")
    add("--game", default="coinwar", help="game of the bots' game, any the table offers (default coinwar)")
    add("--no-browser", action="store_true", help="do not open the host page in a browser")
    add("--speed", type=float, default=None, metavar="X", help="physics speed factor (1 = real time; default: [sim] speed)")
    if not have.intersection({"--truth", "--ask"}):
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--truth", dest="ask", action="store_false", help="report the physics' ground truth (default)")
        group.add_argument("--ask", dest="ask", action="store_true", help="report only what the beams observe")
        parser.set_defaults(ask=False)
    add("--seed", type=int, default=None, help="seed of the physics and the bots")
    add("--direct", action="store_true",
        help="submit strikes and shots directly instead of through the sensor code (pty striker frames, "
             f"MockFactory beams); automatic above --speed {MAX_SPEED:g}, where real-time debounce cannot keep up")


def run_sim(args: argparse.Namespace, *, daemon_factory: Callable[..., Any] | None = None) -> int:  # noqa: C901 - wiring: one branch per optional part (platform, broker, panel, bots) and its clean-up
    """`gametable sim`: the daemon on the virtual table, with MQTT (a private Mosquitto when the config
    names none) and the phone panel.

    ``--headless --bots N`` plays ``--games`` bot games (default 1) to their end, prints each final
    state and exits (for tests: no browser, nothing asked on the terminal; MQTT and the panel serve
    meanwhile). Otherwise it serves until Ctrl-C; ``--bots N`` starts a game of N bots to watch, and
    seats named "Bot …" in any game the lobby starts are played by the simulator.
    """
    from core.clock import SystemClock
    from core.config import ConfigError, load
    from gametable.broker import ensure_broker

    try:
        # a virtual table: the real table's "no strikers, no base station" check does not apply
        # (the sim's own base station carries the strikers), so a real table's config runs as is
        config: Config = load(args.config, layout_only=True) if args.config else load(None)
    except ConfigError as exc:
        print(exc)
        return 2
    speed = config.sim.speed if args.speed is None else args.speed
    problem = _sim_args_problem(args, speed)
    if problem:
        print(f"sim error: {problem}")
        return 2
    seed = config.sim.seed if args.seed is None else args.seed
    beams = config.beams or default_beams()
    clock = SystemClock()
    platform, config, why_direct = _virtual_sensors(config, clock, beams, speed, args.direct)
    config, broker = ensure_broker(config)
    from controller.journal import JournalError

    try:
        daemon = (daemon_factory or _daemon_class())(config, clock)
    except JournalError as exc:  # a damaged journal is never touched: one line, as `gametable run` says it
        print(f"gametable sim: {exc}")
        platform.stop()
        if broker is not None:
            broker.close()
        return 78  # EX_CONFIG, as `gametable run`
    daemon.start()
    panel = None
    stop = threading.Event()
    if not args.headless:
        _stop_on_signals(stop)  # before the panel serves: a stop from then on is a clean one
    try:
        from web_panel import serve as serve_panel

        # --bots 1 (`make demo`): you against one bot, a slow bot game on the table until you join
        demo_mode = args.bots == 1 and not args.headless
        bots = set() if demo_mode else set(range(1, args.bots + 1))
        try:
            # no fixed bots: each game's own bot seats (its new_game) are played, and only in that game
            table = VirtualTable(daemon, clock, beams=beams, seed=seed, ask=args.ask, speed=speed, bots=(),
                                 params=PhysicsParams(hz=config.sim.hz), platform=platform)
        except SimHardwareError as exc:
            print(f"sim error: {exc}")
            return 2
        runner = BotRunner(daemon, bots, seed, confirm_placements=False)  # cards, windows, answers
        table.act = runner.poll
        try:
            panel = serve_panel(config)
        except OSError as exc:  # one line, not a traceback: the usual cause is a second `make demo`
            print(f"gametable sim: cannot serve the phone panel on {config.panel.host}:{config.panel.port}: "
                  f"{exc.strerror or exc} (is another gametable running? set [panel] port in a --config file)")
            return 1
        changed = threading.Event()
        daemon.add_listener(lambda cmd, state: changed.set())
        _print_banner(config, panel.url, platform, args.ask, why_direct)
        if args.headless:
            return _play_headless(table, runner, args, sorted(bots), seed)
        demo = _first_game(table, panel, args, bots, seed, demo_mode)
        if not args.no_browser:
            _open_browser(f"{panel.url}/host")
        print("virtual table running; Ctrl-C to stop", flush=True)
        serve(table, config, stop, changed, runner, demo)
        return 0
    except KeyboardInterrupt:
        return 0
    finally:
        stop.set()
        for part in (panel, platform, daemon):
            if part is not None:
                part.stop()
        if broker is not None:
            broker.close()


def _virtual_sensors(config: Config, clock: Clock, beams: tuple[BeamConfig, ...], speed: float,
                     direct: bool) -> tuple[TablePlatform, Config, str | None]:
    """The platform, chosen once: the table's own sensor code on virtual sensors (with the config
    naming their pty and mock pins), or the ground-truth platform (and why) for the direct path."""
    why_direct = direct_reason(speed, direct)
    if why_direct is not None:
        return TruthPlatform(beams, clock), config, why_direct
    rig = SimHardware(config, clock, beams=beams)
    return SensorPlatform(rig), rig.config, None


def _stop_on_signals(stop: threading.Event) -> None:
    import signal

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())


def _daemon_class() -> Callable[..., Any]:
    from controller.daemon import Daemon

    return Daemon


def join_url(config: Config, url: str) -> str:
    """Where a phone on the same Wi-Fi opens the panel: ``[panel] public_url``, else this machine's
    LAN address when the panel listens on every interface, else ``url`` itself."""
    from web_panel.app import lan_address

    if config.panel.public_url:
        return config.panel.public_url.rstrip("/") + "/join"
    lan = lan_address() if config.panel.host in ("0.0.0.0", "::", "") else None
    base = url.replace("127.0.0.1", lan, 1) if lan else url
    return base + "/join"


def _print_banner(config: Config, url: str, platform: TablePlatform, ask: bool, why_direct: str | None) -> None:
    import segno

    print(f"gametable sim: table {config.table_id}, broker {config.mqtt.host}:{config.mqtt.port}", flush=True)
    phones = join_url(config, url)
    print(f"phones (same Wi-Fi): {phones}  -- or scan:", flush=True)
    try:
        segno.make(phones, error="l").terminal(compact=True, border=2)
    except (OSError, UnicodeEncodeError):  # a terminal that cannot draw it: the address is printed
        pass
    print(f"host page: {url}/host  (table PIN {config.panel.pin})", flush=True)
    if isinstance(platform, SensorPlatform):
        print(f"sensors: the table's own code -- striker frames on {platform.rig.base.path}, beams and seat LEDs on "
              f"MockFactory pins ({'questions to the phones' if ask else 'ground truth reported'})", flush=True)
    else:
        print(f"sensors: direct ({why_direct}); the simulator submits strikes and shots itself", flush=True)


def _sim_args_problem(args: argparse.Namespace, speed: float) -> str | None:
    """What is wrong with ``gametable sim``'s options, or None."""
    if args.bots and not 1 <= args.bots <= 6:
        return f"--bots must be from 1 to 6, got {args.bots}"
    if args.headless and args.bots < 2:
        return "--headless needs --bots N, 2 to 6 (who else would play?)"
    if not math.isfinite(speed) or speed <= 0:
        return f"--speed must be a positive number, got {speed}"
    try:
        get_game(args.game)
        if args.bots == 1 and not args.headless:  # the demo: you against one bot
            bot_game.mode_for(args.game, args.mode, players=2)
    except (GameError, bot_game.BotGameError) as exc:
        return f"--game {args.game}: {exc}"
    return None


def _play_headless(table: VirtualTable, runner: BotRunner, args: argparse.Namespace, seats: list[int],
                   seed: int) -> int:
    """``--headless``: play ``--games`` bot games to their end, printing each final state."""
    import json

    for game in range(max(1, args.games)):
        if not _start_bot_game(table, seats, args.game, bot_game.mode_for(args.game, args.mode), seed + game):
            return 1
        for _ in range(5000):
            if not runner.poll() + table.play_bots():
                break
        print(json.dumps(table.state(), sort_keys=True), flush=True)
    return 0


def _first_game(table: VirtualTable, panel: Any, args: argparse.Namespace, bots: set[int], seed: int,
                demo_mode: bool) -> Demo | None:
    """What the table shows at start: the demo's bot game (``--bots 1``), or ``--bots N``'s game."""
    if demo_mode:
        demo = Demo(panel.app.extensions["gametable"]["seats"].taken, seed, args.game, args.mode)
        demo.start(table)
        print("demo: two bots play on the table view; join a seat on a phone to play against a bot", flush=True)
        return demo
    if bots:
        _start_bot_game(table, sorted(bots), args.game, bot_game.mode_for(args.game, args.mode), seed)
    return None


class Demo:
    """`make demo` (``--bots 1``): a slow game of two bots on the table view until a phone holds a
    seat, then that seat against one bot (``--game``, in ``--mode`` if two can play it, else the
    game's first two-player mode). Driven by :func:`serve`'s loop."""

    SHOW_PAUSE_S = 1.5  # between two bot moves while nobody plays: slow enough to watch
    PLAY_PAUSE_S = 0.8  # the bot's moves against you: you see what it did

    def __init__(self, taken: Callable[[], list[int]], seed: int, game: str,
                 mode: str | None = None) -> None:
        self.taken, self.seed, self.game = taken, seed, game
        self.mode = bot_game.mode_for(game, mode, players=2)  # a mode two players can play
        self.games = 0
        self.playing = False  # True once a phone's seat plays against the bot

    def start(self, table: VirtualTable) -> None:
        """A bot game to watch (again when one ends, while nobody has joined)."""
        self.games += 1
        table.bot_pause_s = self.SHOW_PAUSE_S
        _start_bot_game(table, [1, 2], self.game, self.mode, self.seed + self.games)

    def step(self, table: VirtualTable) -> None:
        if self.playing:
            return
        seats = sorted(self.taken())
        if not seats:
            if (table.state() or {}).get("phase") in ("over", "aborted"):
                self.start(table)
            return
        you = seats[0]
        bot = next(s for s in range(1, 7) if s != you)
        players = [{"seat": you, "name": f"Seat {you}"}, {"seat": bot, "name": "Bot", "bot": True}]
        result = table.submit(bot_game.new_game(self.game, players, mode=self.mode, seed=None))
        if result.get("ok"):
            self.playing = True
            table.bot_pause_s = self.PLAY_PAUSE_S
            print(f"demo: seat {you} plays against a bot on seat {bot}", flush=True)


def _start_bot_game(table: VirtualTable, seats: list[int], game: str, mode: str | None, seed: int) -> bool:
    """A game of bots on ``seats``, as the game declares one (:mod:`gametable.bot_game`)."""
    players = [{"seat": s, "name": f"Bot {s}", "bot": True} for s in seats]
    r = table.submit({**bot_game.new_game(game, players, mode=mode, seed=seed), "id": new_id("sim-new-game")})
    if not r.get("ok"):
        print(f"sim error: new game rejected: {r.get('error')}")
        return False
    table.sync()
    return True


def _open_browser(url: str) -> None:
    """Best effort: a desktop opens the host page; a headless Pi simply prints the address."""
    import webbrowser

    try:
        webbrowser.open(url)
    except Exception:  # no browser is fine: the address is printed
        pass


def sensor_topics(table_id: str) -> dict[str, str]:
    """MQTT topics of the virtual table (under the contract's `gametable/T/sensors/…`, QoS 0).

    - ``sensors/table`` (published, retained): ``{"coins": {"c1": [x, y], …}, "off": [...],
      "moving": bool}`` during a strike (about 20 times a second) and after every change, so the
      panel's table view can draw and animate them;
    - ``sim/flick`` (subscribed, QoS 1): ``{"seat": S, "coin": "c1", "vx": mm/s, "vy": mm/s}`` from the
      panel's drag (the panel has checked the seat's token);
    - ``sim/flick/result`` (published): ``{"ok": true}`` or ``{"ok": false, "error": "…"}``, with the
      flick's ``id`` when it had one (the panel answers the phone that flicked with the real outcome).
    """
    t = Topics(table_id)
    return {"coins": t.sim_table, "flick": t.sim_flick, "result": t.sim_flick_result}


def serve(table: VirtualTable, config: Config, stop: threading.Event, changed: threading.Event | None = None,
          runner: BotRunner | None = None, demo: Demo | None = None) -> None:
    """The interactive loop: flicks from the panel over MQTT, bot seats, placements, until ``stop``."""
    import json
    import queue

    import paho.mqtt.client as mqtt

    from controller.mqtt_bridge import no_delay

    topics = sensor_topics(config.table_id)
    flicks: queue.Queue[bytes] = queue.Queue()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id("sim", config.table_id))
    if config.mqtt.username:
        client.username_pw_set(config.mqtt.username, config.mqtt.password)
    no_delay(client)
    client.on_connect = lambda c, u, f, rc, p=None: c.subscribe(topics["flick"], qos=1)
    client.on_message = lambda c, u, msg: flicks.put(bytes(msg.payload))

    def publish_coins(positions: dict[str, Point]) -> None:
        body = {"coins": {c: [round(x, 1), round(y, 1)] for c, (x, y) in positions.items()},
                "off": sorted(table.physics.off_table()), "moving": table.moving}
        client.publish(topics["coins"], json.dumps(body, sort_keys=True), qos=0, retain=True)

    table.on_change = publish_coins
    client.connect(config.mqtt.host or "127.0.0.1", config.mqtt.port, keepalive=config.mqtt.keepalive)
    client.loop_start()
    try:
        last_pub = last_bot = -math.inf
        while not stop.is_set():
            try:
                payload = flicks.get(timeout=0.2)
            except queue.Empty:
                payload = None
            if payload is not None:
                client.publish(topics["result"], json.dumps(_flick_from_panel(table, payload)), qos=0)
            if changed is not None and changed.is_set():
                changed.clear()
            if demo is not None:
                demo.step(table)
            table.sync()  # the bot seats are the running game's (its new_game: bot_seats)
            now = table.clock.now()
            if now - last_bot >= table.bot_pause_s:
                if runner is not None:
                    runner.seats = set(table.bots)
                # one move a pass: Ctrl-C and the panel's flicks are not kept waiting
                if (runner.poll() if runner is not None else 0) + table.play_bots(max_moves=1):
                    last_bot = now
            if now - last_pub > 3.0:
                publish_coins(table.physics.positions())
                last_pub = now
    finally:
        client.loop_stop()
        client.disconnect()


def _flick_from_panel(table: VirtualTable, payload: bytes) -> dict[str, Any]:
    """Validate and play a flick the panel sent; one-line error for anything wrong."""
    import json

    try:
        msg = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        return {"ok": False, "error": "flick: payload is not JSON"}
    if not isinstance(msg, dict):
        return {"ok": False, "error": "flick: expected an object {coin, vx, vy}"}
    coin, vx, vy = msg.get("coin"), msg.get("vx"), msg.get("vy")
    if not isinstance(coin, str) or not isinstance(vx, int | float) or not isinstance(vy, int | float) \
            or isinstance(vx, bool) or isinstance(vy, bool):
        return {"ok": False, "error": "flick: expected coin (string), vx and vy (numbers, mm/s)"}
    rid = msg.get("id")
    echo = {"id": rid} if isinstance(rid, str) else {}  # the panel matches the outcome to its phone's flick
    st = table.state() or {}
    mine = _flickable_coins(table, st)
    if coin not in mine:
        turn = (st.get("turn") or {}).get("seat")
        who = next((str(p.get("name")) for p in st.get("players", []) if p.get("seat") == turn), None)
        if not mine or who is None:
            return {"ok": False, "error": "flick: nobody may flick now", **echo}
        return {"ok": False, "error": f"flick: it is {who}'s turn: flick {' or '.join(mine)}, not {coin} (CW-5.1)", **echo}
    try:
        result = table.flick(coin, float(vx), float(vy))
    except (SimError, ValueError) as exc:
        return {"ok": False, "error": f"flick: {exc}", **echo}
    return {"ok": bool(result.get("ok")), **({"error": result["error"]} if not result.get("ok") else {}), **echo}


def _flickable_coins(table: VirtualTable, st: dict[str, Any]) -> list[str]:
    """The coins the seat whose turn it is may flick: its legal ``shot`` coins (football: any of the
    team's three, CW-7.3), else the player's own coin (a referee without seat views)."""
    seat = (st.get("turn") or {}).get("seat")
    if seat is None:
        return []
    legal = (table.daemon.seat_view(seat) or {}).get("legal")
    if isinstance(legal, list):
        shot = next((m for m in legal if isinstance(m, dict) and m.get("type") == "shot"), None)
        return [str(c) for c in (shot or {}).get("coins") or []]
    coin = next((p.get("coin") for p in st.get("players", []) if p.get("seat") == seat), None)
    return [str(coin)] if coin else []


__all__ = ["VirtualTable", "add_sim_arguments", "run_sim", "default_beams"]
