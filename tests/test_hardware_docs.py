"""hardware_docs: generated drawings, the pin budget check, the pin map and the systemd unit."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gametable_core.config import load, parse
from hardware_docs import draw_beam_layout, draw_table, draw_wiring

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "hardware_docs"
EXAMPLE = ROOT / "controller" / "data" / "default-table.toml"  # the one pin map
SVG = "{http://www.w3.org/2000/svg}"


def test_beam_layout_svg_shows_every_beam_with_its_pin(tmp_path):
    out = tmp_path / "layout.svg"
    assert draw_beam_layout.main(["--config", str(EXAMPLE), "--out", str(out)]) == 0
    root = ET.parse(out).getroot()
    config = load(EXAMPLE, layout_only=True)
    groups = {g.get("id") for g in root.iter(f"{SVG}g")}
    text = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    for beam in config.beams:
        assert f"beam-{beam.id}" in groups
        assert f"{beam.id} · GPIO{beam.pin}" in text
    assert "goal 60 x 160 mm" in text


def test_committed_drawings_match_the_config_they_were_drawn_from(tmp_path):
    """The SVGs in the repo are what the scripts produce from the config they name (rerun the script
    after changing that config)."""
    import re

    for module, name in ((draw_beam_layout, "beam_layout.svg"), (draw_wiring, "wiring.svg"),
                         (draw_table, "table_drawing.svg")):
        committed = (DOCS / name).read_text()
        source = re.search(r"source: ([^ <]+\.toml)", committed).group(1)
        out = tmp_path / name
        assert module.main(["--config", str(ROOT / source), "--out", str(out)]) == 0
        assert out.read_text() == committed, f"hardware_docs/{name} is stale: rerun its script for {source}"


def test_the_table_drawing_is_dimensioned_from_the_config(tmp_path):
    """Item 5: rails, goal, every beam, every seat LED, the Pi and the cable runs, from the config."""
    from gametable_core import table_geometry as geo

    out = tmp_path / "table.svg"
    assert draw_table.main(["--config", str(EXAMPLE), "--out", str(out)]) == 0
    root = ET.parse(out).getroot()
    config = load(EXAMPLE, layout_only=True)
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    text = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert {f"beam-{b.id}" for b in config.beams} <= ids
    assert {f"seat-{s}" for s in config.leds.seats} <= ids
    assert {"rails", "surface", "goal", "pi", "base-station", "cables", "section", "status-led"} <= ids
    for label in ("surface 425", "surface 625", f"overall {425 + 2 * geo.RAIL_WIDTH_MM:g}",
                  f"overall {625 + 2 * geo.RAIL_WIDTH_MM:g}", "goal 60 x 160", "182.5", "232.5",
                  f"rail {geo.RAIL_HEIGHT_MM:g} high", "beam band 0.5–1.5"):
        assert label in text, label
    for b in config.beams:
        assert f"{b.id} GPIO{b.pin}" in text or f"{b.id} ({b.at[0]:g}, {b.at[1]:g})" in text
    goal = next(el for el in root.iter(f"{SVG}rect") if el.get("id") == "goal")
    surface = next(el for el in root.iter(f"{SVG}rect") if el.get("id") == "surface")
    assert float(goal.get("x")) - float(surface.get("x")) == geo.GOAL.x0  # 1 unit = 1 mm
    assert float(goal.get("width")) == geo.GOAL_W_MM and float(surface.get("height")) == geo.LENGTH_MM


def test_layout_script_reports_a_broken_config_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[beams]]\nid = "x"\npin = 99\nkind = "point"\nat = [1, 2]\n')
    assert draw_beam_layout.main(["--config", str(bad), "--out", str(tmp_path / "o.svg")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "beams[0].pin" in err
    assert not (tmp_path / "o.svg").exists()


def test_default_config_fits_the_header_and_the_pin_map_in_wiring_md_is_generated_from_it():
    config = load(EXAMPLE, layout_only=True)
    assert draw_wiring.check_pins(config) == []
    assert draw_wiring.pin_table(config) in (DOCS / "wiring.md").read_text()


def test_seventeen_beams_six_leds_and_rgb_fill_all_26_gpios_exactly():
    beams = [{"id": f"b{i}", "pin": pin, "kind": "point", "at": [i, i]} for i, pin in enumerate(draw_wiring.BEAM_ORDER)]
    config = parse({
        "beams": beams,
        "leds": {"seats": {"1": 12, "2": 13, "3": 18, "4": 19, "5": 20, "6": 21}, "status": [16, 26, 27]},
    })
    assert len(config.beams) == 17
    assert draw_wiring.check_pins(config) == []
    assert "26 of 26 usable GPIOs in use" in draw_wiring.pin_table(config)


@pytest.mark.parametrize(
    "data, problem",
    [
        ({"beams": [{"id": "a", "pin": 0, "kind": "point", "at": [1, 1]}]},
         "beams[0].pin: GPIO0 is ID_SD, the HAT ID EEPROM pin"),
        ({"leds": {"seats": {"2": 1}}}, "leds.seats.2: GPIO1 is ID_SC, the HAT ID EEPROM pin"),
        ({"leds": {"status": [16, 0, 27]}}, "leds.status: GPIO0 is ID_SD"),
    ],
)
def test_the_config_refuses_the_hat_eeprom_pins_like_the_wiring_drawing(data, problem):
    """draw_wiring.py refused GPIO0/1 while `gametable run` accepted them."""
    from gametable_core.config import ConfigError

    with pytest.raises(ConfigError) as err:
        parse(data)
    assert problem in str(err.value)
    assert set(draw_wiring.RESERVED) == {0, 1}  # the drawing's reserved pins are the config's


@pytest.mark.parametrize(
    "data, problem",
    [
        ({"beams": [{"id": "a", "pin": 12, "kind": "point", "at": [1, 1]}], "leds": {"seats": {"1": 12}}},
         "leds.seats.1: GPIO12 is already used by beam 'a'"),
        ({"leds": {"seats": {"1": 5}, "status": [5, 6, 7]}}, "leds.status[0]: GPIO5 is already used by leds.seats.1"),
    ],
)
def test_the_config_itself_refuses_a_pin_used_twice(data, problem):
    from gametable_core.config import ConfigError

    with pytest.raises(ConfigError) as err:
        parse(data)
    assert problem in str(err.value)


def test_wiring_script_refuses_conflicting_pins(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[leds]\nstatus = [16, 16, 27]\n')
    proc = subprocess.run([sys.executable, str(DOCS / "draw_wiring.py"), "--config", str(bad), "--table"],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert "leds.status[1]: GPIO16 is already used by leds.status[0]" in proc.stderr


def test_systemd_unit_restarts_always_with_a_watchdog():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # keep key case
    unit.read(DOCS / "systemd" / "gametable.service")
    svc = unit["Service"]
    assert svc["Restart"] == "always"
    assert "78" in svc["RestartPreventExitStatus"].split()  # a fatal config/journal error: no restart loop
    assert int(svc["WatchdogSec"]) > 0
    assert svc["Type"] == "notify"
    assert "gametable run --config" in svc["ExecStart"]
    assert "gpio" in svc["SupplementaryGroups"] and "dialout" in svc["SupplementaryGroups"]


def test_docs_exist_and_link_to_files_that_exist():
    import re

    for name in ("wiring.md", "bill_of_materials.md", "mounting.md", "firmware.md", "pi_setup.md",
                 "serial_protocol.md", "troubleshooting.md"):
        text = (DOCS / name).read_text()
        assert text.startswith("# "), name
        for target in re.findall(r"\]\(([^)#:]+)\)", text):
            assert (DOCS / target).exists(), f"{name} links to missing {target}"


# --- the 1:1 drilling jig ---------------------------------------------------------------------

def test_drilling_jig_is_one_to_one_with_every_goal_hole_and_a_scale_check(tmp_path):
    import math

    from hardware_docs import draw_drilling_jig

    out = tmp_path / "jig.svg"
    config = load(ROOT / "controller" / "data" / "default-table.toml", layout_only=True)
    assert draw_drilling_jig.main(["--config", config.source, "--out", str(out), "--scad", ""]) == 0
    root = ET.parse(out).getroot()
    assert root.get("width") == "210mm" and root.get("viewBox") == "0 0 210 297"  # 1 unit = 1 mm
    holes = {}
    for g in root.iter(f"{SVG}g"):
        if (g.get("id") or "").startswith("hole-"):
            c = g.find(f"{SVG}circle")
            holes[g.get("id")[5:]] = (float(c.get("cx")), float(c.get("cy")), float(c.get("r")))
    points = {b.id: b.at for b in config.beams if b.kind == "point" and not b.reference}  # (the reference: its own hole)
    assert set(holes) == set(points) and len(points) == 12
    assert all(r == 1.6 for _, _, r in holes.values())  # 3.2 mm holes
    # every pair of holes is exactly as far apart on paper as on the table (y flipped, not scaled)
    ids = sorted(points)
    for a in ids:
        for b in ids:
            table = math.dist(points[a], points[b])
            paper = math.dist(holes[a][:2], holes[b][:2])
            assert abs(table - paper) < 0.06, (a, b)
    north = max(ids, key=lambda i: points[i][1])
    assert holes[north][1] == min(h[1] for h in holes.values())  # north is up the page
    rulers = {g.get("id") for g in root.iter(f"{SVG}g")}
    assert {"ruler-100mm", "ruler-50mm", "goal"} <= rulers


def test_committed_drilling_jig_is_current(tmp_path):
    from hardware_docs import draw_drilling_jig

    out, scad = tmp_path / "jig.svg", tmp_path / "goal_points.scad"
    assert draw_drilling_jig.main(["--config", str(ROOT / "controller" / "data" / "default-table.toml"),
                                   "--out", str(out), "--scad", str(scad)]) == 0
    assert out.read_text() == (DOCS / "drilling_jig.svg").read_text(), "rerun hardware_docs/draw_drilling_jig.py"
    assert scad.read_text() == (DOCS / "printable" / "goal_points.scad").read_text(), "rerun draw_drilling_jig.py"


def _render_stl(scad: Path, tmp_path: Path) -> str:
    out = tmp_path / (scad.stem + ".stl")
    proc = subprocess.run(["openscad", "-o", str(out), str(scad)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return out.read_text(errors="replace")


@pytest.mark.skipif(shutil.which("openscad") is None, reason="openscad not installed (make stl installs it)")
def test_the_printed_drilling_jig_renders_with_a_hole_per_goal_beam(tmp_path):
    stl = _render_stl(DOCS / "printable" / "drilling_jig.scad", tmp_path)
    assert stl.startswith("solid") and stl.count("facet normal") > 500  # 12 round holes in a plate


def test_every_printable_part_has_a_make_stl_rule():
    makefile = (ROOT / "Makefile").read_text()
    assert "stl:" in makefile and "openscad" in makefile
    parts = sorted(p.stem for p in (DOCS / "printable").glob("*.scad") if p.stem != "goal_points")
    assert parts == ["camera_mount", "drilling_jig", "goal_sensor_plug", "rail_corner_post", "striker_body"]


# --- review #3: a TOML example in the docs is a piece of the real table ----------------------------

def _toml_examples() -> list[tuple[str, str]]:
    import re

    return [(str(md.relative_to(DOCS)), block) for md in sorted(DOCS.rglob("*.md"))
            for block in re.findall(r"^```toml\n(.*?)^```", md.read_text(), re.S | re.M)]


def _merge_over(base: dict, example: dict) -> dict:
    """``example`` merged over ``base`` as a builder would edit it in: tables key by key, and a
    ``[[beams]]`` entry replaces the default's beam of the same id (a new id is added)."""
    out = dict(base)
    for key, value in example.items():
        if key == "beams":
            beams = {b["id"]: b for b in base.get("beams", [])}
            beams.update({b["id"]: b for b in value})
            out[key] = list(beams.values())
        elif isinstance(value, dict) and isinstance(base.get(key), dict):
            out[key] = _merge_over(base[key], value)
        else:
            out[key] = value
    return out


