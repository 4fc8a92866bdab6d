"""``gametable camera analyse DIR`` (and the group ``camera record`` joins): docs/camera.md, CAM-4.

``analyse`` runs the same tracker as the live observer on a recorded strike and prints exactly
CAM-4's JSON object; a malformed directory is one line on stderr naming the file and field, exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_parser(sub: Any) -> Any:
    """Register ``camera`` with its ``analyse`` sub-command and return the group's sub-parsers, so
    ``record`` is added beside it: ``p = group.add_parser("record", ...)`` and
    ``p.set_defaults(camera_run=fn)`` with ``fn(args) -> exit code``."""
    cam = sub.add_parser("camera", help="the camera observer: analyse (and record) strikes, gametable-strike/1")
    group = cam.add_subparsers(dest="camera_command", required=True)
    an = group.add_parser("analyse", help="print the shot a recorded strike directory shows (JSON, CAM-4)")
    an.add_argument("dir", help="a gametable-strike/1 directory (meta.json + frames)")
    an.add_argument("--threshold", type=float, default=0.98, help="confidence below which a fact is unknown")
    an.add_argument("--clip", metavar="OUT.webm",
                    help="also write the strike as a slow-motion WebM clip with its tracks, touches and open pairs")
    an.set_defaults(camera_run=run_analyse)
    return group


def run_analyse(args: argparse.Namespace) -> int:
    """``gametable camera analyse DIR``: CAM-4's JSON on stdout, exit 0; malformed: one line, exit 2."""
    try:
        from sensors.camera.calibration import CalibrationError
        from sensors.camera.clip import ClipError
        from sensors.camera.recording import RecordingError
    except ImportError as exc:  # the [camera] extra is not installed
        print(f"gametable camera needs OpenCV and numpy: pip install '.[camera]' ({exc})", file=sys.stderr)
        return 2
    if not (0.0 < args.threshold <= 1.0):
        print(f"--threshold: must be in (0, 1], got {args.threshold}", file=sys.stderr)
        return 2
    try:
        out = analyse(args.dir, threshold=args.threshold, clip=args.clip)
    except (RecordingError, CalibrationError, ClipError) as exc:
        print(" ".join(str(exc).split()), file=sys.stderr)
        return 2
    print(json.dumps(out))
    return 0


def analyse(path: str, *, threshold: float = 0.98, clip: str | None = None) -> dict[str, Any]:
    """CAM-4's object for the recording at ``path`` (raises RecordingError when malformed); with
    ``clip``, the strike's clip is written there too (docs/camera.md "Clips")."""
    from controller.games.coinwar.camera_facts import camera_shot
    from sensors.camera.analysis import track_recording
    from sensors.camera.clip import check_clip_path, write_clip
    from sensors.camera.recording import iter_frames, load_recording

    if clip is not None:
        check_clip_path(clip)  # before the analysis: a wrong path is refused at once
    rec = load_recording(path)
    tracker = track_recording(rec)
    result = tracker.result()
    if clip is not None:
        write_clip(clip, iter_frames(rec), tracker, result, {c: info.colour for c, info in rec.coins.items()})
    shot = camera_shot(result, seat=rec.coins[rec.struck].seat, coin=rec.struck, threshold=threshold)
    return {"shot": shot.shot(open_pairs=True), "confidence": shot.confidence,  # CAM-4: contacts_open
            "at_rest": {c: [p[0], p[1]] for c, p in shot.at_rest.items()}}


def run(args: argparse.Namespace) -> int:
    """Dispatch ``gametable camera …`` to the sub-command's ``camera_run``; returns the exit code."""
    return int(args.camera_run(args))
