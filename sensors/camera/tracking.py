"""Following coins through a strike's frames (docs/camera.md, CAM-2): positions, paths, contacts.

One :class:`StrikeTracker` per strike, fed frame by frame (the live camera and ``gametable camera
analyse`` run the same code). It learns each coin's look and the empty table from the frames before
the strike, where the coins' rest positions are known, then segments every frame against that
background (numpy/OpenCV on whole arrays, no per-pixel Python). Every conclusion carries a
confidence; what the hand and pen hid is reported as occluded, never filled in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sensors.camera.calibration import Calibration
from sensors.camera.recording import CoinInfo

Point = tuple[float, float]


@dataclass(frozen=True)
class TrackParams:
    """Tuning of the tracker; defaults suit the default table at ≥ 16 px per coin and ≥ 100 fps."""

    coin_diameter_mm: float = 30.0
    table: tuple[float, float] = (425.0, 625.0)
    min_visible: float = 0.6  # fraction of a coin's disc that must be seen to locate it
    contact_band_mm: float = 2.5  # closest approach this close to touching is not decided by distance
    rest_speed_mm_s: float = 8.0


@dataclass
class CoinResult:
    """One coin's strike: where it rests (None = not on the surface / not seen), its path and flags."""

    rest: Point | None
    rest_confidence: float
    path: list[tuple[float, Point]] = field(default_factory=list)  # (t, table mm) of located frames
    left_surface: bool = False  # seen leaving the playing surface (over a rail / out of view)
    not_flat: bool = False  # rests on another coin or on a rail
    flight_confidence: float = 1.0  # confidence in (left_surface or not_flat) as stated
    occluded: list[tuple[float, float]] = field(default_factory=list)  # (t0, t1) hidden intervals
    identity_confidence: float = 1.0  # same-coloured coins: how sure the id is (docs/camera.md "Identity")


@dataclass
class TrackResult:
    """What the frames showed about one strike."""

    coins: dict[str, CoinResult]
    contacts: dict[tuple[str, str], float]  # sorted pair -> confidence that they touched (0..1)
    contacts_confidence: float  # confidence that ``contacts`` (pairs with p >= 0.5) is the full truth
    frames: int = 0
    settled: bool = False  # every coin was at rest in the last frames


class StrikeTracker:
    """Frames of one strike in, a :class:`TrackResult` out."""

    def __init__(self, calibration: Calibration, coins: Mapping[str, CoinInfo], struck: str, *,
                 params: TrackParams | None = None) -> None:
        self.calibration = calibration
        self.coins = dict(coins)
        self.struck = struck
        self.params = params or TrackParams()

    def feed(self, t: float, image: Any) -> None:
        """One BGR uint8 frame at ``t`` seconds (frames in time order)."""
        raise NotImplementedError

    def result(self) -> TrackResult:
        """What the frames fed so far showed (call after the last frame)."""
        raise NotImplementedError


def locate_coins(image: Any, calibration: Calibration, coins: Mapping[str, CoinInfo], *,
                 params: TrackParams | None = None) -> dict[str, tuple[Point, float]]:
    """Coins at rest between strikes: id -> (table mm, confidence), searched near ``coins[id].at``
    by colour (and sticker mark for same-coloured coins)."""
    raise NotImplementedError


def bind_coins(image: Any, calibration: Calibration, seat_colours: Mapping[int, str], *,
               seat_marks: Mapping[int, int] | None = None,
               params: TrackParams | None = None) -> dict[int, Point]:
    """Game start (CAM-2): each seat's coin found on the surface by its colour ``#rrggbb`` (and its
    sticker dots when two seats share a colour, docs/camera.md "Identity") -> its position in mm.
    A seat whose coin is not found, or is found twice, is left out."""
    raise NotImplementedError
