"""The real table's inputs and outputs, wired to the daemon (``gametable run``).

Beams (gpiozero) → observer → ``shot`` facts; striker frames (serial) → ``strike`` inputs for the
seat whose turn it is (a strike from another seat is reported, not applied); the daemon's LED plan
→ seat LEDs. Diagnostics (stuck beams, silent strikers, low batteries, port lost) go to
``gametable/T/sensors/…`` and, when they stop the game, to the status LED.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from controller.games.coinwar.sensing import Observer, out_of_turn, strike_input
from controller.pairing import (
    MAX_WINDOW_S,
    PairingDesk,
    PairingError,
    Pairings,
    StrikerTuning,
    base_report,
    check_mac,
    check_seat,
    check_sid,
    check_threshold,
    heartbeat_threshold,
    pairings_file,
)
from controller.referee_api import Referee, TableReferee
from core.clock import Clock
from core.config import Config
from core.platform import BeamSource, SeatLights, StrikerSource

log = logging.getLogger("gametable.hardware")

# Striker events that mean the table cannot see strikes right now: the game waits (the status LED
# turns amber and the panel says why) instead of guessing.
WAITING_EVENTS = {"port_lost", "port_unavailable", "silent", "low_battery"}
# a striker that said "going to sleep" is idle by design, not a fault (#8): it clears its "silent"
CLEARING_EVENTS = {"port_reopened", "port_opened", "back", "battery_ok", "asleep", "awake"}


class Hardware:
    """Owns the beam bank, the striker link, the observer and the LEDs of one table."""

    def __init__(self, config: Config, clock: Clock, daemon: TableReferee, *, pin_factory: Any = None,
                 on_facts: Callable[[Any], None] | None = None, settle_s: float = 1.5,
                 flight_proof: str = "none") -> None:
        self.config = config
        self._flight_proof = flight_proof  # "rails" only where every flight crosses a rail beam (sim)
        self._on_facts = on_facts  # None: the observer submits its shot facts to the daemon
        self._settle_s = settle_s
        self.clock = clock
        self.daemon = daemon
        self._pin_factory = pin_factory
        # the real platform's parts, behind the same interfaces as the virtual table's (core.platform)
        self.beams: BeamSource | None = None
        self.link: StrikerSource | None = None
        self.lights: SeatLights | None = None
        self.observer: Any = None
        self.walk: Any = None  # the beam walk test before play (#5)
        self.dead_watch: Any = None  # beams that never block while others do (#5)
        self._waiting: dict[str, str] = {}
        # which striker is which seat: the config's [strikers] with the host's pairings over it (#6)
        self.pairings = Pairings(pairings_file(config.journal.path), config.strikers)
        self.strikers: dict[str, int] = self.pairings.seats()
        self.desk = PairingDesk()
        self.tuning = StrikerTuning()  # thresholds and RSSI for the bring-up page (firmware 1.2.0)
        self._base_ready = False  # the base said hello on this port: the Pi may write to it
        # the daemon's input lock guards the pairing too: the reader thread takes it inside the
        # link's lock (as a strike does), a host command holds it already; one order, no deadlock
        self._lock = daemon.lock

    def start(self) -> None:
        from sensors.gpio import make_pin_factory
        from sensors.leds import GpioSeatLights

        factory = self._pin_factory or make_pin_factory(self.config.gpio.pin_factory)
        if self.config.leds.seats or self.config.leds.status:
            self.lights = GpioSeatLights.from_config(self.config.leds, self.clock, pin_factory=factory)
            self.daemon.use_lights(self.lights)
        if self.config.beams:  # no beams, no observer: the strike's facts come from the phones
            self.observer = make_observer(self.config, self.clock, self.daemon, on_facts=self._on_facts,
                                          settle_s=self._settle_s, flight_proof=self._flight_proof)
            from sensors.beams import BeamBank

            self.beams = BeamBank(self.config.beams, self.clock, self._on_beam_edge, pin_factory=factory,
                                  on_stuck=self._on_stuck)
            self.start_walk()
        s = self.config.striker
        if s.port:
            from sensors.striker_link import StrikerLink

            # only the strikers paired in [strikers] are tracked (#7): another table's, or a flood
            # of made-up ids, is dropped before it costs memory or MQTT traffic
            self.link = StrikerLink(s.port, s.baud, self.clock, self._on_frame, self._on_striker_event,
                                    silence_s=s.silence_s, low_battery_v=s.low_battery_v,
                                    allowed=self.strikers)
            self.daemon.on_table_command("pair_open", self._pair_open)
            self.daemon.on_table_command("pair_striker", self._pair_striker)
            self.daemon.on_table_command("unpair_striker", self._unpair_striker)
            self.daemon.on_table_command("tune_striker", self._tune_striker)
            self._publish_pairing()
            self._publish_strikers()
            self._nobody_paired()
            self.link.start()

    def stop(self) -> None:
        for part in (self.link, self.beams, self.observer, self.lights):
            if part is None:
                continue
            try:
                part.stop() if hasattr(part, "stop") else part.close()
            except Exception:
                log.exception("closing %s failed", type(part).__name__)

    # --- beams -------------------------------------------------------------------------------
    def start_walk(self) -> None:
        """(Re)start the walk test: every beam must go blocked and clear once; its progress goes to
        ``sensors/walk`` (#5). Also (re)starts the running dead-beam watch."""
        from sensors.beam_health import BeamWalk, DeadBeamWatch

        self.walk = BeamWalk(self.config.beams, self.beams.blocked_ids() if self.beams is not None else ())
        roles = self.observer.roles if self.observer is not None else None
        groups = {}
        if roles is not None:
            groups = {**dict.fromkeys(roles.surface, "point"), **dict.fromkeys(roles.rail, "segment"),
                      **dict.fromkeys(roles.mouths, "mouth")}
        self.dead_watch = DeadBeamWatch(self.config.beams, groups)
        self._walk_status(self.walk.status())

    def _walk_status(self, status: dict[str, Any]) -> None:
        """Retained: the bring-up page opened later still sees the walk test."""
        self.daemon.publish_retained_sensor("walk", status)

    def _on_beam_edge(self, edge: Any) -> None:
        self.daemon.diagnostic("beams", edge.as_event())
        if self.walk is not None and not self.walk.complete:
            status = self.walk.on_edge(edge.beam_id, edge.blocked)
            if status is not None:
                self._walk_status(status)
        if self.dead_watch is not None:
            for report in self.dead_watch.on_edge(edge.beam_id, edge.blocked):
                log.warning(report["message"])
                self.daemon.diagnostic("beams", report)
        if self.observer is not None:
            self.observer.beam_edge(edge.beam_id, edge.blocked, edge.t)

    def _on_stuck(self, beam_id: str, since: float) -> None:
        message = f"beam {beam_id} stuck blocked since {since:.1f}"
        log.warning(message)
        self.daemon.diagnostic("beams", {"event": "stuck", "beam": beam_id, "message": message})

    # --- strikers ----------------------------------------------------------------------------
    def _on_frame(self, frame: dict[str, Any]) -> None:
        from sensors.striker_link import BASE_REPORTS

        t = frame.get("t")
        if t in BASE_REPORTS:
            self._on_base_report(frame)
            return
        self.daemon.diagnostic("striker", frame)
        if frame.get("id") == "base":
            if t == "hello":
                self._on_base_hello()
            elif not self._base_ready:
                # a base already running when this port was opened (the Pi restarted, the base did
                # not): its heartbeat says it is past its boot window, so the Pi may write now
                self._on_base_hello(rebooted=False)
            return
        if t == "hb":
            with self._lock:
                if frame["id"] in self.strikers and self.tuning.report(frame["id"], heartbeat_threshold(frame)):
                    self._publish_strikers()
            return
        inp = strike_input(frame, self.strikers)
        if inp is None:
            return
        report = out_of_turn(inp, frame, self.daemon.table_view())
        if report is not None:
            self.daemon.diagnostic("striker", report)
            return
        result = self.daemon.submit(inp, source="striker")
        if result["ok"] and self.observer is not None:
            self.observer.strike_started(inp["seat"], self.clock.now())

    def _on_striker_event(self, event: dict[str, Any]) -> None:
        self.daemon.diagnostic("striker", event)
        name = event.get("event")
        key = str(event.get("id") or event.get("striker") or "port")
        if name in ("port_lost", "port_opened", "port_reopened", "port_unavailable"):
            self._base_ready = False  # a (re)opened port: wait for the base's hello before writing
        if key not in ("port", "base") and key not in self.strikers:
            return  # never let an unpaired id into the retained "waiting" text
        if name in WAITING_EVENTS:
            self._waiting[key] = event.get("message", name)
        elif name in CLEARING_EVENTS:
            self._waiting.pop(key, None)
            if name in ("port_reopened", "port_opened"):
                self._waiting.pop("port", None)
        self.daemon.set_waiting("; ".join(self._waiting.values()) or None)


    # --- pairing (#6): the host's panel pairs strikers; the Pi owns the list ---------------------
    def _on_base_hello(self, rebooted: bool = True) -> None:
        """The base (re)booted, or is heard for the first time on this port: it may hold an old
        list, so the Pi's whole list goes to it again."""
        with self._lock:
            self._base_ready = True
            if rebooted:
                self.desk.window_s, self.desk.opened_at = 0, None  # a reboot closed any window
            self._send_peers()
            self._send_pending_tunes()
            self._publish_pairing()

    def _on_base_report(self, frame: dict[str, Any]) -> None:
        report = base_report(frame)
        if report is None:
            self.daemon.diagnostic("striker", {"event": "bad_report", "t": frame.get("t"),
                                               "message": f"malformed {frame.get('t')} frame from the base station"})
            return
        with self._lock:
            if report["t"] == "radio":
                if self.tuning.radio(report["rssi"], self.strikers):
                    self._publish_strikers()
                return
            self.desk.on_report(report, self.clock.now())
            if report["t"] == "peers" and self.pairings.adopt(report["peers"]):
                self._changed()  # a configured striker's MAC, learnt from the base: keep it
            self._publish_pairing()

    def _send_peers(self) -> dict[str, Any] | None:
        """``peers_set`` with the whole allow-list; an error text if it could not be written."""
        from sensors.striker_link import LinkDown

        if self.link is None or not self._base_ready:
            return None  # sent after the base's next hello (the Pi writes nothing before it)
        try:
            self.link.send(self.pairings.peers_set())  # the allow-list and its ESP-NOW keys
        except LinkDown as exc:
            return {"ok": False, "error": str(exc)}
        return None

    def _changed(self) -> None:
        self.strikers = self.pairings.seats()
        if self.link is not None:
            self.link.set_allowed(self.strikers)
        self._send_peers()
        self._nobody_paired()

    def _nobody_paired(self) -> None:
        """No striker belongs to any seat: strikes would be ignored, so the game says why it waits."""
        if self.link is not None and not self.strikers:
            self._waiting["pairing"] = "no striker is paired with this table: pair them on the host's bring-up page"
        else:
            self._waiting.pop("pairing", None)
        self.daemon.set_waiting("; ".join(self._waiting.values()) or None)

    def _publish_pairing(self) -> None:
        status = self.desk.status(self.pairings, self.clock.now())
        status["base_ready"] = self._base_ready
        self.daemon.publish_retained_sensor("pairing", status)

    def _pair_open(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """``{"type":"pair_open","seconds":60}``: the base lists waved strikers for that long (0 closes)."""
        from sensors.striker_link import LinkDown

        seconds = cmd.get("seconds", 60)
        if isinstance(seconds, bool) or not isinstance(seconds, int) or not 0 <= seconds <= MAX_WINDOW_S:
            return {"ok": False, "error": f"'seconds' must be a whole number from 0 to {MAX_WINDOW_S}, got {seconds!r}"}
        with self._lock:
            if not self._base_ready or self.link is None:
                return {"ok": False, "error": "the striker base station has not said hello yet "
                                              "(is it plugged in and running firmware 1.1.0?)"}
            try:
                self.link.send({"t": "pair_open", "s": seconds})
            except LinkDown as exc:
                return {"ok": False, "error": str(exc)}
        return {"ok": True}

    def _pair_striker(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """``{"type":"pair_striker","striker":"st-1a2b3c","mac":"3485181a2b3c","seat":3}``."""
        with self._lock:
            try:
                self.pairings.pair(check_sid(cmd.get("striker")), check_mac(cmd.get("mac")),
                                   check_seat(cmd.get("seat")))
            except PairingError as exc:
                return {"ok": False, "error": str(exc)}
            except OSError as exc:
                return {"ok": False, "error": f"cannot store the pairing in {self.pairings.path}: {exc}"}
            self._changed()
            self._publish_pairing()
            self._publish_strikers()
        log.info("striker %s (%s) paired to seat %s", cmd.get("striker"), cmd.get("mac"), cmd.get("seat"))
        return {"ok": True}

    def _unpair_striker(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """``{"type":"unpair_striker","striker":"st-1a2b3c"}``: its strikes no longer count."""
        with self._lock:
            try:
                self.pairings.unpair(check_sid(cmd.get("striker")))
            except PairingError as exc:
                return {"ok": False, "error": str(exc)}
            except OSError as exc:
                return {"ok": False, "error": f"cannot store the pairing in {self.pairings.path}: {exc}"}
            self._waiting.pop(str(cmd.get("striker")), None)
            self.tuning.forget(str(cmd.get("striker")))
            self._changed()  # (also refreshes the waiting text)
            self._publish_pairing()
            self._publish_strikers()
        return {"ok": True}

    # --- tuning (firmware 1.2.0): the strike threshold from the bring-up page, no reflashing ------
    def _publish_strikers(self) -> None:
        """Retained ``sensors/strikers``: each paired striker's wanted/reported threshold and RSSI."""
        self.daemon.publish_retained_sensor("strikers", self.tuning.status(self.strikers))

    def _send_pending_tunes(self) -> None:
        """A rebooted base forgot the thresholds it was still delivering: send the pending ones again."""
        from sensors.striker_link import LinkDown

        if self.link is None:
            return
        reachable = set(self.pairings.peers().values())
        for sid, thr in sorted(self.tuning.wanted.items()):
            if self.tuning.state(sid) == "pending" and sid in reachable:
                try:
                    self.link.send({"t": "tune", "sid": sid, "thr": thr})
                except LinkDown:
                    return  # the port went away: the next hello tries again

    def _tune_striker(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """``{"type":"tune_striker","striker":"st-1a2b3c","threshold_g":3.0}``: the base relays it to that
        striker, which applies and stores it; "applied" once its heartbeat reports the new value."""
        from sensors.striker_link import LinkDown

        with self._lock:
            try:
                sid = check_sid(cmd.get("striker"))
                thr = check_threshold(cmd.get("threshold_g"))
            except PairingError as exc:
                return {"ok": False, "error": str(exc)}
            if sid not in self.strikers:
                return {"ok": False, "error": f"striker {sid} is not paired with this table; pair it first"}
            if sid not in self.pairings.peers().values():
                return {"ok": False, "error": f"striker {sid} has no radio address yet (from the config, never "
                                              "seen by the base station): pair it from this page to tune it"}
            if not self._base_ready or self.link is None:
                return {"ok": False, "error": "the striker base station has not said hello yet "
                                              "(is it plugged in and running firmware 1.2.0?)"}
            try:
                self.link.send({"t": "tune", "sid": sid, "thr": thr})
            except LinkDown as exc:
                return {"ok": False, "error": str(exc)}
            self.tuning.want(sid, thr)
            self._publish_strikers()
        log.info("striker %s: strike threshold %.2f g sent", sid, thr)
        return {"ok": True, "threshold_g": thr}


def make_observer(config: Config, clock: Clock, daemon: Referee, *, on_facts: Callable[[Any], None] | None = None,
                  settle_s: float = 1.5, flight_proof: str = "none") -> Observer:
    """The observer turning beam edges into shot facts for ``daemon``."""
    return Observer.for_daemon(config, clock, daemon, settle_s=settle_s, on_facts=on_facts,
                               flight_proof=flight_proof)
