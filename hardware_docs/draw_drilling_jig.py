"""Render a 1:1 drilling jig for the goal's point beams from a table config (hardware_docs/drilling_jig.svg).

Why generated: the goal proof (controller/games/coinwar/sensing.py) is sound only if every hole is within
``TOLERANCE_MM`` of its configured position, so the template must come from the same config the
daemon loads. Print it at **100 %** ("actual size", no "fit to page") on A4, check the two rulers
with a real ruler (100 mm and 50 mm exactly), tape it to the goal with the goal outline on the
goal's edges, centre-punch every cross, then drill 3.2 mm. Better still: print the 3D jig
(hardware_docs/printable/drilling_jig.scad, ``make stl``), which has 3.2 mm guide holes.

    python hardware_docs/draw_drilling_jig.py [--config FILE] [--out FILE]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gametable_core import table_geometry as geo  # noqa: E402
from gametable_core.config import Config  # noqa: E402
from hardware_docs.draw_beam_layout import _fmt, load_layout, source_name  # noqa: E402

PAGE_W, PAGE_H = 210.0, 297.0  # A4 portrait, millimetres
HOLE_MM = 3.2


def render(config: Config) -> str:
    """The SVG text, in millimetres (width="210mm" with a 210-unit viewBox: 1 unit = 1 mm)."""
    g = geo.GOAL
    gw, gl = g.x1 - g.x0, g.y1 - g.y0
    ox, oy = (PAGE_W - gw) / 2, 40.0  # where the goal's north-west corner lands on the page

    def X(x: float) -> str:
        return _fmt(ox + (x - g.x0))

    def Y(y: float) -> str:  # table y grows north, page y grows down
        return _fmt(oy + (g.y1 - y))

    points = [b for b in config.beams if b.kind == "point" and b.at is not None and not b.reference]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(PAGE_W)}mm" height="{_fmt(PAGE_H)}mm" '
        f'viewBox="0 0 {_fmt(PAGE_W)} {_fmt(PAGE_H)}" font-family="sans-serif">',
        f"<!-- source: {escape(source_name(config))} -->",
        f'<rect x="0" y="0" width="{_fmt(PAGE_W)}" height="{_fmt(PAGE_H)}" fill="white"/>',
        '<text x="10" y="12" font-size="5">Goal drilling jig — print at 100 % (actual size)</text>',
        f'<text x="10" y="19" font-size="3">{len(points)} point beams, {HOLE_MM} mm holes; goal {_fmt(gw)} x '
        f'{_fmt(gl)} mm. Both rulers must measure exactly 100 mm and 50 mm, else do not drill.</text>',
        f'<text x="10" y="24" font-size="3">Drawn from {escape(source_name(config))}. Table y grows up the page '
        "(north, away from seat 1).</text>",
        f'<g id="goal"><rect x="{X(g.x0)}" y="{Y(g.y1)}" width="{_fmt(gw)}" height="{_fmt(gl)}" fill="none" '
        'stroke="black" stroke-width="0.3"/>',
    ]
    for x, y in ((g.x0, g.y0), (g.x1, g.y0), (g.x0, g.y1), (g.x1, g.y1)):  # corner ticks outside the goal
        sx = -1 if x == g.x0 else 1
        sy = 1 if y == g.y0 else -1  # page direction away from the goal
        out.append(f'<path d="M {X(x)} {_fmt(float(Y(y)) + 2 * sy)} v {_fmt(6 * sy)} M {_fmt(float(X(x)) + 2 * sx)} '
                   f'{Y(y)} h {_fmt(6 * sx)}" stroke="black" stroke-width="0.2"/>')
    out.append("</g>")
    for b in points:
        assert b.at is not None
        cx, cy = X(b.at[0]), Y(b.at[1])
        out.append(
            f'<g id="hole-{escape(b.id)}"><circle cx="{cx}" cy="{cy}" r="{_fmt(HOLE_MM / 2)}" fill="none" '
            f'stroke="black" stroke-width="0.15"/><path d="M {_fmt(float(cx) - 3)} {cy} h 6 M {cx} '
            f'{_fmt(float(cy) - 3)} v 6" stroke="black" stroke-width="0.1"/>'
            f'<text x="{_fmt(float(cx) + 2.5)}" y="{_fmt(float(cy) - 2)}" font-size="2.2">{escape(b.id)} '
            f'({_fmt(b.at[0])}, {_fmt(b.at[1])})</text></g>'
        )
    # scale check: a 100 mm ruler along x and a 50 mm one along y
    ry = oy + gl + 20
    out.append(ruler_100mm(10, ry))
    rx = PAGE_W - 15
    vticks = "".join(f"M {_fmt(rx)} {_fmt(ry - i)} h {_fmt(4 if i % 10 == 0 else 2)} " for i in range(51))
    out.append(f'<g id="ruler-50mm"><path d="M {_fmt(rx)} {_fmt(ry)} v -50 {vticks}" stroke="black" '
               f'stroke-width="0.15" fill="none"/><text x="{_fmt(rx - 12)}" y="{_fmt(ry - 51)}" font-size="3">'
               "50 mm</text></g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def ruler_100mm(x: float, y: float) -> str:
    """A 100 mm scale check along the page, its left end at (x, y): a printed sheet is 1:1 only if a
    real ruler agrees."""
    ticks = "".join(f"M {_fmt(x + i)} {_fmt(y)} v {_fmt(-4 if i % 10 == 0 else -2)} " for i in range(101))
    return (f'<g id="ruler-100mm"><path d="M {_fmt(x)} {_fmt(y)} h 100 {ticks}" stroke="black" stroke-width="0.15" '
            f'fill="none"/><text x="{_fmt(x)}" y="{_fmt(y + 5)}" font-size="3">0</text>'
            f'<text x="{_fmt(x + 94)}" y="{_fmt(y + 5)}" font-size="3">100 mm</text></g>')


def scad_points(config: Config) -> str:
    """``printable/goal_points.scad``: the goal and its point beams for the OpenSCAD jig (and any part placed per goal point)."""
    g = geo.GOAL
    pts = ", ".join(f"[{_fmt(b.at[0])}, {_fmt(b.at[1])}]" for b in config.beams if b.kind == "point" and b.at and not b.reference)
    return (f"// Generated by hardware_docs/draw_drilling_jig.py from {source_name(config)}; do not edit.\n"
            f"goal_x0 = {_fmt(g.x0)};\ngoal_y0 = {_fmt(g.y0)};\ngoal_x1 = {_fmt(g.x1)};\ngoal_y1 = {_fmt(g.y1)};\n"
            f"goal_points = [{pts}];\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", help="table config (default: controller/data/default-table.toml)")
    ap.add_argument("--out", default=str(Path(__file__).parent / "drilling_jig.svg"))
    ap.add_argument("--scad", default=str(Path(__file__).parent / "printable" / "goal_points.scad"),
                    help="the OpenSCAD include with the hole positions ('' to skip)")
    args = ap.parse_args(argv)
    config = load_layout(args.config, "draw_drilling_jig")
    if config is None:
        return 2
    Path(args.out).write_text(render(config), encoding="utf-8")
    print(f"wrote {args.out} from {config.source}")
    if args.scad:
        Path(args.scad).write_text(scad_points(config), encoding="utf-8")
        print(f"wrote {args.scad}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
