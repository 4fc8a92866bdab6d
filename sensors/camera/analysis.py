"""A recorded strike through the tracker: the one path ``analyse``, the tests and the bench share."""

from __future__ import annotations

from typing import Any

from sensors.camera.calibration import Calibration, CalibrationError, Recalibrator
from sensors.camera.recording import RecordingError, StrikeRecording, iter_frames
from sensors.camera.tracking import StrikeTracker, TrackParams, TrackResult

KEPT_FRAMES = 8  # frames kept while looking for the calibration (a strike's frames are never all held)


def analyse_recording(rec: StrikeRecording, *, params: TrackParams | None = None) -> TrackResult:
    """Calibrate from a frame that shows all four markers, then track every frame (CAM-4: a hand
    may cover a marker in any frame, the first included; the camera does not move in a strike)."""
    return track_recording(rec, params=params).result()


def track_recording(rec: StrikeRecording, *, params: TrackParams | None = None) -> StrikeTracker:
    """:func:`analyse_recording`'s tracker, fed every frame (a clip draws its per-frame centres)."""
    frames = iter_frames(rec)
    early: list[tuple[float, Any]] = []
    calibration: Calibration | None = None
    recal = Recalibrator(rec.markers)
    last_error = ""
    for t, image in frames:  # usually the first frame; else the first that shows all four
        if len(early) < KEPT_FRAMES:
            early.append((t, image))
        try:
            calibration = recal.update(image)
            break
        except CalibrationError as exc:
            last_error = str(exc)
    if calibration is None:
        raise RecordingError(f"{rec.frames[0][0]}: no frame shows all four markers ({last_error})")
    p = params or TrackParams(coin_diameter_mm=rec.coin_diameter_mm, table=rec.table,
                              camera_height_mm=rec.camera_height_mm)
    tracker = StrikeTracker(calibration, rec.coins, rec.struck, params=p, strike_t=rec.strike_t)
    if len(early) < KEPT_FRAMES or t == early[-1][0]:  # every frame up to the calibration's is kept
        for t0, image0 in early:
            tracker.feed(t0, image0)
        rest = frames
    else:  # found late: the frames are read again from the first
        rest = iter_frames(rec)
    for t1, image1 in rest:
        tracker.feed(t1, image1)
    return tracker
