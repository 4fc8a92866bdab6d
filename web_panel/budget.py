"""How many requests strangers get served per second, all together: a token bucket.

Why: the panel is one interpreter. Unauthenticated GETs from 50 addresses, each inside its own caps,
kept every worker thread busy and slowed the seated phones 31x. Seated phones, the host and the
table's own screen never spend this budget; everyone else's requests wait their turn in the event
loop (read, parked, costing nothing) instead of competing with the seated phones for the
interpreter. Time comes from the caller (the event loop's clock), so it is testable without sleeping.
"""

from __future__ import annotations


class RequestBudget:
    """``rate`` requests a second on average, up to ``burst`` at once (a hundred phones loading)."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst = rate, burst
        self._tokens, self._stamp = burst, now

    def _refill(self, now: float) -> None:
        self._tokens = min(self.burst, self._tokens + max(0.0, now - self._stamp) * self.rate)
        self._stamp = now

    def take(self, now: float) -> bool:
        """Spend one request's worth if there is one."""
        self._refill(now)
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def wait_s(self, now: float) -> float:
        """Seconds until the next request's worth is there."""
        self._refill(now)
        return max(0.0, (1.0 - self._tokens) / self.rate)
