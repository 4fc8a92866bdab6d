"""``gametable camera analyse DIR --clip OUT.webm`` (docs/camera.md "Clips"): the recorded strike
as a slow-motion WebM with its tracks drawn, which a builder opens in a browser. Real OpenCV and
the shipped recorded strike."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

cv2 = pytest.importorskip("cv2")

from sensors.camera.clip import BEFORE_FLICK_S, MAX_SIDE  # noqa: E402
from sensors.camera.recording import load_recording  # noqa: E402

VECTOR = Path(__file__).parent / "vectors" / "camera" / "strike_contact"


def _analyse(*extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gametable", "camera", "analyse", str(VECTOR), *extra],
                          capture_output=True, text=True, timeout=120)


def test_cam4_clip_is_a_webm_from_just_before_the_flick_and_the_json_is_unchanged(tmp_path: Path) -> None:
    out = tmp_path / "strike.webm"
    with_clip, plain = _analyse("--clip", str(out)), _analyse()
    assert with_clip.returncode == 0, with_clip.stderr
    assert json.loads(with_clip.stdout) == json.loads(plain.stdout)  # the clip changes nothing printed
    data = out.read_bytes()
    assert data[:4] == b"\x1a\x45\xdf\xa3" and len(data) < 400_000  # EBML (WebM), small enough for a phone
    rec = load_recording(VECTOR)
    want = [t for _f, t in rec.frames if t >= rec.strike_t - BEFORE_FLICK_S]
    cap = cv2.VideoCapture(str(out))
    got = 0
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        got += 1
        assert max(frame.shape[:2]) <= MAX_SIDE
    # from just before the flick until the coins rest (the recording's still tail is left out)
    assert len([t for t in want if t <= rec.strike_t + 0.1]) <= got <= len(want)


@pytest.mark.parametrize("name, says", [("strike.mp4", "name it .webm"), ("nowhere/strike.webm", "does not exist")])
def test_cam4_clip_path_refused_in_one_line_and_nothing_written(tmp_path: Path, name: str, says: str) -> None:
    r = _analyse("--clip", str(tmp_path / name))
    assert r.returncode == 2 and says in r.stderr and r.stderr.count("\n") == 1 and r.stdout == ""
    assert not list(tmp_path.rglob("*.webm")) and not list(tmp_path.rglob("*.mp4"))
