"""Running tournaments at the venue: matches stored in the database, each next match offered to a
free table, results taken from the tables' finished games, never typed.

A match is offered on ``gametable/<table>/offer`` (retained; bridged *in* to that table only,
gametable/venue/setup.py) with the ``new_game`` id to start it with: ``venue-<tournament>-<match>-
<token>``. The finished game's key (``<table>:<that id>``, gametable/venue/results.py) names the
match, so its result enters itself. A table that drops out mid-match keeps the match until the
venue host replays it (offered again, to any free table, with a new id) or awards it.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from gametable.venue import tournament as tm
from gametable.venue.ingest import TableLive
from gametable.venue.profiles import Profiles
from gametable.venue.results import Outcome
from gametable.venue.store import OWNER, Store, log_change, matches, tournaments

OFFER_ID = re.compile(r"venue-(\d+)-(\d+)-[0-9a-f]+")
Offer = tuple[str, dict[str, Any] | None]  # (table id, offer payload or None to withdraw it)


@dataclass(frozen=True)
class Tournament:
    id: int
    name: str
    format: str
    game: str
    mode: str | None
    players: list[str]
    tables: list[str]


@dataclass(frozen=True)
class Placed:
    """A match and where it is offered or played."""

    match: tm.Match
    table_id: str | None
    offer: str | None
    awarded: bool


def _entry(text: str, known: dict[str, str]) -> str:
    """A tournament entry as stored: a profile's id (given as such, or as the name of exactly one
    profile) or a guest's name. An id no profile has, or a name two profiles share, is refused."""
    if text in known:
        return text
    if text.startswith("p-") and " " not in text:
        raise tm.TournamentError(f"no profile {text!r}")
    same = [pid for pid, name in known.items() if name.casefold() == text.casefold()]
    if len(same) > 1:
        raise tm.TournamentError(f"{len(same)} profiles are named {text!r}: enter the one who plays by id "
                                 f"({', '.join(sorted(same))})")
    return same[0] if same else text


def _free(live: TableLive | None) -> bool:
    """Online and not in the middle of a game (none, finished or aborted)."""
    if live is None or not live.online:
        return False
    st = live.state or {}
    return not st.get("game") or st.get("winner") is not None or st.get("phase") == "aborted"


