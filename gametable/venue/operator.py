"""The venue host's hand on the records (hardware_docs/multi_table.md "Operator's tools"): rename a
profile, merge two players into one, delete a person, void a game. Each change is one transaction
and one line of the operator log, so a league that moved can be explained afterwards.

Deleting a person keeps their games whole (the other players' results and ratings stand) but drops
who they were: their results are kept under an anonymous id, out of the league, with no name, and
their profile (its name and key) is gone. A voided game stays in the database, marked, and is never
counted again (league, player pages, exports of results).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from gametable.venue.profiles import clean_name
from gametable.venue.store import (
    OWNER,
    REMOVED_PREFIX,
    Store,
    games,
    is_bot,
    log_change,
    operator_log,
    profiles,
    results,
)


class OperatorError(ValueError):
    """A change the venue host asked for that cannot be made; one line, nothing changed."""


@dataclass(frozen=True)
class LogEntry:
    at: float
    action: str
    subject: str
    detail: dict[str, Any]
    by: str  # "owner" or the staff key's name (gametable/venue/staff.py)


class Operator:
    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store, self.clock = store, clock

    def _log(self, conn: Connection, action: str, subject: str, by: str, **detail: Any) -> None:
        log_change(conn, self.clock(), action, subject, by, **detail)

    @staticmethod
    def _profile_name(conn: Connection, pid: str) -> str:
        name = conn.execute(sa.select(profiles.c.name).where(profiles.c.id == pid)).scalar_one_or_none()
        if name is None:
            raise OperatorError(f"no profile {pid!r}")
        return str(name)

    def rename(self, pid: str, name: object, by: str = OWNER) -> str:
        """A profile's new name, on every result it played too; returns the name as stored."""
        new = clean_name(name)
        with self.store.engine.begin() as conn:
            old = self._profile_name(conn, pid)
            conn.execute(profiles.update().where(profiles.c.id == pid).values(name=new))
            conn.execute(results.update().where(results.c.player == pid).values(name=new))
            self._log(conn, "rename", pid, by, before=old, after=new)
        return new

    def merge(self, into: str, other: str, by: str = OWNER) -> int:
        """``other`` (a profile, or a guest's player id such as ``tess``) becomes the profile
        ``into``: its results move over under ``into``'s name; a merged profile is deleted. Two
        seats of one game never merge (nobody plays twice in a game). Returns the results moved."""
        if into == other:
            raise OperatorError("a player cannot be merged into itself")
        if is_bot(other):
            raise OperatorError(f"{other!r} is a bot or a deleted person, not a player to merge")
        with self.store.engine.begin() as conn:
            name = self._profile_name(conn, into)
            mine = set(conn.execute(sa.select(results.c.game_id).where(results.c.player == into)).scalars())
            theirs = list(conn.execute(sa.select(results.c.game_id).where(results.c.player == other)).scalars())
            is_profile = conn.execute(sa.select(profiles.c.id).where(profiles.c.id == other)).first() is not None
            if not theirs and not is_profile:
                raise OperatorError(f"no player {other!r}: nothing to merge")
            if mine & set(theirs):
                raise OperatorError(f"{other!r} and {into!r} played in the same game: they are two people")
            conn.execute(results.update().where(results.c.player == other).values(player=into, name=name))
            if is_profile:
                conn.execute(profiles.delete().where(profiles.c.id == other))
            self._log(conn, "merge", into, by, other=other, results=len(theirs))
        return len(theirs)

    def delete(self, pid: str, by: str = OWNER) -> int:
        """Remove a person: the profile goes, its results stay anonymous (out of the league).
        Returns the results kept anonymous."""
        with self.store.engine.begin() as conn:
            self._profile_name(conn, pid)
            anon = REMOVED_PREFIX + secrets.token_hex(6)
            moved = conn.execute(results.update().where(results.c.player == pid).values(player=anon, name="")).rowcount
            conn.execute(profiles.delete().where(profiles.c.id == pid))
            self._log(conn, "delete", anon, by, results=moved)  # the log keeps no trace of who it was
        return int(moved)

    def void(self, key: str, reason: object, by: str = OWNER) -> str:
        """Void a stored game (a wrong result, a test game): kept, marked, never counted again.
        Returns its key."""
        if not isinstance(reason, str) or not reason.strip() or len(reason) > 200 or not reason.isprintable():
            raise OperatorError("reason: why the game is voided, up to 200 printable characters")
        why = " ".join(reason.split())
        with self.store.engine.begin() as conn:
            row = conn.execute(sa.select(games.c.id, games.c.voided_at).where(games.c.key == key)).first()
            if row is None:
                raise OperatorError(f"no stored game {key!r}")
            if row.voided_at is not None:
                raise OperatorError(f"game {key!r} is voided already")
            conn.execute(games.update().where(games.c.id == row.id).values(voided_at=self.clock()))
            self._log(conn, "void", key, by, reason=why)
        return key

    def log(self) -> list[LogEntry]:
        with self.store.engine.connect() as conn:
            rows = conn.execute(sa.select(operator_log).order_by(operator_log.c.id))
            return [LogEntry(r.at, r.action, r.subject, json.loads(r.detail), r.staff or OWNER) for r in rows]
