"""Pin budget check, pin map table and wiring drawing for a table config.

Why generated: pins are config data (beams, seat LEDs, status LED); the wiring drawing and the pin
map in wiring.md must match the file the daemon loads. Usage:

    python hardware_docs/draw_wiring.py [--config FILE] [--out FILE] [--table]

``--table`` prints the markdown pin map instead of drawing. Exit status 2 with one line per
problem if the pins do not fit the header (a pin used twice, the ID EEPROM pins, too many pins).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gametable_core.config import BeamConfig, Config  # noqa: E402
from hardware_docs.draw_beam_layout import load_layout, source_name, write_drawing  # noqa: E402

# Physical header pin → BCM GPIO number, or a power/ground name (40-pin header, all Pi models since B+).
HEADER: dict[int, int | str] = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}
PHYSICAL = {bcm: phys for phys, bcm in HEADER.items() if isinstance(bcm, int)}
RESERVED = {0: "ID_SD (HAT EEPROM)", 1: "ID_SC (HAT EEPROM)"}
USABLE = [g for g in range(2, 28)]  # 26 GPIOs
ALT = {
    2: "I2C1 SDA, 1.8k pull-up on board", 3: "I2C1 SCL, 1.8k pull-up on board", 4: "GPCLK0 / 1-wire",
    7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK",
    12: "PWM0", 13: "PWM1", 14: "UART TXD (disable serial console)", 15: "UART RXD (disable serial console)",
    18: "PWM0 / PCM CLK", 19: "PWM1 / PCM FS", 20: "PCM DIN", 21: "PCM DOUT",
}
# Allocation order for beams: plain GPIOs first, the I2C pins last (keep them for an expander).
BEAM_ORDER = [4, 5, 6, 7, 8, 9, 10, 11, 14, 15, 17, 22, 23, 24, 25, 2, 3]


def roles(config: Config) -> dict[int, list[str]]:
    """BCM pin → what uses it (more than one entry is a conflict)."""
    used: dict[int, list[str]] = {}
    for b in config.beams:
        used.setdefault(b.pin, []).append(f"beam {b.id}")
    for seat, pin in sorted(config.leds.seats.items()):
        used.setdefault(pin, []).append(f"seat {seat} LED")
    if config.leds.status:
        for color, pin in zip(("red", "green", "blue"), config.leds.status, strict=True):
            used.setdefault(pin, []).append(f"status LED {color}")
    return used


def check_pins(config: Config) -> list[str]:
    """One line per problem; empty when the pins fit the header."""
    problems = []
    used = roles(config)
    for pin, what in sorted(used.items()):
        if len(what) > 1:
            problems.append(f"GPIO{pin} is used by {len(what)} things: {', '.join(what)}")
        if pin in RESERVED:
            problems.append(f"GPIO{pin} is {RESERVED[pin]}; do not use it ({', '.join(what)})")
    if len(used) > len(USABLE):
        problems.append(f"{len(used)} pins needed but only {len(USABLE)} GPIOs are usable (GPIO2..GPIO27)")
    return problems


LED_R = "220 Ω (red/amber/yellow) or 120 Ω (green/blue/white)"
# The ULN2803A has 8 channels (6 seats + status red and green); the status blue is the 9th (perfboard.md).
STATUS_BLUE = "9th channel: AO3400A gate (220 Ω, 100 kΩ to GND); common-anode RGB LED blue from 5 V, 120 Ω"


def beam_wiring(b: BeamConfig) -> str:
    """How one beam's receiver is wired: the part decides the pull-up (one rule, here)."""
    level = "high = blocked" if b.active_high else "low = blocked"
    if b.part and "TSSP" in b.part:
        return f"TSSP4038 OUT, powered from 3V3 (internal 33k pull-up, no external one; {level})"
    return f"receiver OUT, 10k pull-up to 3V3, never 5 V ({level})"


def pin_table(config: Config) -> str:
    """Markdown pin map: every usable GPIO, its header pin, its role and its notes."""
    used = roles(config)
    beams = {b.pin: b for b in config.beams}
    lines = ["| BCM | header pin | role | wiring | notes |", "|---|---|---|---|---|"]
    for g in sorted(USABLE, key=lambda p: PHYSICAL[p]):
        what = ", ".join(used.get(g, [])) or "free"
        if g in beams:
            wiring = beam_wiring(beams[g])
        elif any(w.startswith("seat") for w in used.get(g, [])):
            wiring = f"ULN2803A input; LED from 5 V via {LED_R}"
        elif "status LED blue" in used.get(g, []):
            wiring = STATUS_BLUE
        elif any(w.startswith("status") for w in used.get(g, [])):
            wiring = "ULN2803A input; common-anode RGB LED from 5 V, 220 Ω red, 120 Ω green"
        else:
            wiring = ""
        lines.append(f"| GPIO{g} | {PHYSICAL[g]} | {what} | {wiring} | {ALT.get(g, '')} |")
    free = [g for g in USABLE if g not in used]
    lines.append("")
    lines.append(
        f"{len(used)} of {len(USABLE)} usable GPIOs in use ({len(config.beams)} beams, "
        f"{len(config.leds.seats)} seat LEDs, {3 if config.leds.status else 0} status LED pins); "
        f"free: {', '.join(f'GPIO{g}' for g in free) or 'none'}."
    )
    return "\n".join(lines) + "\n"


