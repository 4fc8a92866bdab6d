"""Render the beam layout of a table config as an SVG drawing (hardware_docs/beam_layout.svg).

Why generated: the layout is config data, so the drawing must come from the same file the
daemon loads, never be redrawn by hand. Usage:

    python hardware_docs/draw_beam_layout.py [--config FILE] [--out FILE]

Without --config it draws controller/data/default-table.toml, the table's one pin map. Table and goal sizes default to Coin War's (425 x 625 mm, goal
60 x 160 mm in the centre) and can be overridden.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gametable_core.config import BeamConfig, Config, ConfigError, load  # noqa: E402

DEFAULT_CONFIGS = (ROOT / "controller" / "data" / "default-table.toml",)  # the one pin map
COIN_MM = 30.0
SCALE = 1.0  # SVG user units per mm
MARGIN = 60.0  # room around the table
TABLE_W = 330.0  # the beam list to the right of the drawing


def default_config_path() -> Path:
    for path in DEFAULT_CONFIGS:
        if path.exists():
            return path
    raise FileNotFoundError("no table config found (looked for " + ", ".join(map(str, DEFAULT_CONFIGS)) + ")")


def load_layout(path: Path | str | None, prog: str) -> Config | None:
    """The table config a drawing is made from (default: the one pin map), or None after printing
    the one-line error every drawing script gives (exit status 2). A drawing needs no strikers."""
    try:
        return load(path or default_config_path(), layout_only=True)
    except (ConfigError, FileNotFoundError) as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return None


def write_drawing(out: Path | str, svg: str, config: Config) -> int:
    """Write a drawing and say so (exit status 0)."""
    Path(out).write_text(svg, encoding="utf-8")
    print(f"wrote {out} from {config.source}")
    return 0


def source_name(config: Config) -> str:
    """The config's path relative to the repository (what the drawings say they were drawn from)."""
    path = Path(config.source)
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except (ValueError, OSError):
        return path.name


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def render(config: Config, width: float = 425.0, length: float = 625.0, goal: tuple[float, float] = (60.0, 160.0),
           title: str | None = None) -> str:
    """The SVG text. Table y grows north (away from seat 1); SVG y grows down, so y is flipped."""
    W, H = width + 2 * MARGIN + TABLE_W, max(length + 2 * MARGIN + 60, 120 + 18 * len(config.beams))

    def X(x: float) -> str:
        return _fmt(MARGIN + x * SCALE)

    def Y(y: float) -> str:
        return _fmt(MARGIN + 40 + (length - y) * SCALE)

    gx0, gy0 = (width - goal[0]) / 2, (length - goal[1]) / 2
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(W)}" height="{_fmt(H)}" '
        f'viewBox="0 0 {_fmt(W)} {_fmt(H)}" font-family="sans-serif" font-size="11">',
        f"<title>{escape(title or 'Beam layout')}</title>",
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="{_fmt(W / 2)}" y="24" text-anchor="middle" font-size="16" font-weight="bold">'
        f"{escape(title or 'Beam layout')}</text>",
        f'<text x="{_fmt(W / 2)}" y="42" text-anchor="middle" fill="#555">'
        f"{_fmt(width)} x {_fmt(length)} mm surface, goal {_fmt(goal[0])} x {_fmt(goal[1])} mm, "
        f"{len(config.beams)} beams — source: {escape(source_name(config))}</text>",
        # surface and rails
        f'<rect x="{X(0)}" y="{Y(length)}" width="{_fmt(width)}" height="{_fmt(length)}" fill="#e9f2e4" '
        'stroke="#5b3a1e" stroke-width="8"/>',
        # goal
        f'<rect x="{X(gx0)}" y="{Y(gy0 + goal[1])}" width="{_fmt(goal[0])}" height="{_fmt(goal[1])}" '
        'fill="#fff6c8" stroke="#b08800" stroke-width="2"/>',
        f'<text x="{X(width / 2)}" y="{Y(gy0 + goal[1] + 6)}" text-anchor="middle" fill="#806000">goal</text>',
        # a coin for scale, and the seat-1 side
        f'<circle cx="{X(40)}" cy="{Y(60)}" r="{_fmt(COIN_MM / 2)}" fill="#c0c0c0" stroke="#666"/>',
        f'<text x="{X(40)}" y="{Y(60 - 28)}" text-anchor="middle" fill="#444">30 mm coin</text>',
        f'<text x="{X(width / 2)}" y="{Y(-24)}" text-anchor="middle" fill="#444">seat 1 side (y = 0)</text>',
        f'<text x="{X(-8)}" y="{Y(-8)}" text-anchor="end" fill="#444">(0, 0)</text>',
    ]
    for i, beam in enumerate(config.beams):
        out += _beam(beam, i, X, Y)
    out += _table(config.beams, MARGIN * 2 + width, MARGIN + 40)
    out.append(_legend(W, H))
    out.append("</svg>")
    return "\n".join(out) + "\n"


