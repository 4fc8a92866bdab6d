"""The printed parts fit (hardware_docs/printable/*.scad), checked from their own parameters.

No openscad needed: ``hardware_docs/scad_params.py`` reads the numbers each part is rendered
from, and these tests check what geometry can: every aperture sits on its beam's path, every bay
holds its board's datasheet size, and no two parts overlap when assembled.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

from gametable_core import table_geometry as geo
from gametable_core.beam_optics import GOAL_SPOT, RAIL_BEAM
from gametable_core.config import load
from hardware_docs import scad_params

ROOT = Path(__file__).resolve().parents[1]
PRINTABLE = ROOT / "hardware_docs" / "printable"
DEFAULT = load(ROOT / "controller" / "data" / "default-table.toml", layout_only=True)
Box = tuple[tuple[float, float], tuple[float, float], tuple[float, float]]  # (x0,x1),(y0,y1),(z0,z1)


def _overlap(a: Box, b: Box) -> bool:
    return all(lo1 < hi2 and lo2 < hi1 for (lo1, hi1), (lo2, hi2) in zip(a, b, strict=True))


def _inside(inner: Box, outer: Box) -> bool:
    return all(lo2 <= lo1 and hi1 <= hi2 for (lo1, hi1), (lo2, hi2) in zip(inner, outer, strict=True))


# --- rail corner post --------------------------------------------------------------------------

POST = scad_params.read(PRINTABLE / "rail_corner_post.scad")
PARTS = {"tssp": (POST["tssp_body"], POST["tssp_lens_z"]), "tsal": (POST["tsal_body"], POST["tsal_lens_z"])}


def _pocket(part: str, which: str) -> Box:
    """A part's pocket in the corner frame (as rail_corner_post.scad's cut() and place_a/b)."""
    (w, d, h), lens = PARTS[part]
    clr = POST["clr"]
    z0 = POST["beam_z"] - lens - clr
    lx, ly, z = (-w / 2 - clr, w / 2 + clr), (-d - clr, 0.0), (z0, z0 + h + 2 * clr)
    front = -POST["rail_width"] - POST["front_wall"]
    if which == "a":  # beam along +y at x = -beam_out
        return ((lx[0] - POST["beam_out"], lx[1] - POST["beam_out"]), (ly[0] + front, ly[1] + front), z)
    # rotate([0, 0, -90]): local (x, y) -> (y, -x), beam along +x at y = -beam_out
    return ((ly[0] + front, ly[1] + front), (-lx[1] - POST["beam_out"], -lx[0] - POST["beam_out"]), z)


def test_the_post_puts_the_beam_where_the_config_and_the_optics_say():
    rails = {b.id: b for b in DEFAULT.beams if b.kind == "segment"}
    assert POST["beam_out"] == -rails["rail_w"].a[0] == -rails["rail_s"].a[1]
    assert rails["rail_e"].a[0] == geo.WIDTH_MM + POST["beam_out"]
    assert rails["rail_n"].a[1] == geo.LENGTH_MM + POST["beam_out"]
    assert POST["rail_width"] == geo.RAIL_WIDTH_MM
    assert (POST["slit_bottom"], POST["slit_height"]) == (RAIL_BEAM.slit_bottom_mm, RAIL_BEAM.slit_height_mm)


@pytest.mark.parametrize("part", PARTS)
def test_each_lens_looks_through_its_slit_on_the_beam_path(part):
    """The old post had its slit in the back wall and the pocket 0.7 mm below the rail top."""
    (w, _d, h), lens = PARTS[part]
    axis = _pocket(part, "a")[2][0] + POST["clr"] + lens
    assert POST["slit_bottom"] < axis < POST["slit_bottom"] + POST["slit_height"]  # lens axis in the band
    assert POST["slit_width"] < w  # the whole slit is in front of the lens
    x0, x1 = _pocket(part, "a")[0]
    assert x0 < -POST["beam_out"] < x1 and abs((x0 + x1) / 2 + POST["beam_out"]) < 1e-9


@pytest.mark.parametrize("a, b", list(itertools.product(PARTS, PARTS)))
def test_the_two_parts_of_a_corner_do_not_collide_nor_sit_in_the_rails(a, b):
    pa, pb = _pocket(a, "a"), _pocket(b, "b")
    assert not _overlap(pa, pb)
    rw, deep = POST["rail_width"], (-100.0, 0.0)
    rails = [((-rw, 0.0), (-rw, 700.0), deep), ((-rw, 500.0), (-rw, 0.0), deep)]  # west, south rail
    assert not any(_overlap(p, r) for p in (pa, pb) for r in rails)


@pytest.mark.parametrize("name, body_w, body_d", [("rail_corner_post", "tssp_body[0]", "tssp_body[1]"),
                                                  ("goal_sensor_plug", "rx_body[1]", "rx_body[2]")])
def test_the_receivers_leads_have_a_slot_out_of_its_pocket(name, body_w, body_d):
    """The TSSP4038's three leads (0.5 mm, 2.54 mm pitch) leave the package's bottom face: a slot
    across all three with print clearance, inside the pocket's width, leaving the front of the
    bottom face to rest on; it runs through the wall (the pocket alone gave 0.15 mm there)."""
    part = scad_params.read(PRINTABLE / f"{name}.scad")
    arr, idx = body_w.split("[")
    width = part[arr][int(idx[:-1])]
    depth = part[body_d.split("[")[0]][int(body_d.split("[")[1][:-1])]
    assert part["lead_span"] == pytest.approx(2 * 2.54 + 0.5)
    assert part["lead_slot_w"] >= part["lead_span"] + 2 * part["clr"]  # every lead clears the slot's sides
    assert part["lead_slot_w"] <= width + 2 * part["clr"]  # inside the pocket: it does not undercut the walls
    assert 0 < part["lead_zone"] < depth - 2.0  # >= 2 mm of the bottom face still rests on the floor


def test_all_four_corner_posts_render_by_default_each_with_its_corners_parts():
    """beam_layout.md "Mounting notes": SW both emitters, NW rail_w receiver + rail_n emitter, NE both
    receivers, SE rail_e emitter + rail_s receiver (part A on the long rail, B on the short)."""
    assert POST["corner"] == "all"
    text = (PRINTABLE / "rail_corner_post.scad").read_text()
    for corner, parts in {"SW": ("tsal", "tsal"), "NW": ("tssp", "tsal"), "NE": ("tssp", "tssp")}.items():
        assert f'c == "{corner}" ? ["{parts[0]}", "{parts[1]}"]' in text
    assert ': ["tsal", "tssp"];' in text  # SE
    notes = (ROOT / "hardware_docs" / "beam_layout.md").read_text(encoding="utf-8")
    assert "SW both emitters" in notes and "NE both" in notes


def test_a_hood_stops_short_of_the_other_beam():
    hood_end = -POST["rail_width"] + POST["front_wall"] + POST["hood"]  # along the beam, from the outer face
    assert hood_end < -POST["beam_out"] - POST["slit_width"] / 2


# --- goal sensor plug --------------------------------------------------------------------------

PLUG = scad_params.read(PRINTABLE / "goal_sensor_plug.scad")
POINTS = [b.at for b in DEFAULT.beams if b.kind == "point" and b.at is not None and not b.reference]


def test_the_plug_is_built_to_the_optics_of_the_proof():
    assert PLUG["aperture_d"] == GOAL_SPOT.aperture_d_mm
    assert (PLUG["tilt"], PLUG["distance"]) == (GOAL_SPOT.tilt_deg, GOAL_SPOT.distance_mm)
    assert PLUG["hole_d"] - PLUG["nose_d"] == pytest.approx(GOAL_SPOT.plug_slack_mm)
    assert PLUG["tsal_d"] == GOAL_SPOT.lens_d_mm
    jig = (PRINTABLE / "drilling_jig.scad").read_text()
    assert "3.2" in jig  # the jig drills the hole the nose fits


def test_both_light_paths_pass_the_aperture_inside_the_nose():
    """The emitter's and the receiver's axes meet at the aperture; each cone of light stays inside
    the nose's wall where it crosses the board left above the counterbore."""
    s = PLUG["board_left"] / math.cos(math.radians(PLUG["tilt"]))  # along the axis to the nose's bottom
    grow = (PLUG["tsal_d"] + 0.4 - PLUG["aperture_d"]) / 2 / (PLUG["distance"] - PLUG["lip"])
    radius = PLUG["aperture_d"] / 2 + grow * max(0.0, s - PLUG["lip"])
    edge = s * math.sin(math.radians(PLUG["tilt"])) + radius / math.cos(math.radians(PLUG["tilt"]))
    assert edge <= PLUG["nose_d"] / 2 - 0.25  # at least 0.25 mm of nose wall
    # the outermost ray through the lip still clears it
    outer = math.radians(GOAL_SPOT.tilt_deg + GOAL_SPOT.half_cone_deg)
    assert PLUG["lip"] * math.tan(outer) < PLUG["aperture_d"]


