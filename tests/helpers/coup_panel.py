"""A stacked 3-player Coup game (CP-7 ``options.setup``) for the panel tests: outcomes are known."""

from __future__ import annotations

from collections import Counter
from typing import Any

from controller.games.coup.cards import CARDS, COPIES

ANN_HAND = ["duke", "captain"]  # Ann claims Duke for tax truthfully (CP-3.2)
BO_HAND = ["contessa", "assassin"]
CY_HAND = ["ambassador", "contessa"]
PLAYERS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}, {"seat": 3, "name": "Cy"}]


def stacked_deck(hands: list[list[str]]) -> list[str]:
    """The 9 cards left after dealing ``hands``, in a fixed order (no Captain on top)."""
    left = Counter({c: COPIES for c in CARDS})
    left.subtract(Counter(c for h in hands for c in h))
    return [c for c in CARDS for _ in range(left[c])]


def coup_game(cid: str = "coup-1", timeout_s: float = 30) -> dict[str, Any]:
    """The ``new_game`` command: Ann first, 2 coins each, hands and deck stacked."""
    hands = {"1": ANN_HAND, "2": BO_HAND, "3": CY_HAND}
    return {"type": "new_game", "id": cid, "game": "coup", "mode": "classic", "players": PLAYERS, "seed": 5,
            "options": {"timeout_s": timeout_s,
                        "setup": {"hands": hands, "deck": stacked_deck(list(hands.values())), "first": 1}}}


class SseStream:
    """One phone's live stream (``GET /api/stream`` with its cookies), read on a thread into ``frames``.

    Real I/O: the test waits for frames with a bounded poll; ``close()`` ends the connection.
    """

    def __init__(self, port: int, cookies: dict[str, str], path: str = "/api/stream") -> None:
        import http.client
        import threading

        self.frames: list[tuple[str, Any]] = []
        self._lock = threading.Lock()
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.request("GET", path, headers={"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())})
        self.resp = self.conn.getresponse()
        assert self.resp.status == 200, self.resp.status
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        import json

        event = None
        try:
            while True:
                line = self.resp.readline()
                if not line:
                    return
                text = line.decode().rstrip("\n")
                if text.startswith("event: "):
                    event = text[7:]
                elif text.startswith("data: ") and event:
                    with self._lock:
                        self.frames.append((event, json.loads(text[6:])))
                    event = None
        except (OSError, ValueError):
            return

    def wait(self, predicate: Any, timeout: float = 10.0, what: str = "frame", start: int = 0) -> tuple[str, Any]:
        """The first frame from index ``start`` on for which ``predicate(event, data)`` holds."""
        import time

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                for frame in self.frames[start:]:
                    if predicate(*frame):
                        return frame
            time.sleep(0.01)
        raise TimeoutError(f"no {what} on the stream; got {[f[0] for f in self.frames][-12:]}")

    def close(self) -> None:
        self.conn.close()


def keys_anywhere(data: Any) -> set[str]:
    """Every object key at any depth of a JSON value."""
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in keys_anywhere(v)}
    if isinstance(data, list):
        return {k for v in data for k in keys_anywhere(v)}
    return set()