PALETTE = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2")


def _beam(beam: BeamConfig, i: int, X, Y) -> list[str]:  # noqa: N803 - X/Y are coordinate mappers
    """A beam and its numbered tag (the number is the row of the beam list)."""
    color = PALETTE[i % len(PALETTE)]
    tag = str(i + 1)
    if beam.kind == "point" and beam.at is not None:
        x, y = beam.at
        tx, ty = float(X(x)) + 26, float(Y(y))
        return [
            f'<g id="beam-{escape(beam.id)}"><circle cx="{X(x)}" cy="{Y(y)}" r="5" fill="{color}" stroke="black"/>',
            f'<circle cx="{X(x)}" cy="{Y(y)}" r="{_fmt(COIN_MM / 2)}" fill="none" stroke="{color}" '
            'stroke-dasharray="3 3"/>',
            _tag(tx, ty, tag, color) + "</g>",
        ]
    assert beam.a is not None and beam.b is not None
    (ax, ay), (bx, by) = beam.a, beam.b
    tx, ty = float(X(ax + 0.8 * (bx - ax))), float(Y(ay + 0.8 * (by - ay)))
    return [
        f'<g id="beam-{escape(beam.id)}"><line x1="{X(ax)}" y1="{Y(ay)}" x2="{X(bx)}" y2="{Y(by)}" '
        f'stroke="{color}" stroke-width="2.5"/>',
        f'<rect x="{_fmt(float(X(ax)) - 4)}" y="{_fmt(float(Y(ay)) - 4)}" width="8" height="8" fill="{color}"/>',
        f'<circle cx="{X(bx)}" cy="{Y(by)}" r="4.5" fill="white" stroke="{color}" stroke-width="2"/>',
        _tag(tx, ty, tag, color) + "</g>",
    ]


def _tag(x: float, y: float, text: str, color: str) -> str:
    return (
        f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="8" fill="white" stroke="{color}" stroke-width="2"/>'
        f'<text x="{_fmt(x)}" y="{_fmt(y + 4)}" text-anchor="middle" font-size="10" font-weight="bold" '
        f'fill="{color}">{text}</text>'
    )


def _table(beams: tuple[BeamConfig, ...], x: float, y: float) -> list[str]:
    out = [f'<g id="beam-list"><text x="{_fmt(x)}" y="{_fmt(y)}" font-weight="bold">#  id · GPIO · geometry (mm)</text>']
    for i, b in enumerate(beams):
        color = PALETTE[i % len(PALETTE)]
        if b.kind == "point" and b.at is not None:
            geo = f"{'reference ' if b.reference else ''}point at ({_fmt(b.at[0])}, {_fmt(b.at[1])})"
        else:
            assert b.a is not None and b.b is not None
            geo = f"({_fmt(b.a[0])}, {_fmt(b.a[1])}) → ({_fmt(b.b[0])}, {_fmt(b.b[1])})"
        polarity = ", active high" if b.active_high else ""
        out.append(
            f'<text x="{_fmt(x)}" y="{_fmt(y + 18 * (i + 1))}" fill="{color}">'
            f"{i + 1}  {escape(b.id)} · GPIO{b.pin} · {escape(geo)}{polarity}</text>"
        )
    out.append("</g>")
    return out


def _legend(W: float, H: float) -> str:  # noqa: N803
    y = H - 18
    return (
        f'<g font-size="11" fill="#333"><rect x="20" y="{_fmt(y - 9)}" width="8" height="8" fill="#444"/>'
        f'<text x="32" y="{_fmt(y)}">emitter (a)</text>'
        f'<circle cx="112" cy="{_fmt(y - 5)}" r="4.5" fill="white" stroke="#444" stroke-width="2"/>'
        f'<text x="120" y="{_fmt(y)}">receiver (b)</text>'
        f'<circle cx="212" cy="{_fmt(y - 5)}" r="5" fill="#444"/>'
        f'<text x="222" y="{_fmt(y)}">point beam (dashed: a coin covering it)</text></g>'
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", type=Path, default=None, help="table config TOML (default: see module doc)")
    ap.add_argument("--out", type=Path, default=Path(__file__).with_name("beam_layout.svg"))
    ap.add_argument("--width", type=float, default=425.0, help="surface width in mm")
    ap.add_argument("--length", type=float, default=625.0, help="surface length in mm")
    ap.add_argument("--goal", type=float, nargs=2, default=(60.0, 160.0), metavar=("W", "L"))
    args = ap.parse_args(argv)
    config = load_layout(args.config, "draw_beam_layout")
    if config is None:
        return 2
    if not config.beams:
        print(f"draw_beam_layout: {config.source} has no [[beams]]", file=sys.stderr)
        return 2
    args.out.write_text(render(config, args.width, args.length, tuple(args.goal)), encoding="utf-8")
    print(f"wrote {args.out} ({len(config.beams)} beams from {config.source})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