class Scheduler:
    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock

    # --- reading -----------------------------------------------------------------------------
    def tournaments(self) -> list[Tournament]:
        with self.store.engine.connect() as conn:
            rows = conn.execute(sa.select(tournaments).order_by(tournaments.c.id)).all()
        return [Tournament(r.id, r.name, r.format, r.game, r.mode, json.loads(r.players), json.loads(r.tables))
                for r in rows]

    def placed(self, tournament_id: int) -> list[Placed]:
        with self.store.engine.connect() as conn:
            rows = conn.execute(sa.select(matches).where(matches.c.tournament_id == tournament_id)
                                .order_by(matches.c.number)).all()
        return [Placed(tm.Match(r.number, r.round, tuple(json.loads(r.players)), r.winner), r.table_id, r.offer,
                       bool(r.awarded)) for r in rows]

    def names(self) -> dict[str, str]:
        """Profile id -> its name now (a renamed profile shows its new name in every bracket)."""
        return {p.id: p.name for p in Profiles(self.store, self.clock).known()}

    def profiles_of(self, key: str) -> dict[int, str]:
        """Seat -> profile id of a tournament match's finished game (``<table>:<offer id>``), for the
        entries that are profiles: the venue knows who it seated, no ticket needed."""
        found = self._placed_by_key(key)
        if found is None:
            return {}
        placed, names = found[1], self.names()
        return {seat: p for seat, p in enumerate(placed.match.players, start=1) if p in names}

    def _placed_by_key(self, key: str) -> tuple[int, Placed] | None:
        """The tournament and match a finished game's key names, if it is the match's current offer."""
        ident = key.partition(":")[2]
        found = OFFER_ID.fullmatch(ident)
        if found is None:
            return None
        tid, number = int(found.group(1)), int(found.group(2))
        placed = next((p for p in self.placed(tid) if p.match.number == number), None)
        return (tid, placed) if placed is not None and placed.offer == ident else None

    def view(self) -> list[dict[str, Any]]:
        """Every tournament with its standings and matches (the board's brackets); ``names``: the
        entries that are profiles, by id (the others are guests, named as entered)."""
        out = []
        names = self.names()
        for t in self.tournaments():
            placed = self.placed(t.id)
            ms = [p.match for p in placed]
            out.append({"id": t.id, "name": t.name, "format": t.format, "game": t.game, "mode": t.mode,
                        "names": {p: names[p] for p in t.players if p in names},
                        "finished": tm.finished(t.format, t.players, ms),
                        "standings": [s.__dict__ for s in tm.standings(t.format, t.players, ms)],
                        "matches": [{"number": p.match.number, "round": p.match.round,
                                     "players": list(p.match.players), "winner": p.match.winner,
                                     "table": p.table_id, "awarded": p.awarded, "bye": p.match.bye}
                                    for p in placed]})
        return out

    # --- changing ----------------------------------------------------------------------------
    def create(self, name: str, fmt: str, game: str, mode: str | None, players: list[str],
               tables: list[str]) -> int:
        """A new tournament; each of ``players`` is a profile (its id, or the name of exactly one
        profile: its results reach the profile) or else a guest's name."""
        known = self.names()
        players = [_entry(p, known) for p in players]
        first = tm.start(fmt, players)  # checks format and players
        if not tables:
            raise tm.TournamentError("name the tables the tournament may use")
        with self.store.engine.begin() as conn:
            tid = conn.execute(tournaments.insert().values(
                name=name, format=fmt, game=game, mode=mode, players=json.dumps(players),
                tables=json.dumps(tables), created_at=self.clock())).inserted_primary_key
            assert tid is not None
            self._insert(conn, int(tid[0]), first)
        return int(tid[0])

    @staticmethod
    def _insert(conn: sa.Connection, tid: int, new: list[tm.Match]) -> None:
        if new:
            conn.execute(matches.insert(), [{"tournament_id": tid, "number": m.number, "round": m.round,
                                             "players": json.dumps(list(m.players)), "winner": m.winner,
                                             "awarded": False} for m in new])

    def _decide(self, tid: int, number: int, winner: str, *, awarded: bool) -> None:
        t = next(t for t in self.tournaments() if t.id == tid)
        ms = tm.record([p.match for p in self.placed(tid)], number, winner)  # raises for a bad winner
        with self.store.engine.begin() as conn:
            conn.execute(matches.update().where((matches.c.tournament_id == tid) & (matches.c.number == number))
                         .values(winner=winner, awarded=awarded))
            self._insert(conn, tid, tm.advance(t.format, t.players, ms))

    def on_finished(self, key: str, outcome: Outcome) -> bool:
        """A finished game: if it is a tournament match's, that match's result (True)."""
        found = self._placed_by_key(key)
        if found is None or found[1].match.done:
            return False  # not a match's game, a replayed match's old game, or decided already
        tid, placed = found
        winners = [p for p in outcome.players if p.rank == 1]
        if len(winners) != 1 or outcome.draw:
            return False  # a draw: the venue host replays or awards it
        seat = winners[0].seat
        if not 1 <= seat <= len(placed.match.players):
            return False
        self._decide(tid, placed.match.number, placed.match.players[seat - 1], awarded=False)
        return True

    def award(self, tid: int, number: int, winner: str) -> None:
        self._decide(tid, number, winner, awarded=True)

    def correct(self, tid: int, number: int, winner: str, by: str = OWNER) -> None:
        """The venue host corrects a decided match's result (tm.correct says when it may), logged
        in the operator log with the result it replaces."""
        t = next((t for t in self.tournaments() if t.id == tid), None)
        if t is None:
            raise tm.TournamentError(f"no tournament {tid}")
        placed = [p.match for p in self.placed(tid)]
        before = next((m.winner for m in placed if m.number == number), None)
        ms = tm.correct(t.format, placed, number, winner)
        with self.store.engine.begin() as conn:
            conn.execute(matches.update().where((matches.c.tournament_id == tid) & (matches.c.number == number))
                         .values(winner=winner, awarded=True))
            log_change(conn, self.clock(), "correct", f"tournament {tid} match {number}", by, before=before, after=winner)
            self._insert(conn, tid, tm.advance(t.format, t.players, ms))

    def replay(self, tid: int, number: int) -> None:
        """Offer the match again (a table dropped out): any free table, a new id."""
        placed = next((p for p in self.placed(tid) if p.match.number == number), None)
        if placed is None:
            raise tm.TournamentError(f"no match {number}")
        if placed.match.done:
            raise tm.TournamentError(f"match {number} is decided already ({placed.match.winner} won)")
        with self.store.engine.begin() as conn:
            conn.execute(matches.update().where((matches.c.tournament_id == tid) & (matches.c.number == number))
                         .values(table_id=None, offer=None))

    def assign(self, live: dict[str, TableLive]) -> list[Offer]:
        """Offer each waiting match to a free table; withdraw offers of decided matches."""
        offers: list[Offer] = []
        busy = set()
        pending: list[tuple[Tournament, Placed]] = []
        for t in self.tournaments():
            for p in self.placed(t.id):
                if p.table_id is not None and not p.match.done:
                    busy.add(p.table_id)
                elif not p.match.done:
                    pending.append((t, p))
        names = self.names() if pending else {}
        for t, p in pending:
            table = next((x for x in t.tables if x not in busy and _free(live.get(x))), None)
            if table is None:
                continue
            offer = f"venue-{t.id}-{p.match.number}-{secrets.token_hex(6)}"
            with self.store.engine.begin() as conn:
                conn.execute(matches.update().where((matches.c.tournament_id == t.id)
                                                    & (matches.c.number == p.match.number))
                             .values(table_id=table, offer=offer))
            busy.add(table)
            offers.append((table, {"offer": offer, "tournament": t.name, "match": p.match.number,
                                   "round": p.match.round, "game": t.game, "mode": t.mode,
                                   "players": [{"seat": i + 1, "name": names.get(n, n)}
                                               for i, n in enumerate(p.match.players)]}))
        return offers

    def idle_tables(self) -> set[str]:
        """Tables of any tournament with no undecided match on them (their offer is withdrawn)."""
        used = {x for t in self.tournaments() for x in t.tables}
        held = {p.table_id for t in self.tournaments() for p in self.placed(t.id)
                if p.table_id is not None and not p.match.done}
        return used - held
