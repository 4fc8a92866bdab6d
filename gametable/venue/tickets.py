"""Seat tickets: how a phone proves at a table that it owns a venue profile, while the profile's
key never leaves the venue's origin.

The profile key is a cookie of the venue board; a table's panel is another origin and must never
see it. So the board hands the phone a *ticket* for one table (``GET /profile/ticket?table=…``,
redirected to that table's panel with the ticket in the address's fragment): the profile id, an
expiry, a nonce and an HMAC under the venue's secret. The panel passes it on in the seat's
``new_game`` entry (``venue_ticket``); the venue checks it when that ``new_game`` event arrives
through the bridge and binds the seat to the profile only then. A bare profile id (public: every
lobby lists them) binds nothing.

A ticket is good for one game at the table it names: a spectator who copies it from the public
events cannot reuse it for another game; the same event seen again (a bridge's QoS 1 redelivery, a
second service behind the database) binds the same profile again.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable

import sqlalchemy as sa

from gametable.venue.store import Store, used_tickets

TICKET_S = 3600  # a ticket must reach the venue within an hour (a bridge down longer: results by name)
PREFIX = "vt1"


class TicketError(ValueError):
    """A ticket that binds nothing; one line."""


class Tickets:
    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store, self.clock = store, clock
        self._secret = store.setting("ticket_secret", lambda: secrets.token_hex(32)).encode()

    def _mac(self, profile_id: str, table_id: str, expires: int, nonce: str) -> str:
        message = f"{profile_id}|{table_id}|{expires}|{nonce}".encode()
        return hmac.new(self._secret, message, hashlib.sha256).hexdigest()[:32]

    def issue(self, profile_id: str, table_id: str) -> str:
        expires, nonce = int(self.clock()) + TICKET_S, secrets.token_hex(8)
        return f"{PREFIX}.{profile_id}.{expires}.{nonce}.{self._mac(profile_id, table_id, expires, nonce)}"

    def redeem(self, ticket: object, table_id: str, game_key: str, at: float | None = None) -> str:
        """The profile id a ticket proves for ``game_key`` at ``table_id``; TicketError otherwise.
        ``at``: when the game started, for a result fetched after an outage (else now)."""
        parts = ticket.split(".") if isinstance(ticket, str) and len(ticket) < 200 else []
        if len(parts) != 5 or parts[0] != PREFIX or not parts[2].isdigit():
            raise TicketError("not a venue seat ticket")
        _, profile_id, expires_text, nonce, mac = parts
        expires = int(expires_text)
        if not hmac.compare_digest(mac, self._mac(profile_id, table_id, expires, nonce)):
            raise TicketError(f"this ticket is not the venue's, or not for table {table_id}")
        if (self.clock() if at is None else at) > expires:
            raise TicketError("this ticket has expired; fetch a new one on the venue board")
        try:
            with self.store.engine.begin() as conn:
                used = conn.execute(sa.select(used_tickets.c.game_key)
                                    .where(used_tickets.c.nonce == nonce)).scalar_one_or_none()
                if used is None:
                    conn.execute(used_tickets.insert().values(nonce=nonce, game_key=game_key, used_at=self.clock()))
        except sa.exc.IntegrityError:  # another service behind the database took it a moment before
            with self.store.engine.connect() as conn:
                used = conn.execute(sa.select(used_tickets.c.game_key)
                                    .where(used_tickets.c.nonce == nonce)).scalar_one()
        if used is not None and used != game_key:
            raise TicketError("this ticket was used for another game already")
        return profile_id
