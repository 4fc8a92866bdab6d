"""The real table's overhead camera: frames to the game's table adapters (CAM-1, CAM-6).

Why a module of its own: the camera is optional (``[camera]`` in the config); when there is one,
its frames are read on a thread of their own (``sensors/camera/capture.py``) and handed, in memory,
to every table adapter. A camera that fails is reported (``sensors/camera_fault``); the game goes
on with the beams and the phones (its facts are unknown, CW-8), never guessing.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from controller.referee_api import TableReferee
from controller.table_adapter import TableAdapter
from core.clock import Clock
from core.config import CameraConfig

log = logging.getLogger("gametable.camera")


class CameraWatch:
    """One camera feeding the adapters; ``frame`` is also the door of the virtual camera."""

    def __init__(self, config: CameraConfig, clock: Clock, adapters: Sequence[TableAdapter],
                 daemon: TableReferee) -> None:
        self.config = config
        self.clock = clock
        self.adapters = tuple(adapters)
        self.daemon = daemon
        self.feed: Any = None

    def start(self) -> None:
        """Open the configured camera and start reading it (raises CameraError with one line)."""
        from sensors.camera.capture import CameraFeed, open_camera

        self.feed = CameraFeed(open_camera(self.config), self.clock, self.frame, on_error=self._failed)
        self.feed.start()

    def frame(self, t: float, image: Any) -> None:
        for adapter in self.adapters:
            adapter.camera_frame(t, image)

    def _failed(self, message: str) -> None:
        self.daemon.diagnostic("camera_fault", {"event": "camera_stopped", "message": f"the camera stopped: {message}"})

    def stop(self) -> None:
        if self.feed is not None:
            self.feed.stop()
            self.feed = None
