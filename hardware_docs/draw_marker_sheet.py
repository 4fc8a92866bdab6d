"""Render the camera's four ArUco markers 1:1 from a table config (hardware_docs/marker_sheet.svg).

Why generated: the camera's calibration (CAM-1) maps the markers' centres in the image to the
table millimetres of ``[camera] markers`` and their printed size to ``[camera] marker_size_mm``,
so the sheet must come from the same config the daemon loads (like the drilling jig). Print it at
**100 %** ("actual size") on A4, check the 100 mm ruler with a real ruler, cut along the dashed
lines and glue each marker flat with its centre at the position printed under it (table mm, the
origin at the corner of seat 1's left, x along the short side), its arrow pointing up the table.

    python hardware_docs/draw_marker_sheet.py [--config FILE] [--out FILE]

Needs OpenCV (the ``[camera]`` extra): the marker patterns are OpenCV's ``DICT_4X4_50``, ids 0-3.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gametable_core.config import CameraConfig, Config, ConfigError, load  # noqa: E402
from hardware_docs.draw_beam_layout import _fmt, default_config_path, source_name  # noqa: E402
from hardware_docs.draw_drilling_jig import ruler_100mm  # noqa: E402

PAGE_W, PAGE_H = 210.0, 297.0  # A4 portrait, millimetres
CELLS = 6  # a 4x4 marker with its one-cell black border


def marker_cells(marker_id: int) -> list[list[bool]]:
    """The marker's 6 x 6 cells, black = True, row 0 at the top (OpenCV's DICT_4X4_50)."""
    import cv2

    bits = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), marker_id, CELLS)
    return [[bool(bits[r, c] < 128) for c in range(CELLS)] for r in range(CELLS)]


def _marker(mid: int, x: float, y: float, size: float, at: tuple[float, float]) -> str:
    """One marker with its white quiet zone, cut line, arrow and where it goes on the table."""
    cell = size / CELLS
    quiet = cell  # one white cell around the border: the detector needs it
    rects = "".join(
        f'<rect x="{_fmt(x + c * cell)}" y="{_fmt(y + r * cell)}" width="{cell:.3f}" height="{cell:.3f}"/>'
        for r, row in enumerate(marker_cells(mid)) for c, black in enumerate(row) if black)
    cx = x + size / 2
    return (f'<g id="marker-{mid}">'
            f'<rect x="{_fmt(x - quiet)}" y="{_fmt(y - quiet)}" width="{_fmt(size + 2 * quiet)}" '
            f'height="{_fmt(size + 2 * quiet)}" fill="none" stroke="black" stroke-width="0.2" stroke-dasharray="2 1.5"/>'
            f'<g fill="black">{rects}</g>'
            f'<path d="M {_fmt(cx)} {_fmt(y - quiet - 2)} l -2 3 h 4 z" fill="black"/>'
            f'<text x="{_fmt(cx)}" y="{_fmt(y + size + quiet + 5)}" font-size="3.2" text-anchor="middle">'
            f'marker {mid}: centre at x {_fmt(at[0])}, y {_fmt(at[1])} mm</text></g>')


def render(config: Config) -> str:
    """The SVG text, in millimetres (width="210mm" with a 210-unit viewBox: 1 unit = 1 mm)."""
    camera = config.camera or CameraConfig()
    size = camera.marker_size_mm
    pitch_x, pitch_y = PAGE_W / 2, (PAGE_H - 70) / 2
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(PAGE_W)}mm" height="{_fmt(PAGE_H)}mm" '
        f'viewBox="0 0 {_fmt(PAGE_W)} {_fmt(PAGE_H)}" font-family="sans-serif">',
        f"<!-- source: {escape(source_name(config))} -->",
        f'<rect x="0" y="0" width="{_fmt(PAGE_W)}" height="{_fmt(PAGE_H)}" fill="white"/>',
        '<text x="10" y="12" font-size="5">Camera markers — print at 100 % (actual size)</text>',
        f'<text x="10" y="19" font-size="3">ArUco DICT_4X4_50, ids 0-3, {_fmt(size)} mm. Cut on the dashed lines; '
        "glue flat outside the playing surface, arrow up the table (away from seat 1).</text>",
        f'<text x="10" y="24" font-size="3">Drawn from {escape(source_name(config))} ([camera] markers, '
        "marker_size_mm). The ruler must measure exactly 100 mm, else do not use the sheet.</text>",
    ]
    for i, key in enumerate(sorted(camera.markers)):
        col, row = i % 2, i // 2
        x = col * pitch_x + (pitch_x - size) / 2
        y = 40 + row * pitch_y + (pitch_y - size) / 2 - 10
        out.append(_marker(int(key), x, y, size, camera.markers[key]))
    out.append(ruler_100mm(55, PAGE_H - 20))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", help="table config (default: controller/data/default-table.toml)")
    ap.add_argument("--out", default=str(Path(__file__).parent / "marker_sheet.svg"))
    args = ap.parse_args(argv)
    try:
        config = load(args.config or default_config_path(), layout_only=True)  # a drawing needs no strikers
    except ConfigError as exc:
        print(f"draw_marker_sheet: {exc}", file=sys.stderr)
        return 2
    Path(args.out).write_text(render(config), encoding="utf-8")
    print(f"wrote {args.out} from {config.source}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
