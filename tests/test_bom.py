"""The bill of materials is complete for the default table and adds up (hardware_docs/bill_of_materials.md).

The counts come from the config the daemon loads (beams, LEDs, seats), so a change to the default
layout that forgets the BOM fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gametable_core.config import load

ROOT = Path(__file__).resolve().parents[1]
BOM = (ROOT / "hardware_docs" / "bill_of_materials.md").read_text(encoding="utf-8")
CONFIG = load(ROOT / "controller" / "data" / "default-table.toml", layout_only=True)
SEGMENTS = sum(1 for b in CONFIG.beams if b.kind == "segment")
POINTS = sum(1 for b in CONFIG.beams if b.kind == "point")
SEATS = len(CONFIG.leds.seats)
STATUS = 1 if CONFIG.leds.status else 0


def _groups() -> dict[str, list[tuple[int, str, float, float]]]:
    """Per ``### group``: (qty, part number, unit, line) of each priced row."""
    groups: dict[str, list[tuple[int, str, float, float]]] = {}
    current = None
    for line in BOM.splitlines():
        if line.startswith("### ") or line.startswith("## Optional"):
            current = line.lstrip("#").strip()
            groups[current] = []
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if current and len(cells) == 6 and cells[0].isdigit():
            groups[current].append((int(cells[0]), cells[2], float(cells[3]), float(cells[4])))
    return groups


GROUPS = _groups()


def _qty(group_prefix: str, part_number: str) -> int:
    group = next(g for g in GROUPS if g.startswith(group_prefix))
    rows = [q for q, pn, _, _ in GROUPS[group] if pn == part_number]
    assert len(rows) == 1, (group, part_number)
    return rows[0]


@pytest.mark.parametrize("group, part_number, expected", [
    ("Rail beams", "Vishay TSSP4038", SEGMENTS),
    ("Rail beams", "Vishay TSAL6200", SEGMENTS),
    ("Rail beams", "printable/rail_corner_post.scad", 4),  # two rail-beam parts per corner
    ("Goal points", "Vishay TSSP4038SS1XB", POINTS),
    ("Goal points", "Vishay TSAL4400", POINTS),
    ("Goal points", "printable/goal_sensor_plug.scad", POINTS),
    ("Goal points", "Yageo MFR-25FBF52-1K8", POINTS),
    ("HAT", "Yageo MFR-25FBF52-68R", SEGMENTS),
    ("HAT", "Yageo MFR-25FBF52-100R", SEGMENTS + POINTS),  # every receiver's supply filter
    ("HAT", "Kemet C315C104K5R5TA", SEGMENTS + POINTS + 2),  # + 555 and ULN2803A decoupling
    ("HAT", "AOS AO3400A", 2),
    ("HAT", "generic SOT-23-6/DIP-6 adapter", 2),
    ("LEDs", "Kingbright L-53 series", SEATS),
    ("LEDs", "Kingbright L-154A4SUREQBFZGEW", STATUS),
    ("Connectors", "JST B3B-XH-A + XHP-3", SEGMENTS),
    ("Connectors", "JST B2B-XH-A + XHP-2", SEGMENTS + SEATS),
    ("Connectors", "JST B5B-XH-A + XHP-5", POINTS),
    ("Connectors", "JST B4B-XH-A + XHP-4", STATUS),
    ("Coins", "any 30 mm × 2 mm PS/ABS/acrylic counter", SEATS),
    ("Strikers", "ESP32-C3 SuperMini (see the board note)", SEATS + 1),
    ("Strikers", "GY-521", SEATS),
    ("Strikers", "502030", SEATS),
    ("Strikers", "TP4056 + DW01A USB-C module", SEATS),
    ("Strikers", "Vishay SS14", SEATS),
    ("Strikers", "C&K SS12D00G3", SEATS),
    ("Strikers", "Yageo MFR-25FBF52-100K", 2 * SEATS),
    ("Strikers", "Kemet C315C104K5R5TA", SEATS),  # the battery divider's filter capacitor
    ("Strikers", "printable/striker_body.scad", SEATS),
])
def test_the_bom_counts_match_the_default_table(group, part_number, expected):
    assert _qty(group, part_number) == expected


def test_every_led_has_its_resistor():
    led_resistors = _qty("HAT", "Yageo MFR-25FBF52-220R") + _qty("HAT", "Yageo MFR-25FBF52-120R")
    assert led_resistors == SEATS + 3 * STATUS + 2  # seats, the RGB's three colours, 2 MOSFET gates


def test_the_connector_count_in_the_text_is_the_table_s():
    pairs = sum(q for q, pn, _, _ in GROUPS[next(g for g in GROUPS if g.startswith("Connectors"))]
                if pn.startswith("JST"))
    assert pairs == 2 * SEGMENTS + POINTS + SEATS + STATUS == 28
    assert f"one JST-XH pair per cable at the HAT end ({pairs} for the default table" in BOM


def test_every_line_and_total_adds_up():
    grand = 0.0
    for group, rows in GROUPS.items():
        assert rows, group
        for qty, pn, unit, line in rows:
            assert line == pytest.approx(qty * unit, abs=0.005), (group, pn)
        subtotal = sum(r[3] for r in rows)
        assert f"**{subtotal:.2f}**" in BOM, group
        if not group.startswith("Optional"):
            assert re.search(rf"\| {re.escape(group)} \| {subtotal:.2f} \|", BOM), group
            grand += subtotal
    assert f"| **total, default table** | **{grand:.2f}** |" in BOM
