"""Which striker belongs to which seat, and which MACs the base station forwards.

The host pairs strikers from the panel ("wave the striker, tap the seat"); the Pi owns the result
and keeps it in a small JSON file beside the journal (``<journal>.strikers.json``), merged over
the config's ``[strikers]``: a pairing made at the table wins over the config, an unpairing
removes a config entry too. Why a file and not the journal: pairing is the table's wiring, not
game state; no game input or replay depends on it (a ``strike`` input already names its seat),
and it must outlive every game and an empty journal. It is written atomically (temp file +
rename), so a power cut leaves the old or the new list, never half a file.

Firmware 1.3.0: the file also holds the table's ESP-NOW secret — 16 bytes from ``secrets``, made
at the first pairing from the panel — so it is readable by its owner only (0600). ``peers_set``
hands it to the base station, which derives the PMK and each striker's own LMK from it
(firmware/lib/keys.py) and gives a striker its keys while the host pairs it
(hardware_docs/firmware.md, "Encryption"). It is never published.

:class:`PairingDesk` is the pairing window as the Pi sees it: the base's ``pairing``, ``peers``
and ``pair_seen`` reports (hardware_docs/serial_protocol.md, firmware 1.1.0), checked here because
:mod:`gametable_core.frames` passes unknown types with only their common fields checked. No I/O.

:class:`StrikerTuning` (firmware 1.2.0) is each paired striker's strike threshold — the one the
host asked for with ``tune_striker`` and the one the striker's heartbeat reports (``thr``) — and
its RSSI from the base's ``radio`` report: the retained ``sensors/strikers`` payload the bring-up
page shows. Not persisted: the striker stores its threshold itself, and says it after every boot.
"""

from __future__ import annotations

import json
import math
import os
import re
import secrets
from collections import OrderedDict
from pathlib import Path
from typing import Any

MAC = re.compile(r"^[0-9a-f]{12}$")
MAX_PEERS = 8  # the base station's allow-list holds at most 8 MACs (firmware/lib/frames.py)
MAX_ENCRYPTED = 6  # ESP-NOW encrypts at most 6 peers (espnow.MAX_ENCRYPT_PEER_NUM): one per seat
KEY = re.compile(r"^[0-9a-f]{32}$")  # an ESP-NOW key (16 bytes) as the frames write it
MAX_SEEN = 16  # strikers listed while a window is open (the base sends one per MAC per 250 ms)
MAX_WINDOW_S = 600
SEATS = range(1, 7)
FILE_VERSION = 1
MIN_THRESHOLD_G = 1.0  # firmware/lib/frames.py MIN_THR / MAX_THR: what a striker accepts
MAX_THRESHOLD_G = 16.0
DEFAULT_THRESHOLD_G = 2.5  # firmware/striker/config.py THRESHOLD_G: an untuned striker's
MIN_RSSI = -127
SIGNAL_GOOD_DBM = -67  # ESP-NOW at 1 Mbit/s: fine above this, still fine (but watch it) to -80
SIGNAL_FAIR_DBM = -80


class PairingError(ValueError):
    """A pairing command that cannot be applied; the message says why, nothing changed."""


def pairings_file(journal_path: str) -> Path:
    """``<journal>.strikers.json``: next to the journal, like the panel's seat tokens."""
    journal = Path(journal_path)
    return journal.with_name(journal.name + ".strikers.json")


def check_sid(sid: Any) -> str:
    if not isinstance(sid, str) or not 0 < len(sid) <= 32 or sid in ("base", "pi"):
        raise PairingError(f"'striker' must be a striker id of 1 to 32 characters (as its frames say), got {sid!r}")
    return sid


def check_mac(mac: Any) -> str:
    if not isinstance(mac, str) or not MAC.match(mac):
        raise PairingError(f"'mac' must be 12 lowercase hex digits without separators, got {mac!r}")
    return mac


def check_key(key: Any) -> str:
    if not isinstance(key, str) or not KEY.match(key):
        raise PairingError("an ESP-NOW key must be 32 lowercase hex digits")
    return key


