"""The real table's break-beams: edges to the game's table adapters, and the beams' health.

Why a module of its own: besides handing each debounced edge to the games (a game's beam observer),
the beams are checked -- the walk test before play (a real coin held on every beam for ``COIN_HOLD_S``,
retained on ``sensors/walk`` for the bring-up page), beams that never block while others do, and
beams stuck blocked -- and every edge is a ``sensors/beams`` diagnostic.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from controller.referee_api import TableReferee
from controller.table_adapter import TableAdapter
from controller.waiting import WaitingReasons
from gametable_core.config import BeamConfig
from gametable_core.platform import BeamEdge
from sensors.beam_health import COIN_HOLD_S, BeamWalk, DeadBeamWatch

log = logging.getLogger("gametable.hardware")


class BeamWatch:
    """Edges of one beam bank: diagnostics, the walk test, the dead-beam watch, the adapters."""

    def __init__(self, beams: Sequence[BeamConfig], daemon: TableReferee, adapters: Sequence[TableAdapter],
                 waiting: WaitingReasons | None = None) -> None:
        self.beams = tuple(beams)
        self.daemon = daemon
        self.adapters = tuple(adapters)
        self.waiting = waiting
        self.references = {b.id: b for b in self.beams if b.reference}
        self.walk: BeamWalk | None = None
        self.dead_watch: DeadBeamWatch | None = None

    def start_walk(self, blocked: Sequence[str] | frozenset[str] = ()) -> None:
        """(Re)start the walk test with the beams blocked now; also (re)starts the dead-beam watch."""
        self.walk = BeamWalk(self.beams, blocked, hold_s=COIN_HOLD_S)
        groups: dict[str, str] = {}
        for adapter in self.adapters:
            groups.update(adapter.beam_groups())
        self.dead_watch = DeadBeamWatch(self.beams, groups)
        self._walk_status(self.walk.status())
        for ref in self.references:
            self._reference(ref, ref in blocked)

    def _walk_status(self, status: dict[str, Any]) -> None:
        """Retained: the bring-up page opened later still sees the walk test."""
        self.daemon.publish_retained_sensor("walk", status)

    def _reference(self, beam_id: str, blocked: bool) -> None:
        """A reference point (always blocked while the goal sensors work) reading clear: the host
        is told at once, and the observer leaves ``dead`` unknown until it reads blocked again."""
        b = self.references[beam_id]
        key = f"reference:{beam_id}"
        if blocked:
            if self.waiting is not None:
                self.waiting.clear(key)
                self.waiting.publish()
            return
        message = (f"goal sensors failed: reference point {beam_id} (GPIO{b.pin}) sees no reflection -- "
                   "check the 38 kHz carrier, the emitters' supply and the goal cable; the phones are "
                   "asked which coins died until it is fixed")
        log.warning(message)
        self.daemon.diagnostic("beams", {"event": "reference_lost", "beam": beam_id, "pin": b.pin, "message": message})
        if self.waiting is not None:
            self.waiting.add(key, message)
            self.waiting.publish()

    def on_edge(self, edge: BeamEdge) -> None:
        self.daemon.diagnostic("beams", edge.as_event())
        if edge.beam_id in self.references:
            self._reference(edge.beam_id, edge.blocked)
        if self.walk is not None and not self.walk.complete:
            status = self.walk.on_edge(edge.beam_id, edge.blocked, edge.t)
            if status is not None:
                self._walk_status(status)
        if self.dead_watch is not None:
            for report in self.dead_watch.on_edge(edge.beam_id, edge.blocked):
                log.warning(report["message"])
                self.daemon.diagnostic("beams", report)
        for adapter in self.adapters:
            adapter.beam_edge(edge)

    def on_stuck(self, beam_id: str, since: float) -> None:
        message = f"beam {beam_id} stuck blocked since {since:.1f}"
        log.warning(message)
        self.daemon.diagnostic("beams", {"event": "stuck", "beam": beam_id, "message": message})
