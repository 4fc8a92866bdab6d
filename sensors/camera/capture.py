"""Camera frames into memory: the Pi camera (picamera2) or a USB webcam (OpenCV's V4L2 capture).

Why one small module: the live observer wants ``(t, image)`` pairs and must not care where they
come from. Both back-ends hand out BGR ``numpy`` images (OpenCV's order) at the configured
resolution, time-stamped on the table's injected clock when they arrive. Frames stay in memory
(CAM-6): nothing here writes to disk.

- ``device = "picamera2"``: libcamera through Debian's ``python3-picamera2`` (not on PyPI for the
  Pi's libcamera; the venv sees it when created with ``--system-site-packages``,
  hardware_docs/pi_setup.md "The camera").
- ``device = "/dev/video0"`` or ``0``: ``cv2.VideoCapture`` with the V4L2 back-end. Any other
  path is opened with OpenCV's default back-end through the same API: a video file or an image
  sequence (``frames/f%04d.png``), which is how the tests run this path without a webcam.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Protocol

from gametable_core.clock import Clock
from gametable_core.config import PICAMERA2, CameraConfig

log = logging.getLogger("gametable.camera")

Frame = Any  # a numpy BGR image (H x W x 3, uint8); numpy is the optional [camera] extra


class CameraError(RuntimeError):
    """The camera cannot be opened or stopped delivering; one line saying which and why."""


class FrameSource(Protocol):
    """Where frames come from: one blocking read at a time."""

    def read(self) -> Frame | None:
        """The next frame, or None at the end of a file (a live camera never ends)."""

    def close(self) -> None:
        """Release the camera."""


class VideoCaptureSource:
    """OpenCV's ``VideoCapture``: a V4L2 webcam, or (any other path) a video file / image sequence."""

    def __init__(self, config: CameraConfig) -> None:
        import cv2

        self._cv2 = cv2
        device = config.device
        live = isinstance(device, int) or str(device).startswith("/dev/")
        self.live = live
        self.size = config.resolution
        self._cap = cv2.VideoCapture(device, cv2.CAP_V4L2) if live else cv2.VideoCapture(str(device))
        if not self._cap.isOpened():
            self._cap.release()
            raise CameraError(f"camera.device: cannot open {device!r} with OpenCV"
                              + (" (V4L2: is the webcam plugged in? ls /dev/video*)" if live else ""))
        if live:
            w, h = config.resolution
            self._cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))  # UVC: high fps needs MJPEG
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, w)
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, h)
            self._cap.set(cv2.CAP_PROP_FPS, config.fps)

    def read(self) -> Frame | None:
        ok, image = self._cap.read()
        if not ok or image is None:
            if self.live:
                raise CameraError("camera: the webcam stopped delivering frames")
            return None
        if (image.shape[1], image.shape[0]) != self.size:
            image = self._cv2.resize(image, self.size, interpolation=self._cv2.INTER_AREA)
        return image

    def close(self) -> None:
        self._cap.release()


class Picamera2Source:
    """The Pi camera (Camera Module 3 / 3 Wide) through libcamera."""

    def __init__(self, config: CameraConfig) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError:
            raise CameraError("camera.device = 'picamera2' needs Debian's python3-picamera2 and a venv created "
                              "with --system-site-packages (hardware_docs/pi_setup.md, \"The camera\")") from None
        try:
            self._cam = Picamera2()
            # "RGB888" is libcamera's name for bytes in B, G, R order: OpenCV's order, no conversion
            video = self._cam.create_video_configuration(
                main={"size": config.resolution, "format": "RGB888"},
                controls={"FrameRate": config.fps}, buffer_count=6)
            self._cam.configure(video)
            self._cam.start()
        except Exception as exc:  # libcamera raises its own types: one line for the console
            raise CameraError(f"camera.device: the Pi camera did not start: {exc}") from None

    def read(self) -> Frame | None:
        return self._cam.capture_array("main")

    def close(self) -> None:
        self._cam.stop()
        self._cam.close()


def open_camera(config: CameraConfig) -> FrameSource:
    """The frame source the config names (``camera.device``)."""
    if config.device == PICAMERA2:
        return Picamera2Source(config)
    try:
        import cv2  # noqa: F401
    except ImportError:
        raise CameraError("camera: OpenCV is missing: pip install '.[camera]' (make demo / make test do)") from None
    return VideoCaptureSource(config)


class CameraFeed:
    """Reads a frame source on a thread of its own and hands each frame, time-stamped on the
    table's clock, to ``on_frame``; a failing camera is reported once to ``on_error``."""

    def __init__(self, source: FrameSource, clock: Clock, on_frame: Callable[[float, Frame], None],
                 on_error: Callable[[str], None] | None = None) -> None:
        self.source = source
        self.clock = clock
        self.on_frame = on_frame
        self.on_error = on_error
        self.frames = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                image = self.source.read()
            except Exception as exc:
                log.warning("camera: %s", exc)
                if self.on_error is not None:
                    self.on_error(str(exc))
                return
            if image is None:
                return  # the end of a file
            self.frames += 1
            try:
                self.on_frame(self.clock.now(), image)
            except Exception:
                log.exception("camera: a frame's analysis failed")

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        self.source.close()