def test_every_toml_example_in_the_docs_fits_the_default_table_without_moving_a_pin():
    """A pasted example must neither be refused nor silently move an LED or beam of the one pin map
    (the old beams_and_leds.md put the seat LEDs on 18/20/21/26 and a beam on goal6's GPIO17)."""
    import tomllib

    examples = _toml_examples()
    assert {name for name, _ in examples} >= {"beams_and_leds.md", "mosquitto/README.md"}
    base = tomllib.loads(EXAMPLE.read_text())
    default = parse(base, layout_only=True)
    default_pins = {b.id: b.pin for b in default.beams}
    for name, block in examples:
        merged = parse(_merge_over(base, tomllib.loads(block)), f"{name} example", layout_only=True)
        assert merged.leds == default.leds, f"{name}: an example moves the LEDs"
        for beam in merged.beams:
            if beam.id in default_pins:
                assert beam.pin == default_pins[beam.id], f"{name}: an example moves beam {beam.id}"


def test_the_example_check_catches_the_old_wrong_examples():
    import tomllib

    from gametable_core.config import ConfigError

    base = tomllib.loads(EXAMPLE.read_text())
    old_beam = '[[beams]]\nid = "mouth_n"\npin = 17\nkind = "segment"\na = [-50.0, 30.0]\nb = [50.0, 30.0]\n'
    with pytest.raises(ConfigError, match="GPIO17 is used by another beam"):
        parse(_merge_over(base, tomllib.loads(old_beam)), layout_only=True)
    old_leds = '[leds]\nseats = { "1" = 18, "2" = 20, "3" = 21, "4" = 26 }\nstatus = [12, 13, 19]\n'
    with pytest.raises(ConfigError, match="leds.seats.5: GPIO20 is already used by leds.seats.2"):
        parse(_merge_over(base, tomllib.loads(old_leds)), layout_only=True)