# --- drawing ------------------------------------------------------------------------------------

ROLE_COLORS = {"beam": "#d62728", "seat": "#2ca02c", "status": "#9467bd", "free": "#bbbbbb",
               "3V3": "#ff7f0e", "5V": "#f4a582", "GND": "#222222", "reserved": "#777777"}


def _role_key(what: list[str]) -> str:
    if not what:
        return "free"
    return what[0].split()[0]


def render(config: Config) -> str:
    used = roles(config)
    row_h, hx, hy = 22, 60, 90
    n_right = len(config.beams) + len(config.leds.seats) + 3 + 8
    H = max(hy + 20 * row_h + 80, 120 + n_right * row_h)
    W = 1100
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
        'font-family="sans-serif" font-size="11">',
        "<title>Game table wiring</title>",
        '<rect width="100%" height="100%" fill="white"/>',
        '<text x="20" y="28" font-size="16" font-weight="bold">Game table wiring — Raspberry Pi 40-pin header (BCM numbering)</text>',
        f'<text x="20" y="48" fill="#555">source: {escape(source_name(config))} · '
        "beams: pull-ups to 3V3 only (never 5 V) · LEDs switched from 5 V by a ULN2803A (status blue: an AO3400A) · "
        "base station on USB</text>",
        f'<text x="{hx}" y="{hy - 14}" font-weight="bold">Pi header</text>',
    ]
    # the header: odd pins left column, even pins right column
    for phys, fn in HEADER.items():
        row, col = (phys - 1) // 2, (phys - 1) % 2
        x = hx + col * 150
        y = hy + row * row_h
        if isinstance(fn, int):
            key = "reserved" if fn in RESERVED else _role_key(used.get(fn, []))
            label = f"GPIO{fn}"
            desc = RESERVED.get(fn) if fn in RESERVED else (", ".join(used.get(fn, [])) or "free")
        else:
            key, label, desc = fn, fn, ""
        color = ROLE_COLORS[key]
        cx = x + (130 if col == 0 else 0)
        out.append(f'<rect x="{cx - 7}" y="{y - 7}" width="14" height="14" fill="{color}" stroke="black"/>')
        out.append(f'<text x="{cx}" y="{y + 3.5}" text-anchor="middle" font-size="8" fill="white">{phys}</text>')
        anchor, tx = ("end", cx - 12) if col == 0 else ("start", cx + 12)
        out.append(f'<text x="{tx}" y="{y + 4}" text-anchor="{anchor}" fill="{color if key != "free" else "#888"}">'
                   f"{escape(label)}{(' · ' + escape(desc)) if desc and key not in ('3V3', '5V', 'GND') else ''}"
                   "</text>")
    out += _components(config, 560, 110, row_h)
    out += _legend(20, H - 24)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _resistor(x: float, y: float, label: str) -> str:
    return (f'<rect x="{x}" y="{y - 5}" width="30" height="10" fill="white" stroke="black"/>'
            f'<text x="{x + 15}" y="{y - 7}" text-anchor="middle" font-size="8">{label}</text>')


def _led(x: float, y: float, color: str) -> str:
    return (f'<polygon points="{x},{y - 6} {x},{y + 6} {x + 11},{y}" fill="{color}" stroke="black"/>'
            f'<line x1="{x + 11}" y1="{y - 6}" x2="{x + 11}" y2="{y + 6}" stroke="black" stroke-width="2"/>')


