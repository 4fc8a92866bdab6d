"""A recorded strike through the tracker: the one path ``analyse``, the tests and the bench share."""

from __future__ import annotations

from typing import Any

from sensors.camera.calibration import CalibrationError, Recalibrator
from sensors.camera.recording import RecordingError, StrikeRecording, iter_frames
from sensors.camera.tracking import StrikeTracker, TrackParams, TrackResult


def analyse_recording(rec: StrikeRecording, *, params: TrackParams | None = None) -> TrackResult:
    """Calibrate on the first frame (CAM-1: all four markers are visible), then track every frame."""
    frames = iter_frames(rec)
    early: list[tuple[float, Any]] = []
    calibration = None
    recal = Recalibrator(rec.markers)
    for t, image in frames:  # noise can hide a marker in one frame: try the frames before the strike
        early.append((t, image))
        try:
            calibration = recal.update(image)
            break
        except CalibrationError as exc:
            if t >= rec.strike_t or len(early) >= CALIBRATION_FRAMES:
                raise RecordingError(f"{rec.frames[0][0]}: {exc}") from None
    assert calibration is not None
    p = params or TrackParams(coin_diameter_mm=rec.coin_diameter_mm, table=rec.table)
    tracker = StrikeTracker(calibration, rec.coins, rec.struck, params=p, strike_t=rec.strike_t)
    for t, image in early:
        tracker.feed(t, image)
    for t, image in frames:
        tracker.feed(t, image)
    return tracker.result()


CALIBRATION_FRAMES = 8
