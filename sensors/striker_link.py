"""The Pi end of the striker base station: serial port → protocol 1 frames → callbacks.

Why a thread with bulk reads: frames are small and bursty, so the reader takes whatever the port
has (``in_waiting``, or one byte with a short timeout) and hands it to the streaming decoder; no
``readline``, no per-byte Python loop. Why the bookkeeping: a referee must know when a striker is
missing or failing, so every sender's sequence numbers, heartbeat and battery are tracked, and
each anomaly becomes a structured diagnostic event (published on ``gametable/T/sensors/…``).

Unplugging the base station (or its /dev/serial/by-id symlink vanishing) closes the port and the
thread retries with backoff until it can open the same path again. Nothing here raises into the
reader thread's caller; bad bytes only ever become counted errors and events.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import serial

from gametable_core.clock import Clock
from gametable_core.frames import KNOWN_TYPES, PROTOCOL, SEQ_MOD, FrameDecoder, FrameError, encode

log = logging.getLogger(__name__)

HALF_SEQ = SEQ_MOD // 2
RECENT_SEQS = 64  # a seq seen among the last 64 from a sender is a duplicate, not a restart
BATTERY_HYSTERESIS_V = 0.05
# What one sender may cost: a striker sends a heartbeat a second and a few strikes; a base
# station in a room of tables, a broken board or an attacker may send thousands of ids. Every
# per-sender table is bounded and every diagnostic is rate-limited, so memory and MQTT traffic
# stay flat whatever arrives on the port.
MAX_SENDERS = 64  # tracked senders (paired strikers + the base); more are counted, not tracked
MAX_FRAMES_PER_S = 50  # per sender, sustained (a token bucket) ...
BURST_FRAMES = 200  # ... after a burst this big: a base station's backlog after a USB stall passes
MAX_UNPAIRED_IDS = 16  # unpaired ids remembered for stats (most recent first)
# a striker going to sleep by design, firmware 1.1.0 (serial_protocol.md):
# {"t":"sleep","id":"s3","seq":19,"bat":3.88,"why":"idle"}
SLEEP = "sleep"
# the base station's pairing reports (firmware 1.1.0) and its RSSI report (``radio``, 1.2.0):
# passed on to ``on_frame`` only from "base"
BASE_REPORTS = frozenset({"pairing", "peers", "pair_seen", "radio"})
PI_ID = "pi"  # the sender id of frames the Pi writes to the base station


class LinkDown(RuntimeError):
    """A frame for the base station could not be written (no port open); the message says why."""


@dataclass
class SenderState:
    """What the link knows about one sender (``base`` or a striker id)."""

    last_seq: int | None = None
    recent: deque[int] = field(default_factory=lambda: deque(maxlen=RECENT_SEQS))
    last_seen: float | None = None
    silent: bool = False
    frames: int = 0
    lost: int = 0
    duplicates: int = 0
    bat: float | None = None
    low_battery: bool = False
    fw: str | None = None
    proto: int | None = None
    asleep: bool = False  # said "sleep": quiet by design, not silent
    tokens: float = float(BURST_FRAMES)
    refilled: float | None = None
    flooding: bool = False
    rate_limited: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "last_seq": self.last_seq,
            "last_seen": self.last_seen,
            "silent": self.silent,
            "frames": self.frames,
            "lost": self.lost,
            "duplicates": self.duplicates,
            "bat": self.bat,
            "low_battery": self.low_battery,
            "fw": self.fw,
            "proto": self.proto,
            "asleep": self.asleep,
            "rate_limited": self.rate_limited,
        }


class _Budget:
    """At most ``per_s`` events of one kind per second of clock time; the rest are only counted
    and summarised once the second is over."""

    def __init__(self, per_s: int) -> None:
        self.per_s = per_s
        self.window: float | None = None
        self.used = 0
        self.suppressed = 0

    def take(self, now: float) -> tuple[bool, int]:
        """(may emit now, count suppressed in the window that just ended)."""
        ended = 0
        if self.window is None or now - self.window >= 1.0:
            ended, self.suppressed = self.suppressed, 0
            self.window, self.used = now, 0
        if self.used < self.per_s:
            self.used += 1
            return True, ended
        self.suppressed += 1
        return False, ended


class StrikerLink:
    """Read protocol 1 frames from ``port`` and report frames and diagnostics.

    ``on_frame(payload)`` gets each valid, non-duplicate ``hello``/``strike``/``hb`` payload (a 1.2.0
    striker's ``hb`` also carries ``thr``, its strike threshold), and the base station's
    ``pairing``/``peers``/``pair_seen``/``radio`` reports (checked by the consumer).
    :meth:`send` writes the Pi's own frames to the base station.
    ``on_event(event)`` gets diagnostics: dicts with ``event`` (a name below), ``t`` (clock time),
    ``message`` (one line for people) and event fields:
    ``port_opened``, ``port_unavailable``, ``port_lost``, ``port_reopened``, ``frame_error``,
    ``hello``, ``proto_mismatch``, ``lost``, ``duplicate``, ``seq_reset``, ``low_battery``,
    ``battery_ok``, ``silent``, ``back``, ``callback_error``, ``frame_errors_suppressed`` (more than
    ``max_error_events_per_s`` bad frames in a second: the rest are only counted), ``asleep`` /
    ``awake`` (a striker's "sleep" frame: quiet by design, never ``silent``), ``unpaired`` /
    ``unpaired_suppressed`` (frames from an id not in ``allowed``, or beyond ``max_senders``:
    dropped before any per-sender state is made), ``flooding`` (one sender above
    ``max_frames_per_s`` once its ``burst_frames`` are spent: the excess is dropped).
    """

    def __init__(
        self,
        port: str,
        baud: int,
        clock: Clock,
        on_frame: Callable[[dict[str, Any]], None],
        on_event: Callable[[dict[str, Any]], None],
        *,
        silence_s: float = 3.0,
        low_battery_v: float = 3.8,
        read_timeout: float = 0.05,
        backoff_s: tuple[float, float] = (0.05, 1.0),
        max_error_events_per_s: int = 20,
        check_interval_s: float = 0.5,
        allowed: Any = None,
        max_senders: int = MAX_SENDERS,
        max_frames_per_s: float = MAX_FRAMES_PER_S,
        burst_frames: int = BURST_FRAMES,
        max_unpaired_events_per_s: int = 5,
    ) -> None:
        self.port = port
        self.baud = baud
        self._clock = clock
        self._on_frame = on_frame
        self._on_event = on_event
        self.silence_s = silence_s
        self.low_battery_v = low_battery_v
        self._read_timeout = read_timeout
        self._backoff = backoff_s
        self._decoder = FrameDecoder()
        self._senders: dict[str, SenderState] = {}
        # paired ids (config [strikers]); None accepts any id (the bring-up tool), still bounded
        self.allowed: frozenset[str] | None = None if allowed is None else frozenset(allowed) | {"base"}
        self._max_senders = max_senders
        self._rate = float(max_frames_per_s)
        self._burst = float(max(burst_frames, 1))
        self._unpaired: OrderedDict[str, int] = OrderedDict()
        self._unpaired_budget = _Budget(max_unpaired_events_per_s)
        self._lock = threading.RLock()
        self._write_lock = threading.Lock()  # never the reader's lock: a send may come from any thread
        self._tx_seq = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._check_interval = check_interval_s
        self._cancel_check: Callable[[], None] | None = None
        self._serial: serial.Serial | None = None
        self._ever_opened = False
        self._counts: dict[str, int] = {
            "bytes": 0,
            "frames": 0,
            "delivered": 0,
            "ignored_unknown": 0,
            "lost": 0,
            "duplicates": 0,
            "port_lost": 0,
            "reopens": 0,
            "ignored_unpaired": 0,
            "ignored_overflow": 0,
            "rate_limited": 0,
            "sent": 0,
        }
        self._errors: dict[str, int] = {}
        # a noisy line must not flood MQTT: frame_error events are capped per second of clock
        # time; the rest are counted in stats() and summarised by one frame_errors_suppressed
        self._max_error_events = max_error_events_per_s
        self._error_window: float | None = None
        self._error_events = 0
        self._suppressed = 0

    # --- lifecycle ------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the reader thread (it opens the port, and keeps reopening it when it goes away)."""
        if self._thread is not None:
            raise RuntimeError("StrikerLink already started")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"striker-link {self.port}", daemon=True)
        self._thread.start()
        self._schedule_check()

    def _schedule_check(self) -> None:
        # silence is judged on the injected clock's timers, not in the reader thread, so a
        # FakeClock test decides exactly when it is checked
        self._cancel_check = self._clock.call_later(self._check_interval, self._periodic_check)

    def _periodic_check(self) -> None:
        if self._stop.is_set():
            return
        self.check()
        self._schedule_check()

    def stop(self) -> None:
        """Stop the thread and close the port; safe to call twice."""
        self._stop.set()
        if self._cancel_check is not None:
            self._cancel_check()
            self._cancel_check = None
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=2.0)
        self._close()

    close = stop

    @property
    def is_open(self) -> bool:
        return self._serial is not None

    # --- the reader thread ----------------------------------------------------------------------

    def _run(self) -> None:
        delay = self._backoff[0]
        unavailable_reported = False
        attempts = 0
        while not self._stop.is_set():
            if self._serial is None:
                attempts += 1
                try:
                    ser = serial.Serial(self.port, self.baud, timeout=self._read_timeout, write_timeout=0.5)
                except (serial.SerialException, OSError, ValueError) as exc:
                    if not unavailable_reported:
                        unavailable_reported = True
                        self._emit("port_unavailable", f"cannot open {self.port}: {_oneline(exc)}; retrying",
                                   port=self.port, error=_oneline(exc))
                    self._stop.wait(delay)
                    delay = min(delay * 2, self._backoff[1])
                    continue
                with self._lock:
                    self._serial = ser
                    self._decoder = FrameDecoder()  # a partial frame from the old port is worthless
                if self._ever_opened:
                    self._counts["reopens"] += 1
                    self._emit("port_reopened", f"{self.port} reopened after {attempts} attempt(s)",
                               port=self.port, attempts=attempts)
                else:
                    self._emit("port_opened", f"{self.port} open at {self.baud} baud", port=self.port)
                self._ever_opened = True
                delay, attempts, unavailable_reported = self._backoff[0], 0, False
            try:
                ser = self._serial
                if ser is None:
                    continue
                waiting = ser.in_waiting
                data = ser.read(min(waiting, 65536) if waiting else 1)
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                # TypeError/AttributeError: pyserial's fd vanished under a concurrent close()
                if self._stop.is_set():
                    break
                self._counts["port_lost"] += 1
                self._close()
                self._emit("port_lost", f"{self.port} lost: {_oneline(exc)}; reopening", port=self.port,
                           error=_oneline(exc))
                continue
            if data:
                self.feed(data)

    def _close(self) -> None:
        with self._lock:
            ser, self._serial = self._serial, None
        if ser is not None:
            try:
                ser.close()
            except (serial.SerialException, OSError):
                pass

    # --- decoding and bookkeeping ---------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Decode bytes as if they came from the port (the reader thread's path)."""
        with self._lock:
            self._counts["bytes"] += len(data)
            for item in self._decoder.feed(data):
                if isinstance(item, FrameError):
                    self._errors[item.kind] = self._errors.get(item.kind, 0) + 1
                    self._frame_error(item)
                else:
                    self._handle(item)

    def _frame_error(self, item: FrameError) -> None:
        now = self._clock.now()
        if self._error_window is None or now - self._error_window >= 1.0:
            self._flush_suppressed()
            self._error_window, self._error_events = now, 0
        if self._error_events < self._max_error_events:
            self._error_events += 1
            self._emit("frame_error", f"bad frame ({item.kind}): {item.message}", kind=item.kind, error=item.message)
        else:
            self._suppressed += 1

    def _flush_suppressed(self) -> None:
        if self._suppressed:
            count, self._suppressed = self._suppressed, 0
            self._emit("frame_errors_suppressed", f"{count} more bad frame(s) in the last second (see stats)",
                       count=count)

    def _handle(self, p: dict[str, Any]) -> None:  # noqa: C901 - one dispatch over the frame types of protocol 1, each branch a few lines
        now = self._clock.now()
        sid, t, seq = p["id"], p["t"], p["seq"]
        self._counts["frames"] += 1
        st = self._senders.get(sid)
        if st is not None and self.allowed is not None and sid not in self.allowed:
            del self._senders[sid]  # unpaired since its last frame (set_allowed)
            st = None
        if st is None:
            st = self._admit(sid, now)
            if st is None:
                return
        if not self._within_rate(sid, st, now):
            return
        st.last_seen = now
        if st.silent:
            st.silent = False
            self._emit("back", f"{sid} is sending again", id=sid)
        if st.asleep and t != SLEEP:
            st.asleep = False
            self._emit("awake", f"{sid} woke up", id=sid)
        if t == "hello":
            # a hello starts a new session: the sender rebooted, its counter starts afresh
            st.last_seq = None
            st.recent.clear()
            st.fw, st.proto = p["fw"], p["proto"]
            self._emit("hello", f"{sid} says hello: firmware {p['fw']}, protocol {p['proto']}",
                       id=sid, fw=p["fw"], proto=p["proto"])
            if p["proto"] != PROTOCOL:
                self._emit("proto_mismatch",
                           f"{sid} speaks protocol {p['proto']}, this table speaks {PROTOCOL}; update the firmware",
                           id=sid, proto=p["proto"], expected=PROTOCOL)
        elif st.last_seq is not None:
            gap = (seq - st.last_seq) % SEQ_MOD
            if gap != 1 and seq in st.recent:  # the next seq in order cannot be a recent one
                st.duplicates += 1
                self._counts["duplicates"] += 1
                self._emit("duplicate", f"{sid} sent seq {seq} again; ignored", id=sid, seq=seq)
                return
            if gap > HALF_SEQ:
                st.recent.clear()  # a new session: its seqs may repeat the old session's
                self._emit("seq_reset", f"{sid} restarted its counter ({st.last_seq} → {seq})",
                           id=sid, seq=seq, last_seq=st.last_seq)
            elif gap > 1:
                lost = gap - 1
                st.lost += lost
                self._counts["lost"] += lost
                expected = (st.last_seq + 1) % SEQ_MOD
                self._emit("lost", f"{sid}: {lost} frame(s) lost (expected seq {expected}, got {seq})",
                           id=sid, count=lost, expected_seq=expected, seq=seq)
        st.last_seq = seq
        st.recent.append(seq)
        st.frames += 1
        if t == SLEEP:
            bat = p.get("bat")  # firmware 1.1.0 sends its battery with the sleep frame
            if isinstance(bat, int | float) and not isinstance(bat, bool) and 0 <= bat <= 10:
                self._battery(sid, st, float(bat))
            if not st.asleep:
                st.asleep = True
                why = p.get("why") if p.get("why") in ("idle", "low_battery") else "idle"
                # firmware 1.3.0 sleeps between turns: asleep is the striker's usual state in a game
                self._emit("asleep", f"{sid} went to sleep ({why}); picking it up wakes it", id=sid, why=why)
            return
        if t == "hb":
            self._battery(sid, st, float(p["bat"]))
        if t not in KNOWN_TYPES and not (t in BASE_REPORTS and sid == "base"):
            self._counts["ignored_unknown"] += 1
            return
        self._counts["delivered"] += 1
        try:
            self._on_frame(p)
        except Exception as exc:  # a consumer bug must not kill the serial reader
            log.exception("on_frame failed")
            self._emit("callback_error", f"on_frame failed: {_oneline(exc)}", error=_oneline(exc))

    # --- the Pi's frames to the base station ------------------------------------------------------

    def send(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Write one frame to the base station (``pair_open``, ``peers_set``, ``tune``): ``id`` "pi" and the
        next ``seq`` are filled in; returns the payload written. Thread-safe; raises
        :class:`LinkDown` when the port is not open (the caller reports it, nothing is queued: a
        stale ``peers_set`` must never reach a base station later)."""
        with self._write_lock:
            ser = self._serial
            if ser is None:
                raise LinkDown(f"the striker base station ({self.port}) is not connected")
            frame = {"t": payload["t"], "id": PI_ID, "seq": self._tx_seq,
                     **{k: v for k, v in payload.items() if k not in ("t", "id", "seq")}}
            try:
                ser.write(b"\x00" + encode(frame))  # 0x00 first: ends any noise before it (the base skips empty frames)
                ser.flush()
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                raise LinkDown(f"writing to the striker base station failed: {_oneline(exc)}") from exc
            self._tx_seq = (self._tx_seq + 1) % SEQ_MOD
            self._counts["sent"] += 1
            return frame

    def set_allowed(self, allowed: Any) -> None:
        """The paired ids changed (a pairing from the host's panel): admit exactly these from now on.

        One atomic assignment, no lock: the caller may hold the daemon's lock, which the reader
        thread takes *inside* this link's lock (a strike), so taking ours here could deadlock. An
        unpaired striker's state is dropped by the reader at its next frame or by :meth:`check`."""
        self.allowed = None if allowed is None else frozenset(allowed) | {"base"}

    def _admit(self, sid: str, now: float) -> SenderState | None:
        """A new sender gets a table entry only if it is paired and the table has room."""
        if self.allowed is not None and sid not in self.allowed:
            self._counts["ignored_unpaired"] += 1
            self._unpaired[sid] = self._unpaired.pop(sid, 0) + 1
            while len(self._unpaired) > MAX_UNPAIRED_IDS:
                self._unpaired.popitem(last=False)
            self._limited("unpaired", f"frames from {sid}, a striker not paired with this table; ignored",
                          now, id=sid)
            return None
        if len(self._senders) >= self._max_senders:
            self._counts["ignored_overflow"] += 1
            self._limited("unpaired", f"frames from {sid}: already tracking {self._max_senders} senders; ignored",
                          now, id=sid)
            return None
        st = self._senders[sid] = SenderState(tokens=self._burst)
        return st

    def _within_rate(self, sid: str, st: SenderState, now: float) -> bool:
        """Token bucket per sender: a flood from one striker costs at most ``max_frames_per_s``."""
        if st.refilled is not None:
            st.tokens = min(self._burst, st.tokens + (now - st.refilled) * self._rate)
        st.refilled = now
        if st.tokens >= 1.0:
            st.tokens -= 1.0
            st.flooding = False
            return True
        st.rate_limited += 1
        self._counts["rate_limited"] += 1
        if not st.flooding:
            st.flooding = True
            self._emit("flooding", f"{sid} sends more than {self._rate:g} frames/s after a burst of "
                       f"{self._burst:g}; the excess is dropped", id=sid)
        return False

    def _limited(self, name: str, message: str, now: float, **fields: Any) -> None:
        ok, ended = self._unpaired_budget.take(now)
        if ended:
            self._emit(f"{name}_suppressed", f"{ended} more {name} frame report(s) in the last second (see stats)",
                       count=ended)
        if ok:
            self._emit(name, message, **fields)

    def _battery(self, sid: str, st: SenderState, bat: float) -> None:
        st.bat = bat
        if not st.low_battery and bat < self.low_battery_v:
            st.low_battery = True
            self._emit("low_battery", f"{sid} battery low: {bat:.2f} V (below {self.low_battery_v:.2f} V)",
                       id=sid, bat=bat, threshold=self.low_battery_v)
        elif st.low_battery and bat >= self.low_battery_v + BATTERY_HYSTERESIS_V:
            st.low_battery = False
            self._emit("battery_ok", f"{sid} battery ok again: {bat:.2f} V", id=sid, bat=bat)

    def check(self, now: float | None = None) -> list[dict[str, Any]]:
        """Report senders silent for more than ``silence_s``; returns the events it emitted.

        Runs every ``check_interval_s`` on the injected clock's timers once started; callable
        directly with any time.
        """
        now = self._clock.now() if now is None else now
        out = []
        with self._lock:
            if self._error_window is not None and now - self._error_window >= 1.0:
                self._flush_suppressed()
            allowed = self.allowed
            if allowed is not None:
                for sid in [s for s in self._senders if s not in allowed]:
                    del self._senders[sid]  # unpaired (set_allowed): no "silent" report for it
            for sid, st in self._senders.items():
                if st.last_seen is None or st.silent or st.asleep:
                    continue  # a striker asleep by design is not a fault
                quiet = now - st.last_seen
                if quiet > self.silence_s:
                    st.silent = True
                    out.append(self._emit("silent", f"{sid} silent for {quiet:.1f} s (no heartbeat)",
                                          id=sid, seconds=round(quiet, 3)))
        return out

    def stats(self) -> dict[str, Any]:
        """Counters and per-sender state, JSON-serialisable (for diagnostics and the panel)."""
        with self._lock:
            errors = dict(self._errors)
            return {
                "port": self.port,
                "open": self._serial is not None,
                **self._counts,
                "errors": errors,
                "crc_errors": errors.get("crc", 0),
                "garbage": sum(errors.get(k, 0) for k in ("cobs", "short", "oversize")),
                "senders": {sid: st.as_dict() for sid, st in self._senders.items()},
                "unpaired": dict(self._unpaired),
            }

    def _emit(self, name: str, message: str, **fields: Any) -> dict[str, Any]:
        event = {"event": name, "t": self._clock.now(), "message": message, **fields}
        try:
            self._on_event(event)
        except Exception:  # diagnostics must never break reading
            log.exception("on_event failed for %s", name)
        return event


def _oneline(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def main(argv: list[str] | None = None) -> int:
    """``python -m sensors.striker_link PORT``: print every frame and diagnostic as a JSON line.

    For bring-up and troubleshooting a base station without the daemon (see troubleshooting.md).
    """
    import argparse
    import json
    import sys

    from gametable_core.clock import SystemClock

    ap = argparse.ArgumentParser(prog="python -m sensors.striker_link", description=(main.__doc__ or "").strip().split("\n")[0])
    ap.add_argument("port", help="e.g. /dev/serial/by-id/usb-Espressif_...-if00 or /dev/ttyACM0")
    ap.add_argument("--baud", type=int, default=115200)
    ap.add_argument("--seconds", type=float, default=None, help="stop after this long (default: until Ctrl-C)")
    args = ap.parse_args(argv)
    lock = threading.Lock()

    def show(kind: str, item: dict[str, Any]) -> None:
        with lock:
            print(json.dumps({kind: item}, ensure_ascii=False), flush=True)

    clock = SystemClock()
    link = StrikerLink(args.port, args.baud, clock, lambda f: show("frame", f), lambda e: show("event", e))
    link.start()
    try:
        threading.Event().wait(args.seconds)
    except KeyboardInterrupt:
        pass
    finally:
        link.stop()
        print(json.dumps({"stats": link.stats()}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
