"""hardware_docs: generated drawings, the pin budget check, the pin map and the systemd unit."""

from __future__ import annotations

import configparser
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from controller.config import load, parse
from hardware_docs import draw_beam_layout, draw_wiring

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "hardware_docs"
EXAMPLE = DOCS / "example-table.toml"
SVG = "{http://www.w3.org/2000/svg}"


def test_beam_layout_svg_shows_every_beam_with_its_pin(tmp_path):
    out = tmp_path / "layout.svg"
    assert draw_beam_layout.main(["--config", str(EXAMPLE), "--out", str(out)]) == 0
    root = ET.parse(out).getroot()
    config = load(EXAMPLE)
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

    for module, name in ((draw_beam_layout, "beam_layout.svg"), (draw_wiring, "wiring.svg")):
        committed = (DOCS / name).read_text()
        source = re.search(r"source: ([^ <]+\.toml)", committed).group(1)
        out = tmp_path / name
        assert module.main(["--config", str(ROOT / source), "--out", str(out)]) == 0
        assert out.read_text() == committed, f"hardware_docs/{name} is stale: rerun its script for {source}"


def test_layout_script_reports_a_broken_config_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[beams]]\nid = "x"\npin = 99\nkind = "point"\nat = [1, 2]\n')
    assert draw_beam_layout.main(["--config", str(bad), "--out", str(tmp_path / "o.svg")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "beams[0].pin" in err
    assert not (tmp_path / "o.svg").exists()


def test_example_config_fits_the_header_and_the_pin_map_is_current():
    config = load(EXAMPLE)
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
        ({"beams": [{"id": "a", "pin": 12, "kind": "point", "at": [1, 1]}], "leds": {"seats": {"1": 12}}},
         "GPIO12 is used by 2 things: beam a, seat 1 LED"),
        ({"beams": [{"id": "a", "pin": 0, "kind": "point", "at": [1, 1]}]}, "GPIO0 is ID_SD (HAT EEPROM)"),
        ({"leds": {"seats": {"1": 5}, "status": [5, 6, 7]}}, "GPIO5 is used by 2 things"),
    ],
)
def test_pin_conflicts_are_named(data, problem):
    problems = draw_wiring.check_pins(parse(data))
    assert any(problem in p for p in problems), problems


def test_wiring_script_refuses_conflicting_pins(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[leds]\nstatus = [16, 16, 27]\n')
    proc = subprocess.run([sys.executable, str(DOCS / "draw_wiring.py"), "--config", str(bad), "--table"],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert "GPIO16 is used by 2 things: status LED red, status LED green" in proc.stderr


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