# --- the camera's marker sheet (CAM-1) ------------------------------------------------------------

def test_committed_marker_sheet_is_current(tmp_path):
    pytest.importorskip("cv2")
    from hardware_docs import draw_marker_sheet

    out = tmp_path / "markers.svg"
    assert draw_marker_sheet.main(["--config", str(ROOT / "controller" / "data" / "default-table.toml"),
                                   "--out", str(out)]) == 0
    assert out.read_text() == (DOCS / "marker_sheet.svg").read_text(), "rerun hardware_docs/draw_marker_sheet.py"


@pytest.mark.browser
def test_cam_1_the_printed_marker_sheet_is_found_by_the_camera_at_its_configured_size(tmp_path, browser):
    """Chromium prints the sheet at 4 px/mm; the camera's own detector finds markers 0-3, each as
    wide as [camera] marker_size_mm, each labelled with its configured centre."""
    pytest.importorskip("cv2")
    import base64

    import cv2
    import numpy as np

    from hardware_docs import draw_marker_sheet
    from sensors.camera.calibration import detect_marker_corners

    config = tmp_path / "t.toml"
    config.write_text('[camera]\nmarker_size_mm = 35.0\n'
                      'markers = { "0" = [-30, -30], "1" = [455, -30], "2" = [455, 655], "3" = [-30, 655] }\n')
    out = tmp_path / "markers.svg"
    assert draw_marker_sheet.main(["--config", str(config), "--out", str(out)]) == 0
    assert "marker 2: centre at x 455, y 655 mm" in out.read_text()
    page = browser.new_page(viewport={"width": 840, "height": 1188})
    page.set_content(f'<body style="margin:0"><img src="data:image/svg+xml;base64,'
                     f'{base64.b64encode(out.read_bytes()).decode()}" style="width:840px;height:1188px"></body>')
    png = page.screenshot()
    page.close()
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    corners = detect_marker_corners(image)
    assert sorted(corners) == [0, 1, 2, 3]
    for quad in corners.values():
        side_px = float(np.linalg.norm(quad[0] - quad[1]))
        assert side_px / 4 == pytest.approx(35.0, abs=0.6)  # 4 px per mm
