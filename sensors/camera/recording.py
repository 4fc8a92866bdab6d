"""The recorded-strike format ``gametable-strike/1`` (docs/camera.md, CAM-4).

A directory with ``meta.json`` and image frames. ``load_recording`` checks every field and raises
:class:`RecordingError` whose text is ONE line naming the file and the field, because acceptance
checks and builders read it on a terminal; ``iter_frames`` decodes frames lazily (a strike is a few
hundred frames: they are never all held in memory).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

FORMAT = "gametable-strike/1"
META = "meta.json"
FRAME_SUFFIXES = (".png", ".jpg", ".jpeg")
COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")

Point = tuple[float, float]


def hex_bgr(colour: str) -> tuple[int, int, int]:
    """``#rrggbb`` -> (b, g, r), OpenCV's channel order."""
    v = int(colour[1:], 16)
    return (v & 0xFF, (v >> 8) & 0xFF, v >> 16)


class RecordingError(ValueError):
    """A malformed recording; ``str()`` is one line: ``<file>: <field>: <problem>``."""


@dataclass(frozen=True)
class CoinInfo:
    """A coin before the strike: its seat, the colour a person names it by, where it rests (mm)."""

    seat: int
    colour: str  # "#rrggbb"
    at: Point
    mark: int = 0  # docs/camera.md "Identity": sticker dots (0 = plain) telling same-coloured coins apart


@dataclass
class StrikeRecording:
    """``meta.json`` of one recorded strike, validated, plus the directory its frames live in."""

    table: tuple[float, float]  # (width_mm, length_mm)
    markers: dict[int, Point]  # ArUco id 0..3 -> centre in table mm
    coin_diameter_mm: float
    coins: dict[str, CoinInfo]
    struck: str
    strike_t: float
    frames: list[tuple[str, float]]  # (file name, t seconds from the first frame)
    path: Path = field(default_factory=Path)
    # optional beside CAM-4's fields: the lens's height above the surface (mm), when known, so the
    # analysis maps the coins' top faces where they are (docs/camera.md "Coin height")
    camera_height_mm: float | None = None

    def meta(self) -> dict[str, Any]:
        """The ``meta.json`` object of this recording (what :func:`save_recording` writes)."""
        coins: dict[str, Any] = {}
        for cid, info in self.coins.items():
            coins[cid] = {"seat": info.seat, "colour": info.colour, "at": [info.at[0], info.at[1]]}
            if info.mark:
                coins[cid]["mark"] = info.mark
        return {
            "format": FORMAT,
            "table": {"width_mm": self.table[0], "length_mm": self.table[1]},
            "markers": {str(k): [v[0], v[1]] for k, v in sorted(self.markers.items())},
            "coin_diameter_mm": self.coin_diameter_mm,
            "coins": coins,
            "struck": self.struck,
            "strike_t": self.strike_t,
            "frames": [{"file": f, "t": t} for f, t in self.frames],
            **({"camera_height_mm": self.camera_height_mm} if self.camera_height_mm is not None else {}),
        }