def test_the_twelve_plugs_fit_under_the_goal_without_touching():
    cups = [((x - PLUG["cup_x"] / 2, x + PLUG["cup_x"] / 2), (y - PLUG["cup_rx"], y + PLUG["cup_tx"]), (0.0, 1.0))
            for x, y in POINTS]
    assert len(cups) == 12
    for a, b in itertools.combinations(cups, 2):
        assert not _overlap(a, b)
    for p, q in itertools.combinations(POINTS, 2):  # wood left between the counterbores
        assert math.dist(p, q) >= PLUG["counterbore_d"] + 2


# --- striker body ------------------------------------------------------------------------------

STRIKER = scad_params.read(PRINTABLE / "striker_body.scad")
# datasheet / measured outlines [across, along, thick] the bays must hold
DATASHEET = {"mpu": (15.6, 20.3, 3.3), "lipo": (20.0, 30.0, 5.0), "board": (18.0, 22.52, 4.5),
             "charger": (17.2, 28.0, 5.2), "diode": (2.6, 4.3, 2.1), "sw": (3.5, 8.6, 3.5)}


def _bays() -> dict[str, Box]:
    s, clr = STRIKER, STRIKER["clr"]

    def box(size, y, z0=None):
        z = -size[2] / 2 if z0 is None else z0
        return ((-size[0] / 2 - clr / 2, size[0] / 2 + clr / 2), (y, y + size[1] + clr), (z - clr / 2, z + size[2] + clr / 2))

    x_sw = s["outer_d"] / 2 - s["wall"] - s["sw"][0] - clr
    x_d = -s["outer_d"] / 2 + s["wall"] + 1
    return {
        "mpu": box(s["mpu"], s["mpu_y"]),
        "lipo": box(s["lipo"], s["lipo_y"]),
        "sw": ((x_sw, x_sw + s["sw"][0] + clr), (s["sw_y"], s["sw_y"] + s["sw"][1] + clr),
               (-s["sw"][2] / 2 - clr / 2, s["sw"][2] / 2 + clr / 2)),
        "diode": ((x_d, x_d + s["diode"][0] + clr), (s["sw_y"], s["sw_y"] + s["diode"][1] + clr),
                  (-s["diode"][2] / 2 - clr / 2, s["diode"][2] / 2 + clr / 2)),
        "board": box(s["board"], s["back_y"] + s["back_len"] - s["board"][1] - clr, s["board_z0"]),
        "charger": box(s["charger"], s["back_y"], s["charger_z0"]),
    }


