"""`gametable camera record DIR` and the host's camera still, on the real sensor path (CAM-4, CAM-6):
the virtual camera's frames reach the Pi's own camera observer inside ``Hardware``, the CLI asks the
daemon over a real Mosquitto, and the recording it writes is analysed by `gametable camera analyse`."""

from __future__ import annotations

import argparse
import base64
import json
import random
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import pytest

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from controller.daemon import Daemon  # noqa: E402
from gametable.camera_record import run_record  # noqa: E402
from gametable.sim_rig import SimHardware  # noqa: E402
from gametable.sim_table import VirtualTable  # noqa: E402
from gametable.testing.pty import wait_for  # noqa: E402
from gametable.testing.recorder import Recorder  # noqa: E402
from gametable_core.clock import SystemClock  # noqa: E402
from gametable_core.config import CameraConfig, parse  # noqa: E402
from sensors.virtual.camera.rig import CameraRig  # noqa: E402
from sensors.virtual.camera_feed import VirtualCamera  # noqa: E402

pytestmark = pytest.mark.mqtt
ROOT = Path(__file__).resolve().parent.parent
T = "camrec"
NEW = {"type": "new_game", "game": "coinwar", "mode": "ffa", "seed": 1, "order": [1, 2],
       "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}]}


@pytest.fixture
def camera_table(broker, tmp_path):
    clock = SystemClock()
    text = (f'table_id = "{T}"\n[mqtt]\nhost = "{broker.host}"\nport = {broker.port}\n'
            f'[journal]\npath = "{tmp_path / "j.sqlite"}"\n[camera]\n')
    (tmp_path / "table.toml").write_text(text)
    config = parse({"table_id": T, "mqtt": {"host": broker.host, "port": broker.port},
                    "journal": {"path": str(tmp_path / "j.sqlite")}, "camera": {}})
    rig = SimHardware(config, clock, hb_interval_s=0.2)
    daemon = Daemon(rig.config, clock)
    daemon.start()
    assert daemon.bridge.wait_connected(10)
    camera = config.camera or CameraConfig()
    feed = VirtualCamera(CameraRig.random(random.Random(7)), clock, {int(k): v for k, v in camera.markers.items()},
                         seat_colours=camera.seat_colours, seat_marks=camera.seat_marks)
    vt = VirtualTable(daemon, clock, seed=3, rig=rig, settle_s=0.5, camera=feed)
    assert vt.submit(dict(NEW))["ok"]
    vt.sync()
    phone = Recorder(broker.host, broker.port, f"gametable/{T}/#")
    yield vt, daemon, phone, tmp_path
    phone.close()
    rig.stop()
    daemon.stop()


def test_cam_4_record_writes_the_next_strike_and_analyse_reads_it_back(camera_table):
    vt, daemon, phone, tmp_path = camera_table
    out = tmp_path / "strike1"
    args = argparse.Namespace(dir=str(out), config=str(tmp_path / "table.toml"), wait=60.0)
    code: list[int] = []
    cli = threading.Thread(target=lambda: code.append(run_record(args)))
    cli.start()
    wait_for(lambda: any(m.topic.endswith("cmd/result") and m.json().get("dir") == str(out) for m in phone.messages),
             what="the daemon to arm the recording")
    assert vt.flick("c1", 0.0, 700.0)["ok"]
    cli.join(60)
    assert code == [0]
    meta = json.loads((out / "meta.json").read_text())
    assert meta["format"] == "gametable-strike/1" and meta["struck"] == "c1" and set(meta["markers"]) == {"0", "1", "2", "3"}
    assert len(meta["frames"]) > 20 and all((out / f["file"]).is_file() for f in meta["frames"])
    r = subprocess.run([sys.executable, "-m", "gametable.cli", "camera", "analyse", str(out)],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    analysed = json.loads(r.stdout)
    assert analysed["shot"]["coin"] == "c1" and analysed["shot"]["seat"] == 1


def test_record_refuses_a_directory_that_is_not_new_and_writes_nothing(camera_table):
    vt, daemon, phone, tmp_path = camera_table
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    result = phone.command(T, {"type": "camera_record", "id": "rec-busy-1", "dir": str(busy)})
    assert result["ok"] is False and "is not an empty directory" in result["error"]
    result = phone.command(T, {"type": "camera_record", "id": "rec-rel-1", "dir": "relative/dir"})
    assert result["ok"] is False and "'dir' must be an absolute path" in result["error"]
    assert sorted(p.name for p in busy.iterdir()) == ["notes.txt"]


def test_the_host_still_shows_the_table_with_its_markers_and_comes_only_in_the_command_result(camera_table):
    vt, daemon, phone, tmp_path = camera_table
    assert vt.flick("c1", 0.0, 500.0)["ok"]  # frames through the camera observer
    result = phone.command(T, {"type": "camera_still", "id": "still-1"})
    assert result["ok"] is True
    image = cv2.imdecode(np.frombuffer(base64.b64decode(result["jpeg"]), np.uint8), cv2.IMREAD_COLOR)
    assert image is not None and image.shape[0] > 100 and image.shape[1] > 100
    # CAM-6: no other topic carried an image
    assert not any(b"jpeg" in m.payload for m in phone.messages if not m.topic.endswith("cmd/result"))


def test_a_table_without_a_camera_says_so(broker, tmp_path):
    clock = SystemClock()
    config = parse({"table_id": T, "mqtt": {"host": broker.host, "port": broker.port},
                    "journal": {"path": str(tmp_path / "j.sqlite")}})
    daemon = Daemon(replace(config), clock)
    daemon.start()
    assert daemon.bridge.wait_connected(10)
    phone = Recorder(broker.host, broker.port, f"gametable/{T}/#")
    try:
        result = phone.command(T, {"type": "camera_still", "id": "still-none"})
        assert result == {"id": "still-none", "ok": False,
                          "error": "camera_still: this table has no camera ([camera] is not in the config)"}
    finally:
        phone.close()
        daemon.stop()