def new_key() -> str:
    """A fresh 16-byte ESP-NOW key (PMK or LMK) from the OS's random source."""
    return secrets.token_hex(16)


def check_seat(seat: Any) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
        raise PairingError(f"'seat' must be a seat number from 1 to 6, got {seat!r}")
    return seat


def check_threshold(value: Any) -> float:
    """A threshold the striker accepts, rounded to 2 decimals (what the frame carries)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
            or not MIN_THRESHOLD_G <= value <= MAX_THRESHOLD_G:
        raise PairingError(f"'threshold_g' must be a number of g from {MIN_THRESHOLD_G:g} to {MAX_THRESHOLD_G:g}, "
                           f"got {value!r}")
    return round(float(value), 2)


def heartbeat_threshold(frame: dict[str, Any]) -> float | None:
    """The ``thr`` a 1.2.0 striker's heartbeat carries, or None (older firmware, or a bad value)."""
    thr = frame.get("thr")
    try:
        return check_threshold(thr)
    except PairingError:
        return None


def signal_word(rssi: int | None) -> str | None:
    """A plain word for the host: good, fair (works, move the base closer if strikes go missing), weak."""
    if rssi is None:
        return None
    return "good" if rssi >= SIGNAL_GOOD_DBM else "fair" if rssi >= SIGNAL_FAIR_DBM else "weak"


