"""What the venue service does with each message from the venue broker: keep every table's live
summary (for the board) and store each finished game once. No MQTT here: the service feeds it
(``service``), the tests feed it directly.

Topics (docs/architecture.md, MQTT): ``state`` (retained public state), ``events`` (a ``new_game``
event names the game's key), ``status`` (the daemon's ``online``/``offline`` will), ``link``
(the bridge's own ``1``/``0``, gametable/venue/setup.py) and ``results`` (the table's answer to the
venue's ``sync``: the finished games in its journal, controller/finished_games.py).

The table's journal is the truth, not the bridge: a bridge's queue is bounded and drops the newest
messages (the final states) in a long outage, and when it returns the backlog and the new messages
arrive interleaved, so a final state seen live cannot say which game it ends. So results are
stored only from the table's own answer (each game named by its ``new_game``): a final state seen
live, a table coming back (its link, its daemon, the service's own connection) or an event the
last answer already covered (a backlog still arriving) makes the venue ``ask`` the table for what
ended after the last result it has from it.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gametable.venue.results import Outcome, game_key, outcome
from gametable.venue.store import Store
from gametable.venue.tickets import TicketError, Tickets

log = logging.getLogger("gametable.venue")
ASK_WAIT_S = 5.0  # an unanswered ask this old is asked again (a lost message, a table that was away)
SHOWN_FIGURES = ("score", "lives", "hp", "health", "influence", "coins", "cards")  # per player, if present


@dataclass
class TableLive:
    table_id: str
    status: str | None = None  # the daemon's: online / offline
    link: str | None = None  # the bridge's: 1 / 0
    state: dict[str, Any] | None = None
    updated: float = 0.0
    version: int = 0  # the venue's version at this table's last change
    synced_to: int = 0  # the journal seq of the last finished game the table sent on ``results``
    answered_seq: int = 0  # the table's journal seq when it last answered: older events are a backlog
    asked_at: float | None = None  # an ask is out since then (one at a time: a backlog asks once)
    ask_again: bool = False  # something came in that the outstanding answer may not cover

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
    # called (under the lock) to ask a table for its games finished after a journal seq (the
    # service publishes ``gametable/T/sync``); None: nobody asks (a test feeding messages directly)
    ask: Callable[[str, int], Any] | None = None
    # seat -> profile id the venue itself seated in a finished game (a tournament match's entries,
    # gametable/venue/scheduler.py); a ticket binds the other seats
    seated: Callable[[str], dict[int, str]] = lambda key: {}
    tickets: Tickets = field(init=False)

    def __post_init__(self) -> None:
        self.tickets = Tickets(self.store, self.clock)

    def known(self, table_ids: list[str]) -> None:
        for t in table_ids:
            self.tables.setdefault(t, TableLive(t))

    def reconnected(self) -> None:
        """The service's own broker connection is (back) up: whatever it missed, ask every table."""
        with self._lock:
            for live in self.tables.values():
                self._ask(live, force=True)

    def _ask(self, live: TableLive, force: bool = False) -> None:
        """Ask the table for its games finished after the last one it sent; with one ask out
        already (younger than ASK_WAIT_S), ask again when its answer is in."""
        now = self.clock()
        if not force and live.asked_at is not None and now - live.asked_at < ASK_WAIT_S:
            live.ask_again = True
            return
        live.asked_at, live.ask_again = now, False
        if self.ask is not None:
            self.ask(live.table_id, live.synced_to)

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
                if (kind == "status" and text == "online") or (kind == "link" and text == "1"):
                    self._ask(live, force=True)  # back: what did it finish while away?
            elif kind == "events":
                self._event(live, payload)
                return
            elif kind == "results":
                self._results(live, payload)
            elif kind == "state":
                self._state(live, payload)
            else:
                return
            live.updated = self.clock()
            self.version += 1
            live.version = self.version

    def _event(self, live: TableLive, payload: bytes) -> None:
        event = _json(payload)
        if not isinstance(event, dict):
            return
        seq = event.get("seq")
        if isinstance(seq, int) and seq <= live.answered_seq:  # a backlog: the board may show it, so ask on
            self._ask(live)
            return
        if isinstance(event.get("input"), dict) and event["input"].get("type") == "new_game":
            key = game_key(live.table_id, event)
            self.store.begin_game(live.table_id, key)
            self._bound(live.table_id, key, event["input"].get("players"))  # its tickets claimed now, while fresh

    def _bound(self, table_id: str, key: str, players: Any, at: float | None = None) -> dict[int, str]:
        """Seat -> profile id, for each seat whose ``venue_ticket`` proves it (gametable/venue/tickets.py);
        ``at``: when the game started (a result fetched late), else now."""
        bound: dict[int, str] = {}
        for p in players if isinstance(players, list) else []:
            if isinstance(p, dict) and isinstance(p.get("seat"), int) and "venue_ticket" in p:
                try:
                    bound[p["seat"]] = self.tickets.redeem(p["venue_ticket"], table_id, key, at=at)
                except TicketError as exc:
                    log.info("table %s seat %s: not bound to a profile: %s", table_id, p["seat"], exc)
        return bound

    def _state(self, live: TableLive, payload: bytes) -> None:
        state = _json(payload)
        live.state = state if isinstance(state, dict) else None
        if outcome(live.state) is not None:  # a game ended: which one, the table's journal says
            self._ask(live)

    def _results(self, live: TableLive, payload: bytes) -> None:
        """The table's answer to ``sync``: store each game it names (once: by its key), take its
        current state, and ask on while it has more."""
        answer = _json(payload)
        if not isinstance(answer, dict):
            log.warning("table %s: sync answer not used: not a JSON object", live.table_id)
            return
        if answer.get("ok") is not True or not isinstance(answer.get("games"), list):
            log.warning("table %s: sync answer not used: %s", live.table_id, answer.get("error") or "no games list")
            return
        for game in answer["games"]:
            self._fetched(live, game)
        newest, seq = answer.get("newest"), answer.get("seq")
        if isinstance(seq, int):
            live.answered_seq = seq
        if isinstance(newest, int) and newest < live.synced_to:  # a new journal on the table: from its start
            live.synced_to = live.answered_seq = 0
            self._ask(live, force=True)
        elif answer.get("more") is True and answer["games"]:
            self._ask(live, force=True)
        else:  # the last page: the table as it is now
            if isinstance(answer.get("state"), dict):
                live.state = answer["state"]
            live.asked_at = None
            if live.ask_again:
                self._ask(live)

    def _fetched(self, live: TableLive, game: Any) -> None:
        """One finished game from the table's journal, stored once under its ``new_game``'s key,
        its seats bound to the profiles their tickets prove (at the time the game started)."""
        if not isinstance(game, dict) or not isinstance(game.get("end"), int) or not isinstance(game.get("state"), dict):
            return
        live.synced_to = max(live.synced_to, game["end"])
        result = outcome(game["state"])
        if result is None:
            return
        opening = game.get("opening")
        players = opening.get("players") if isinstance(opening, dict) else None
        ts = game.get("ts")
        key = game_key(live.table_id, {"input": {"id": game.get("id")}, "seq": game.get("game_seq"), "ts": ts})
        bound = {**self._bound(live.table_id, key, players, ts if isinstance(ts, int | float) else None),
                 **self.seated(key)}
        if self.store.record(key, live.table_id, result, game["state"], self.clock(), bound,
                             bot_seats(players, game["state"])):
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


def bot_seats(players: Any, state: dict[str, Any]) -> frozenset[int]:
    """The seats a bot played: marked so in the ``new_game`` (``"bot": true``), or handed to a bot
    during the game (the state's ``bots``, docs/architecture.md ``seat_to_bot``)."""
    seats = {p["seat"] for p in players if isinstance(p, dict) and isinstance(p.get("seat"), int)
             and p.get("bot") is True} if isinstance(players, list) else set()
    handed = state.get("bots")
    seats |= {s for s in handed if isinstance(s, int)} if isinstance(handed, list) else set()
    return frozenset(seats)


def _json(payload: bytes) -> Any:
    try:
        return json.loads(payload)
    except ValueError:
        return None
