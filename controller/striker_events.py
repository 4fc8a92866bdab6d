"""Striker frames on the real table: strikes to the game's table adapters, faults to the waiting text.

Why a module of its own: the serial link (``sensors/striker_link.py``) hands every frame and event
here. A ``strike`` frame becomes the input its game's table adapter makes of it (say, the
``strike`` of the seat whose turn it is; a strike from another seat is reported, not applied);
base-station reports go to the pairing (``controller/striker_pairing.py``); a lost port, a silent
striker or a low battery makes the game wait (the status LED turns amber and the panel says why).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from controller.referee_api import TableReferee
from controller.striker_pairing import StrikerPairing
from controller.table_adapter import TableAdapter
from controller.waiting import WaitingReasons

# Striker events that mean the table cannot see strikes right now: the game waits (the status LED
# turns amber and the panel says why) instead of guessing.
WAITING_EVENTS = {"port_lost", "port_unavailable", "silent", "low_battery"}
# a striker that said "going to sleep" is idle by design, not a fault: it clears its "silent"
CLEARING_EVENTS = {"port_reopened", "port_opened", "back", "battery_ok", "asleep", "awake"}
PORT_EVENTS = ("port_lost", "port_opened", "port_reopened", "port_unavailable")


class StrikerEvents:
    """The link's two callbacks (``on_frame``, ``on_event``) for one table."""

    def __init__(self, daemon: TableReferee, pairing: StrikerPairing, waiting: WaitingReasons,
                 adapters: Sequence[TableAdapter], now: Callable[[], float]) -> None:
        self.daemon = daemon
        self.pairing = pairing
        self.waiting = waiting
        self.adapters = tuple(adapters)
        self.now = now

    def on_frame(self, frame: dict[str, Any]) -> None:
        from sensors.striker_link import BASE_REPORTS

        t = frame.get("t")
        if t in BASE_REPORTS:
            self.pairing.on_base_report(frame)
            return
        self.daemon.diagnostic("striker", frame)
        if frame.get("id") == "base":
            if t == "hello":
                self.pairing.on_base_hello()
            elif not self.pairing.base_ready:
                # a base already running when this port was opened (the Pi restarted, the base did
                # not): its heartbeat says it is past its boot window, so the Pi may write now
                self.pairing.on_base_hello(rebooted=False)
            return
        if t == "hb":
            self.pairing.on_heartbeat(frame)
            return
        for adapter in self.adapters:
            inp = adapter.striker_input(frame, self.pairing.strikers)
            if inp is None:
                continue
            report = adapter.out_of_turn(inp, frame)
            if report is not None:
                self.daemon.diagnostic("striker", report)
                return
            result = self.daemon.submit(inp, source="striker")
            if result["ok"]:
                adapter.input_accepted(inp, self.now())
            return

    def on_event(self, event: dict[str, Any]) -> None:
        self.daemon.diagnostic("striker", event)
        name = event.get("event")
        key = str(event.get("id") or event.get("striker") or "port")
        if name in PORT_EVENTS:
            self.pairing.base_ready = False  # a (re)opened port: wait for the base's hello before writing
        if key not in ("port", "base") and key not in self.pairing.strikers:
            return  # never let an unpaired id into the retained "waiting" text
        if name in WAITING_EVENTS:
            self.waiting.add(key, event.get("message", name))
        elif name in CLEARING_EVENTS:
            self.waiting.clear(key)
            if name in ("port_reopened", "port_opened"):
                self.waiting.clear("port")
        self.waiting.publish()
