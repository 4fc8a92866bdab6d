"""The host's striker pairing and tuning on the real table: the bring-up page's commands.

Why a module of its own: pairing strikers to seats (``pair_open``, ``pair_striker``,
``unpair_striker``) and tuning their strike threshold (``tune_striker``, firmware 1.2.0) talk to
the base station and persist the list; the pure parts (the list, the desk, the checks) are
``controller/pairing.py``. The Pi owns the list: a base that (re)boots gets the whole list again.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

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
from controller.referee_api import TableReferee
from controller.waiting import WaitingReasons
from gametable_core.clock import Clock
from gametable_core.config import Config
from gametable_core.platform import StrikerSource

log = logging.getLogger("gametable.hardware")

COMMANDS = ("pair_open", "pair_striker", "unpair_striker", "tune_striker")


class StrikerPairing:
    """Which striker is which seat (the config's ``[strikers]`` with the host's pairings over it)."""

    def __init__(self, config: Config, clock: Clock, daemon: TableReferee, waiting: WaitingReasons) -> None:
        self.clock = clock
        self.daemon = daemon
        self.waiting = waiting
        self.pairings = Pairings(pairings_file(config.journal.path), config.strikers)
        self.strikers: dict[str, int] = self.pairings.seats()
        self.desk = PairingDesk()
        self.tuning = StrikerTuning()  # thresholds and RSSI for the bring-up page (firmware 1.2.0)
        self.base_ready = False  # the base said hello on this port: the Pi may write to it
        self.link: StrikerSource | None = None
        # the daemon's input lock guards the pairing too: the reader thread takes it inside the
        # link's lock (as a strike does), a host command holds it already; one order, no deadlock
        self._lock: threading.RLock = daemon.lock

    def attach(self, link: StrikerSource) -> None:
        """The link is open: take the host's commands and say what is paired."""
        self.link = link
        for name in COMMANDS:
            self.daemon.on_table_command(name, getattr(self, "_" + name))
        self.publish_pairing()
        self.publish_strikers()
        self.nobody_paired()

    # --- what the base station says -------------------------------------------------------------
    def on_heartbeat(self, frame: dict[str, Any]) -> None:
        with self._lock:
            if frame["id"] in self.strikers and self.tuning.report(frame["id"], heartbeat_threshold(frame)):
                self.publish_strikers()

    def on_base_hello(self, rebooted: bool = True) -> None:
        """The base (re)booted, or is heard for the first time on this port: it may hold an old
        list, so the Pi's whole list goes to it again."""
        with self._lock:
            self.base_ready = True
            if rebooted:
                self.desk.window_s, self.desk.opened_at = 0, None  # a reboot closed any window
            self._send_peers()
            self._send_pending_tunes()
            self.publish_pairing()

    def on_base_report(self, frame: dict[str, Any]) -> None:
        report = base_report(frame)
        if report is None:
            self.daemon.diagnostic("striker", {"event": "bad_report", "t": frame.get("t"),
                                               "message": f"malformed {frame.get('t')} frame from the base station"})
            return
        with self._lock:
            if report["t"] == "radio":
                if self.tuning.radio(report["rssi"], self.strikers):
                    self.publish_strikers()
                return
            self.desk.on_report(report, self.clock.now())
            if report["t"] == "peers" and self.pairings.adopt(report["peers"]):
                self._changed()  # a configured striker's MAC, learnt from the base: keep it
            self.publish_pairing()

    def _send_peers(self) -> dict[str, Any] | None:
        """``peers_set`` with the whole allow-list; an error text if it could not be written."""
        from sensors.striker_link import LinkDown

        if self.link is None or not self.base_ready:
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
        self.nobody_paired()

    def nobody_paired(self) -> None:
        """No striker belongs to any seat: strikes would be ignored, so the game says why it waits."""
        if self.link is not None and not self.strikers:
            self.waiting.add("pairing", "no striker is paired with this table: pair them on the host's bring-up page")
        else:
            self.waiting.clear("pairing")
        self.waiting.publish()

    def publish_pairing(self) -> None:
        status = self.desk.status(self.pairings, self.clock.now())
        status["base_ready"] = self.base_ready
        self.daemon.publish_retained_sensor("pairing", status)

    # --- the host's commands ------------------------------------------------------------------
    def _pair_open(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """``{"type":"pair_open","seconds":60}``: the base lists waved strikers for that long (0 closes)."""
        from sensors.striker_link import LinkDown

        seconds = cmd.get("seconds", 60)
        if isinstance(seconds, bool) or not isinstance(seconds, int) or not 0 <= seconds <= MAX_WINDOW_S:
            return {"ok": False, "error": f"'seconds' must be a whole number from 0 to {MAX_WINDOW_S}, got {seconds!r}"}
        with self._lock:
            if not self.base_ready or self.link is None:
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
            self.publish_pairing()
            self.publish_strikers()
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
            self.waiting.clear(str(cmd.get("striker")))
            self.tuning.forget(str(cmd.get("striker")))
            self._changed()  # (also refreshes the waiting text)
            self.publish_pairing()
            self.publish_strikers()
        return {"ok": True}

    # --- tuning (firmware 1.2.0): the strike threshold from the bring-up page, no reflashing ------
    def publish_strikers(self) -> None:
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
            if not self.base_ready or self.link is None:
                return {"ok": False, "error": "the striker base station has not said hello yet "
                                              "(is it plugged in and running firmware 1.2.0?)"}
            try:
                self.link.send({"t": "tune", "sid": sid, "thr": thr})
            except LinkDown as exc:
                return {"ok": False, "error": str(exc)}
            self.tuning.want(sid, thr)
            self.publish_strikers()
        log.info("striker %s: strike threshold %.2f g sent", sid, thr)
        return {"ok": True, "threshold_g": thr}
