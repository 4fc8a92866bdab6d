"""Venue player profiles: a name, a public id (what a table's ``new_game`` names for a seat, and
so the events; gametable/venue/ingest.py) and an unguessable key that only the player's phones
hold (moved to another phone by a QR code). The venue stores only the key's hash."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa

from gametable.venue.store import Store, profiles

MAX_NAME = 40


class ProfileError(ValueError):
    """A profile request that cannot be met; one line."""


@dataclass(frozen=True)
class Profile:
    id: str
    name: str


def key_hash(key: str) -> str:
    """What the database keeps of a secret key (a profile's, a staff member's): its sha256."""
    return hashlib.sha256(key.encode()).hexdigest()


def clean_name(name: object, whose: str = "the player's name") -> str:
    if not isinstance(name, str) or not name.strip():
        raise ProfileError(f"name: {whose}")
    name = " ".join(name.split())
    if len(name) > MAX_NAME or any(not c.isprintable() for c in name):
        raise ProfileError(f"name: up to {MAX_NAME} printable characters")
    return name


class Profiles:
    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store, self.clock = store, clock

    def create(self, name: object) -> tuple[Profile, str]:
        """A new profile and its key (shown to its phone once, never stored)."""
        profile = Profile(f"p-{secrets.token_hex(5)}", clean_name(name))
        key = secrets.token_urlsafe(24)
        with self.store.engine.begin() as conn:
            conn.execute(profiles.insert().values(id=profile.id, name=profile.name, key_hash=key_hash(key),
                                                  created_at=self.clock()))
        return profile, key

    def by_key(self, key: object) -> Profile:
        if not isinstance(key, str) or not key:
            raise ProfileError("key: the profile key from the player's phone or QR code")
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(profiles.c.id, profiles.c.name)
                               .where(profiles.c.key_hash == key_hash(key))).first()
        if row is None:
            raise ProfileError("no profile has this key")
        return Profile(row.id, row.name)

    def known(self) -> list[Profile]:
        """Every profile's id and name (what a lobby offers), never a key."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(sa.select(profiles.c.id, profiles.c.name).order_by(profiles.c.name)).all()
        return [Profile(r.id, r.name) for r in rows]
