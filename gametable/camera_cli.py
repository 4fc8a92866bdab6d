"""``gametable camera analyse DIR`` (and the group ``camera record`` joins): docs/camera.md, CAM-4.

``analyse`` runs the same tracker as the live observer on a recorded strike and prints exactly
CAM-4's JSON object; a malformed directory is one line on stderr naming the file and field, exit 2.
"""

from __future__ import annotations

import argparse
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
    an.set_defaults(camera_run=run_analyse)
    return group


def run_analyse(args: argparse.Namespace) -> int:
    """``gametable camera analyse DIR``: CAM-4's JSON on stdout, exit 0; malformed: one line, exit 2."""
    raise NotImplementedError


def analyse(path: str, *, threshold: float = 0.98) -> dict[str, Any]:
    """CAM-4's object for the recording at ``path`` (raises RecordingError when malformed)."""
    raise NotImplementedError


def run(args: argparse.Namespace) -> int:
    """Dispatch ``gametable camera …`` to the sub-command's ``camera_run``; returns the exit code."""
    return int(args.camera_run(args))
