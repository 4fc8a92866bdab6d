"""`gametable sim`: the daemon on the virtual table (pymunk physics instead of the hardware).

Why this module: the CLI wiring only -- the options, their checks, the platform chosen once
(:func:`_virtual_sensors`: the table's own sensor code on virtual sensors, or the ground truth with
``--direct``), the broker, the daemon, the phone panel and their clean-up. The parts live apart:

- :mod:`gametable.sim_table`: :class:`~gametable.sim_table.VirtualTable`, the platform
  object (flick -> strike, physics, beams -> shot; placements; bot seats);
- :mod:`gametable.sim_demo`: `make demo`'s bot game and ``--bots N`` / ``--headless`` games;
- :mod:`gametable.sim_serve`: the MQTT loop (panel flicks, coin positions, bot moves).
"""

from __future__ import annotations

import argparse
import math
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from controller.bot_runner import BotRunner
from controller.default_table import default_beams
from controller.games import GameError, get_game
from gametable import bot_game
from gametable.sim_demo import first_game, play_headless
from gametable.sim_platform import SensorPlatform, TablePlatform, TruthPlatform
from gametable.sim_rig import MAX_SPEED, SimHardware, SimHardwareError, direct_reason
from gametable.sim_serve import serve
from gametable.sim_table import VirtualTable
from gametable_core.clock import Clock
from gametable_core.config import BeamConfig, Config
from sensors.virtual.physics import PhysicsParams


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
    add("--port", type=int, default=None, metavar="PORT",
        help="the phone panel's port (default: [panel] port, 8080): another when 8080 is taken")
    add("--camera", action="store_true",
        help="an overhead camera: the facts come from the analysis of rendered frames (CAM-5), fused with the "
             "beams'; questions only where the camera could not see (needs the [camera] extra)")
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
    from gametable.broker import ensure_broker, say_how_to_watch
    from gametable.config_load import load_config
    from gametable_core.clock import SystemClock

    # a virtual table: the real table's "no strikers, no base station" check does not apply
    # (the sim's own base station carries the strikers), so a real table's config runs as is
    config: Config = load_config(args.config or None, "gametable sim", layout_only=bool(args.config))
    speed = config.sim.speed if args.speed is None else args.speed
    problem = _sim_args_problem(args, speed)
    if problem:
        print(f"sim error: {problem}")
        return 2
    seed = config.sim.seed if args.seed is None else args.seed
    if getattr(args, "port", None) is not None:
        config = replace(config, panel=replace(config.panel, port=args.port))
    beams = config.beams or default_beams()
    clock = SystemClock()
    camera = None
    if getattr(args, "camera", False):
        try:
            config, camera = _virtual_camera(config, clock, seed)
        except ImportError as exc:
            print(f"sim error: --camera needs OpenCV and numpy: pip install '.[camera]' ({exc})")
            return 2
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
    if broker is not None:  # once the journal opened: a damaged journal is the console's one line
        say_how_to_watch(broker)
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
                                 params=PhysicsParams(hz=config.sim.hz), platform=platform, camera=camera)
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
        _print_banner(config, panel.url, platform, args.ask, why_direct, panel.console_join_code)
        if args.headless:
            return play_headless(table, runner, args, sorted(bots), seed)
        demo = first_game(table, panel, args, bots, seed, demo_mode)
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
        return TruthPlatform(beams, clock, camera=config.camera), config, why_direct
    rig = SimHardware(config, clock, beams=beams)
    return SensorPlatform(rig), rig.config, None


def _virtual_camera(config: Config, clock: Clock, seed: int) -> tuple[Config, Any]:
    """``--camera``: the config's ``[camera]`` (or the defaults) and a virtual camera whose mount,
    lens and light vary with the seed within the docs' tolerances (CAM-5), so a run is not one picture."""
    import random

    from gametable_core.config import CameraConfig
    from sensors.virtual.camera.rig import CameraRig
    from sensors.virtual.camera_feed import VirtualCamera

    camera = config.camera or CameraConfig()
    rig = CameraRig.random(random.Random(seed ^ 0xCA3E7A))
    feed = VirtualCamera(rig, clock, {int(k): v for k, v in camera.markers.items()},
                         seat_colours=camera.seat_colours, seat_marks=camera.seat_marks)
    return replace(config, camera=replace(camera, height_mm=rig.height_mm)), feed  # the lens's real height


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


def _print_banner(config: Config, url: str, platform: TablePlatform, ask: bool, why_direct: str | None,
                  join_code: str = "") -> None:
    import segno

    print(f"gametable sim: table {config.table_id}, broker {config.mqtt.host}:{config.mqtt.port}", flush=True)
    phones = join_url(config, url) + (f"?code={join_code}" if join_code else "")  # a seat needs it (PANEL.md)
    print(f"phones (same Wi-Fi): {phones}  -- or scan:", flush=True)
    try:
        segno.make(phones, error="l").terminal(compact=True, border=2)
    except (OSError, UnicodeEncodeError):  # a terminal that cannot draw it: the address is printed
        pass
    print(f"host page: {url}/host  (table PIN {config.panel.pin})", flush=True)
    camera = " and a virtual overhead camera (facts from its frames)" if config.camera is not None else ""
    ask = ask or config.camera is not None
    if isinstance(platform, SensorPlatform):
        print(f"sensors: the table's own code -- striker frames on {platform.rig.base.path}, beams and seat LEDs on "
              f"MockFactory pins{camera} ({'questions to the phones' if ask else 'ground truth reported'})", flush=True)
    else:
        print(f"sensors: direct ({why_direct}); the simulator submits strikes and shots itself{camera}", flush=True)


def _sim_args_problem(args: argparse.Namespace, speed: float) -> str | None:
    """What is wrong with ``gametable sim``'s options, or None."""
    if args.bots and not 1 <= args.bots <= 6:
        return f"--bots must be from 1 to 6, got {args.bots}"
    port = getattr(args, "port", None)
    if port is not None and not 1 <= port <= 65535:
        return f"--port must be a TCP port from 1 to 65535, got {port}"
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


def _open_browser(url: str) -> None:
    """Best effort: a desktop opens the host page; a headless Pi simply prints the address."""
    import webbrowser

    try:
        webbrowser.open(url)
    except Exception:  # no browser is fine: the address is printed
        pass


__all__ = ["add_sim_arguments", "run_sim"]
