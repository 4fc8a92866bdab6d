"""One-frame glitches of a coin at rest (docs/camera.md, "Coins at rest"), found in its track.

Two touching coins of one look share their pixels (the tracker splits them between the two): in the
odd frame that split pulls a resting coin's centre a couple of millimetres towards its twin, and
back the next frame. Read as a path, that jump is an overlap of the two discs, a false contact
(CW-5.2). A coin at rest in the frames around one frame was there in that frame too: nothing can
push it away and back to the same spot between two frames (friction stops a coin that was hit;
``paths.stayed_at_old_spot`` reads a hidden coin found again in its old spot the same way)."""

from __future__ import annotations

from typing import Any

import numpy as np

STILL_MM = 0.5  # the frames around one frame lie this close to one spot: the coin rested there
AROUND = 2  # frames on each side that must be seen at rest


def settle_glitches(track: Any) -> Any:
    """``track`` ((frames, 2) table mm, NaN where not located) with each frame whose ``AROUND``
    frames on both sides rest at one spot put at that spot (a copy)."""
    out = np.array(track, dtype=np.float64, copy=True)
    n = len(out)
    for k in range(AROUND, n - AROUND):
        if np.isnan(out[k, 0]):
            continue
        around = np.vstack([track[k - AROUND:k], track[k + 1:k + 1 + AROUND]])
        if np.isnan(around[:, 0]).any():
            continue
        spot = np.median(around, axis=0)
        if float(np.hypot(*(around - spot).T).max()) <= STILL_MM:
            out[k] = spot
    return out


__all__ = ["STILL_MM", "settle_glitches"]
