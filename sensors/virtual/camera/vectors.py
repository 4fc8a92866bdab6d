"""The shipped camera test vectors (tests/vectors/camera/): random believable strikes of the virtual
camera, saved as ``gametable-strike/1`` JPEG recordings with the physics' truth beside them.

Re-make them with ``python -m sensors.virtual.camera.vectors DIR`` (deterministic: the seeds below).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from sensors.camera.recording import CoinInfo, save_recording
from sensors.virtual.camera.record import record_strike
from sensors.virtual.camera.rig import CameraRig
from sensors.virtual.random_shots import random_flick, random_table

# colours a real group would use; two seats share red, told apart by sticker dots (docs/camera.md)
SEAT_COLOURS = ["#d03030", "#3050d0", "#30a040", "#e0c020", "#202020", "#d03030"]
SEEDS = {"strike_contact": 8, "strike_dead": 70, "strike_flown": 12}


def make(seed: int) -> tuple:
    """(recording, frames, truth) of the random strike ``seed``, frames as JPEG names."""
    rng = random.Random(seed)
    phys = random_table(rng, 6)
    coins = {c: CoinInfo(i + 1, SEAT_COLOURS[i], (0.0, 0.0), 1 if i == 5 else 0) for i, c in enumerate(phys.coins())}
    rig = CameraRig.random(rng)
    coin, vx, vy = random_flick(rng, phys.positions())
    rec, frames, truth = record_strike(phys, coin, vx, vy, rig, coins)
    rec.frames = [(f.replace(".png", ".jpg"), t) for f, t in rec.frames]
    return rec, frames, truth


def main(out: str) -> int:
    for name, seed in SEEDS.items():
        rec, frames, truth = make(seed)
        path = save_recording(Path(out) / name, rec, frames, jpeg_quality=70)
        seat = rec.coins[rec.struck].seat
        (path / "truth.json").write_text(json.dumps(truth.shot(seat)) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "tests/vectors/camera"))
