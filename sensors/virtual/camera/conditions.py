"""What one strike is rendered under (CAM-5, docs/camera_heldout.md): a seeded, deterministic draw
of the camera, the light, the coins' looks, the hand, a covered marker, a re-aimed coin and the
layout, so the analysis is proven on pictures it was never tuned on.

Why a dataclass apart from the rig: the rig is the mount and sensor (its static table costs
~0.7–3 s to draw), the rest changes every strike. ``draw`` takes a rig from a pool so the bench
can afford thousands of strikes; ``draw_rig`` draws one.

The split (docs/camera_heldout.md): ``split="tune"`` never draws the held-out renderer variants
(the ``banded`` noise model, the ``flat`` open hand); ``split="heldout"`` draws them too.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace

from sensors.virtual.camera.rig import CameraRig

Point = tuple[float, float]

# hardware_docs/camera.md "mounting slack": ±2.5° tilt for the Wide module (±1.5° for the standard)
TILT_TOLERANCE_DEG = 2.5
FPS_RANGE = (100.0, 200.0)
STRESS_FPS = 60.0
RESOLUTIONS: tuple[tuple[int, int], ...] = ((640, 480), (1024, 576), (1280, 720), (1536, 864))
REAIM_MAX_MM = 15.0  # a coin re-aimed by the pen before the flick is ordinary play (issue text, CW-5)

LOOKS = ("plain", "sticker", "number", "two_tone")  # a decal, a printed number, a ring of another colour
SKIN_TONES_BGR: tuple[tuple[int, int, int], ...] = (
    (120, 150, 205), (95, 135, 190), (70, 100, 150), (45, 65, 100), (160, 185, 225))
SLEEVE_BGR: tuple[tuple[int, int, int], ...] = ((60, 60, 60), (150, 80, 40), (40, 40, 140), (200, 200, 200))
TUNE_HANDS = ("pen", "fist", "sleeve")
HELDOUT_HANDS = (*TUNE_HANDS, "flat")  # the open hand flicking with a finger: held-out renderer variant
NOISE_MODELS = {"tune": ("gaussian",), "heldout": ("gaussian", "banded")}
# colours close to the table's light wood (render.TABLE_BGR (118, 160, 196) is #c4a076)
NEAR_TABLE = ("#c9a47a", "#b99a70", "#d0ad84")
LAYOUTS = ("uniform", "played", "touching", "cluster", "rails")


@dataclass(frozen=True)
class Cover:
    """Part of an ArUco marker covered (a hand, a sleeve, a cup) from strike time ``t0`` to ``t1``
    (seconds; frame 0 is t = 0): ``share`` of the marker's width, from ``side`` (0–3)."""

    marker: int
    share: float
    side: int
    t0: float
    t1: float


@dataclass(frozen=True)
class HandLook:
    """The striking hand: ``shape`` one of ``HELDOUT_HANDS``, skin and sleeve colours (BGR)."""

    shape: str = "pen"
    skin_bgr: tuple[int, int, int] = SKIN_TONES_BGR[0]
    sleeve_bgr: tuple[int, int, int] = SLEEVE_BGR[0]


@dataclass(frozen=True)
class Conditions:
    """Everything a strike is rendered under besides the physics. ``name`` is the condition of the
    matrix it was drawn for, ``seed`` its seed (the same seed and name give the same conditions)."""

    name: str = "mixed"
    seed: int = 0
    rig: CameraRig = field(default_factory=CameraRig)
    looks: tuple[str, ...] = ()  # per coin in id order; missing coins are plain
    near_table_coin: bool = False  # one coin coloured close to the table
    one_colour_teams: bool = False  # a team game, one colour per team, no sticker dots
    hand: HandLook = field(default_factory=HandLook)
    cover: Cover | None = None
    reaim_mm: float = 0.0  # the struck coin lies this far off its known spot (meta.json keeps the old)
    reaim_angle: float = 0.0  # radians: the direction from where it lies to the known spot
    layout: str = "uniform"


CONDITIONS: dict[str, str] = {
    "mixed": "every factor drawn at random over its range",
    "fps_60": "60 fps (stress: a fast coin moves most of its diameter a frame)",
    "resolution": "1024x576 to 1536x864",
    "noise": "sensor noise sigma 5-9",
    "light": "a strong light gradient and a glare spot",
    "blur": "exposure 4-8 ms",
    "lens": "barrel distortion k1 -0.14 to -0.08",
    "tilt": "tilt and roll at the mounting tolerance's edge",
    "looks": "stickers, printed numbers, two-tone coins",
    "near_table": "one coin coloured close to the table",
    "team_colours": "a team game: one colour per team, no sticker dots",
    "hands": "hands of every shape and skin tone",
    "covered_marker": "a marker partly covered, frame 0 included",
    "reaimed": "the struck coin re-aimed 0-15 mm off its known spot",
    "touching": "coins touching at rest",
    "clusters": "clusters of 3-4 coins",
    "rails": "coins against rails",
}


