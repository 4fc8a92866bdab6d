"""What the venue service does with each message from the venue broker: keep every table's live
summary (for the board) and store each finished game once. No MQTT here: the service feeds it
(``service``), the tests feed it directly.

Topics (docs/architecture.md, MQTT): ``state`` (retained public state), ``events`` (a ``new_game``
event names the game's key), ``status`` (the daemon's ``online``/``offline`` will) and ``link``
(the bridge's own ``1``/``0``, gametable/venue/setup.py).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gametable.venue.results import Outcome, fallback_key, game_key, outcome
from gametable.venue.store import Store
from gametable.venue.tickets import TicketError, Tickets

log = logging.getLogger("gametable.venue")
SHOWN_FIGURES = ("score", "lives", "hp", "health", "influence", "coins", "cards")  # per player, if present


@dataclass
class TableLive:
    table_id: str
    status: str | None = None  # the daemon's: online / offline
    link: str | None = None  # the bridge's: 1 / 0
    state: dict[str, Any] | None = None
    updated: float = 0.0
    version: int = 0  # the venue's version at this table's last change

    @property
    def online(self) -> bool:
        return self.status == "online" and self.link != "0"

    def summary(self) -> dict[str, Any]:
        """What the board shows of this table: game, mode, players and their figures, whose turn."""
        st = self.state or {}
        players = [p for p in st.get("players") or [] if isinstance(p, dict)]
        turn = st.get("turn") if isinstance(st.get("turn"), dict) else None
        scores = st.get("scores") if isinstance(st.get("scores"), dict) else {}
        return {
            "table": self.table_id, "online": self.online, "game": st.get("game"), "mode": st.get("mode"),
            "phase": st.get("phase"), "turn": turn.get("seat") if turn else None, "winner": st.get("winner"),
            "scores": scores, "updated": self.updated,
            "players": [{"seat": p.get("seat"), "name": p.get("name"), "alive": p.get("alive"),
                         "team": p.get("team"),
                         **{k: p[k] for k in SHOWN_FIGURES if isinstance(p.get(k), int | float)}}
                        for p in players],
        }


@dataclass
class Venue:
    store: Store
    clock: Callable[[], float]  # wall time, injected (one clock per process)
    tables: dict[str, TableLive] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    version: int = 0  # bumped on every change the board shows
    # called (under the lock) with a finished game's key and outcome, every time its final state is
    # seen: the tournament scheduler ignores a match it has decided already
    on_finished: list[Callable[[str, Outcome], Any]] = field(default_factory=list)
    tickets: Tickets = field(init=False)

    def __post_init__(self) -> None:
        self.tickets = Tickets(self.store, self.clock)

    def known(self, table_ids: list[str]) -> None:
        for t in table_ids:
            self.tables.setdefault(t, TableLive(t))

    def on_message(self, topic: str, payload: bytes) -> None:
        parts = topic.split("/")
        if len(parts) != 3 or parts[0] != "gametable":
            return
        table_id, kind = parts[1], parts[2]
        with self._lock:
            live = self.tables.setdefault(table_id, TableLive(table_id))
            if kind in ("status", "link"):
                text = payload.decode("utf-8", "replace")
                live.status, live.link = (text, live.link) if kind == "status" else (live.status, text)
            elif kind == "events":
                self._event(table_id, payload)
                return
            elif kind == "state":
                self._state(live, payload)
            else:
                return
            live.updated = self.clock()
            self.version += 1
            live.version = self.version

    def _event(self, table_id: str, payload: bytes) -> None:
        event = _json(payload)
        if isinstance(event, dict) and isinstance(event.get("input"), dict) and event["input"].get("type") == "new_game":
            key = game_key(table_id, event)
            self.store.begin_game(table_id, key, self._bound(table_id, key, event["input"].get("players")))

    def _bound(self, table_id: str, key: str, players: Any) -> dict[int, str]:
        """Seat -> profile id, for each seat whose ``venue_ticket`` proves it (gametable/venue/tickets.py)."""
        bound: dict[int, str] = {}
        for p in players if isinstance(players, list) else []:
            if isinstance(p, dict) and isinstance(p.get("seat"), int) and "venue_ticket" in p:
                try:
                    bound[p["seat"]] = self.tickets.redeem(p["venue_ticket"], table_id, key)
                except TicketError as exc:
                    log.info("table %s seat %s: not bound to a profile: %s", table_id, p["seat"], exc)
        return bound

    def _state(self, live: TableLive, payload: bytes) -> None:
        state = _json(payload)
        live.state = state if isinstance(state, dict) else None
        result = outcome(live.state)
        if result is None or live.state is None:
            return
        key = self.store.current_key(live.table_id) or fallback_key(live.table_id, live.state)
        if self.store.record(key, live.table_id, result, live.state, self.clock()):
            log.info("table %s: %s finished (%s)", live.table_id, result.game, key)
        for hook in self.on_finished:
            hook(key, result)

    def board(self) -> list[dict[str, Any]]:
        return self.changed_since(-1)[1]

    def changed_since(self, version: int) -> tuple[int, list[dict[str, Any]]]:
        """The venue's version now and the tables changed after ``version`` (all for 0 or less)."""
        with self._lock:
            rows = [self.tables[t].summary() for t in sorted(self.tables)
                    if version <= 0 or self.tables[t].version > version]
            return self.version, rows


def _json(payload: bytes) -> Any:
    try:
        return json.loads(payload)
    except ValueError:
        return None
