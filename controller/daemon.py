"""The daemon: table + journal + MQTT bridge, and the inputs that feed it.

Every input — a phone command over MQTT, a striker frame, an observer fact, a bot's move —
goes through :meth:`Daemon.submit`, one at a time under a lock: validated, journalled durably,
*then* published (state, events, private views, LEDs). On start the journal is replayed, so a
crash or power cut resumes mid-game.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from controller import sd_notify
from controller.clock import Clock, SystemClock
from controller.config import Config, ConfigError, load
from controller.journal import Journal, JournalBusy, JournalError
from controller.led_patterns import LedPlanError, led_plan
from controller.mqtt_bridge import MqttBridge
from controller.table import Result, Table, short_error

log = logging.getLogger("gametable.daemon")

MAX_COMMAND_BYTES = 64 * 1024  # a command is a small JSON object; anything bigger is a bug or abuse

Listener = Callable[[dict[str, Any], dict[str, Any] | None], None]


def _reject_constant(name: str) -> Any:
    """NaN and Infinity are not JSON; Python accepts them, browsers and the journal must not."""
    raise ValueError(f"{name} is not a JSON value")


def led_plan_for(state: dict[str, Any] | None, fault: str | None = None, seats: Any = (),
                 waiting: str | None = None) -> dict[str, Any]:
    """What the LEDs show; a state the LED mapper cannot read must not stop the referee."""
    try:
        return led_plan(state, fault=fault, seats=seats, waiting=waiting)
    except LedPlanError as exc:
        log.error("cannot map the state to LEDs: %s", exc)
        return led_plan(None, fault=str(exc), seats=seats)


def public_input(game: Any, inp: dict[str, Any] | None) -> dict[str, Any] | None:
    """An input as everyone may see it on ``events``.

    A ``new_game`` keeps only who plays what: its seed, stacked hands (Coup ``setup``) and dealt
    identities (Three Kingdoms) would reveal hidden cards. A game may hide more of its own inputs
    (Coup's ``exchange_return`` names the cards going back).
    """
    if inp is None:
        return None
    if inp.get("type") == "new_game":
        return {k: inp[k] for k in ("type", "id", "game", "mode", "players", "order") if k in inp}
    hide = getattr(game, "public_input", None)
    return hide(inp) if hide else inp


class Daemon:
    """One table's referee process (``gametable run`` on a Pi, ``gametable sim`` anywhere)."""

    def __init__(self, config: Config, clock: Clock | None = None, *, journal_path: str | None = None,
                 lights: Any = None) -> None:
        self.config = config
        self.clock = clock or SystemClock()
        self.journal = Journal(journal_path or config.journal.path)
        self.table = Table(self.journal, self.clock)
        self.lights = lights
        self.fault: str | None = None
        self.waiting: str | None = None
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._published_seats: set[int] = set()
        self._window_timer: tuple[Any, Callable[[], None]] | None = None
        self._window_deadline: float | None = None
        self._window_paused = False
        self._window_remaining = 0.0
        self._game_timer: tuple[Any, Callable[[], None]] | None = None
        self.bridge: MqttBridge | None = None
        self._pending_diagnostics: list[tuple[str, Any]] = []
        self._control_results: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.started = threading.Event()

    # --- lifecycle ---------------------------------------------------------------------------
    def start(self, *, connect: bool = True) -> None:
        with self._lock:
            count = self.table.load()  # (a torn tail or an empty file: `journal.notice`, see _republish)
            log.info("journal %s: resumed from %d input(s)", self.journal.path, count)
            self._arm_window_timer()
            self._arm_game_timer()
            self._update_lights()
        if connect and self.config.mqtt.host:
            m = self.config.mqtt
            self.bridge = MqttBridge(
                self.config.table_id, m.host, m.port, self._on_mqtt_command, self._republish,
                username=m.username, password=m.password, keepalive=m.keepalive,
            )
            self.bridge.start()
        self.started.set()

    def stop(self) -> None:
        with self._lock:
            self._cancel_window_timer()
            if self._game_timer:
                self._game_timer[1]()
        if self.bridge:
            self.bridge.stop()
        self.journal.close()

    def add_listener(self, fn: Listener) -> None:
        self._listeners.append(fn)

    # --- inputs ------------------------------------------------------------------------------
    def submit(self, cmd: Any, source: str = "sensor") -> dict[str, Any]:
        """Apply one command; returns the ``cmd/result`` payload. Thread-safe, never raises."""
        with self._lock:
            if isinstance(cmd, dict) and cmd.get("type") in ("pause", "resume"):
                return self._pause_once(cmd)
            result = self.table.submit(cmd)
            if result.ok and not result.duplicate:
                self._after_accept(result, source)
            elif not result.ok:
                log.info("rejected %s command %s: %s", source,
                         cmd.get("type") if isinstance(cmd, dict) else "?", result.error)
            return result.to_json()

    def _on_mqtt_command(self, payload: bytes) -> None:
        """One ``cmd`` message: always answered on ``cmd/result``, whatever arrives."""
        if len(payload) > MAX_COMMAND_BYTES:
            self._publish_result({"id": None, "ok": False, "error": f"command of {len(payload)} bytes is over "
                                  f"the {MAX_COMMAND_BYTES} byte limit"})
            return
        try:
            cmd = json.loads(payload.decode("utf-8"), parse_constant=_reject_constant)
        except UnicodeDecodeError as exc:
            self._publish_result({"id": None, "ok": False,
                                  "error": f"command is not valid JSON: not UTF-8 text ({exc.reason})"})
            return
        except RecursionError:
            self._publish_result({"id": None, "ok": False, "error": "command is not valid JSON: nested too deeply"})
            return
        except ValueError as exc:
            self._publish_result({"id": None, "ok": False,
                                  "error": short_error(f"command is not valid JSON: {exc}")})
            return
        if not isinstance(cmd, dict):
            self._publish_result({"id": None, "ok": False,
                                  "error": f"a command must be a JSON object, got {type(cmd).__name__}"})
            return
        if cmd.get("id") is None:
            self._publish_result({"id": None, "ok": False, "error": "a command needs a client-chosen 'id' "
                                  "(a repeated id is answered again, never applied twice)"})
            return
        self._publish_result(self.submit(cmd, source="mqtt"))

    def _publish_result(self, result: dict[str, Any]) -> None:
        if self.bridge:
            try:
                self.bridge.publish_result(result)
            except UnicodeEncodeError:  # a lone surrogate in the echoed id: JSON's \u escape carries it
                self.bridge.publish(self.bridge.topics["result"], json.dumps(result, separators=(",", ":")), qos=1)

    # --- effects -----------------------------------------------------------------------------
    def _after_accept(self, result: Result, source: str) -> None:
        if self.bridge:
            # An input can carry hidden cards (Coup's exchange_return): publish its public form.
            shown = public_input(self.table.game, result.input)
            self.bridge.publish_event({"seq": result.seq, "source": source, "input": shown,
                                       "effects": result.effects, "ts": self.clock.wall()})
        self._arm_window_timer()
        self._arm_game_timer()
        state = self.public_state()
        self._publish_views(state)
        self._update_lights()
        for fn in list(self._listeners):
            try:
                fn(result.input or {}, state)
            except Exception:
                log.exception("listener failed")

    def public_state(self) -> dict[str, Any] | None:
        with self._lock:
            state = self.table.public_view()
            if state is not None and isinstance(state.get("window"), dict):
                state["window"] = self._window_public(state["window"])
            return state

    def _window_public(self, window: dict[str, Any]) -> dict[str, Any]:
        """The window as phones see it: with its real deadline, or paused (CP-6)."""
        if self._window_paused:
            return dict(window, paused=True, deadline=None, remaining_s=self._window_remaining)
        return dict(window, deadline=self._window_deadline)

    def seat_view(self, seat: int) -> dict[str, Any] | None:
        with self._lock:
            return self.table.seat_view(seat)

    def _publish_views(self, state: dict[str, Any] | None) -> None:
        if not self.bridge:
            return
        self.bridge.publish_state(state)
        seats = set(self.table.seats())
        for seat in sorted(seats):
            view = self.table.seat_view(seat)
            if view is not None and isinstance(view.get("window"), dict):
                view["window"] = self._window_public(view["window"])
            self.bridge.publish_private(seat, view)
        for seat in sorted(self._published_seats - seats):
            self.bridge.clear_private(seat)
        self._published_seats = seats

    def _republish(self) -> None:
        """On every (re)connect: the retained topics again, from the current state."""
        with self._lock:
            self._publish_views(self.public_state())
            if self.bridge:
                self.bridge.publish_leds(led_plan_for(self.public_state(), self.fault, self.config.leds.seats, self.waiting))
                # Retained, so the host's panel shows it whenever it connects: this start dropped a
                # torn record (its retry is applied again) or found an empty file; a sound start clears it.
                self.bridge.publish(f"{self.bridge.topics['sensors']}/journal",
                                    self.journal.notice or {"dropped": [], "warning": None}, qos=1, retain=True)
                # sensor warnings from before the first connection
                for kind, payload in self._pending_diagnostics:
                    self.bridge.publish_sensor(kind, payload)
                self._pending_diagnostics.clear()

    def _update_lights(self) -> None:
        plan = led_plan_for(self.public_state(), self.fault, self.config.leds.seats, self.waiting)
        if self.lights is not None:
            try:
                self.lights.show(plan)
            except Exception:
                log.exception("LED output failed")
        if self.bridge:
            self.bridge.publish_leds(plan)

    def set_fault(self, fault: str | None) -> None:
        with self._lock:
            self.fault = fault
            self._update_lights()

    def set_waiting(self, reason: str | None) -> None:
        """A sensor problem the players must fix (silent striker, unplugged base): shown, not guessed."""
        with self._lock:
            if reason == self.waiting:
                return
            self.waiting = reason
            self._update_lights()
            if self.bridge:
                self.bridge.publish(f"{self.bridge.topics['sensors']}/waiting", {"waiting": reason},
                                    qos=1, retain=True)

    def diagnostic(self, kind: str, payload: Any) -> None:
        """A ``sensors/<kind>`` message; kept until the first connection if not connected yet."""
        with self._lock:
            if self.bridge and self.bridge.connected.is_set():
                self.bridge.publish_sensor(kind, payload)
            elif len(self._pending_diagnostics) < 100:  # a long outage must not grow memory
                self._pending_diagnostics.append((kind, payload))

    # --- reaction windows (Coup CP-6): the table emits `timeout` when time is up ----------------
    def _arm_window_timer(self) -> None:
        state = self.table.public_view()
        window = state.get("window") if state else None
        window_id = window.get("id") if isinstance(window, dict) else None
        if self._window_timer and self._window_timer[0] == window_id:
            return
        self._cancel_window_timer()
        self._window_paused = False
        if window_id is None:
            return
        self._start_window_timer(window_id, float(window.get("timeout_s") or 8))

    def _start_window_timer(self, window_id: Any, timeout_s: float) -> None:
        self._window_deadline = self.clock.wall() + timeout_s

        def fire() -> None:
            with self._lock:
                if self._window_timer and self._window_timer[0] == window_id:
                    self._window_timer = None
                    self.submit({"type": "timeout", "window": window_id,
                                 "id": f"timeout-{window_id}-{self.table.seq}"}, source="timer")

        self._window_timer = (window_id, self.clock.call_later(timeout_s, fire))

    def _cancel_window_timer(self) -> None:
        if self._window_timer:
            self._window_timer[1]()
        self._window_timer = None
        self._window_deadline = None

    def _pause_once(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """``pause`` / ``resume`` are not journalled, so their duplicate ids are remembered here:
        a client that retries (same id) gets the first answer, and a late retry of an old
        ``pause`` never pauses the window again after a ``resume``."""
        cid = cmd.get("id")
        key = str(cid) if isinstance(cid, str | int) and not isinstance(cid, bool) else None
        if key is not None and key in self._control_results:
            return dict(self._control_results[key], duplicate=True)
        result = self._pause(cmd)
        if key is not None:
            self._control_results[key] = result
            while len(self._control_results) > 256:
                self._control_results.popitem(last=False)
        return result

    def _pause(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """Host ``pause`` / ``resume`` of an open reaction window's countdown (CP-6).

        Only the daemon's timer stops; the game state does not change (the window closes by the
        ``timeout`` input it would have sent), so there is nothing to journal.
        """
        state = self.table.public_view()
        window = state.get("window") if state else None
        if not isinstance(window, dict) or window.get("id") is None:
            return {"id": cmd.get("id"), "ok": False, "error": f"no reaction window is open to {cmd['type']}"}
        if cmd["type"] == "pause":
            if self._window_paused:
                return {"id": cmd.get("id"), "ok": False, "error": "the window is already paused"}
            self._window_remaining = max(0.0, (self._window_deadline or 0) - self.clock.wall())
            window_id = window["id"]
            self._cancel_window_timer()
            self._window_timer = (window_id, lambda: None)
            self._window_paused = True
        else:
            if not self._window_paused:
                return {"id": cmd.get("id"), "ok": False, "error": "the window is not paused"}
            self._window_paused = False
            self._cancel_window_timer()
            self._start_window_timer(window["id"], self._window_remaining)
        self._publish_views(self.public_state())
        return {"id": cmd.get("id"), "ok": True}

    # --- game clock: Football's time limit (CW-7.3) --------------------------------------------
    def _arm_game_timer(self) -> None:
        """Send ``time_up`` when a game with ``minutes`` has run that long (since new_game)."""
        state = self.table.public_view()
        minutes = state.get("minutes") if state else None
        started = self.table.game_started_at
        key = (started, minutes)
        if self._game_timer and self._game_timer[0] == key:
            return
        if self._game_timer:
            self._game_timer[1]()
            self._game_timer = None
        if not minutes or started is None or state.get("phase") != "playing" or state.get("time_up"):
            return

        def fire() -> None:
            with self._lock:
                if self._game_timer and self._game_timer[0] == key:
                    self._game_timer = None
                    self.submit({"type": "time_up", "id": f"time-up-{started}"}, source="timer")

        delay = started + float(minutes) * 60 - self.clock.wall()
        self._game_timer = (key, self.clock.call_later(max(0.0, delay), fire))


# --- `gametable run` ---------------------------------------------------------------------------

def run_daemon(args: Any) -> int:
    """``gametable run --config FILE``: the daemon on the Pi with its real hardware."""
    # A fatal error needs a person, not a restart every 2 s: EX_CONFIG (78) is the exit status the
    # systemd unit's RestartPreventExitStatus= names. Another daemon on the journal (2) may go away.
    try:
        config = load(args.config)
    except ConfigError as exc:
        print(exc)
        return os.EX_CONFIG
    if not config.mqtt.host:
        print("config error: mqtt.host: expected the broker's host name (e.g. \"127.0.0.1\"), got nothing")
        return os.EX_CONFIG
    clock = SystemClock()
    try:
        daemon = Daemon(config, clock)
    except JournalBusy as exc:
        print(f"gametable run: {exc}")
        return 2
    except JournalError as exc:  # not a database, a bad record, a damaged page: never touched, say so
        print(f"gametable run: {exc}")
        return os.EX_CONFIG
    hardware = None
    try:
        from controller.hardware import Hardware
    except ImportError:
        log.warning("no hardware layer available; running with MQTT inputs only")
    else:
        if getattr(args, "no_hardware", False):  # fault tests, a table driven from elsewhere
            log.info("--no-hardware: running with MQTT inputs only")
        else:
            hardware = Hardware(config, clock, daemon)
    daemon.start()
    if hardware is not None:
        hardware.start()
    from web_panel import serve

    panel = serve(config, generate_pin=True)  # the phone panel, in a thread; host/port/PIN from [panel]
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    sd_notify.notify("READY=1")
    watchdog = sd_notify.Watchdog(clock)
    watchdog.start()
    log.info("gametable run: table %s up (broker %s:%s)", config.table_id, config.mqtt.host, config.mqtt.port)
    stop.wait()
    watchdog.stop()
    panel.stop()
    if hardware is not None:
        hardware.stop()
    daemon.stop()
    return 0
