"""Per-staff venue host keys (hardware_docs/multi_table.md "Staff keys"): the owner's key (the one
the service prints) makes a named key for each member of staff and revokes it when they leave. A
revoked key stops working at its next request, a cookie logged in with it included, and every change
in the operator log names who made it. Only each key's sha256 is stored, as for profiles: a copy of
the database gives nobody a key.

Staff may do what the venue host does (tournaments, operator tools) but not hand out or revoke keys:
that stays with the owner, so a leaving member cannot lock the others out.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa

from gametable.venue.profiles import ProfileError, clean_name, key_hash
from gametable.venue.store import OWNER, Store, log_change, staff_keys


class StaffError(ValueError):
    """A staff key the owner asked for that cannot be made or revoked; one line, nothing changed."""


@dataclass(frozen=True)
class StaffKey:
    id: str
    name: str
    created_at: float
    revoked_at: float | None


class Staff:
    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store, self.clock = store, clock

    def issue(self, name: object) -> tuple[StaffKey, str]:
        """A new named key (shown to the owner once, never stored). Names are unique among the keys
        in use, so the operator log is unambiguous; "owner" is the owner's."""
        try:
            clean = clean_name(name, "the staff member's name")
        except ProfileError as exc:
            raise StaffError(str(exc)) from None
        if clean.casefold() == OWNER:
            raise StaffError(f"name: {OWNER!r} is the venue key's own name")
        key = secrets.token_urlsafe(18)
        staff = StaffKey(f"s-{secrets.token_hex(4)}", clean, self.clock(), None)
        with self.store.engine.begin() as conn:
            taken = conn.execute(sa.select(staff_keys.c.name).where(staff_keys.c.revoked_at.is_(None))).scalars()
            if clean.casefold() in {n.casefold() for n in taken}:
                raise StaffError(f"name: {clean!r} already has a key (revoke it first, or choose another name)")
            conn.execute(staff_keys.insert().values(id=staff.id, name=clean, key_hash=key_hash(key),
                                                    created_at=staff.created_at))
            log_change(conn, staff.created_at, "staff_key", staff.id, OWNER, name=clean)
        return staff, key

    def revoke(self, sid: str) -> StaffKey:
        with self.store.engine.begin() as conn:
            row = conn.execute(sa.select(staff_keys).where(staff_keys.c.id == sid)).first()
            if row is None:
                raise StaffError(f"no staff key {sid!r}")
            if row.revoked_at is not None:
                raise StaffError(f"the staff key of {row.name} ({sid}) is revoked already")
            now = self.clock()
            conn.execute(staff_keys.update().where(staff_keys.c.id == sid).values(revoked_at=now))
            log_change(conn, now, "revoke", sid, OWNER, name=row.name)
        return StaffKey(row.id, row.name, row.created_at, now)

    def known(self) -> list[StaffKey]:
        """Every key ever made, in use first, newest first (what the owner's page lists)."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(sa.select(staff_keys.c.id, staff_keys.c.name, staff_keys.c.created_at,
                                          staff_keys.c.revoked_at)).all()
        keys = [StaffKey(r.id, r.name, r.created_at, r.revoked_at) for r in rows]
        return sorted(keys, key=lambda k: (k.revoked_at is not None, -k.created_at))

    def who(self, key: str) -> str | None:
        """The staff member a key in use belongs to, or None (unknown or revoked)."""
        if not key:
            return None
        with self.store.engine.connect() as conn:
            return conn.execute(sa.select(staff_keys.c.name).where(
                (staff_keys.c.key_hash == key_hash(key)) & staff_keys.c.revoked_at.is_(None))).scalar_one_or_none()

