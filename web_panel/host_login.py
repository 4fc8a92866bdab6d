"""Host login: the PIN under a budget for the whole table, a lockout only the table lifts, a host link.

Why: a backoff per client address alone is no defence when addresses are cheap
(a LAN, IPv6): from 651 loopback addresses a 6-digit PIN fell in 7.9 s. So, besides each client's
own doubling pause (``ClientBackoff``: guessing from one phone never locks out the host's phone):

- **the table's budget**: every wrong PIN from any client counts (within ``window_s``); past
  ``table_free`` of them, PIN login pauses for *every* client for a growing time (doubling), and at
  ``lockout_after`` it is **locked** until someone at the table lifts it: the table's own screen
  (a loopback client) or its console (``gametable host unlock``). While paused or locked no PIN is
  compared at all, so however many addresses guess, at most ``lockout_after`` PINs are ever tried
  before a person at the table knows (the lockout is logged, shown and reported on lifting).
- **the host link**: a long random key (``secrets.token_urlsafe``) made at each start, shown only on
  the console and the table's own screen (``/host#key=…``). It opens the host screen whatever the
  PIN's state, so a locked PIN never locks out the table's owner.

The table's own screen is exempt from the table's pause and lockout (it is at the table). Pure:
the injected clock times everything; nothing sleeps.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gametable_core.clock import Clock
from gametable_core.said import say, say_n


@dataclass(frozen=True)
class Verdict:
    """The answer to one login attempt: ``status`` is the HTTP status the panel answers with."""

    ok: bool
    status: int = 200  # 403 wrong, 429 paused (``retry_s``), 423 locked until lifted
    error: str | None = None  # a ``say`` message: said in the asking phone's language (docs/i18n.md)
    retry_s: float = 0.0


class ClientBackoff:
    """Each client's own pause: ``free`` tries, then ``lock_s`` doubling per wrong PIN
    (up to ``max_lock_s``). At most ``max_clients`` addresses are remembered (the table's budget
    makes forgetting one harmless)."""

    def __init__(self, free: int = 5, lock_s: float = 60.0, max_lock_s: float = 3600.0,
                 max_clients: int = 4096) -> None:
        self.free, self.lock_s, self.max_lock_s = free, lock_s, max_lock_s
        self._failures: OrderedDict[str, tuple[int, float]] = OrderedDict()  # client -> (wrong PINs, until)
        self._max_clients = max_clients

    def wait(self, client: str, now: float) -> float:
        return max(0.0, self._failures.get(client, (0, 0.0))[1] - now)

    def failed(self, client: str, now: float) -> int:
        """Count a wrong PIN; the tries ``client`` has left before its pause."""
        count, until = self._failures.get(client, (0, 0.0))
        count += 1
        if count >= self.free:
            until = now + min(self.max_lock_s, self.lock_s * 2 ** (count - self.free))
        self._failures[client] = (count, until)
        self._failures.move_to_end(client)
        while len(self._failures) > self._max_clients:
            self._failures.popitem(last=False)
        return max(0, self.free - count)

    def forget(self, client: str) -> None:
        self._failures.pop(client, None)


class HostLogin:
    """Checks the PIN and the host link's key for every client of one panel (thread-safe)."""

    def __init__(self, pin: str, clock: Clock, *, key: str | None = None, table_free: int = 10,
                 table_pause_s: float = 2.0, table_max_pause_s: float = 300.0, lockout_after: int = 100,
                 window_s: float = 24 * 3600.0, on_lockout: Callable[[dict[str, Any]], None] | None = None,
                 client: ClientBackoff | None = None) -> None:
        self._pin = pin
        self.key = key or secrets.token_urlsafe(24)
        self.clock = clock
        self.client = client or ClientBackoff()
        self.table_free, self.table_pause_s, self.table_max_pause_s = table_free, table_pause_s, table_max_pause_s
        self.lockout_after, self.window_s = lockout_after, window_s
        self.on_lockout = on_lockout
        self._wrong: deque[tuple[float, str]] = deque()  # (when, client) of each wrong PIN in the window
        self._refused = 0  # attempts refused unchecked while paused or locked (for the report)
        self._locked_at: float | None = None  # wall time of the lockout
        self._lock = threading.Lock()

    @property
    def pin(self) -> str:
        return self._pin

    # --- the table's budget --------------------------------------------------------------------
    def _prune(self, now: float) -> None:
        while self._wrong and self._wrong[0][0] <= now - self.window_s:
            self._wrong.popleft()

    def _table_wait(self, now: float) -> float:
        over = len(self._wrong) - self.table_free
        if over < 0:
            return 0.0
        pause = min(self.table_max_pause_s, self.table_pause_s * 2 ** over)
        return max(0.0, self._wrong[-1][0] + pause - now)

    def report(self) -> dict[str, Any]:
        """What the table's screen and console show: locked?, wrong PINs, from how many addresses."""
        with self._lock:
            return self._report()

    def _report(self) -> dict[str, Any]:
        return {"locked": self._locked_at is not None, "wrong_pins": len(self._wrong),
                "addresses": len({client for _, client in self._wrong}), "refused": self._refused,
                "locked_at": self._locked_at}

    def lift(self) -> dict[str, Any]:
        """The table's own screen or console lifts the lockout and the table's pause; what it was."""
        with self._lock:
            was = self._report()
            self._wrong.clear()
            self._refused = 0
            self._locked_at = None
            return was

    # --- attempts ------------------------------------------------------------------------------
    def check_pin(self, client: str, pin: object, *, local: bool = False) -> Verdict:
        """A PIN from ``client`` (``local``: the table's own screen, exempt from the table's budget)."""
        now = self.clock.now()
        locked_now: dict[str, Any] | None = None
        with self._lock:
            self._prune(now)
            if not local and self._locked_at is not None:
                self._refused += 1
                return Verdict(False, 423, say("host login by PIN is locked after {n} wrong PINs: unlock it on the "
                                               "table's own screen or with `gametable host unlock` on its console",
                                               n=len(self._wrong)))
            wait = self.client.wait(client, now)
            if wait > 0:
                return Verdict(False, 429, say("too many wrong PINs; try again in {s} s", s=int(wait + 0.999)), wait)
            wait = 0.0 if local else self._table_wait(now)
            if wait > 0:
                self._refused += 1
                return Verdict(False, 429, say("too many wrong PINs on this table; PIN login pauses for everyone, "
                                               "try again in {s} s", s=int(wait + 0.999)), wait)
            if isinstance(pin, str) and hmac.compare_digest(pin.encode(), self._pin.encode()):
                self.client.forget(client)
                return Verdict(True)
            left = self.client.failed(client, now)
            if not local:
                self._wrong.append((now, client))
                if len(self._wrong) >= self.lockout_after:
                    self._locked_at = self.clock.wall()
                    locked_now = self._report()
        if locked_now is not None and self.on_lockout is not None:
            self.on_lockout(locked_now)
        return Verdict(False, 403, say_n("wrong PIN ({n} try left before a pause)",
                                         "wrong PIN ({n} tries left before a pause)", left))

    def check_key(self, key: object) -> Verdict:
        """The host link's key: unguessable, so it opens the host screen even while PINs are locked."""
        if isinstance(key, str) and hmac.compare_digest(key.encode(), self.key.encode()):
            return Verdict(True)
        return Verdict(False, 403, say("this host link is not (or no longer) valid: the table makes a new one at "
                                       "each start; read it on the table's screen or console"))
