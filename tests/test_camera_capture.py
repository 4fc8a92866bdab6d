"""Camera capture (CAM-1): OpenCV's VideoCapture path on a real image sequence and a real video
file (the same API a V4L2 webcam is read through), the feed thread, and clear errors."""

from __future__ import annotations

import threading

import pytest

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from gametable_core.clock import FakeClock  # noqa: E402
from gametable_core.config import CameraConfig  # noqa: E402
from sensors.camera.capture import CameraError, CameraFeed, open_camera  # noqa: E402


def _frames(n: int, size: tuple[int, int] = (320, 240)) -> list:
    """Frames a person can tell apart: frame k has a white square at x = 20 k."""
    out = []
    for k in range(n):
        img = np.zeros((size[1], size[0], 3), np.uint8)
        img[100:140, 20 * k:20 * k + 40] = 255
        out.append(img)
    return out


def _square_x(img) -> int:
    cols = np.where(img[120, :, 0] > 128)[0]
    return int(cols[0])


def test_an_image_sequence_is_read_through_videocapture_in_order_at_the_configured_size(tmp_path):
    for k, img in enumerate(_frames(5)):
        cv2.imwrite(str(tmp_path / f"f{k:04d}.png"), img)
    source = open_camera(CameraConfig(device=str(tmp_path / "f%04d.png"), resolution=(320, 240)))
    got = []
    while (img := source.read()) is not None:
        got.append(img)
    source.close()
    assert [img.shape for img in got] == [(240, 320, 3)] * 5
    assert [_square_x(img) for img in got] == [0, 20, 40, 60, 80]


def test_a_video_file_is_resized_to_the_analysis_resolution(tmp_path):
    path = tmp_path / "strike.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 100, (320, 240))
    for img in _frames(4):
        writer.write(img)
    writer.release()
    source = open_camera(CameraConfig(device=str(path), resolution=(160, 120)))
    first = source.read()
    source.close()
    assert first is not None and first.shape == (120, 160, 3)


def test_the_feed_time_stamps_every_frame_on_the_tables_clock_and_ends_with_the_file(tmp_path):
    for k, img in enumerate(_frames(3)):
        cv2.imwrite(str(tmp_path / f"f{k:04d}.png"), img)
    clock = FakeClock(start=10.0)
    seen: list[tuple[float, int]] = []
    done = threading.Event()

    def on_frame(t, img):
        seen.append((t, _square_x(img)))
        clock.advance(0.01)
        if len(seen) == 3:
            done.set()

    feed = CameraFeed(open_camera(CameraConfig(device=str(tmp_path / "f%04d.png"), resolution=(320, 240))),
                      clock, on_frame)
    feed.start()
    assert done.wait(10)
    feed.stop()
    assert [x for _, x in seen] == [0, 20, 40]
    assert [round(t, 2) for t, _ in seen] == [10.0, 10.01, 10.02]


def test_a_device_that_cannot_be_opened_names_the_key(tmp_path):
    with pytest.raises(CameraError, match=r"camera.device: cannot open .*nothing-here"):
        open_camera(CameraConfig(device=str(tmp_path / "nothing-here.avi")))


def test_picamera2_without_the_debian_package_says_how_to_get_it(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_picamera2(name, *args, **kwargs):
        if name == "picamera2":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_picamera2)
    with pytest.raises(CameraError, match="python3-picamera2.*--system-site-packages"):
        open_camera(CameraConfig(device="picamera2"))


def test_a_configured_camera_that_cannot_open_is_reported_and_the_table_plays_on(tmp_path):
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from controller.daemon import Daemon
    from controller.hardware import Hardware
    from gametable_core.config import parse

    clock = FakeClock()
    config = parse({"journal": {"path": str(tmp_path / "j.sqlite")},
                    "camera": {"device": str(tmp_path / "no-such-camera.avi")}})
    daemon = Daemon(config, clock)
    daemon.start(connect=False)
    reports: list[tuple[str, dict]] = []
    daemon.diagnostic = lambda kind, payload: reports.append((kind, payload))  # type: ignore[method-assign]
    hardware = Hardware(config, clock, daemon, pin_factory=MockFactory(pin_class=MockPWMPin))
    hardware.start()  # no exception: the game goes on without the camera
    try:
        assert reports and reports[0][0] == "camera_fault" and "no-such-camera.avi" in reports[0][1]["message"]
        assert daemon.submit({"id": "g-nocam", "type": "new_game", "game": "coinwar", "mode": "ffa", "seed": 1,
                              "players": [{"seat": 1, "name": "A"}, {"seat": 2, "name": "B"}]})["ok"]
    finally:
        hardware.stop()
        daemon.stop()
