"""The host's bring-up page (issue 15, "builders expect"): what the sensors say, live, and pairing.

:class:`BringupCache` keeps the latest of the daemon's ``gametable/T/sensors/…`` messages that a
builder needs while wiring the table — each beam's state and edge count (a coin passing blinks a
beam for 20 ms: the count shows it even between two polls), the walk test, each striker's last
strike g-values, battery, RSSI (when the base reports one; firmware 1.1.0 does not), asleep or
silent, the base station's firmware and the pairing window — bounded, whatever arrives. The page
(``static/bringup.js``) polls ``GET /api/bringup``, which only an unlocked host may read.

:func:`bringup_command` checks the page's pairing requests before the panel publishes them on
``cmd`` as table commands (``pair_open``, ``pair_striker``, ``unpair_striker``: see
controller/pairing.py); the daemon checks them again and says what is wrong.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from typing import Any

from web_panel.commands import CommandError, request_id

MAX_STRIKERS = 16
MAX_BEAMS = 64
STRIKES_KEPT = 8
REPORTS_KEPT = 12
# the striker firmware's strike threshold (firmware/striker/config.py THRESHOLD_G): shown beside
# the g-values; changing it needs a reflash until the firmware has a settings frame
FIRMWARE_THRESHOLD_G = 2.5
STRIKER_EVENTS = {"silent": "silent", "back": "ok", "asleep": "asleep", "awake": "ok",
                  "low_battery": "low battery", "battery_ok": "ok"}
PORT_EVENTS = {"port_opened": "open", "port_reopened": "open", "port_lost": "lost", "port_unavailable": "unavailable"}


class BringupCache:
    """Latest sensor facts for the bring-up page; thread-safe (the MQTT thread writes)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.beams: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.walk: dict[str, Any] | None = None
        self.strikers: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.base: dict[str, Any] = {"fw": None, "port": "unknown"}
        self.pairing: dict[str, Any] | None = None
        self.waiting: str | None = None
        self.reports: deque[str] = deque(maxlen=REPORTS_KEPT)

    def handle(self, kind: str, data: Any) -> None:
        """One ``sensors/<kind>`` payload (already JSON-decoded)."""
        if not isinstance(data, dict):
            return
        with self._lock:
            if kind == "beams":
                self._beam(data)
            elif kind == "walk":
                self.walk = {k: data.get(k) for k in ("complete", "done", "missing", "message")}
            elif kind == "striker":
                self._striker(data)
            elif kind == "pairing":
                self.pairing = data
            elif kind == "waiting":
                self.waiting = data.get("waiting") if isinstance(data.get("waiting"), str) else None

    def _beam(self, data: dict[str, Any]) -> None:
        if data.get("type") == "beam" and isinstance(data.get("beam"), str):
            beam = self.beams.get(data["beam"])
            if beam is None:
                if len(self.beams) >= MAX_BEAMS:
                    return
                beam = self.beams[data["beam"]] = {"blocked": False, "edges": 0}
            beam["blocked"] = bool(data.get("blocked"))
            beam["edges"] += 1
        elif isinstance(data.get("message"), str):  # stuck, dead-beam reports
            self.reports.append(data["message"][:200])

    def _entry(self, sid: str) -> dict[str, Any] | None:
        entry = self.strikers.get(sid)
        if entry is None:
            if len(self.strikers) >= MAX_STRIKERS:
                self.strikers.popitem(last=False)
            entry = self.strikers[sid] = {"bat": None, "rssi": None, "g": [], "state": "ok", "strikes": 0}
        return entry

    def _striker(self, data: dict[str, Any]) -> None:
        sid = data.get("id") if isinstance(data.get("id"), str) else None
        t, event = data.get("t"), data.get("event")
        if event in PORT_EVENTS:
            self.base["port"] = PORT_EVENTS[event]
            self.reports.append(str(data.get("message", event))[:200])
            return
        if event is None and t == "hello" and sid == "base":
            self.base["fw"] = data.get("fw")
            return
        if sid is None or sid == "base":
            return
        entry = self._entry(sid)
        if entry is None:
            return
        if isinstance(data.get("rssi"), int | float):  # a base that reports it (not firmware 1.1.0)
            entry["rssi"] = data["rssi"]
        if event in STRIKER_EVENTS:
            entry["state"] = STRIKER_EVENTS[event]
        elif event is None and t == "hb" and isinstance(data.get("bat"), int | float):
            entry["bat"] = data["bat"]
        elif event is None and t == "strike" and isinstance(data.get("g"), int | float):
            entry["g"] = [*entry["g"], data["g"]][-STRIKES_KEPT:]
            entry["strikes"] += 1
        elif event == "strike_out_of_turn":
            self.reports.append(str(data.get("message"))[:200])

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return {
                "beams": {k: dict(v) for k, v in self.beams.items()},
                "walk": self.walk,
                "strikers": {k: {**v, "g": list(v["g"])} for k, v in self.strikers.items()},
                "base": dict(self.base),
                "pairing": self.pairing,
                "waiting": self.waiting,
                "reports": list(self.reports),
                "threshold": {"g": FIRMWARE_THRESHOLD_G, "tunable": False,
                              "why": "the striker firmware has no settings frame yet: change THRESHOLD_G "
                                     "in firmware/striker/config.py and reflash (hardware_docs/firmware.md)"},
            }


def bringup_command(body: Any) -> dict[str, Any]:
    """The table command the host's bring-up page may publish for ``body``, or CommandError."""
    rid = request_id(body)
    kind = body.get("type")
    cid = f"host-{rid}"
    if kind == "pair_open":
        seconds = body.get("seconds", 60)
        if isinstance(seconds, bool) or not isinstance(seconds, int) or not 0 <= seconds <= 600:
            raise CommandError(400, f"'seconds' must be a whole number from 0 to 600, got {seconds!r}")
        return {"type": kind, "id": cid, "seconds": seconds}
    if kind == "pair_striker":
        return {"type": kind, "id": cid, "striker": body.get("striker"), "mac": body.get("mac"),
                "seat": body.get("seat")}
    if kind == "unpair_striker":
        return {"type": kind, "id": cid, "striker": body.get("striker")}
    raise CommandError(400, f"unknown command type {kind!r}; the bring-up page may send: "
                            "pair_open, pair_striker, unpair_striker")
