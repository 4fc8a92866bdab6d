"""Why the table waits instead of playing: one text for the daemon, from several reasons.

Why: striker faults (a lost port, a silent striker) and the pairing ("no striker is paired") each
add and clear their own reason; the daemon shows them joined (the status LED turns amber and the
panel says why, ``controller/daemon.py`` ``set_waiting``).
"""

from __future__ import annotations

from controller.referee_api import TableReferee


class WaitingReasons:
    """Reasons by key (a striker id, ``"port"``, ``"pairing"``); every change goes to the daemon."""

    def __init__(self, daemon: TableReferee) -> None:
        self._daemon = daemon
        self._reasons: dict[str, str] = {}

    def add(self, key: str, reason: str) -> None:
        self._reasons[key] = reason

    def clear(self, key: str) -> None:
        self._reasons.pop(key, None)

    def publish(self) -> None:
        self._daemon.set_waiting("; ".join(self._reasons.values()) or None)
