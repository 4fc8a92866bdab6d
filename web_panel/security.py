"""Who may act: seat tokens, the host PIN, its rate limit, and replay protection.

A seat is claimed with an unguessable token (``secrets.token_urlsafe``) kept in an HttpOnly,
SameSite=Strict cookie; the panel stores only its SHA-256 so a memory dump does not leak working
tokens. The host unlocks with the table PIN printed on the table; wrong PINs are rate-limited by
the injected clock (no sleeping, testable with a FakeClock).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
import threading
from collections import OrderedDict
from pathlib import Path

from controller.clock import Clock

log = logging.getLogger("gametable.panel")

SEATS = range(1, 7)


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "replace")).digest()


class SeatRegistry:
    """Seat number -> the hash of the token of the phone that holds it.

    With a ``path`` the hashes survive a restart (a power cut mid-game resumes from the journal;
    the phones keep their seats too). Only hashes are written, so the file grants nothing.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self._holders: dict[int, bytes] = {}
        self._lock = threading.Lock()
        self.path = Path(path) if path else None
        if self.path and self.path.exists():
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
                self._holders = {int(k): bytes.fromhex(v) for k, v in data.items() if int(k) in SEATS}
            except (OSError, ValueError, AttributeError):
                log.warning("ignoring unreadable seat file %s", self.path)

    def _save(self) -> None:
        if not self.path:
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            tmp.write_text(json.dumps({str(k): v.hex() for k, v in self._holders.items()}), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            log.warning("cannot save seat file %s", self.path, exc_info=True)

    def claim(self, seat: int) -> str | None:
        """A new token for a free seat; None if another phone holds it."""
        with self._lock:
            if seat in self._holders:
                return None
            token = secrets.token_urlsafe(32)
            self._holders[seat] = _digest(token)
            self._save()
            return token

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        digest = _digest(token)
        with self._lock:
            for seat, held in self._holders.items():
                if hmac.compare_digest(held, digest):
                    return seat
        return None

    def release(self, seat: int) -> bool:
        with self._lock:
            held = self._holders.pop(seat, None) is not None
            if held:
                self._save()
            return held

    def taken(self) -> list[int]:
        with self._lock:
            return sorted(self._holders)


class HostSessions:
    """Tokens handed out after a correct PIN."""

    def __init__(self, limit: int = 64) -> None:
        self._tokens: OrderedDict[bytes, None] = OrderedDict()
        self._limit = limit
        self._lock = threading.Lock()

    def open(self) -> str:
        token = secrets.token_urlsafe(32)
        with self._lock:
            self._tokens[_digest(token)] = None
            while len(self._tokens) > self._limit:
                self._tokens.popitem(last=False)
        return token

    def valid(self, token: str | None) -> bool:
        if not token:
            return False
        with self._lock:
            return _digest(token) in self._tokens

    def close(self, token: str | None) -> None:
        if token:
            with self._lock:
                self._tokens.pop(_digest(token), None)


class PinGuard:
    """Checks the PIN; after ``max_failures`` wrong tries (per client and overall) it locks for
    ``lock_s`` seconds, so a 4-digit PIN cannot be brute-forced from a phone."""

    def __init__(self, pin: str, clock: Clock, max_failures: int = 5, lock_s: float = 60.0,
                 global_failures: int = 20) -> None:
        self._pin = pin
        self.clock = clock
        self.max_failures, self.lock_s, self.global_failures = max_failures, lock_s, global_failures
        self._failures: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> list[float]:
        times = [t for t in self._failures.get(key, []) if now - t < self.lock_s]
        self._failures[key] = times
        return times

    def check(self, client: str, pin: object) -> tuple[bool, str | None, float]:
        """(ok, error, retry_after_s). A locked client is refused even with the right PIN."""
        now = self.clock.now()
        with self._lock:
            mine, everyone = self._recent(client, now), self._recent("*", now)
            for times, limit in ((mine, self.max_failures), (everyone, self.global_failures)):
                if len(times) >= limit:
                    wait = max(1.0, self.lock_s - (now - times[0]))
                    return False, f"too many wrong PINs; try again in {int(wait + 0.999)} s", wait
            if isinstance(pin, str) and hmac.compare_digest(pin.encode(), self._pin.encode()):
                self._failures.pop(client, None)
                return True, None, 0.0
            mine.append(now)
            everyone.append(now)
            left = self.max_failures - len(mine)
            return False, f"wrong PIN ({left} tr{'y' if left == 1 else 'ies'} left before a pause)", 0.0


class ReplayGuard:
    """Remembers recent request ids: a captured request sent again is refused, never published."""

    def __init__(self, size: int = 8192) -> None:
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def first_use(self, request_id: str) -> bool:
        with self._lock:
            if request_id in self._seen:
                return False
            self._seen[request_id] = None
            while len(self._seen) > self._size:
                self._seen.popitem(last=False)
            return True
