"""The recorded-strike format ``gametable-strike/1`` (docs/camera.md, CAM-4).

A directory with ``meta.json`` and image frames. ``load_recording`` checks every field and raises
:class:`RecordingError` whose text is ONE line naming the file and the field, because acceptance
checks and builders read it on a terminal; ``iter_frames`` decodes frames lazily (a strike is a few
hundred frames: they are never all held in memory).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT = "gametable-strike/1"
META = "meta.json"
FRAME_SUFFIXES = (".png", ".jpg", ".jpeg")
COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")

Point = tuple[float, float]


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
        }


def load_recording(path: str | Path) -> StrikeRecording:
    """Read and validate ``DIR/meta.json`` (every field of CAM-4, and that each frame file exists)."""
    raise NotImplementedError


def iter_frames(rec: StrikeRecording) -> Iterator[tuple[float, Any]]:
    """``(t, image)`` per frame in order; image is BGR uint8 (H, W, 3). A missing, unreadable or
    differently sized frame raises :class:`RecordingError` naming the file."""
    raise NotImplementedError


def save_recording(path: str | Path, meta: StrikeRecording, frames: Sequence[Any], *, ext: str = ".png") -> Path:
    """Write ``frames`` (BGR uint8 images, one per ``meta.frames`` entry) and ``meta.json`` into
    ``path`` (created); frame names come from ``meta.frames``. Used by ``gametable camera record``
    and by the test vectors. Returns the directory."""
    raise NotImplementedError


def _finite(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