def load_recording(path: str | Path) -> StrikeRecording:
    """Read and validate ``DIR/meta.json`` (every field of CAM-4, and that each frame file exists)."""
    root = Path(path)
    if not root.is_dir():
        raise RecordingError(f"{root}: not a directory")
    meta_path = root / META
    try:
        raw = meta_path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordingError(f"{META}: missing in {root}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordingError(f"{META}: unreadable: {type(exc).__name__}") from None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise RecordingError(f"{META}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise RecordingError(f"{META}: not JSON: nested too deeply") from None
    return _parse(data, root)


def _fail(field_name: str, problem: str) -> RecordingError:
    return RecordingError(f"{META}: {field_name}: {_one_line(problem)}")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _parse(data: Any, root: Path) -> StrikeRecording:
    if not isinstance(data, dict):
        raise _fail("(top level)", f"must be an object, got {type(data).__name__}")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise _fail("format", f"must be {FORMAT!r}, got {_short(fmt)}")
    table = _table(data.get("table"))
    markers = _markers(data.get("markers"))
    diameter = data.get("coin_diameter_mm")
    if not _finite(diameter) or not 5 <= diameter <= 100:
        raise _fail("coin_diameter_mm", f"must be a number of mm from 5 to 100, got {_short(diameter)}")
    coins = _coins(data.get("coins"))
    struck = data.get("struck")
    if not isinstance(struck, str) or struck not in coins:
        raise _fail("struck", f"must name one of coins ({', '.join(sorted(coins))}), got {_short(struck)}")
    frames = _frames(data.get("frames"), root)
    strike_t = data.get("strike_t")
    if not _finite(strike_t) or not frames[0][1] <= strike_t <= frames[-1][1]:
        raise _fail("strike_t", f"must be a number of seconds within the frames' times, got {_short(strike_t)}")
    height = data.get("camera_height_mm")
    if height is not None and (not _finite(height) or not 100 <= height <= 5000):
        raise _fail("camera_height_mm", f"must be the lens's height above the surface, 100 to 5000 mm, got {_short(height)}")
    return StrikeRecording(table=table, markers=markers, coin_diameter_mm=float(diameter), coins=coins,
                           struck=struck, strike_t=float(strike_t), frames=frames, path=root,
                           camera_height_mm=None if height is None else float(height))


def _point(value: Any, name: str) -> Point:
    if not isinstance(value, list) or len(value) != 2 or not all(_finite(v) for v in value):
        raise _fail(name, f"must be [x, y] in mm, got {_short(value)}")
    return (float(value[0]), float(value[1]))


def _table(value: Any) -> tuple[float, float]:
    if not isinstance(value, dict):
        raise _fail("table", f"must be an object with width_mm and length_mm, got {_short(value)}")
    out = []
    for key in ("width_mm", "length_mm"):
        v = value.get(key)
        if not _finite(v) or v <= 0:
            raise _fail(f"table.{key}", f"must be a positive number of mm, got {_short(v)}")
        out.append(float(v))
    return (out[0], out[1])


def _markers(value: Any) -> dict[int, Point]:
    if not isinstance(value, dict):
        raise _fail("markers", f"must be an object with ids \"0\"..\"3\", got {_short(value)}")
    for key in value:
        if key not in ("0", "1", "2", "3"):
            raise _fail(f"markers.{key}", "is not an ArUco id 0-3")
    out: dict[int, Point] = {}
    for i in range(4):
        if str(i) not in value:
            raise _fail(f"markers.{i}", "missing (all four markers 0-3 are needed)")
        out[i] = _point(value[str(i)], f"markers.{i}")
    if len(set(out.values())) < 4:
        raise _fail("markers", "two markers share one position")
    return out


def _coins(value: Any) -> dict[str, CoinInfo]:
    if not isinstance(value, dict) or not value:
        raise _fail("coins", f"must be a non-empty object of coin id -> coin, got {_short(value)}")
    out: dict[str, CoinInfo] = {}
    for cid, c in value.items():
        name = f"coins.{cid}"
        if not cid or not cid.isprintable() or len(cid) > 32:
            raise _fail("coins", f"coin id {_short(cid)} must be 1-32 printable characters")
        if not isinstance(c, dict):
            raise _fail(name, f"must be an object with seat, colour, at, got {_short(c)}")
        seat = c.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise _fail(f"{name}.seat", f"must be a seat number (0 for no owner), got {_short(seat)}")
        colour = c.get("colour")
        if not isinstance(colour, str) or not COLOUR_RE.match(colour):
            raise _fail(f"{name}.colour", f"{_short(colour)} is not #rrggbb")
        at = _point(c.get("at"), f"{name}.at")
        mark = c.get("mark", 0)
        if isinstance(mark, bool) or not isinstance(mark, int) or not 0 <= mark <= 3:
            raise _fail(f"{name}.mark", f"must be 0-3 sticker dots, got {_short(mark)}")
        out[cid] = CoinInfo(seat=seat, colour=colour.lower(), at=at, mark=mark)
    return out


def _frames(value: Any, root: Path) -> list[tuple[str, float]]:
    if not isinstance(value, list) or len(value) < 2:
        raise _fail("frames", f"must be a list of at least 2 frames, got {_short(value)}")
    out: list[tuple[str, float]] = []
    last = -math.inf
    for i, f in enumerate(value):
        name = f"frames[{i}]"
        if not isinstance(f, dict):
            raise _fail(name, f"must be an object with file and t, got {_short(f)}")
        file = f.get("file")
        if (not isinstance(file, str) or not file or "/" in file or "\\" in file or file.startswith(".")
                or not file.lower().endswith(FRAME_SUFFIXES)):
            raise _fail(f"{name}.file", f"must be a PNG or JPEG file name in the directory, got {_short(file)}")
        t = f.get("t")
        if not _finite(t) or t < 0:
            raise _fail(f"{name}.t", f"must be a number of seconds >= 0, got {_short(t)}")
        if t <= last:
            raise _fail(f"{name}.t", f"{t} is not after the previous frame's {last}")
        if not (root / file).is_file():
            raise RecordingError(f"{file}: missing (listed in {META} {name}.file)")
        last = t
        out.append((file, float(t)))
    if out[0][1] > 1e-6:
        raise _fail("frames[0].t", f"the first frame is t = 0, got {out[0][1]}")
    return out


def iter_frames(rec: StrikeRecording) -> Iterator[tuple[float, Any]]:
    """``(t, image)`` per frame in order; image is BGR uint8 (H, W, 3). A missing, unreadable or
    differently sized frame raises :class:`RecordingError` naming the file."""
    import cv2
    import numpy as np

    size: tuple[int, ...] | None = None
    for file, t in rec.frames:
        data = _read_bytes(rec.path / file, file)
        image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR) if data else None
        if image is None:
            raise RecordingError(f"{file}: not a readable PNG or JPEG image")
        if size is None:
            size = image.shape
            if min(image.shape[:2]) < 32:
                raise RecordingError(f"{file}: {image.shape[1]}x{image.shape[0]} pixels is too small to analyse")
        elif image.shape != size:
            raise RecordingError(f"{file}: {image.shape[1]}x{image.shape[0]} pixels, the first frame is "
                                 f"{size[1]}x{size[0]} (one resolution per recording)")
        yield t, image


