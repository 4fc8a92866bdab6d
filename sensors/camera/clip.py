"""A recorded strike as a slow-motion clip with what the camera saw drawn over it (docs/camera.md
"Clips"): ``gametable camera analyse DIR --clip OUT.webm``.

Why: a builder tuning the camera, or players arguing over a 10 ms touch, need to see what the
analysis saw, not read numbers: each coin's track so far in its own colour, each pair it decided
touched ringed where the two came closest, each pair it left open joined by a dashed line marked
"?". The clip runs from just before the flick until every coin rests and plays at ``PLAY_FPS``, so a 120 fps strike plays at
1/4 speed and a 200 fps one at ~1/7. WebM (VP8, through OpenCV's FFmpeg) plays in Chromium and
in current Safari; the frames are scaled so the longer side is at most ``MAX_SIDE`` px.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from sensors.camera.recording import hex_bgr

PLAY_FPS = 30.0
BEFORE_FLICK_S = 0.1  # the clip starts this long before the flick (the pen on the coin)
MAX_SIDE = 640
AFTER_REST_S = 0.2  # ... and ends this long after the last coin came to rest
BYTES_AIM = 300_000  # a phone loads it at once (docs/performance.md clip_bytes_p95: <= 400 KB)
# OpenCV's FFmpeg writer gives VP8 no bitrate a caller can set; on blurred frames a clip takes ~0.2
# bits per pixel of every frame (noise-free synthetic frames: 0.20; rendered strikes: up to ~0.3),
# so the frames are scaled to the aim at this rate, with room
BITS_PER_PX = 0.35
MOVED_PX = 0.5  # a centre that moved less than this between frames is at rest
TOUCH_MARK_FRAMES = 6  # a decided touch stays ringed this many frames around its closest approach
OPEN_BGR = (0, 215, 255)  # undecided pairs: amber
TOUCH_BGR = (255, 255, 255)


class ClipError(ValueError):
    """The clip cannot be written (a path that is not .webm, a folder that does not exist, no encoder)."""


def check_clip_path(out: str | Path) -> Path:
    """``out`` as a path the clip can be written to, or a :class:`ClipError` saying why not."""
    path = Path(out)
    if path.suffix.lower() != ".webm":
        raise ClipError(f"--clip {out}: the clip is WebM; name it .webm")
    if not path.parent.is_dir():
        raise ClipError(f"--clip {out}: folder {path.parent} does not exist")
    return path


def _dashed(img: Any, a: Any, b: Any, colour: tuple[int, int, int], scale: float) -> None:
    n = max(2, int(math.dist(a, b) / 8))
    for i in range(0, n, 2):
        p = a + (b - a) * (i / n)
        q = a + (b - a) * (min(i + 1, n) / n)
        cv2.line(img, _pt(p * scale), _pt(q * scale), colour, 2, cv2.LINE_AA)


def _pt(p: Any) -> tuple[int, int]:
    return int(round(float(p[0]))), int(round(float(p[1])))


def write_clip(out: str | Path, frames: Iterable[tuple[float, Any]], tracker: Any, result: Any,
               colours: dict[str, str]) -> int:
    """Write the clip of one tracked strike to ``out`` (.webm); returns the frames written.
    ``tracker`` is the :class:`~sensors.camera.tracking.StrikeTracker` that saw ``frames`` (its
    per-frame centres in px), ``result`` its :class:`~sensors.camera.tracking.TrackResult`."""
    path = check_clip_path(out)
    touched = [p for p, q in result.contacts.items() if q >= 0.98]
    undecided = [p for p, q in result.contacts.items() if 0.02 < q < 0.98]
    closest = {p: _closest_frame(tracker, p) for p in touched}
    start_t = (tracker.strike_t or 0.0) - BEFORE_FLICK_S
    end_t = _rest_time(tracker) + AFTER_REST_S
    count = sum(1 for t in tracker.times if start_t <= t <= end_t)
    writer: Any = None
    trails: dict[str, tuple[Any, Any]] = {}
    scale = 1.0
    written = 0
    for i, (t, image) in enumerate(frames):
        if t < start_t or t > end_t:
            continue
        h, w = image.shape[:2]
        if writer is None:  # every frame has the first one's size: the scale and the scaled tracks once
            fits = math.sqrt(BYTES_AIM * 8 / (BITS_PER_PX * max(count, 1) * h * w))
            scale = min(1.0, MAX_SIDE / max(h, w), fits)
            size = (int(w * scale) // 2 * 2, int(h * scale) // 2 * 2)
            trails = {c: _trail(tracker.px[c], scale) for c in tracker.ids}
            writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"VP80"), PLAY_FPS, size)
            if not writer.isOpened():
                raise ClipError("--clip: this OpenCV cannot encode VP8 WebM (opencv-python-headless can)")
        img = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        img = cv2.GaussianBlur(img, (5, 5), 0)  # sensor noise is most of VP8's bits (~5x) and shows nothing
        _draw(img, tracker, i, scale, colours, trails, touched, undecided, closest)
        writer.write(img)
        written += 1
    if writer is not None:
        writer.release()
    return written


def _trail(px: list[Any], scale: float) -> tuple[Any, Any]:
    """(frame indices, scaled int points) of the frames a coin was located in: its track as drawn."""
    idx = np.array([i for i, p in enumerate(px) if p is not None], dtype=np.intp)
    pts = (np.array([p for p in px if p is not None], dtype=np.float64).reshape(-1, 2) * scale).round()
    return idx, pts.astype(np.int32).reshape(-1, 1, 2)


def _rest_time(tracker: Any) -> float:
    """When the last coin came to rest: the last frame any located centre moved in."""
    last = 0
    for c in tracker.ids:
        prev = None
        for i, p in enumerate(tracker.px[c]):
            if p is not None and prev is not None and math.dist(p, prev) >= MOVED_PX:
                last = max(last, i)
            prev = p if p is not None else prev
    return float(tracker.times[last]) if tracker.times else 0.0


def _closest_frame(tracker: Any, pair: tuple[str, str]) -> int:
    """The frame where the two coins' centres (px) came closest: where their touch is ringed."""
    best, at = math.inf, 0
    for i, (p, q) in enumerate(zip(tracker.px[pair[0]], tracker.px[pair[1]], strict=True)):
        if p is not None and q is not None and math.dist(p, q) < best:
            best, at = math.dist(p, q), i
    return at


