"""The host's bring-up page: what the sensors say, live, and pairing.

:class:`BringupCache` keeps the latest of the daemon's ``gametable/T/sensors/…`` messages that a
builder needs while wiring the table — each beam's state and edge count (a coin passing blinks a
beam for 20 ms: the count shows it even between two polls), the walk test, each striker's last
strike g-values, battery, asleep or silent, its strike threshold (wanted and reported) and RSSI
(the retained ``sensors/strikers``, firmware 1.2.0), the base station's firmware and the pairing
window — bounded, whatever arrives. The page (``static/bringup.js``) polls ``GET /api/bringup``,
which only an unlocked host may read.

:func:`bringup_command` checks the page's requests before the panel publishes them on ``cmd`` as
table commands (``pair_open``, ``pair_striker``, ``unpair_striker``, ``tune_striker``: see
controller/pairing.py); the daemon checks them again and says what is wrong.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict, deque
from typing import Any

# an untuned striker's threshold and what a 1.2.0 striker accepts: the daemon's own bounds
from controller.pairing import DEFAULT_THRESHOLD_G, MAX_THRESHOLD_G, MIN_THRESHOLD_G
from web_panel.commands import CommandError, request_id

MAX_STRIKERS = 16
MAX_BEAMS = 64
STRIKES_KEPT = 8
REPORTS_KEPT = 12
TUNE_STATES = ("applied", "pending", "firmware")
SIGNAL_WORDS = ("good", "fair", "weak")
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
        self.camera: dict[str, Any] | None = None  # None: no camera has spoken

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
            elif kind == "strikers":
                self._tuning(data)
            elif kind == "waiting":
                self.waiting = data.get("waiting") if isinstance(data.get("waiting"), str) else None
            elif kind == "camera":  # the camera's markers and coins at rest (no image: CAM-6)
                coins = data.get("coins")
                self.camera = {"calibrated": data.get("calibrated") is True,
                               "coins": len(coins) if isinstance(coins, dict) else 0}

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
            entry = self.strikers[sid] = {"bat": None, "rssi": None, "signal": None, "g": [], "state": "ok",
                                          "strikes": 0, "threshold_g": None, "wanted_g": None, "tune": "firmware"}
        return entry

    def _tuning(self, data: dict[str, Any]) -> None:
        """The retained ``sensors/strikers``: thresholds and RSSI of every paired striker."""
        strikers = data.get("strikers")
        if not isinstance(strikers, dict):
            return
        for sid, st in list(strikers.items())[:MAX_STRIKERS]:
            if not isinstance(sid, str) or sid == "base" or not isinstance(st, dict):
                continue
            entry = self._entry(sid)
            if entry is None:
                continue
            for key in ("threshold_g", "wanted_g"):
                v = st.get(key)
                entry[key] = v if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) else None
            rssi = st.get("rssi")
            entry["rssi"] = rssi if isinstance(rssi, int) and not isinstance(rssi, bool) else None
            entry["signal"] = st.get("signal") if st.get("signal") in SIGNAL_WORDS else None
            entry["tune"] = st.get("tune") if st.get("tune") in TUNE_STATES else "firmware"

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
                "camera": self.camera,
                "threshold": {"default_g": DEFAULT_THRESHOLD_G, "min_g": MIN_THRESHOLD_G,
                              "max_g": MAX_THRESHOLD_G},
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
    if kind == "tune_striker":
        return {"type": kind, "id": cid, "striker": body.get("striker"), "threshold_g": body.get("threshold_g")}
    raise CommandError(400, f"unknown command type {kind!r}; the bring-up page may send: "
                            "pair_open, pair_striker, unpair_striker, tune_striker")


def camera_still_command() -> dict[str, Any]:
    """The table command for the host's camera still (CAM-6: the page's only image)."""
    import secrets

    return {"type": "camera_still", "id": f"host-still-{secrets.token_hex(9)}"}
