"""CAM-4 (docs/camera.md): ``gametable camera analyse DIR`` on malformed recordings: one line naming
the file and the field, exit 2 -- run through the CLI exactly as an acceptance check would."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("cv2")

VECTOR = Path(__file__).parent / "vectors" / "camera" / "strike_contact"


def analyse(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gametable", "camera", "analyse", str(path)],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def meta() -> dict:
    return json.loads((VECTOR / "meta.json").read_text())


def _set(d: dict, dotted: str, value: object) -> None:
    keys = dotted.split(".")
    for k in keys[:-1]:
        d = d[int(k)] if isinstance(d, list) else d[k]
    if value is DELETE:
        del d[keys[-1]]
    else:
        d[keys[-1]] = value


DELETE = object()
# (field changed, new value, words the one-line error must contain)
CASES = [
    ("format", "gametable-strike/2", ["meta.json", "format"]),
    ("format", DELETE, ["meta.json", "format"]),
    ("table", [425, 625], ["meta.json", "table"]),
    ("table.width_mm", -1, ["meta.json", "table.width_mm"]),
    ("table.length_mm", "long", ["meta.json", "table.length_mm"]),
    ("markers.2", DELETE, ["meta.json", "markers.2"]),
    ("markers.7", [0, 0], ["meta.json", "markers.7"]),
    ("markers.0", [1, "x"], ["meta.json", "markers.0"]),
    ("markers", [], ["meta.json", "markers"]),
    ("coin_diameter_mm", 0, ["meta.json", "coin_diameter_mm"]),
    ("coin_diameter_mm", True, ["meta.json", "coin_diameter_mm"]),
    ("coins", {}, ["meta.json", "coins"]),
    ("coins.c2.colour", "#zz0000", ["meta.json", "coins.c2.colour", "#zz0000", "#rrggbb"]),
    ("coins.c2.colour", "red", ["meta.json", "coins.c2.colour"]),
    ("coins.c2.seat", "2", ["meta.json", "coins.c2.seat"]),
    ("coins.c2.at", [1.0], ["meta.json", "coins.c2.at"]),
    ("coins.c2.at", DELETE, ["meta.json", "coins.c2.at"]),
    ("coins.c2", 5, ["meta.json", "coins.c2"]),
    ("struck", "c9", ["meta.json", "struck"]),
    ("struck", DELETE, ["meta.json", "struck"]),
    ("strike_t", -1, ["meta.json", "strike_t"]),
    ("strike_t", "soon", ["meta.json", "strike_t"]),
    ("frames", [], ["meta.json", "frames"]),
    ("frames.0.t", -1, ["meta.json", "frames[0].t"]),
    ("frames.2.t", 0.0, ["meta.json", "frames[2].t"]),
    ("frames.1.t", 0.0, ["meta.json", "frames[1].t"]),
    ("frames.1.file", "../etc/passwd.png", ["meta.json", "frames[1].file"]),
    ("frames.1.file", "f0001.gif", ["meta.json", "frames[1].file"]),
    ("frames.1.file", "nothere.png", ["nothere.png", "missing"]),
]


@pytest.mark.parametrize(("field", "value", "words"), CASES, ids=[f"{c[0]}={c[1]!r}"[:40] for c in CASES])
def test_cam4_malformed_meta_one_line_exit_2(tmp_path: Path, meta: dict, field: str, value: object,
                                              words: list[str]) -> None:
    rec = tmp_path / "rec"
    shutil.copytree(VECTOR, rec)
    bad = json.loads(json.dumps(meta))
    _set(bad, field, value)
    (rec / "meta.json").write_text(json.dumps(bad))
    out = analyse(rec)
    assert out.returncode == 2, out.stdout
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    for w in words:
        assert w in lines[0], lines[0]


def test_cam4_meta_not_json_or_missing(tmp_path: Path) -> None:
    rec = tmp_path / "rec"
    shutil.copytree(VECTOR, rec)
    (rec / "meta.json").write_text("{not json")
    out = analyse(rec)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "meta.json: not JSON" in out.stderr
    (rec / "meta.json").unlink()
    out = analyse(rec)
    assert out.returncode == 2 and "meta.json: missing" in out.stderr
    out = analyse(tmp_path / "nowhere")
    assert out.returncode == 2 and "not a directory" in out.stderr


def test_cam4_bad_frames_name_the_file(tmp_path: Path, meta: dict) -> None:
    rec = tmp_path / "rec"
    shutil.copytree(VECTOR, rec)
    name = meta["frames"][3]["file"]
    (rec / name).write_bytes(b"not an image")
    out = analyse(rec)
    assert out.returncode == 2 and out.stderr.strip() == f"{name}: not a readable PNG or JPEG image"
    shutil.copy(VECTOR / name, rec / name)
    import cv2

    small = cv2.resize(cv2.imread(str(VECTOR / name)), (100, 80))
    cv2.imwrite(str(rec / name), small)
    out = analyse(rec)
    assert out.returncode == 2 and out.stderr.startswith(f"{name}: 100x80 pixels") and out.stderr.count("\n") == 1


def test_cam4_save_and_load_round_trip(tmp_path: Path) -> None:
    from sensors.camera.recording import load_recording, save_recording

    rec = load_recording(VECTOR)
    import cv2

    frames = [cv2.imread(str(VECTOR / f)) for f, _ in rec.frames[:3]]
    rec.frames = rec.frames[:3]
    rec.strike_t = rec.frames[1][1]
    copy = load_recording(save_recording(tmp_path / "copy", rec, frames))
    assert copy.meta() == rec.meta()
