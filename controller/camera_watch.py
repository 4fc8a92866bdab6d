"""The real table's overhead camera: frames to the game's table adapters (CAM-1, CAM-6).

Why a module of its own: the camera is optional (``[camera]`` in the config); when there is one,
its frames are read on a thread of their own (``sensors/camera/capture.py``) and handed, in memory,
to every table adapter. A camera that fails is reported (``sensors/camera_fault``); the game goes
on with the beams and the phones (its facts are unknown, CW-8), never guessing.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.referee_api import TableReferee
from controller.table_adapter import TableAdapter
from gametable_core.clock import Clock
from gametable_core.config import CameraConfig

if TYPE_CHECKING:  # OpenCV and numpy are the optional [camera] extra: imported where a camera starts
    from sensors.camera.capture import CameraFeed

log = logging.getLogger("gametable.camera")


class CameraWatch:
    """One camera feeding the adapters; ``frame`` is also the door of the virtual camera."""

    def __init__(self, config: CameraConfig, clock: Clock, adapters: Sequence[TableAdapter],
                 daemon: TableReferee) -> None:
        self.config = config
        self.clock = clock
        self.adapters = tuple(adapters)
        self.daemon = daemon
        self.feed: CameraFeed | None = None

    def serve_commands(self) -> None:
        """The host's bring-up still (``camera_still``) and ``gametable camera record`` (``camera_record``)."""
        self.daemon.on_table_command("camera_still", self._still)
        self.daemon.on_table_command("camera_record", self._record)

    def _still(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """The last frame with the markers and coins outlined, as base64 JPEG in the command's result:
        it travels on ``cmd/result``, which the broker's ACL lets only the daemon and the panel read,
        and the panel serves it to the unlocked host only (CAM-6)."""
        for adapter in self.adapters:
            jpeg = adapter.camera_still()
            if jpeg is not None:
                return {"ok": True, "jpeg": base64.b64encode(jpeg).decode("ascii")}
        return {"ok": False, "error": "the camera has not delivered a frame yet"}

    def _record(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """``{"type":"camera_record","dir":"/abs/new-dir"}``: the next strike goes to that directory
        (CAM-4), announced on ``sensors/camera_record``; the only way a frame reaches the disk (CAM-6)."""
        raw = cmd.get("dir")
        if not isinstance(raw, str) or not raw.startswith("/") or len(raw) > 4096:
            return {"ok": False, "error": f"'dir' must be an absolute path, got {raw!r}"}
        path = Path(raw)
        if path.exists() and (not path.is_dir() or any(path.iterdir())):
            return {"ok": False, "error": f"{raw} exists and is not an empty directory: give a new one"}
        if not path.parent.is_dir():
            return {"ok": False, "error": f"{path.parent} is not a directory"}

        def done(out: Path | None, error: str | None) -> None:
            report = {"event": "recorded", "dir": str(out)} if error is None else \
                {"event": "record_failed", "dir": raw, "message": error}
            self.daemon.diagnostic("camera_record", report)

        if not any(adapter.record_next(raw, done) for adapter in self.adapters):
            return {"ok": False, "error": "no game on this table reads the camera"}
        return {"ok": True, "dir": raw}

    def start(self) -> bool:
        """Open the configured camera and start reading it. A camera that cannot be opened is
        logged and reported (one line); the table plays on with its beams and phones."""
        from sensors.camera.capture import CameraError, CameraFeed, open_camera

        try:
            source = open_camera(self.config)
        except CameraError as exc:
            log.error("camera: %s; playing without it (the phones are asked what the beams cannot see)", exc)
            self._failed(str(exc))
            return False
        self.feed = CameraFeed(source, self.clock, self.frame, on_error=self._failed)
        self.feed.start()
        return True

    def frame(self, t: float, image: Any) -> None:
        for adapter in self.adapters:
            adapter.camera_frame(t, image)

    def _failed(self, message: str) -> None:
        self.daemon.diagnostic("camera_fault", {"event": "camera_stopped", "message": f"the camera stopped: {message}"})

    def stop(self) -> None:
        if self.feed is not None:
            self.feed.stop()
            self.feed = None
