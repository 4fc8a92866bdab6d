"""Every colour of a coin's face (docs/camera.md "The empty table and each coin's look").

Why: a coin's face is often more than one colour — a decal, a printed number, the inner disc of a
two-tone coin, sticker dots. Matched against its main colour alone, those parts of the disc were
nobody's: the centre was pulled 2–3 mm away from a decal (read as "the track began off its spot")
and a two-tone coin showed two thirds of its disc (hidden beside the hand). The extra colours,
learned from the first frame, claim pixels only near their own coin, so a yellow decal never
takes a yellow coin's pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

LOOK_MATCH = 0.6  # a pixel this close (log-ratio, Euclidean) to a coin look belongs to that look
FACE_COLOURS = 2  # colours of a coin's face besides its main look
FACE_SHARE = 0.04  # of the face's 0.85 r disc: less than this unlike the main look is noise, not a colour
FACE_FROM_TABLE = 0.15  # log-ratio from the table under which an "other colour" is the table showing through
FACE_REACH_RADII = 1.2  # an extra colour counts within this many radii (plus the coin's motion) of its coin


@dataclass(frozen=True)
class Faces:
    """The coins' face colours (log of frame / lit table): the main looks first (index = coin),
    then the extra colours, each with the index of its coin in ``owner``."""

    colours: Any  # (M, 3) float32
    owner: Any  # (M,) coin index
    coins: int

    @classmethod
    def learn(cls, image: Any, lit_table: Any, centres: Any, radii: Any, looks: Any,
              skip: set[int]) -> Faces:
        """From the first frame: up to ``FACE_COLOURS`` more colours per coin, each the median of
        the 0.85 r disc's pixels unlike every colour found so far (coins in ``skip`` get none)."""
        h, w = image.shape[:2]
        entries, owners = [*looks], list(range(len(looks)))
        for k, ((u, v), r) in enumerate(zip(centres, radii, strict=True)):
            if k in skip:
                continue
            disc = np.zeros((h, w), np.uint8)
            cv2.circle(disc, (int(round(u)), int(round(v))), max(1, int(r * 0.85)), 255, -1)
            sel = disc > 0
            ratio = np.log((image[sel].astype(np.float32) + 1.0) / lit_table[sel])
            left = ratio[np.sqrt(((ratio - looks[k]) ** 2).sum(axis=1)) >= LOOK_MATCH]
            for _ in range(FACE_COLOURS):
                if len(left) < FACE_SHARE * sel.sum():
                    break
                face = np.median(left, axis=0)
                if float(np.sqrt((face * face).sum())) < FACE_FROM_TABLE:
                    break  # the table showing through (a coin's blurred rim): no colour of the coin
                entries.append(face)
                owners.append(k)
                left = left[np.sqrt(((left - face) ** 2).sum(axis=1)) >= LOOK_MATCH]
        return cls(np.array(entries, dtype=np.float32), np.array(owners, dtype=np.intp), len(looks))

    def owners_of(self, ratio: Any, pts: Any, centres: Any, reach: Any) -> Any:
        """Per pixel (``ratio`` colours at ``pts``), the coin whose face colour it is nearest, -1
        when none is within ``LOOK_MATCH``; a colour beyond a coin's main look only within
        ``reach[k]`` px of ``centres[k]`` (the tracker: ``FACE_REACH_RADII`` radii plus its motion)."""
        if not len(ratio):
            return np.zeros(0, dtype=np.intp)
        c = self.colours
        d2 = (ratio * ratio).sum(axis=1)[:, None] - 2.0 * ratio @ c.T + (c * c).sum(axis=1)[None, :]
        for e in range(self.coins, len(c)):
            k = int(self.owner[e])
            d2[((pts - centres[k]) ** 2).sum(axis=1) > reach[k] * reach[k], e] = np.inf
        best = d2.argmin(axis=1)
        close = d2[np.arange(len(best)), best] < LOOK_MATCH * LOOK_MATCH
        return np.where(close, self.owner[best], -1)