def draw_rig(rng: random.Random, name: str = "mixed", split: str = "tune") -> CameraRig:
    """A rig for condition ``name``: mild variation (as ``CameraRig.random``) at 640x480 and
    100-200 fps, the condition's factor at its stress level."""
    wild = name == "mixed"
    res = RESOLUTIONS[0]
    if name == "resolution" or (wild and rng.random() < 0.4):
        res = rng.choice(RESOLUTIONS[1:])
    edge = name == "tilt" or (wild and rng.random() < 0.3)
    tilt_max = TILT_TOLERANCE_DEG if edge else 1.0
    tilt = rng.uniform(0.8 * tilt_max, tilt_max) * rng.choice((-1, 1)) if edge else rng.uniform(-tilt_max, tilt_max)
    roll = rng.uniform(-tilt_max, tilt_max)
    gradient = (rng.uniform(0.15, 0.3), rng.uniform(0.0, 2 * math.pi)) if name == "light" or (
        wild and rng.random() < 0.3) else (0.0, 0.0)
    glare = (rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8), rng.uniform(0.04, 0.1), rng.uniform(0.5, 1.2)) if (
        name == "light" or (wild and rng.random() < 0.3)) else (0.0, 0.0, 0.0, 0.0)
    noisy = name == "noise" or (wild and rng.random() < 0.3)
    lens = name == "lens" or (wild and rng.random() < 0.3)
    return CameraRig(
        height_mm=rng.uniform(850.0, 950.0),
        tilt_deg=tilt,
        roll_deg=roll,
        yaw_deg=rng.uniform(-3.0, 3.0),
        offset_mm=(rng.uniform(-8.0, 8.0), rng.uniform(-8.0, 8.0)),
        resolution=res,
        k1=rng.uniform(-0.14, -0.08) if lens else rng.uniform(-0.08, 0.0),
        light=rng.uniform(0.8, 1.15),
        light_falloff=rng.uniform(0.1, 0.35),
        light_centre=(rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7)),
        noise=rng.uniform(5.0, 9.0) if noisy else rng.uniform(1.5, 4.0),
        noise_model=rng.choice(NOISE_MODELS[split]),
        gradient=gradient,
        glare=glare,
        seed=rng.randrange(2**31),
    )


def draw(seed: int, name: str = "mixed", split: str = "tune", *, n_coins: int = 6,
         rig: CameraRig | None = None) -> Conditions:
    """The conditions of strike ``seed`` in condition ``name`` (deterministic). ``rig`` (from a
    pool of ``draw_rig`` rigs) keeps the mount and sensor; fps and exposure are drawn per strike
    (they do not change the static table)."""
    if name not in CONDITIONS:
        raise ValueError(f"unknown condition {name!r}; one of {', '.join(CONDITIONS)}")
    rng = random.Random(f"{split}/{name}/{seed}")
    wild = name == "mixed"
    base = rig if rig is not None else draw_rig(rng, name, split)
    fps = STRESS_FPS if name == "fps_60" or (wild and rng.random() < 0.1) else round(rng.uniform(*FPS_RANGE))
    exposure = rng.uniform(0.004, 0.008) if name == "blur" or (wild and rng.random() < 0.3) else rng.uniform(
        0.0015, 0.004)
    rig_now = replace(base, fps=float(fps), exposure_s=min(exposure, 0.9 / fps))
    fancy = name == "looks" or (wild and rng.random() < 0.4)
    looks = tuple(rng.choice(LOOKS) if fancy else "plain" for _ in range(n_coins))
    hands = HELDOUT_HANDS if split == "heldout" else TUNE_HANDS
    hand = HandLook(shape=rng.choice(hands) if name == "hands" or wild else "pen",
                    skin_bgr=rng.choice(SKIN_TONES_BGR), sleeve_bgr=rng.choice(SLEEVE_BGR))
    cover = None
    if name == "covered_marker" or (wild and rng.random() < 0.2):
        t0 = 0.0 if rng.random() < 0.5 else rng.uniform(0.0, 0.4)
        cover = Cover(marker=rng.randrange(4), share=rng.uniform(0.2, 0.5), side=rng.randrange(4),
                      t0=t0, t1=t0 + rng.uniform(0.05, 0.6))
    reaimed = name == "reaimed" or (wild and rng.random() < 0.3)
    layouts = {"touching": "touching", "clusters": "cluster", "rails": "rails"}
    layout = layouts.get(name) or (rng.choice(LAYOUTS) if wild else rng.choice(("uniform", "played")))
    return Conditions(
        name=name, seed=seed, rig=rig_now, looks=looks,
        near_table_coin=name == "near_table" or (wild and rng.random() < 0.15),
        one_colour_teams=name == "team_colours" or (wild and rng.random() < 0.15),
        hand=hand, cover=cover,
        reaim_mm=rng.uniform(0.0, REAIM_MAX_MM) if reaimed else 0.0,
        reaim_angle=rng.uniform(0.0, 2 * math.pi),
        layout=layout,
    )