class Pairings:
    """Striker id → seat (and MAC), persisted in ``path``, merged over ``configured`` ([strikers])."""

    def __init__(self, path: Path | str, configured: dict[str, int]) -> None:
        self.path = Path(path)
        self.configured = dict(configured)
        self.paired: dict[str, dict[str, Any]] = {}  # sid -> {"seat": S, "mac": m or None}
        self.removed: set[str] = set()  # config entries the host unpaired
        self.key: str | None = None  # the table's ESP-NOW secret, made at the first pairing from the panel
        self.load_error: str | None = None
        self._load()

    def _load(self) -> None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            # an unreadable file must not stop the table: the config's [strikers] still apply, and
            # the reason is shown on the bring-up page (the next pairing rewrites the file)
            self.load_error = f"{self.path.name} unreadable ({exc}); using [strikers] from the config"
            return
        try:
            for sid, entry in (data.get("strikers") or {}).items():
                mac = entry.get("mac")
                self.paired[check_sid(sid)] = {"seat": check_seat(entry.get("seat")),
                                               "mac": None if mac is None else check_mac(mac)}
            self.removed = {check_sid(s) for s in data.get("removed") or []}
            key = data.get("key")
            self.key = None if key is None else check_key(key)
        except (PairingError, AttributeError, TypeError) as exc:
            self.paired, self.removed, self.key = {}, set(), None
            self.load_error = f"{self.path.name} has a bad entry ({exc}); using [strikers] from the config"

    def save(self) -> None:
        data = {"version": FILE_VERSION, "strikers": self.paired, "removed": sorted(self.removed), "key": self.key}
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # it holds the radio keys
        os.fchmod(fd, 0o600)  # also when an older, world-readable temp file was left behind
        with open(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, sort_keys=True)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        self.load_error = None

    def seats(self) -> dict[str, int]:
        """The effective ``sid -> seat`` map (what ``strike_input`` reads)."""
        out = {sid: seat for sid, seat in self.configured.items() if sid not in self.removed}
        out.update({sid: entry["seat"] for sid, entry in self.paired.items()})
        return out

    def peers(self) -> dict[str, str]:
        """The base station's allow-list ``{mac: sid}`` (``peers_set``), sorted by MAC."""
        return {entry["mac"]: sid for sid, entry in sorted(self.paired.items(), key=lambda kv: kv[1]["mac"] or "")
                if entry["mac"]}

    def peers_set(self) -> dict[str, Any]:
        """The ``peers_set`` command for the base: the allow-list and, from 1.3.0, the table's secret."""
        if self.key is None:
            return {"t": "peers_set", "peers": self.peers()}
        return {"t": "peers_set", "peers": self.peers(), "key": self.key}

    def pair(self, sid: str, mac: str, seat: int) -> None:
        """Give striker ``sid`` (radio address ``mac``) to ``seat``; raises :class:`PairingError`.

        The first one makes the table's ESP-NOW secret: from then on every striker is encrypted."""
        sid, mac, seat = check_sid(sid), check_mac(mac), check_seat(seat)
        other = next((s for s, e in self.paired.items() if e["mac"] == mac and s != sid), None)
        if other is not None:
            raise PairingError(f"MAC {mac} is already paired as {other}; unpair {other} first")
        peers = self.peers()
        if mac not in peers and len(peers) >= MAX_ENCRYPTED:
            raise PairingError(f"the radio encrypts at most {MAX_ENCRYPTED} strikers (one per seat); unpair one first")
        if self.key is None:
            self.key = new_key()
        self.paired[sid] = {"seat": seat, "mac": mac}
        self.removed.discard(sid)
        self.save()

    def unpair(self, sid: str) -> None:
        sid = check_sid(sid)
        if sid not in self.seats():
            raise PairingError(f"striker {sid} is not paired with this table")
        self.paired.pop(sid, None)
        if sid in self.configured:
            self.removed.add(sid)
        self.save()

    def adopt(self, peers: dict[str, str]) -> bool:
        """The base's stored list names a MAC for a striker the Pi maps to a seat without knowing
        its MAC (a ``[strikers]`` entry): keep it, so the next ``peers_set`` does not drop it."""
        changed = False
        seats = self.seats()
        known = {e["mac"] for e in self.paired.values()}
        for mac, sid in peers.items():
            entry = self.paired.get(sid)
            if sid in seats and mac not in known and (entry is None or entry["mac"] is None):
                self.paired[sid] = {"seat": seats[sid], "mac": mac}
                known.add(mac)
                changed = True
        if changed:
            self.save()
        return changed

    def listing(self) -> list[dict[str, Any]]:
        """Every paired striker for the panel: id, seat, MAC (None: from the config, not yet seen)."""
        return [{"striker": sid, "seat": seat, "mac": (self.paired.get(sid) or {}).get("mac"),
                 "from": "panel" if sid in self.paired else "config",
                 "encrypted": self.key is not None and bool((self.paired.get(sid) or {}).get("mac"))}
                for sid, seat in sorted(self.seats().items(), key=lambda kv: (kv[1], kv[0]))]


def base_report(frame: dict[str, Any]) -> dict[str, Any] | None:
    """A checked ``pairing`` / ``peers`` / ``pair_seen`` / ``radio`` frame from the base, or None if malformed."""
    t = frame.get("t")
    try:
        if t == "pairing":
            s = frame.get("s")
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s <= MAX_WINDOW_S:
                return None
            return {"t": t, "s": s}
        if t == "peers":
            peers = frame.get("peers")
            if not isinstance(peers, dict) or len(peers) > MAX_PEERS:
                return None
            return {"t": t, "peers": {check_mac(m): check_sid(s) for m, s in peers.items()}}
        if t == "pair_seen":
            g = frame.get("g")
            if isinstance(g, bool) or not isinstance(g, int | float) or not 0 <= g <= 1000:
                return None
            return {"t": t, "sid": check_sid(frame.get("sid")), "mac": check_mac(frame.get("mac")), "g": float(g)}
        if t == "radio":
            rssi = frame.get("rssi")
            if not isinstance(rssi, dict) or len(rssi) > MAX_PEERS:
                return None
            for v in rssi.values():
                if isinstance(v, bool) or not isinstance(v, int) or not MIN_RSSI <= v <= 0:
                    return None
            return {"t": t, "rssi": {check_sid(sid): v for sid, v in rssi.items()}}
    except PairingError:
        return None
    return None


