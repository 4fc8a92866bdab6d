"""Who may act: seat tokens, the host PIN, its rate limit, replay protection and the Host check.

A seat is claimed with an unguessable token (``secrets.token_urlsafe``) kept in an HttpOnly,
SameSite=Strict cookie; the panel stores only its SHA-256 so a memory dump does not leak working
tokens. One seat per phone (client address) unless the host opens a seat for a phone that has one.
The host unlocks with the table PIN (random at the first start of ``gametable run`` unless one is
configured) or the host link; how wrong PINs are paused and locked out: :mod:`web_panel.host_login`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import json
import logging
import os
import secrets
import socket
import threading
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

from gametable_core.clock import Clock
from gametable_core.config import Config

log = logging.getLogger("gametable.panel")

SEATS = range(1, 7)
# The table's own screen: not a phone on the LAN (exempt from per-address caps and the one-seat rule).
LOCAL_ADDRESSES = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})
DEFAULT_PIN = "0000"
PIN_DIGITS = 6


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "replace")).digest()


class SeatRegistry:
    """Seat number -> the hash of the token of the phone that holds it.

    With a ``path`` the hashes survive a restart (a power cut mid-game resumes from the journal;
    the phones keep their seats too). Only hashes are written, so the file grants nothing.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self._holders: dict[int, bytes] = {}
        self._addresses: dict[int, str] = {}  # seat -> the address that claimed it (this run only)
        self._opened: set[int] = set()  # seats the host opened for a phone that already holds one
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

    def claim(self, seat: int, address: str | None = None) -> str | None:
        """A new token for a free seat; None if another phone holds it."""
        with self._lock:
            if seat in self._holders:
                return None
            token = secrets.token_urlsafe(32)
            self._holders[seat] = _digest(token)
            self._opened.discard(seat)
            if address:
                self._addresses[seat] = address
            self._save()
            return token

    def held_by(self, address: str) -> list[int]:
        """The seats claimed from ``address`` during this run (one seat per phone)."""
        with self._lock:
            return sorted(s for s, a in self._addresses.items() if a == address and s in self._holders)

    def open_for_shared(self, seat: int) -> None:
        """The host lets the next claim of ``seat`` come from a phone that already holds a seat."""
        with self._lock:
            self._opened.add(seat)

    def is_open_for_shared(self, seat: int) -> bool:
        with self._lock:
            return seat in self._opened

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
            self._addresses.pop(seat, None)
            if held:
                self._save()
            return held

    def taken(self) -> list[int]:
        with self._lock:
            return sorted(self._holders)


class JoinCodes:
    """The code a phone needs to take a seat: only people at the table have it.

    It rides in the join QR code (``/join?code=…``) shown on the table's own screen and the host's,
    never to a stranger's ``/api/info`` or ``/qr.svg``. It rotates every ``period_s`` (the one before
    stays valid, so a code just scanned works); ``console`` is this run's code printed with the
    console's QR code (the console is at the table too). Unguessable: 96 random bits each.
    """

    def __init__(self, clock: Clock, period_s: float = 600.0) -> None:
        self.clock, self.period_s = clock, period_s
        self._secret = secrets.token_bytes(32)
        self.console = self._code("console")

    def _code(self, label: str) -> str:
        digest = hmac.new(self._secret, label.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:12]).decode()

    def _window(self) -> int:
        return int(self.clock.now() // self.period_s)

    def current(self) -> str:
        return self._code(f"window-{self._window()}")

    def valid(self, code: object) -> bool:
        if not isinstance(code, str) or not code:
            return False
        sent = code.encode("utf-8", "replace")
        now = self._window()
        return any(hmac.compare_digest(sent, self._code(label).encode())
                   for label in ("console", f"window-{now}", f"window-{now - 1}"))


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


def pin_file(config: Config) -> Path:
    """Where a generated PIN is kept: beside the journal (like the seat file)."""
    journal = Path(config.journal.path)
    return journal.with_name(journal.name + ".panel-pin")


def resolve_pin(config: Config) -> str:
    """The host PIN for ``gametable run``/``sim``: the configured one, else a random one made once.

    A config left at ``0000`` gets a random ``PIN_DIGITS``-digit PIN at the first start, stored
    (mode 0600) beside the journal and printed on the console at every start, so the table's owner
    can read it and the LAN cannot guess the default.
    """
    if config.panel.pin != DEFAULT_PIN:
        return config.panel.pin
    path = pin_file(config)
    try:
        stored = path.read_text(encoding="utf-8").strip()
        if stored.isdigit() and 4 <= len(stored) <= 12:
            _announce(stored, f"kept in {path}")
            return stored
    except OSError:
        pass
    pin = "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(pin + "\n")
        where = f"new, kept in {path}"
    except OSError:
        where = "new; could not be stored, so it changes at the next start"
        log.warning("cannot store the panel PIN in %s", path, exc_info=True)
    _announce(pin, where)
    return pin


def _announce(pin: str, where: str) -> None:
    print(f"panel host PIN: {pin} ({where}; set [panel] pin in the config to choose one)", flush=True)
    log.info("panel host PIN %s", where)


class HostCheck:
    """Is a ``Host`` header one of this table's own names (DNS rebinding)?

    Allowed: localhost, loopback and this machine's own IP addresses (an address is ours if a
    socket can bind to it), the machine's host name (also ``.local``), the host of
    ``[panel] public_url``. A page served from any other name (an attacker's domain rebound to the
    table's address) gets 421 and nothing else.
    """

    def __init__(self, extra_names: Iterable[str] = ()) -> None:
        hostname = socket.gethostname().lower()
        names = {"localhost", hostname, f"{hostname}.local"}
        try:
            names.add(socket.getfqdn().lower())
        except OSError:  # pragma: no cover
            pass
        self.names = names | {n.lower() for n in extra_names if n}
        self._ours: dict[str, bool] = {}
        self._lock = threading.Lock()

    @staticmethod
    def for_config(config: Config) -> HostCheck:
        public = urlsplit(config.panel.public_url).hostname if config.panel.public_url else None
        bound = config.panel.host if config.panel.host not in ("0.0.0.0", "::") else ""
        return HostCheck([public or "", bound])

    def allowed(self, host_header: str | None) -> bool:
        if not host_header:
            return False
        host = host_header.strip().lower()
        if host.startswith("["):
            host = host[1:host.find("]")] if "]" in host else ""
        elif host.count(":") == 1:
            host = host.split(":", 1)[0]
        host = host.rstrip(".")
        if host in self.names:
            return True
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return False
        if ip.is_loopback:
            return True
        if ip.is_unspecified or ip.is_multicast:
            return False
        return self._is_ours(str(ip), ip.version)

    def _is_ours(self, ip: str, version: int) -> bool:
        with self._lock:
            known = self._ours.get(ip)
        if known is not None:
            return known
        family = socket.AF_INET6 if version == 6 else socket.AF_INET
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as sock:
                sock.bind((ip, 0))  # succeeds only for an address of this machine
            ours = True
        except OSError:
            ours = False
        with self._lock:
            if len(self._ours) < 1024:
                self._ours[ip] = ours
        return ours


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
