"""The daemon: table + journal + MQTT bridge, and the inputs that feed it.

Every input — a phone command over MQTT, a striker frame, an observer fact, a bot's move —
goes through :meth:`Daemon.submit`, one at a time under a lock: validated, journalled durably,
*then* published (state, events, private views, LEDs). On start the journal is replayed, so a
crash or power cut resumes mid-game.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from controller.deadlines import Deadlines, PauseError
from controller.finished_games import FinishedGames
from controller.games import Game, registry
from controller.games.base import TableView
from controller.games.words import narrate
from controller.journal import Journal
from controller.mqtt_bridge import MqttBridge
from controller.table import Result, Table, short_error
from gametable_core.clock import Clock, SystemClock
from gametable_core.config import Config
from gametable_core.json_depth import too_deep
from gametable_core.led_patterns import LedPlanError, led_plan
from gametable_core.platform import SeatLights
from gametable_core.said import says

log = logging.getLogger("gametable.daemon")

MAX_COMMAND_BYTES = 64 * 1024  # a command is a small JSON object; anything bigger is a bug or abuse

Listener = Callable[[dict[str, Any], dict[str, Any] | None], None]
# The table's own wiring (pairing strikers from the host's panel, controller/pairing.py): host
# commands on ``cmd`` that never reach a game engine and are not journalled (no game state changes;
# the pairing is persisted in its own file). Handled by whoever registers them (controller.hardware).
# The camera's (controller/camera_watch.py): the host's bring-up still, ``gametable camera record``.
TABLE_COMMANDS = ("pair_open", "pair_striker", "unpair_striker", "tune_striker", "camera_still", "camera_record")


# JSON deeper than this is refused before parsing (the parser recurses once per level and Python's
# limit is ~1,000 frames); a command within it but deeper than controller.table.MAX_COMMAND_DEPTH is
# parsed and refused by the table, answered with its id
MAX_PARSE_DEPTH = 700


def _reject_constant(name: str) -> Any:
    """NaN and Infinity are not JSON; Python accepts them, browsers and the journal must not."""
    raise ValueError(f"{name} is not a JSON value")


def led_plan_for(view: TableView | None, fault: str | None = None, seats: Any = (),
                 waiting: str | None = None) -> dict[str, Any]:
    """What the LEDs show; a state the LED mapper cannot read must not stop the referee."""
    try:
        return led_plan(view, fault=fault, seats=seats, waiting=waiting)
    except LedPlanError as exc:
        log.error("cannot map the state to LEDs: %s", exc)
        return led_plan(None, fault=str(exc), seats=seats)


def public_input(game: Game | None, inp: dict[str, Any] | None) -> dict[str, Any] | None:
    """An input as everyone may see it on ``events``.

    A ``new_game`` keeps only who plays what: its seed, stacked hands (a ``setup``) and dealt
    identities (Three Kingdoms) would reveal hidden cards. A game may hide more of its own inputs
    (cards going back to a deck, say).
    """
    if inp is None:
        return None
    if inp.get("type") == "new_game":
        return {k: inp[k] for k in ("type", "id", "game", "mode", "players", "order") if k in inp}
    return game.public_input(inp) if game is not None else inp


def words_for(game: Game | None, inp: dict[str, Any] | None, effects: list[dict[str, Any]],
              state: dict[str, Any] | None) -> list[str]:
    """The log lines of one accepted input (``events``' ``words``): the game's own words, or the
    shared ones when no game is left (an undo back past the first ``new_game``)."""
    if game is not None:
        return game.words(inp, effects, state)
    return narrate(inp, effects, state)


def games_payload() -> dict[str, Any]:
    """The retained ``games`` topic: every game's lobby description."""
    return {"games": [game.describe() for game in registry().values()]}


class Daemon:
    """One table's referee process (``gametable run`` on a Pi, ``gametable sim`` anywhere)."""

    def __init__(self, config: Config, clock: Clock | None = None, *, journal_path: str | None = None,
                 lights: SeatLights | None = None) -> None:
        self.config = config
        self.clock = clock or SystemClock()
        self.journal = Journal(journal_path or config.journal.path)
        self.table = Table(self.journal, self.clock)
        self.finished = FinishedGames(self.journal, lambda inp: public_input(self.table.game, inp))
        self.lights = lights
        self.fault: str | None = None
        self.waiting: str | None = None
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._published_seats: set[int] = set()
        self.deadlines = Deadlines(self.clock, self._lock, self._on_deadline)
        self.bridge: MqttBridge | None = None
        self._pending_diagnostics: list[tuple[str, Any]] = []
        self._control_results: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._table_commands: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {}
        self._retained_sensors: dict[str, Any] = {}
        self.started = threading.Event()

    # --- lifecycle ---------------------------------------------------------------------------
    def start(self, *, connect: bool = True) -> None:
        with self._lock:
            count = self.table.load()  # (a torn tail or an empty file: `journal.notice`, see _republish)
            if count:  # a fresh journal has nothing to say
                log.info("journal %s: resumed from %d input(s)", self.journal.path, count)
            self._sync_deadlines(since=self.table.running_since())
            self._note_finished(self.public_state())  # a crash between a winning input and its record
            self._update_lights()
        m = self.config.mqtt
        if connect and m.host:
            self.bridge = MqttBridge(
                self.config.table_id, m.host, m.port, self._on_mqtt_command, self._republish,
                username=m.username, password=m.password, keepalive=m.keepalive, on_sync=self._on_sync,
            )
            self.bridge.start()
        self.started.set()

    def stop(self) -> None:
        with self._lock:
            self.deadlines.cancel_all()
        if self.bridge:
            self.bridge.stop()
        self.journal.close()

    def responsive(self, timeout_s: float = 5.0) -> bool:
        """The systemd watchdog's probe (sd_notify.DaemonHealth): the input lock is free within
        ``timeout_s`` (no input is stuck) and the journal answers a query."""
        if not self._lock.acquire(timeout=timeout_s):
            return False
        try:
            next(self.journal.records(self.journal.last_seq), None)
            return True
        except Exception:  # a closed database, a vanished card
            return False
        finally:
            self._lock.release()

    def add_listener(self, fn: Listener) -> None:
        self._listeners.append(fn)

    # --- inputs ------------------------------------------------------------------------------
    def submit(self, cmd: Any, source: str = "sensor") -> dict[str, Any]:
        """Apply one command; returns the ``cmd/result`` payload. Thread-safe, never raises."""
        with self._lock:
            if isinstance(cmd, dict) and cmd.get("type") in ("pause", "resume", *TABLE_COMMANDS):
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
        if too_deep(payload, MAX_PARSE_DEPTH):  # unparsed: the table's own, tighter check names the id
            self._publish_result({"id": None, "ok": False, "error": "command is not valid JSON: nested too deeply"})
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

    def _note_finished(self, state: dict[str, Any] | None) -> None:
        self.finished.note(self.table.opening(), state)

    def _on_sync(self, payload: bytes) -> None:
        """A venue's ``sync`` request: the finished games it missed, from the journal."""
        with self._lock:  # published under the lock: no later state or event goes out before it
            answer = self.finished.answer(payload, self.public_state())
            if not answer["ok"]:
                log.info("venue sync request refused: %s", answer["error"])
            if self.bridge:
                self.bridge.publish(self.bridge.topics["results"], answer, qos=1)

    def _publish_result(self, result: dict[str, Any]) -> None:
        if self.bridge:
            try:
                self.bridge.publish_result(result)
            except UnicodeEncodeError:  # a lone surrogate in the echoed id: JSON's \u escape carries it
                self.bridge.publish(self.bridge.topics["result"], json.dumps(result, separators=(",", ":")), qos=1)

    # --- effects -----------------------------------------------------------------------------
    def _after_accept(self, result: Result, source: str) -> None:
        state = self.public_state()
        self._note_finished(state)  # in the journal before anything that shows the win goes out
        if self.bridge:
            # An input can carry hidden cards (cards returned to a deck): publish its public form.
            shown = public_input(self.table.game, result.input)
            words = words_for(self.table.game, shown, result.effects, state)
            # "says": the same lines as messages, for phones of every language (docs/i18n.md)
            self.bridge.publish_event({"seq": result.seq, "source": source, "input": shown,
                                       "effects": result.effects, "ts": self.clock.wall(),
                                       "words": words, "says": says(words)})
        self._sync_deadlines()
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
            return self._timed(self.table.public_view())

    def _timed(self, view: dict[str, Any] | None) -> dict[str, Any] | None:
        """A view with the running deadlines shown where the game's phones expect them."""
        game = self.table.game
        if view is None or game is None:
            return view
        return game.with_timers(view, self.deadlines.timers())

    def table_view(self) -> TableView | None:
        """The game's common view (whose turn, who must answer, winner): what LEDs and bots read."""
        with self._lock:
            state, game = self.table.state, self.table.game
            return game.table_view(state) if state is not None and game is not None else None

    def seat_view(self, seat: int) -> dict[str, Any] | None:
        with self._lock:
            return self.table.seat_view(seat)

    def _publish_views(self, state: dict[str, Any] | None) -> None:
        if not self.bridge:
            return
        self.bridge.publish_state(state)
        seats = set(self.table.seats())
        for seat in sorted(seats):
            self.bridge.publish_private(seat, self._timed(self.table.seat_view(seat)))
        for seat in sorted(self._published_seats - seats):
            self.bridge.clear_private(seat)
        self._published_seats = seats

    def _republish(self) -> None:
        """On every (re)connect: the retained topics again, from the current state."""
        with self._lock:
            self._publish_views(self.public_state())
            if self.bridge:
                self.bridge.publish(f"{self.bridge.topics['base']}/games", games_payload(), qos=1, retain=True)
                self.bridge.publish_leds(led_plan_for(self.table_view(), self.fault, self.config.leds.seats, self.waiting))
                # Retained, so the host's panel shows it whenever it connects: this start dropped a
                # torn record (its retry is applied again) or found an empty file; a sound start clears it.
                self.bridge.publish(f"{self.bridge.topics['sensors']}/journal",
                                    self.journal.notice or {"dropped": [], "warning": None}, qos=1, retain=True)
                for kind, payload in self._retained_sensors.items():
                    self.bridge.publish(f"{self.bridge.topics['sensors']}/{kind}", payload, qos=1, retain=True)
                # sensor warnings from before the first connection
                for kind, payload in self._pending_diagnostics:
                    self.bridge.publish_sensor(kind, payload)
                self._pending_diagnostics.clear()

    def _update_lights(self) -> None:
        plan = led_plan_for(self.table_view(), self.fault, self.config.leds.seats, self.waiting)
        if self.lights is not None:
            try:
                self.lights.show(plan)
            except Exception:
                log.exception("LED output failed")
        if self.bridge:
            self.bridge.publish_leds(plan)

    def use_lights(self, lights: SeatLights) -> None:
        """Show the LED plan on ``lights`` too (the real table's PWM LEDs), from now on."""
        with self._lock:
            self.lights = lights
            self._update_lights()

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

    # --- deadlines: the game's timers (reaction windows, game clocks, …) ---------
    def _sync_deadlines(self, since: dict[str, float] | None = None) -> None:
        state, game = self.table.state, self.table.game
        self.deadlines.sync(game.deadlines(state) if state is not None and game is not None else [], since)

    def _on_deadline(self, ident: str, inp: dict[str, Any]) -> None:
        """A deadline expired (under the lock): its input goes in like any other, journalled.
        The id names the deadline and the journal position, so it never repeats."""
        self.submit({**inp, "id": f"{ident}@{self.table.seq}"}, source="timer")

    def _pause_once(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """``pause`` / ``resume`` and the table commands (TABLE_COMMANDS) are not journalled, so
        their duplicate ids are remembered here:
        a client that retries (same id) gets the first answer, and a late retry of an old
        ``pause`` never pauses the window again after a ``resume``."""
        cid = cmd.get("id")
        key = str(cid) if isinstance(cid, str | int) and not isinstance(cid, bool) else None
        if key is not None and key in self._control_results:
            return dict(self._control_results[key], duplicate=True)
        result = self._pause(cmd) if cmd["type"] in ("pause", "resume") else self._table_command(cmd)
        if key is not None:
            self._control_results[key] = result
            while len(self._control_results) > 256:
                self._control_results.popitem(last=False)
        return result

    @property
    def lock(self) -> threading.RLock:
        """The input lock (inputs, deadlines, table commands all take it)."""
        return self._lock

    def on_table_command(self, kind: str, handler: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        """``handler(cmd)`` answers the table command ``kind`` (one of TABLE_COMMANDS) from now on;
        it returns ``{"ok": True, ...}`` or ``{"ok": False, "error": ...}``."""
        self._table_commands[kind] = handler

    def _table_command(self, cmd: dict[str, Any]) -> dict[str, Any]:
        handler = self._table_commands.get(cmd["type"])
        if handler is None:
            missing = "no camera ([camera] is not in the config)" if cmd["type"].startswith("camera_") else \
                "no striker base station ([striker] port is not set)"
            return {"id": cmd.get("id"), "ok": False, "error": f"{cmd['type']}: this table has {missing}"}
        try:
            answer = handler(cmd)
        except Exception as exc:  # a handler bug must not kill the command path
            log.exception("table command %s failed", cmd["type"])
            answer = {"ok": False, "error": short_error(f"{cmd['type']} failed: {exc}")}
        return {"id": cmd.get("id"), **answer}

    def publish_retained_sensor(self, kind: str, payload: Any) -> None:
        """A retained ``sensors/<kind>`` (the pairing list): a panel that connects later sees it."""
        with self._lock:
            self._retained_sensors[kind] = payload
            if self.bridge and self.bridge.connected.is_set():
                self.bridge.publish(f"{self.bridge.topics['sensors']}/{kind}", payload, qos=1, retain=True)

    def _pause(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """Host ``pause`` / ``resume`` of the running deadlines (a reaction window, a game clock).

        Only the daemon's timers stop; the game state does not change (a deadline ends by the
        input it would have sent), so there is nothing to journal.
        """
        try:
            if cmd["type"] == "pause":
                self.deadlines.pause()
            else:
                self.deadlines.resume()
        except PauseError as exc:
            return {"id": cmd.get("id"), "ok": False, "error": str(exc)}
        self._publish_views(self.public_state())
        return {"id": cmd.get("id"), "ok": True}
