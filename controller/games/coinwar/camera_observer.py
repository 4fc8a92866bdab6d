"""Coin War's live camera observer: camera frames + strike starts + the beams' facts -> one fused shot.

Why: the beams prove little (``sensing.py``); the camera above the table sees contacts, flights and
deaths (docs/camera.md, CAM-2). This glue runs the vision core of ``sensors/camera`` on live frames,
on the Pi and in ``gametable sim --camera`` alike:

- between strikes: the markers give the calibration (re-done when they move, CAM-1); every coin is
  found by its seat's colour and stickers wherever it lies (``sensors/camera/finding.py``: placed
  back, nudged, swapped by hand), and the positions at rest go to ``on_rest``
  (``gametable/T/sensors/camera``, drawn on the table view, CAM-2); a strike whose coins were not
  searched since they last moved searches the frame just before the hand came in;
- a strike window opens at the striker's strike (with the last few frames before it: the tracker
  learns the table at rest from them) and every frame goes to a :class:`StrikeTracker`;
- the beams' observer decides when the coins rest (no beam edge for its settle time); then the
  camera's facts (``camera_facts.camera_shot``) are fused with the beams' (``camera_fusion.fuse``,
  CAM-3: a beam-proven fact wins, a contradiction is asked and logged with the strike's number).

Frames stay in memory (CAM-6): the only frame kept is the last one, for the host's bring-up still
(``still_jpeg``) and for ``gametable camera record`` (``record_next``).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from controller.games.coinwar.camera_facts import CameraShot, camera_shot
from controller.games.coinwar.camera_fusion import fuse
from controller.games.coinwar.sensing import ObservedStrike
from controller.games.coinwar.virtual_table import initial_spot
from gametable_core.config import CameraConfig
from sensors.camera.calibration import Calibration, CalibrationError, Recalibrator, detect_markers
from sensors.camera.finding import find_coins
from sensors.camera.params import TrackParams
from sensors.camera.recording import CoinInfo, StrikeRecording, frame_names, save_recording
from sensors.camera.tracking import StrikeTracker

log = logging.getLogger("gametable.camera")

Point = tuple[float, float]
# the frames before the strike handed to the tracker: the table at rest, then the hand coming in
# (it learns the coins' look and the empty table from them); 0.16 s is ~80 MB at 1536 x 864 on a Pi
PRE_ROLL_S = 0.16
REST_EVERY_S = 0.5  # between strikes: how often the coins at rest are located (CPU on a Pi)
STRIKE_LATE_S = 0.03  # the striker's strike reaches the observer at most this long after the flick (a pty/serial frame and the daemon's queue)
MAX_TRACKED_FRAMES = 2400  # 20 s at 120 fps: a strike window longer than this stops feeding
# ``gametable camera record`` keeps the strike's frames JPEG-compressed until it is written: a
# 3 s strike at 120 fps and 1536 x 864 is ~1.4 GB raw, ~90 MB as JPEG (CAM-4 allows JPEG frames)
JPEG_QUALITY = 95


def _jpeg(image: Any) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise ValueError("a camera frame could not be JPEG-encoded")
    return bytes(buf)


class CameraObserver:
    """One table's camera, read as Coin War (thread-safe: frames, strikes and facts come on
    different threads)."""

    def __init__(self, config: CameraConfig, *, public_state: Callable[[], dict[str, Any] | None],
                 on_rest: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.config = config
        self.threshold = config.confidence_threshold
        self.params = TrackParams(camera_height_mm=config.height_mm)  # coins' top faces where they are
        self._public_state = public_state
        self._on_rest = on_rest
        self.recalibrator = Recalibrator({int(k): v for k, v in config.markers.items()})
        self._lock = threading.RLock()
        self._pre: deque[tuple[float, Any]] = deque(maxlen=int(PRE_ROLL_S * config.fps) + 2)
        self._tracker: StrikeTracker | None = None
        self._frames_fed = 0
        self._record: dict[str, Any] | None = None  # gametable camera record: the next strike
        self.rest: dict[str, Point] = {}  # coin -> table mm, at rest
        self._bound_game: Any = None  # the game whose coins were bound to seats
        self._game_start = False
        self._published: dict[str, Any] | None = None
        self._last_rest_t = float("-inf")
        self._rest_seen = False  # ``rest`` comes from a frame at rest searched since the coins last moved
        self.last_frame: Any = None
        self.strikes = 0
        self.tracked = 0  # strikes whose frames were analysed (the others: no calibration, a coin unseen)
        self.last_camera: CameraShot | None = None  # the camera's own shot of the last strike
        self.disagreements: list[str] = []  # log lines (CAM-3), newest last
        self.calibrated = False

    # --- frames -----------------------------------------------------------------------------------

    def frame(self, t: float, image: Any) -> None:
        """One frame on the table's clock: into the strike window, or the calibration and coins at rest."""
        with self._lock:
            self.last_frame = image
            if self._record is not None and "struck" in self._record:
                self._record["frames"].append((t, _jpeg(image)))
            if self._tracker is not None:
                if self._frames_fed < MAX_TRACKED_FRAMES:
                    self._tracker.feed(t, image)
                    self._frames_fed += 1
                return
            self._pre.append((t, image))
            if t - self._last_rest_t >= REST_EVERY_S:
                self._last_rest_t = t
                self._between_strikes(image)

    def _between_strikes(self, image: Any) -> None:
        try:
            calibration = self.recalibrator.update(image)
        except CalibrationError as exc:
            if self.calibrated:
                log.warning("camera: %s", exc)
                self.calibrated = False
                self._publish_rest()
            return
        self.calibrated = True
        coins = self._coin_infos()
        if not coins:
            return
        self._locate(image, calibration, coins)

    def _locate(self, image: Any, calibration: Calibration, coins: dict[str, CoinInfo]) -> None:
        """The coins at rest, each found by its seat's colour and sticker dots wherever a hand put
        it (a coin placed back, CW-6.2, CW-7.4; nudged; swapped with a look-alike): where they
        rested (at a game's start: their initial spots, CW-1.6) only tells look-alikes apart
        (``sensors/camera/finding.py``, docs/camera.md "Between strikes")."""
        state = self._public_state() or {}
        game = (state.get("game"), state.get("seed"), state.get("mode"))
        if game != self._bound_game:  # a new game: the binding of coins to seats starts afresh (CAM-2)
            self._bound_game = game
            self.rest = {}
            self._game_start = True  # no strike yet: the coins are at their initial spots (CW-1.6)
        hints = {c: self.rest.get(c) or (initial_spot(c, info.seat) if self._game_start else None)
                 for c, info in coins.items()}
        found = find_coins(image, calibration, coins, {c: at for c, at in hints.items() if at is not None},
                           params=self.params)
        self.rest = {c: p for c, (p, conf) in found.items() if conf >= self.threshold and c in coins}
        self._rest_seen = True
        self._publish_rest()

    def _publish_rest(self) -> None:
        """Retained ``sensors/camera`` when what it says changed (by a millimetre or more)."""
        if self._on_rest is None:
            return
        # the shape of the virtual table's sensors/table, so the table view draws it the same way
        rest = {"coins": {c: [round(p[0]), round(p[1])] for c, p in sorted(self.rest.items())},
                "off": [], "moving": False, "calibrated": self.calibrated, "source": "camera"}
        if rest != self._published:
            self._published = rest
            self._on_rest(rest)

    # --- a strike -----------------------------------------------------------------------------------

    def _coin_infos(self) -> dict[str, CoinInfo]:
        """Every coin on the table with its seat, its seat's colour and sticker, where it rests."""
        state = self._public_state() or {}
        if state.get("game") != "coinwar" or state.get("mode") == "football":
            return {}  # football's team coins and ball have no seat colour: the beams alone (CW-7.3)
        on_table = state.get("coins_on_table")
        out = {}
        for p in state.get("players", []):
            coin, seat = p.get("coin") or f"c{p.get('seat')}", p.get("seat")
            if not isinstance(seat, int) or (on_table is not None and coin not in on_table):
                continue
            if on_table is None and p.get("alive") is False:
                continue
            out[coin] = CoinInfo(seat=seat, colour=self.config.seat_colours.get(seat, "#808080"),
                                 at=self.rest.get(coin, (-1.0, -1.0)), mark=self.config.seat_marks.get(seat, 0))
        return out

    def strike_started(self, coin: str) -> None:
        """The striker struck ``coin``: the strike window opens with the frames just before it."""
        with self._lock:
            self._tracker = None
            calibration = self.recalibrator.calibration
            coins = self._coin_infos()
            if calibration is not None and coins and self._pre and (
                    not self._rest_seen or any(c not in self.rest for c in coins)):
                # no frame at rest was searched since the coins last moved (a strike, a hand placing
                # a coin): the oldest frame of the pre-roll, before the hand came in, is searched now
                self._locate(self._pre[0][1], calibration, coins)
                coins = self._coin_infos()
            if calibration is None or coin not in coins or any(c not in self.rest for c in coins):
                log.info("camera: strike of %s not tracked (%s)", coin, "no calibration" if calibration is None
                         else "a coin at rest was not seen")
                return
            # the flick came just before the striker's strike reached us: before it nothing moves (a
            # coin the hand hides is where it rested; the pen, not a coin, starts the struck one).
            # Taken STRIKE_LATE_S early, so that no frame after the flick counts as before it
            strike_t = self._pre[-1][0] - STRIKE_LATE_S if self._pre else None
            self._tracker = StrikeTracker(calibration, coins, coin, strike_t=strike_t, params=self.params)
            self._frames_fed = 0
            if self._record is not None:
                self._record.update(coins=coins, struck=coin, frames=[(t, _jpeg(im)) for t, im in self._pre],
                                    strike_t=strike_t)
            for t, image in self._pre:
                self._tracker.feed(t, image)
            self._pre.clear()

    def finish(self, beams: ObservedStrike) -> ObservedStrike:
        """The beams say every coin rests: the strike's facts, the camera's fused with the beams'."""
        with self._lock:
            tracker, self._tracker = self._tracker, None
            self.strikes += 1
            camera = None
            if tracker is not None:
                self.tracked += 1
                try:
                    camera = camera_shot(tracker.result(), seat=beams.seat, coin=beams.coin or f"c{beams.seat}",
                                         threshold=self.threshold)
                except Exception:  # the analysis must never stop the game: the beams and phones go on
                    log.exception("camera: the analysis of strike %s failed", self.strikes)
            self.last_camera = camera
            shot, disagreements = fuse(beams.shot(), camera.shot(open_pairs=True) if camera else None,
                                       camera.confidence if camera else None, strike=self.strikes)
            for d in disagreements:
                line = d.message()
                log.warning("camera: %s", line)
                self.disagreements.append(line)
            del self.disagreements[:-50]
            self._game_start = False
            self._rest_seen = False  # a hand may place or nudge coins now: the next frame at rest is searched
            self._last_rest_t = float("-inf")
            if camera is not None:
                # where the frames showed each coin rest; a coin they did not place keeps its old
                # position, only as the next search's hint (it tells look-alikes apart, nothing more)
                self.rest = {**self.rest, **camera.at_rest}
                self._publish_rest()
                self._save_record()
            return replace(beams, dead=shot.get("dead"), flown=shot.get("flown"), contacts=shot.get("contacts"),
                           contacts_open=shot.get("contacts_open"))

    # --- gametable camera record, the bring-up still ---------------------------------------------

    def record_next(self, path: str | Path, on_done: Callable[[Path | None, str | None], None]) -> None:
        """``gametable camera record``: the next strike's frames go to ``path`` (CAM-4), the only way a
        frame reaches the disk (CAM-6); ``on_done(path, None)`` or ``(None, error)``."""
        with self._lock:
            self._record = {"path": Path(path), "frames": [], "on_done": on_done}

    def _save_record(self) -> None:
        rec, self._record = self._record, None
        if rec is None or "struck" not in rec:
            if rec is not None:
                self._record = {**rec, "frames": []}  # armed during this strike: the next whole one
            return
        frames = rec["frames"]
        t0 = frames[0][0]
        meta = StrikeRecording(
            table=(425.0, 625.0), markers={int(k): v for k, v in self.config.markers.items()},
            coin_diameter_mm=30.0, coins=rec["coins"], struck=rec["struck"],
            strike_t=round(rec["strike_t"] - t0, 4) if rec["strike_t"] is not None else 0.0,
            frames=[(name, round(t - t0, 4)) for name, (t, _) in zip(frame_names(len(frames), ".jpg"), frames, strict=True)],
            camera_height_mm=self.config.height_mm)
        try:
            images = [cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR) for _, jpeg in frames]
            out: Path | None = save_recording(rec["path"], meta, images, jpeg_quality=JPEG_QUALITY)
            error = None
        except Exception as exc:  # a full disk, a bad path: one line back to the host
            out, error = None, f"cannot write {rec['path']}: {exc}"
        rec["on_done"](out, error)

    def still_jpeg(self) -> bytes | None:
        """The last frame with the markers and coins outlined, as JPEG (the host's bring-up page)."""
        with self._lock:
            image, calibration, rest = self.last_frame, self.recalibrator.calibration, dict(self.rest)
        if image is None:
            return None
        out = image.copy()
        for mid, (u, v) in detect_markers(out).items():
            cv2.drawMarker(out, (int(u), int(v)), (0, 255, 255), cv2.MARKER_SQUARE, 28, 3)
            cv2.putText(out, str(mid), (int(u) + 16, int(v) - 16), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 255, 255), 2)
        if calibration is not None:
            for coin, p in rest.items():
                (u, v), = calibration.to_image([p]).tolist()
                r = max(4, int(calibration.coin_px(p, 30.0) / 2))
                cv2.circle(out, (int(u), int(v)), r, (0, 255, 0), 2)
                cv2.putText(out, coin, (int(u) + r, int(v)), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 255, 0), 2)
        ok, jpeg = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, 70])
        return bytes(jpeg) if ok else None
