"""The daemon's referee API (controller/referee_api.py) over a pure rules function, without I/O.

One stand-in for the daemon where a test is about one part alone (the observer, the virtual
table, a bot, the simulator's loop): it accepts what ``apply`` accepts, refuses with the rules'
own error, answers a repeated id with its first result, and tells listeners of every accepted
input, as the daemon does. Without ``apply`` it accepts everything and keeps its state.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from controller.referee_api import Listener

Apply = Callable[[Any, dict[str, Any]], Any]


def _same(state: Any) -> Any:
    return state


class FakeDaemon:
    """``submit`` / ``public_state`` / ``seat_view`` / ``add_listener`` / ``start`` / ``stop``.

    ``inputs`` and ``sources`` record every accepted command and who sent it; ``fail`` makes
    ``submit`` raise (a journal that closed under the caller).
    """

    def __init__(self, state: Any = None, *, apply: Apply | None = None, view: Callable[[Any], Any] = _same,
                 refusals: tuple[type[Exception], ...] = (ValueError,), fail: Exception | None = None) -> None:
        self.state = state
        self.apply, self.view, self.refusals, self.fail = apply, view, refusals, fail
        self.inputs: list[dict[str, Any]] = []
        self.sources: list[str] = []
        self.started = False
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self._results: dict[Any, dict[str, Any]] = {}

    def start(self) -> None:
        self.started = True

    def stop(self) -> None:
        self.started = False

    def add_listener(self, fn: Listener) -> None:
        self._listeners.append(fn)

    def seat_view(self, seat: int) -> dict[str, Any] | None:
        """No seat views: bots and the simulator then play from the public state."""
        return None

    def public_state(self) -> Any:
        with self._lock:
            return self.view(self.state)

    def submit(self, cmd: dict[str, Any], source: str = "sensor") -> dict[str, Any]:
        if self.fail is not None:
            raise self.fail
        with self._lock:
            cid = cmd.get("id")
            if cid is not None and cid in self._results:
                return self._results[cid]
            try:
                if self.apply is not None:
                    self.state = self.apply(self.state, cmd)
            except self.refusals as exc:
                result = {"id": cid, "ok": False, "error": str(exc)}
            else:
                self.inputs.append(cmd)
                self.sources.append(source)
                result = {"id": cid, "ok": True}
            if cid is not None:
                self._results[cid] = result
            snapshot = self.view(self.state)
        if result["ok"]:
            for fn in self._listeners:
                fn(cmd, snapshot)
        return result