def _inner_radius(y: float) -> float:
    """The shell's inner radius at y (the hull is at least this cone from the tip to taper_end)."""
    s = STRIKER
    r = s["tip_d"] / 2 + (s["outer_d"] - s["tip_d"]) / 2 * min(1.0, max(0.0, y) / s["taper_end"])
    return r - s["wall"]


def test_the_refill_stub_ends_before_the_first_bay():
    """The old body ran the 6.2 mm refill channel through the sensor and board bays."""
    assert STRIKER["refill_len"] < min(b[1][0] for b in _bays().values())


def test_no_two_bays_overlap():
    for (na, a), (nb, b) in itertools.combinations(_bays().items(), 2):
        assert not _overlap(a, b), (na, nb)


@pytest.mark.parametrize("name", DATASHEET)
def test_each_bay_holds_its_board_and_fits_in_the_shell(name):
    bay = _bays()[name]
    for (lo, hi), size in zip(bay, DATASHEET[name], strict=True):
        assert hi - lo >= size + 0.2, (name, size)
    limit = (lambda y: STRIKER["outer_d"] / 2) if name == "sw" else _inner_radius  # the lever goes through
    for x, y, z in itertools.product(bay[0], bay[1], bay[2]):
        assert math.hypot(x, z) <= limit(y) + 1e-9, (name, x, y, z)