def _read_bytes(path: Path, file: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise RecordingError(f"{file}: missing (listed in {META})") from None
    except OSError as exc:
        raise RecordingError(f"{file}: unreadable: {type(exc).__name__}") from None


def save_recording(path: str | Path, meta: StrikeRecording, frames: Sequence[Any], *, ext: str = ".png",
                   jpeg_quality: int = 90) -> Path:
    """Write ``frames`` (BGR uint8 images, one per ``meta.frames`` entry) and ``meta.json`` into
    ``path`` (created); frame names come from ``meta.frames``. Used by ``gametable camera record``
    and by the test vectors. Returns the directory. (``ext`` is kept for callers that pass it; the
    format of each frame follows its file name.)"""
    import cv2

    if len(frames) != len(meta.frames):
        raise ValueError(f"{len(frames)} frames for {len(meta.frames)} entries of meta.frames")
    root = Path(path)
    root.mkdir(parents=True, exist_ok=True)
    for (file, _t), image in zip(meta.frames, frames, strict=True):
        params = [cv2.IMWRITE_JPEG_QUALITY, jpeg_quality] if file.lower().endswith((".jpg", ".jpeg")) else []
        ok, data = cv2.imencode(Path(file).suffix, image, params)
        if not ok:
            raise ValueError(f"could not encode frame {file}")
        (root / file).write_bytes(data.tobytes())
    (root / META).write_text(json.dumps(meta.meta(), indent=1) + "\n", encoding="utf-8")
    return root


def frame_names(n: int, ext: str = ".png") -> list[str]:
    """``f0000.png``… : the frame file names the recorders use."""
    return [f"f{i:04d}{ext}" for i in range(n)]


def _finite(v: Any) -> TypeGuard[float]:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