class PairingDesk:
    """The pairing window and the strikers waved during it (bounded), for the bring-up page."""

    def __init__(self) -> None:
        self.window_s = 0  # as the base last said (0: closed)
        self.opened_at: float | None = None
        self.base_peers: dict[str, str] | None = None  # the base's list as it last reported it
        self.seen: OrderedDict[str, dict[str, Any]] = OrderedDict()  # mac -> {sid, mac, g, t}

    def on_report(self, report: dict[str, Any], now: float) -> None:
        if report["t"] == "pairing":
            self.window_s = report["s"]
            self.opened_at = now if report["s"] else None
            if report["s"]:
                self.seen.clear()  # a new window: only what is waved now
        elif report["t"] == "peers":
            self.base_peers = dict(report["peers"])
        elif report["t"] == "pair_seen":
            self.seen.pop(report["mac"], None)
            self.seen[report["mac"]] = {"striker": report["sid"], "mac": report["mac"], "g": report["g"], "t": now}
            while len(self.seen) > MAX_SEEN:
                self.seen.popitem(last=False)

    def status(self, pairings: Pairings, now: float) -> dict[str, Any]:
        """The retained ``sensors/pairing`` payload."""
        left = 0.0
        if self.window_s and self.opened_at is not None:
            left = max(0.0, self.window_s - (now - self.opened_at))
        paired_macs = set(pairings.peers())
        return {
            "event": "pairing",
            "open": left > 0,
            "seconds_left": round(left, 1),
            "seen": [{**s, "paired": s["mac"] in paired_macs} for s in reversed(self.seen.values())],
            "paired": pairings.listing(),
            "base_peers": self.base_peers,
            "in_sync": self.base_peers is not None and self.base_peers == pairings.peers(),
            "warning": pairings.load_error,
        }


class StrikerTuning:
    """Wanted and reported threshold and RSSI per paired striker (bounded by the paired list)."""

    def __init__(self) -> None:
        self.wanted: dict[str, float] = {}  # what the host set, until the striker reports another value
        self.reported: dict[str, float] = {}  # the striker's heartbeat ``thr``
        self.rssi: dict[str, int] = {}

    def want(self, sid: str, thr: float) -> None:
        self.wanted[sid] = thr

    def report(self, sid: str, thr: float | None) -> bool:
        """A heartbeat's threshold; True if what the page shows changed."""
        if thr is None or self.reported.get(sid) == thr:
            return False
        old = self.reported.get(sid)
        self.reported[sid] = thr
        want = self.wanted.get(sid)
        if want is not None and old == want and thr != want:
            del self.wanted[sid]  # applied once, now another value (reflashed, settings lost): the striker's wins
        return True

    def radio(self, rssi: dict[str, int], paired: Any) -> bool:
        """The base's RSSI report (paired strikers only); a striker it no longer names has none."""
        new = {sid: v for sid, v in rssi.items() if sid in paired}
        if new == self.rssi:
            return False
        self.rssi = new
        return True

    def forget(self, sid: str) -> None:
        for table in (self.wanted, self.reported, self.rssi):
            table.pop(sid, None)

    def state(self, sid: str) -> str:
        """``applied`` (the striker reports what the host set), ``pending``, or ``firmware`` (never tuned here)."""
        want = self.wanted.get(sid)
        if want is None:
            return "firmware"
        return "applied" if self.reported.get(sid) == want else "pending"

    def status(self, paired: Any) -> dict[str, Any]:
        """The retained ``sensors/strikers`` payload: one entry per paired striker."""
        return {
            "event": "strikers",
            "min_g": MIN_THRESHOLD_G,
            "max_g": MAX_THRESHOLD_G,
            "default_g": DEFAULT_THRESHOLD_G,
            "strikers": {sid: {"threshold_g": self.reported.get(sid), "wanted_g": self.wanted.get(sid),
                               "tune": self.state(sid), "rssi": self.rssi.get(sid),
                               "signal": signal_word(self.rssi.get(sid))} for sid in sorted(paired)},
        }
