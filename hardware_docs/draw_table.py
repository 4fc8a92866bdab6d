"""Render the dimensioned drawing of the whole table from a table config (hardware_docs/table_drawing.svg).

Why generated: the rails, goal, beams, LEDs and cable runs a builder saws and drills to must be
the ones the daemon loads (``controller/data/default-table.toml``), the optics the proof relies
on (``gametable_core/beam_optics.py``) and the printed parts (``hardware_docs/printable/*.scad``); a test
fails when the committed drawing is stale. Top view in table millimetres (1 unit = 1 mm, seat 1's
rail at the bottom), and a section through a rail and the goal. Usage:

    python hardware_docs/draw_table.py [--config FILE] [--out FILE]
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
from gametable_core.beam_optics import GOAL_SPOT, RAIL_BEAM  # noqa: E402
from gametable_core.config import Config  # noqa: E402
from hardware_docs import scad_params  # noqa: E402
from hardware_docs.draw_beam_layout import _fmt, load_layout, source_name, write_drawing  # noqa: E402

PRINTABLE = ROOT / "hardware_docs" / "printable"
RW = geo.RAIL_WIDTH_MM
MARGIN = 110.0
SECTION_H = 200.0  # the section drawing below the top view
# Under the table, near the south-west corner (seat 1's left): the Pi 4 with the HAT on it, and
# the base station on its short USB cable (mounting.md "Base station and strikers").
PI_AT, PI_SIZE = (20.0, 30.0), (85.0, 56.0)
# The camera's four 40 mm ArUco markers lie flat on the board beyond the short rails, 40 mm in from
# the long sides (hardware_docs/camera.md "Where the markers go"): the board reaches BOARD_EXT beyond
# the surface at both short ends for them, 485 x 815 mm in all.
MARKERS_AT = ((40.0, -75.0), (385.0, -75.0), (385.0, 700.0), (40.0, 700.0))
MARKER_MM = 40.0
BOARD_EXT = 95.0
BASE_AT = (20.0, 110.0)


def seat_led_positions(seats: list[int]) -> dict[int, tuple[float, float]]:
    """A suggested place for each seat LED on the rail tops: clockwise from seat 1 on the south
    rail (2 per long rail, 1 per short one for 6 seats). Any place "in front of the seat" works
    (mounting.md); the wiring does not depend on it."""
    w, length = geo.WIDTH_MM, geo.LENGTH_MM
    spots = [(w / 2, -RW / 2), (-RW / 2, length / 3), (-RW / 2, 2 * length / 3), (w / 2, length + RW / 2),
             (w + RW / 2, 2 * length / 3), (w + RW / 2, length / 3)]
    return {seat: spots[i % len(spots)] for i, seat in enumerate(sorted(seats))}


def _dim(x1: float, y1: float, x2: float, y2: float, label: str, off: float, key: str) -> str:
    """A dimension line with end ticks, offset ``off`` to its left, and its length."""
    horizontal = abs(y2 - y1) < 1e-9
    dx, dy = (0.0, off) if horizontal else (off, 0.0)
    ax, ay, bx, by = x1 + dx, y1 + dy, x2 + dx, y2 + dy
    tx, ty = (ax + bx) / 2, (ay + by) / 2
    rot = "" if horizontal else f' transform="rotate(-90 {_fmt(tx - 3)} {_fmt(ty)})"'
    return (f'<g id="dim-{key}" stroke="#1f4e9c" stroke-width="0.6" fill="#1f4e9c">'
            f'<line x1="{_fmt(ax)}" y1="{_fmt(ay)}" x2="{_fmt(bx)}" y2="{_fmt(by)}"/>'
            f'<line x1="{_fmt(x1)}" y1="{_fmt(y1)}" x2="{_fmt(ax)}" y2="{_fmt(ay)}" stroke-dasharray="2 2"/>'
            f'<line x1="{_fmt(x2)}" y1="{_fmt(y2)}" x2="{_fmt(bx)}" y2="{_fmt(by)}" stroke-dasharray="2 2"/>'
            f'<text x="{_fmt(tx - 3 if not horizontal else tx)}" y="{_fmt(ty - 2)}" font-size="9" stroke="none" '
            f'text-anchor="middle"{rot}>{escape(label)}</text></g>')


def render(config: Config) -> str:
    """The SVG text; x to the right, table y up the page."""
    w, length = geo.WIDTH_MM, geo.LENGTH_MM
    post = scad_params.read(PRINTABLE / "rail_corner_post.scad")
    plug = scad_params.read(PRINTABLE / "goal_sensor_plug.scad")
    W = w + 2 * RW + 2 * MARGIN + 430  # noqa: N806 - room for the notes on the right
    top_h = length + 2 * RW + 2 * MARGIN
    H = top_h + SECTION_H  # noqa: N806

    def X(x: float) -> float:  # noqa: N802
        return MARGIN + RW + x

    def Y(y: float) -> float:  # noqa: N802 - table y grows up, page y down
        return MARGIN + RW + length - y

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(W)}" height="{_fmt(H)}" '
        f'viewBox="0 0 {_fmt(W)} {_fmt(H)}" font-family="sans-serif" font-size="9">',
        f"<!-- source: {escape(source_name(config))} -->",
        f'<rect width="{_fmt(W)}" height="{_fmt(H)}" fill="white"/>',
        f'<text x="10" y="16" font-size="13">The table, dimensioned (mm) — drawn from {escape(source_name(config))}</text>',
        # rails and surface
        f'<g id="rails"><rect x="{_fmt(X(-RW))}" y="{_fmt(Y(length + RW))}" width="{_fmt(w + 2 * RW)}" '
        f'height="{_fmt(length + 2 * RW)}" fill="#c9a46a" stroke="black"/>',
        f'<rect id="surface" x="{_fmt(X(0))}" y="{_fmt(Y(length))}" width="{_fmt(w)}" height="{_fmt(length)}" '
        'fill="#e9f3e4" stroke="black"/></g>',
        # the board under the rails, longer than them for the camera's markers
        f'<rect id="board" x="{_fmt(X(-RW))}" y="{_fmt(Y(length + BOARD_EXT))}" width="{_fmt(w + 2 * RW)}" '
        f'height="{_fmt(length + 2 * BOARD_EXT)}" fill="none" stroke="#8a6a3a" stroke-dasharray="6 2"/>',
    ]
    markers = config.camera.markers if config.camera is not None else dict(enumerate(MARKERS_AT))
    for i, (mx, my) in sorted(markers.items()):
        out.append(f'<g id="marker-{i}"><rect x="{_fmt(X(mx) - MARKER_MM / 2)}" y="{_fmt(Y(my) - MARKER_MM / 2)}" '
                   f'width="{_fmt(MARKER_MM)}" height="{_fmt(MARKER_MM)}" fill="none" stroke="black"/>'
                   f'<text x="{_fmt(X(mx))}" y="{_fmt(Y(my) + 3)}" text-anchor="middle" font-size="7">marker {i} '
                   f"({_fmt(mx)}, {_fmt(my)})</text></g>")
    g = geo.GOAL
    out.append(f'<rect id="goal" x="{_fmt(X(g.x0))}" y="{_fmt(Y(g.y1))}" width="{_fmt(g.x1 - g.x0)}" '
               f'height="{_fmt(g.y1 - g.y0)}" fill="none" stroke="black" stroke-width="1.2"/>')
    out += [
        _dim(X(0), Y(0), X(w), Y(0), f"surface {_fmt(w)}", 48, "width"),
        _dim(X(-RW), Y(-RW), X(w + RW), Y(-RW), f"overall {_fmt(w + 2 * RW)}", 42, "overall-width"),
        _dim(X(w), Y(0), X(w), Y(length), f"surface {_fmt(length)}", 48, "length"),
        _dim(X(w + RW), Y(-RW), X(w + RW), Y(length + RW), f"overall {_fmt(length + 2 * RW)}", 34,
             "overall-length"),
        _dim(X(-RW), Y(length + RW), X(0), Y(length + RW), f"rail {_fmt(RW)}", -12, "rail"),
        _dim(X(-RW), Y(-BOARD_EXT), X(-RW), Y(length + BOARD_EXT), f"board {_fmt(length + 2 * BOARD_EXT)}", -40,
             "board-length"),
        _dim(X(g.x0), Y(g.y1), X(g.x1), Y(g.y1), f"goal {_fmt(g.x1 - g.x0)} x {_fmt(g.y1 - g.y0)}", -14, "goal"),
        _dim(X(0), Y(g.y0), X(g.x0), Y(g.y0), _fmt(g.x0), 12, "goal-x"),
        _dim(X(g.x0), Y(0), X(g.x0), Y(g.y0), _fmt(g.y0), -12, "goal-y"),
    ]
    # beams
    for b in config.beams:
        if b.kind == "segment" and b.a is not None and b.b is not None:
            out.append(f'<g id="beam-{escape(b.id)}" stroke="#d62728" stroke-width="1.2"><line x1="{_fmt(X(b.a[0]))}" '
                       f'y1="{_fmt(Y(b.a[1]))}" x2="{_fmt(X(b.b[0]))}" y2="{_fmt(Y(b.b[1]))}"/>'
                       f'<text x="{_fmt(X((b.a[0] + b.b[0]) / 2) + 3)}" y="{_fmt(Y((b.a[1] + b.b[1]) / 2) - 3)}" '
                       f'stroke="none" fill="#d62728">{escape(b.id)} GPIO{b.pin}</text></g>')
        elif b.at is not None:
            x, y = b.at
            out.append(f'<g id="beam-{escape(b.id)}"><rect x="{_fmt(X(x) - plug["cup_x"] / 2)}" '
                       f'y="{_fmt(Y(y) - plug["cup_tx"])}" width="{_fmt(plug["cup_x"])}" '
                       f'height="{_fmt(plug["cup_tx"] + plug["cup_rx"])}" fill="none" stroke="#999" '
                       f'stroke-dasharray="2 1"/><circle cx="{_fmt(X(x))}" cy="{_fmt(Y(y))}" r="1.6" fill="#d62728"/>'
                       f'<text x="{_fmt(X(x) + (6 if x > geo.CENTRE[0] else -6))}" y="{_fmt(Y(y) + 3)}" '
                       f'font-size="6" text-anchor="{"start" if x > geo.CENTRE[0] else "end"}">'
                       f"{escape(b.id)} ({_fmt(x)}, {_fmt(y)})</text></g>")
    # corner posts
    for cx, cy in ((-RW, -RW), (w + RW, -RW), (-RW, length + RW), (w + RW, length + RW)):
        s = 12.0
        out.append(f'<rect class="post" x="{_fmt(X(cx) - s / 2)}" y="{_fmt(Y(cy) - s / 2)}" width="{_fmt(s)}" '
                   f'height="{_fmt(s)}" fill="#333"/>')
    # LEDs
    for seat, (x, y) in seat_led_positions(sorted(config.leds.seats)).items():
        out.append(f'<g id="seat-{seat}"><circle cx="{_fmt(X(x))}" cy="{_fmt(Y(y))}" r="4" fill="#ffd33d" '
                   f'stroke="black"/><text x="{_fmt(X(x))}" y="{_fmt(Y(y) + 15)}" text-anchor="middle">seat {seat} '
                   f"LED GPIO{config.leds.seats[seat]}</text></g>")
    if config.leds.status:
        sx, sy = -RW / 2, 40.0
        out.append(f'<g id="status-led"><circle cx="{_fmt(X(sx))}" cy="{_fmt(Y(sy))}" r="4" fill="#7fd07f" '
                   f'stroke="black"/><text x="{_fmt(X(sx) - 8)}" y="{_fmt(Y(sy) + 3)}" text-anchor="end">status '
                   f'RGB GPIO{"/".join(map(str, config.leds.status))}</text></g>')
    # under the table: Pi + HAT, base station, cable runs
    px, py = PI_AT
    out.append(f'<g id="pi" stroke="#555" stroke-dasharray="4 2" fill="none"><rect x="{_fmt(X(px))}" '
               f'y="{_fmt(Y(py + PI_SIZE[1]))}" width="{_fmt(PI_SIZE[0])}" height="{_fmt(PI_SIZE[1])}"/>'
               f'<text x="{_fmt(X(px) + 3)}" y="{_fmt(Y(py + PI_SIZE[1]) + 11)}" stroke="none" fill="#555">Pi + HAT '
               'under the table</text></g>')
    bx, by = BASE_AT
    out.append(f'<g id="base-station" fill="none" stroke="#555" stroke-dasharray="4 2"><rect x="{_fmt(X(bx))}" '
               f'y="{_fmt(Y(by + 18))}" width="23" height="18"/><text x="{_fmt(X(bx) + 26)}" y="{_fmt(Y(by) - 5)}" '
               'stroke="none" fill="#555">base station (USB)</text></g>')
    hub = (px + PI_SIZE[0] / 2, py + PI_SIZE[1])
    runs = [[(-RW - 8, -RW - 8), (-RW - 8, py), (px, py)], [(w + RW + 8, -RW - 8), (w + RW + 8, -RW - 14),
            (px + PI_SIZE[0], -RW - 14), (px + PI_SIZE[0], py)], [(-RW - 8, length + RW + 8), (-RW - 14, length + RW + 8),
            (-RW - 14, py + PI_SIZE[1] / 2), (px, py + PI_SIZE[1] / 2)],
            [(w + RW + 8, length + RW + 8), (w + RW + 14, length + RW + 8), (w + RW + 14, -RW - 20),
             (px + PI_SIZE[0] / 2, -RW - 20), (px + PI_SIZE[0] / 2, py)],
            [geo.CENTRE, (geo.CENTRE[0], hub[1] + 20), (hub[0], hub[1] + 20), hub]]
    out.append('<g id="cables" fill="none" stroke="#2a7" stroke-width="1" stroke-dasharray="6 3">')
    for run in runs:
        out.append('<polyline points="' + " ".join(f"{_fmt(X(x))},{_fmt(Y(y))}" for x, y in run) + '"/>')
    out.append("</g>")
    out += _section(top_h, post, plug)
    out += _notes(config, MARGIN + 2 * RW + w + 70)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _section(top: float, post: dict, plug: dict) -> list[str]:
    """Section through the south rail and the goal, 3:1 (heights matter more than lengths here)."""
    k, x0 = 3.0, 40.0
    base = top + 30 + geo.RAIL_HEIGHT_MM * k  # page y of the surface
    rh, board = geo.RAIL_HEIGHT_MM, plug["board"]
    band_lo, band_hi = RAIL_BEAM.slit_bottom_mm, RAIL_BEAM.slit_bottom_mm + RAIL_BEAM.slit_height_mm
    out = [f'<g id="section" font-size="8"><text x="{_fmt(x0)}" y="{_fmt(top + 4)}" font-size="11">Section through '
           "the south rail and a goal point (3:1)</text>",
           f'<rect x="{_fmt(x0)}" y="{_fmt(base)}" width="{_fmt(480)}" height="{_fmt(board * k)}" fill="#c9a46a" '
           'stroke="black"/>',
           f'<rect x="{_fmt(x0)}" y="{_fmt(base - rh * k)}" width="{_fmt(RW * k)}" height="{_fmt(rh * k)}" '
           'fill="#b08850" stroke="black"/>',
           f'<rect x="{_fmt(x0 + RW * k / 2 - 8)}" y="{_fmt(base - (rh + band_hi) * k)}" width="16" '
           f'height="{_fmt((band_hi - band_lo) * k)}" fill="#d62728"/>',
           f'<text x="{_fmt(x0 + RW * k + 6)}" y="{_fmt(base - rh * k - 2)}">rail {_fmt(rh)} high, {_fmt(RW)} wide; '
           f"beam band {_fmt(band_lo)}–{_fmt(band_hi)} above its top (slits, corner posts)</text>",
           _dim(x0, base, x0, base - rh * k, f"{_fmt(rh)}", -14, "rail-height")]
    gx = x0 + 330
    out += [f'<rect x="{_fmt(gx - plug["cup_rx"] * k)}" y="{_fmt(base + board * k)}" '
            f'width="{_fmt((plug["cup_rx"] + plug["cup_tx"]) * k)}" height="{_fmt((plug["cup_depth"] - board) * k)}" '
            'fill="#333"/>',
            f'<rect x="{_fmt(gx - plug["counterbore_d"] / 2 * k)}" y="{_fmt(base + plug["board_left"] * k)}" '
            f'width="{_fmt(plug["counterbore_d"] * k)}" height="{_fmt((board - plug["board_left"]) * k)}" fill="#333"/>',
            f'<text x="{_fmt(x0)}" y="{_fmt(base + board * k + 50)}">goal sensor plug: 3.2 mm hole, '
            f'{_fmt(plug["counterbore_d"])} mm counterbore from below leaving {_fmt(plug["board_left"])} mm; '
            f"aperture {_fmt(GOAL_SPOT.aperture_d_mm)} mm</text>",
            f'<text x="{_fmt(x0)}" y="{_fmt(base + board * k + 62)}">hangs {_fmt(round(plug["cup_depth"], 1))} mm '
            f'below the surface; board {_fmt(board)} mm</text>', "</g>"]
    return out


def _notes(config: Config, x: float) -> list[str]:
    w, length = geo.WIDTH_MM, geo.LENGTH_MM
    points = sum(1 for b in config.beams if b.kind == "point" and not b.reference)
    rails = sum(1 for b in config.beams if b.kind == "segment")
    lines = [f"{rails} rail beams (red lines): TSSP4038 + TSAL6200 in 4 corner posts (black squares)",
             f"{points} goal points (red dots): one sensor plug each (grey: its outline under the board)",
             f"{len(config.leds.seats)} seat LEDs (yellow, suggested places), status LED (green)",
             "dashed grey: under the table; dashed green: cable runs to the HAT",
             "emitter cables: twisted pair (5V/cathode); receiver: 3-core, away from LED wires",
             f"board (dashed brown): {_fmt(w + 2 * RW)} x {_fmt(length + 2 * BOARD_EXT)}, "
             f"{_fmt(BOARD_EXT)} beyond the surface at the short ends (markers)",
             "surface: hard and flat (lacquer, laminate); no felt or cloth: it covers the 1.2 mm apertures",
             "camera (optional): hardware_docs/camera.md"]
    return ([f'<g id="notes" font-size="10"><text x="{_fmt(x)}" y="{_fmt(MARGIN)}" font-size="11">Legend</text>']
            + [f'<text x="{_fmt(x)}" y="{_fmt(MARGIN + 16 * (i + 1))}">{escape(t)}</text>' for i, t in enumerate(lines)]
            + ["</g>"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", type=Path, default=None, help="table config TOML (default: the one pin map)")
    ap.add_argument("--out", type=Path, default=Path(__file__).with_name("table_drawing.svg"))
    args = ap.parse_args(argv)
    config = load_layout(args.config, "draw_table")
    if config is None:
        return 2
    return write_drawing(args.out, render(config), config)


if __name__ == "__main__":
    raise SystemExit(main())
