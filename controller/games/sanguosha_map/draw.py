"""An SVG drawing of a battlefield map, generated from the map's data (SG-8.2), so the picture in
the docs can never disagree with the map the engine plays: ``tests/test_sgmap_draw.py`` checks
that ``docs/sanguosha-default-map.svg`` is exactly what this module draws from the default map.

    python -m controller.games.sanguosha_map.draw > docs/sanguosha-default-map.svg
"""

from __future__ import annotations

import sys
from typing import Any
from xml.sax.saxutils import escape

from controller.games.sanguosha_map import maps

CELL = 48
FILL = {"A": "#c0392b", "B": "#2459a8", "I": "#f3b6ae", "i": "#b3c9ef", "O": "#fbe3df", "o": "#e2ebfa",
        ".": "#e9dfc4", "#": "#5d5d5d", "X": "#8e44ad", "x": "#8e44ad"}
LABEL = {"A": "A castle", "B": "B castle", "I": "A inner", "i": "B inner", "O": "A outer", "o": "B outer",
         ".": "road", "#": "off-road", "X": "A's boss", "x": "B's boss"}


def svg(m: dict[str, Any]) -> str:
    """The map as a standalone SVG: cells, walls (thick lines), doors (dots), minion starts and
    their direction (numbered circles with an arrow), and a legend."""
    rows = m["rows"]
    h, w = len(rows), len(rows[0])
    legend_h = 3 * 22 + 12
    width, height = w * CELL + 2, h * CELL + legend_h
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
           f'<title>{escape(str(m.get("name", "map")))} battlefield map (sanguosha-map.md SG-8.2)</title>']
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            x, y = c * CELL + 1, r * CELL + 1
            out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{FILL[ch]}" '
                       f'stroke="#ffffff" stroke-width="1"/>')
            if ch in "ABXx":
                text = {"A": "A", "B": "B", "X": "Boss A", "x": "Boss B"}[ch]
                out.append(f'<text x="{x + CELL // 2}" y="{y + CELL // 2 + 4}" font-size="11" fill="#ffffff" '
                           f'text-anchor="middle">{text}</text>')
    for doors in m.get("doors", {}).values():
        for r, c in doors:
            out.append(f'<circle cx="{c * CELL + CELL // 2 + 1}" cy="{r * CELL + 7}" r="3" fill="#8e44ad"/>')
    for side, colour in (("A", "#7b1f16"), ("B", "#112e5c")):
        spec = m["minions"][side]
        dr, dc = spec["dir"]
        for i, (r, c) in enumerate(spec["cells"]):
            cx, cy = c * CELL + CELL // 2 + 1, r * CELL + CELL // 2 + 1
            out.append(f'<circle cx="{cx}" cy="{cy}" r="11" fill="{colour}"/>')
            out.append(f'<text x="{cx}" y="{cy + 4}" font-size="10" fill="#ffffff" text-anchor="middle">'
                       f'{side}{i + 1}</text>')
            out.append(f'<line x1="{cx + dc * 12}" y1="{cy + dr * 12}" x2="{cx + dc * 20}" y2="{cy + dr * 20}" '
                       f'stroke="{colour}" stroke-width="3"/>')
        for a, b in spec["pairs"]:
            (r1, c1), (r2, c2) = spec["cells"][a], spec["cells"][b]
            out.append(f'<line x1="{c1 * CELL + 8}" y1="{r1 * CELL + CELL // 2}" x2="{c2 * CELL + 8}" '
                       f'y2="{r2 * CELL + CELL // 2}" stroke="{colour}" stroke-width="2"/>')
    for (r1, c1), (r2, c2) in m["walls"]:
        if r1 == r2:  # a vertical edge between two cells of one row
            x = max(c1, c2) * CELL + 1
            out.append(f'<line x1="{x}" y1="{r1 * CELL + 1}" x2="{x}" y2="{(r1 + 1) * CELL + 1}" '
                       f'stroke="#111111" stroke-width="6"/>')
        else:
            y = max(r1, r2) * CELL + 1
            out.append(f'<line x1="{c1 * CELL + 1}" y1="{y}" x2="{(c1 + 1) * CELL + 1}" y2="{y}" '
                       f'stroke="#111111" stroke-width="6"/>')
    y0 = h * CELL + 16
    for i, ch in enumerate("ABIiOo.#X"):
        x, y = 8 + (i % 5) * (width // 5), y0 + (i // 5) * 22
        out.append(f'<rect x="{x}" y="{y}" width="14" height="14" fill="{FILL[ch]}" stroke="#333333"/>')
        out.append(f'<text x="{x + 18}" y="{y + 12}" font-size="11">{escape(LABEL[ch])}</text>')
    y = y0 + 44
    out.append(f'<line x1="8" y1="{y + 7}" x2="28" y2="{y + 7}" stroke="#111111" stroke-width="6"/>')
    out.append(f'<text x="34" y="{y + 11}" font-size="11">wall (no attack across; a horse jumps it for 2)</text>')
    out.append(f'<circle cx="{width // 2 + 20}" cy="{y + 7}" r="3" fill="#8e44ad"/>')
    out.append(f'<text x="{width // 2 + 28}" y="{y + 11}" font-size="11">door of a boss point</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> int:
    sys.stdout.write(svg(maps.load("default")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