def test_both_usb_c_sockets_are_flush_with_the_back_opening():
    """The old opening was ~60 mm from the board's connector, and the charger had no bay."""
    s, bays = STRIKER, _bays()
    back_inside = s["length"] - s["wall"]
    plug_w, plug_h = s["plug"]
    z_lo = s["board_z0"] + s["usbc_board_z"] - plug_h / 2
    z_hi = s["charger_z0"] + s["usbc_charger_z"] + plug_h / 2
    for name, z_mouth in (("board", s["board_z0"] + s["usbc_board_z"]), ("charger", s["charger_z0"] + s["usbc_charger_z"])):
        assert abs(bays[name][1][1] - back_inside) <= STRIKER["clr"], name  # the socket reaches the back wall
        assert z_lo <= z_mouth - plug_h / 2 and z_mouth + plug_h / 2 <= z_hi  # its plug fits the opening
        assert s["usbc"][0] < plug_w
    assert s["wall"] <= 2.0  # a USB-C plug's 6.5 mm shell still seats through the wall


# --- camera mount ------------------------------------------------------------------------------

def test_the_camera_plate_matches_the_camera_module_3_drawing():
    cam = scad_params.read(PRINTABLE / "camera_mount.scad")
    assert cam["board"] == [25, 24] and (cam["hole_dx"], cam["hole_dy"]) == (21, 12.5)
    assert cam["m2"] > 2.0 and cam["quarter_inch"] > 6.35  # M2 and 1/4-20 clear


# --- every part: a rule, a picture --------------------------------------------------------------

def test_every_printable_part_has_a_committed_picture_and_a_renders_rule():
    parts = sorted(p.stem for p in PRINTABLE.glob("*.scad") if p.stem != "goal_points")
    assert parts == ["camera_mount", "drilling_jig", "goal_sensor_plug", "rail_corner_post", "striker_body"]
    for name in parts:
        png = PRINTABLE / "pictures" / f"{name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    assert "renders:" in (ROOT / "Makefile").read_text()


def test_the_parameter_reader_refuses_what_it_cannot_evaluate(tmp_path):
    bad = tmp_path / "x.scad"
    bad.write_text("a = 2;\nb = a * 3 + 1;  // fine\nc = undefined_name + 1;\n")
    with pytest.raises(ValueError, match="unknown name 'undefined_name'"):
        scad_params.read(bad)
    bad.write_text("a = [1, 2];\nb = a[1] / 4;\nmodule m() {\n  c = 5;\n}\n")
    assert scad_params.read(bad) == {"a": [1, 2], "b": 0.5}