def _components(config: Config, x: float, y: float, row_h: int) -> list[str]:
    out = [f'<text x="{x}" y="{y - 14}" font-weight="bold">Beams (receiver output → GPIO, pull-up to 3V3)</text>']
    c = ROLE_COLORS["beam"]
    for i, b in enumerate(config.beams):
        yy = y + i * row_h
        out += [
            f'<text x="{x}" y="{yy + 4}" fill="{c}">GPIO{b.pin}</text>',
            f'<line x1="{x + 50}" y1="{yy}" x2="{x + 200}" y2="{yy}" stroke="{c}"/>',
            f'<circle cx="{x + 80}" cy="{yy}" r="2.5" fill="{c}"/>',
            f'<line x1="{x + 80}" y1="{yy}" x2="{x + 80}" y2="{yy - 6}" stroke="{c}"/>',
            f'<rect x="{x + 80}" y="{yy - 10}" width="26" height="8" fill="white" stroke="black"/>',
            f'<text x="{x + 110}" y="{yy - 3}" font-size="8">'
            f'{"33k inside" if b.part and "TSSP" in b.part else "10k→3V3"}</text>',
            f'<rect x="{x + 200}" y="{yy - 8}" width="150" height="16" fill="#fde0e0" stroke="{c}"/>',
            f'<text x="{x + 205}" y="{yy + 4}">{escape(b.id)} receiver ({b.kind})</text>',
            f'<text x="{x + 360}" y="{yy + 4}" fill="#555" font-size="9">'
            f"{'high' if b.active_high else 'low'} = blocked</text>",
        ]
    y2 = y + len(config.beams) * row_h + 20
    out.append(f'<text x="{x}" y="{y2}" fill="#555">IR emitters: goal pairs 5V → emitter (built-in resistor) → GND;</text>')
    out.append(f'<text x="{x}" y="{y2 + 14}" fill="#555">rail: 4 × (5V → 68 Ω → TSAL6200) in parallel → one AO3400A '
               "keyed at 38 kHz by a TLC555</text>")
    y2 += 48
    out.append(f'<text x="{x}" y="{y2 - 14}" font-weight="bold">Seat turn LEDs (PWM)</text>')
    g = ROLE_COLORS["seat"]
    for i, (seat, pin) in enumerate(sorted(config.leds.seats.items())):
        yy = y2 + i * row_h
        out += [
            f'<text x="{x}" y="{yy + 4}" fill="{g}">GPIO{pin}</text>',
            f'<line x1="{x + 50}" y1="{yy}" x2="{x + 200}" y2="{yy}" stroke="{g}"/>',
            _resistor(x + 70, yy, "ULN"),
            _led(x + 130, yy, "#7fdc7f"),
            f'<text x="{x + 205}" y="{yy + 4}">ULN2803A sinks the LED (5 V → 220/120 Ω → LED) · seat {seat}</text>',
        ]
    y3 = y2 + len(config.leds.seats) * row_h + 24
    if config.leds.status:
        out.append(f'<text x="{x}" y="{y3 - 14}" font-weight="bold">Status RGB LED (common anode → 5 V; '
                   "red, green: ULN2803A; blue: AO3400A)</text>")
        for i, (name, pin, fill) in enumerate(zip(("red", "green", "blue"), config.leds.status,
                                                  ("#ff6b6b", "#6bd66b", "#6b8bff"), strict=True)):
            yy = y3 + i * row_h
            out += [
                f'<text x="{x}" y="{yy + 4}" fill="{ROLE_COLORS["status"]}">GPIO{pin}</text>',
                f'<line x1="{x + 50}" y1="{yy}" x2="{x + 200}" y2="{yy}" stroke="{ROLE_COLORS["status"]}"/>',
                _resistor(x + 70, yy, "220Ω" if name == "red" else "120Ω"),
                _led(x + 130, yy, fill),
                f'<text x="{x + 205}" y="{yy + 4}">{name} · '
                f'{"AO3400A (9th channel, gate 220 Ω + 100 kΩ to GND)" if name == "blue" else "ULN2803A"}</text>',
            ]
        y3 += 3 * row_h + 20
    out += [
        f'<rect x="{x}" y="{y3}" width="250" height="44" fill="#e0ecff" stroke="#1f4f9f"/>',
        f'<text x="{x + 8}" y="{y3 + 18}" font-weight="bold">Base station: ESP32-C3 (MicroPython)</text>',
        f'<text x="{x + 8}" y="{y3 + 34}">USB → Pi USB port (/dev/serial/by-id/…)</text>',
        f'<rect x="{x + 280}" y="{y3}" width="240" height="44" fill="#f0f0f0" stroke="#555"/>',
        f'<text x="{x + 288}" y="{y3 + 18}" font-weight="bold">6 × striker: ESP32-C3 + MPU6050 + LiPo</text>',
        f'<text x="{x + 288}" y="{y3 + 34}">ESP-NOW radio → base station (no wires)</text>',
        f'<line x1="{x + 280}" y1="{y3 + 22}" x2="{x + 250}" y2="{y3 + 22}" stroke="#555" stroke-dasharray="4 3"/>',
    ]
    return out


def _legend(x: float, y: float) -> list[str]:
    out = []
    for i, (name, color) in enumerate(ROLE_COLORS.items()):
        out.append(f'<rect x="{x + i * 95}" y="{y - 9}" width="10" height="10" fill="{color}" stroke="black"/>'
                   f'<text x="{x + i * 95 + 14}" y="{y}">{name}</text>')
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=Path(__file__).with_name("wiring.svg"))
    ap.add_argument("--table", action="store_true", help="print the markdown pin map instead")
    args = ap.parse_args(argv)
    config = load_layout(args.config, "draw_wiring")
    if config is None:
        return 2
    problems = check_pins(config)
    for p in problems:
        print(f"draw_wiring: {config.source}: {p}", file=sys.stderr)
    if problems:
        return 2
    if args.table:
        sys.stdout.write(pin_table(config))
        return 0
    return write_drawing(args.out, render(config), config)


if __name__ == "__main__":
    raise SystemExit(main())