def _draw(img: Any, tracker: Any, i: int, scale: float, colours: dict[str, str], trails: dict[str, tuple[Any, Any]],
          touched: list[tuple[str, str]], undecided: list[tuple[str, str]], closest: dict[Any, int]) -> None:
    now: dict[str, Any] = {}
    radius = {c: float(tracker.r_px[k]) * scale for k, c in enumerate(tracker.ids)}
    for c in tracker.ids:
        idx, pts = trails[c]
        upto = int(np.searchsorted(idx, i, side="right"))
        if upto >= 2:
            cv2.polylines(img, [pts[:upto]], False, hex_bgr(colours[c]), 2, cv2.LINE_AA)
        p = tracker.px[c][i] if i < len(tracker.px[c]) else None
        if p is not None:
            now[c] = np.asarray(p)
            r = radius[c]
            cv2.circle(img, _pt(now[c] * scale), int(round(r)), hex_bgr(colours[c]), 1, cv2.LINE_AA)
            cv2.putText(img, c, _pt(now[c] * scale + (r + 2, -r)), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255), 1,
                        cv2.LINE_AA)
    for a, b in touched:
        if abs(i - closest[(a, b)]) <= TOUCH_MARK_FRAMES // 2 and a in now and b in now:
            mid = (now[a] + now[b]) / 2 * scale
            cv2.circle(img, _pt(mid), int(round(radius[a] * 1.6)), TOUCH_BGR, 2, cv2.LINE_AA)
    for a, b in undecided:
        if a in now and b in now:
            _dashed(img, now[a], now[b], OPEN_BGR, scale)
            mid = (now[a] + now[b]) / 2 * scale
            cv2.putText(img, "?", _pt(mid), cv2.FONT_HERSHEY_SIMPLEX, 0.7, OPEN_BGR, 2, cv2.LINE_AA)
