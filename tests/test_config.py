"""Config: one TOML file, validated at load, every error names the key."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from gametable_core.config import (
    PART_KEYS,
    PIN_FACTORIES,
    SECTIONS,
    TOP_KEYS,
    BeamConfig,
    CameraConfig,
    ConfigError,
    PanelConfig,
    load,
    parse,
)
from gametable_core.config_rules import default_of, keys_of

ROOT = Path(__file__).parent.parent


def test_defaults_and_the_keys_tests_rely_on(tmp_path):
    f = tmp_path / "t.toml"
    f.write_text('table_id = "t9"\n[mqtt]\nhost = "127.0.0.1"\nport = 1884\n[striker]\nport = "/dev/ttyUSB0"\n'
                 'baud = 115200\n[gpio]\npin_factory = "mock"\n[journal]\npath = "/tmp/j.sqlite"\n'
                 '[panel]\nhost = "0.0.0.0"\nport = 8081\npin = "4321"\n[strikers]\ns3 = 3\n')
    c = load(f)
    assert c.table_id == "t9" and c.mqtt.port == 1884 and c.striker.port == "/dev/ttyUSB0"
    assert c.panel.pin == "4321" and c.strikers == {"s3": 3} and c.journal.path == "/tmp/j.sqlite"


@pytest.mark.parametrize("text, message", [
    ('[mqtt]\nport = "eighty"', "mqtt.port: expected an integer from 1 to 65535, got 'eighty'"),
    ('[panel]\npin = "12"', "panel.pin: expected 4 to 8 digits"),
    ('[gpio]\npin_factory = "magic"', "gpio.pin_factory: expected 'lgpio' (on a Pi), 'rpigpio', 'pigpio', 'native' or 'mock' (off a Pi), got 'magic'"),
    ('[mqtt]\nhots = "x"', "mqtt.hots: unknown key"),
    ('table_id = "a/b"', "table_id: expected a name without '/'"),
    ('[[beams]]\nid = "g1"\npin = 5\nkind = "segment"\na = [0, 0]', "beams[0].a/b: a segment beam needs both ends"),
    ('[[beams]]\nid = "g1"\npin = 5\nkind = "point"\nat = [1, 2]\n[[beams]]\nid = "g2"\npin = 5\nkind = "point"\n'
     'at = [1, 3]', "beams[1].pin: GPIO5 is used by another beam"),
    ('[strikers]\ns1 = 9', "strikers.s1: expected an integer from 1 to 6"),
    ('[leds]\nstatus = [1, 2]', "leds.status: expected three GPIO pins"),
])
def test_errors_name_the_key_and_what_was_expected(text, message):
    import tomllib

    with pytest.raises(ConfigError) as err:
        parse(tomllib.loads(text))
    assert message in str(err.value)


def test_broken_toml_and_missing_file_are_clear(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text("[mqtt\nport=1")
    with pytest.raises(ConfigError, match="is not valid TOML"):
        load(f)
    with pytest.raises(ConfigError, match="cannot read"):
        load(tmp_path / "nope.toml")


# --- parts that reach, pins and strikers on a real table ----------------------------------

RAIL = '[[beams]]\nid = "rail_w"\npin = 4\nkind = "segment"\na = [-16.0, -16.0]\nb = [-16.0, 641.0]\n'
REAL = '[gpio]\npin_factory = "lgpio"\n[strikers]\ns1 = 1\n'


def _parse(text: str):
    import tomllib

    return parse(tomllib.loads(text))


def test_the_default_table_uses_parts_that_reach_every_beam_and_ships_no_example_strikers():
    from controller.default_table import DEFAULT_TABLE

    c = load(DEFAULT_TABLE, layout_only=True)
    # strikers name themselves st-<mac6> and are paired on the bring-up page: example ids such as
    # s1 = 1 would only be phantom strikers on the bring-up page
    assert c.gpio.pin_factory == "lgpio" and c.strikers == {} and c.striker.port is None
    rails = [b for b in c.beams if b.kind == "segment"]
    assert {round(b.length_mm) for b in rails} == {457, 657}
    for b in c.beams:
        assert b.part and b.range_mm and b.length_mm is not None
        assert b.length_mm * 1.5 <= b.range_mm, f"{b.id}: {b.length_mm:.0f} mm on a part rated {b.range_mm} mm"


def test_a_rail_beam_longer_than_its_parts_rated_range_is_refused():
    # the old bill of materials: the 5 mm Adafruit pair reaches about 50 cm
    text = REAL + '[beam_parts.segment]\npart = "Adafruit 2168"\nrange_mm = 500\n' + RAIL
    with pytest.raises(ConfigError) as err:
        _parse(text)
    msg = str(err.value)
    assert msg.startswith("config error: beams[0].range_mm:")
    assert "'rail_w' spans 657 mm" in msg and "rated range of 500 mm (Adafruit 2168)" in msg
    # a beam's own range overrides its kind's
    assert _parse(text.replace('b = [-16.0, 641.0]\n', 'b = [-16.0, 641.0]\nrange_mm = 2000\n')).beams[0].range_mm == 2000


def test_a_real_table_must_say_how_far_its_rail_beams_reach():
    with pytest.raises(ConfigError, match=r"beams\[0\]\.range_mm: missing for beam 'rail_w' on a real table"):
        _parse(REAL + RAIL)
    assert _parse(RAIL).beams[0].range_mm is None  # the virtual table needs no parts


def test_a_point_beams_emitter_height_must_be_within_range():
    text = '[[beams]]\nid = "g1"\npin = 5\nkind = "point"\nat = [200, 300]\nrange_mm = 250\nspan_mm = 300\n'
    with pytest.raises(ConfigError, match=r"beams\[0\]\.range_mm: beam 'g1' spans 300 mm"):
        _parse(text)


@pytest.mark.parametrize("text, message", [
    ('[beam_parts.segment]\nrange = 5', "beam_parts.segment.range: unknown key"),
    ('[beam_parts.laser]\nrange_mm = 5', "beam_parts.laser: unknown key"),
    ('[beam_parts.segment]\nrange_mm = "far"', "beam_parts.segment.range_mm: expected a number"),
    (RAIL.replace('a = [', 'part = 3\na = ['), "beams[0].part: expected a non-empty string"),
])
def test_part_keys_are_checked_by_name(text, message):
    with pytest.raises(ConfigError) as err:
        _parse(text)
    assert message in str(err.value)


def test_the_shipped_default_run_as_is_names_the_missing_base_station_port():
    """A copy of the default file without [striker] port is refused with the fix in the message; with
    the port set it loads and the strikers are paired on the bring-up page."""
    import tomllib

    from controller.default_table import DEFAULT_TABLE

    with pytest.raises(ConfigError) as err:
        load(DEFAULT_TABLE)
    message = str(err.value)
    assert message.startswith("config error: strikers: empty on a real table (gpio.pin_factory = 'lgpio') and no [striker] port")
    assert "/dev/serial/by-id/" in message and "bring-up page" in message
    data = tomllib.loads(DEFAULT_TABLE.read_text())
    data["striker"]["port"] = "/dev/serial/by-id/usb-Espressif_x-if00"
    assert parse(data).strikers == {}


def test_a_real_table_refuses_an_empty_strikers_section():
    with pytest.raises(ConfigError, match=r"strikers: empty on a real table \(gpio.pin_factory = 'lgpio'\)"):
        _parse('[gpio]\npin_factory = "lgpio"\n')
    assert _parse('[gpio]\npin_factory = "mock"\n').strikers == {}  # the virtual table has no strikers
    # with a base station, strikers are paired from the host's bring-up page
    assert _parse('[gpio]\npin_factory = "lgpio"\n[striker]\nport = "/dev/ttyACM0"\n').strikers == {}


@pytest.mark.parametrize("leds, message", [
    ('[leds.seats]\n"2" = 4\n', "leds.seats.2: GPIO4 is already used by beam 'rail_w'"),
    ('[leds]\nstatus = [16, 4, 27]\n', "leds.status[1]: GPIO4 is already used by beam 'rail_w'"),
    ('[leds]\nstatus = [16, 12, 27]\n[leds.seats]\n"1" = 12\n', "leds.status[1]: GPIO12 is already used by leds.seats.1"),
])
def test_a_beam_and_an_led_on_one_gpio_is_refused(leds, message):
    with pytest.raises(ConfigError) as err:
        _parse(RAIL + leds)
    assert message in str(err.value)


# --- [camera] (CAM-1, CAM-2) ----------------------------------------------------------------------

def test_without_a_camera_section_there_is_no_camera():
    assert parse({}).camera is None


def test_the_camera_section_reads_every_key_and_defaults_the_rest():
    import tomllib

    c = parse(tomllib.loads('[camera]\ndevice = "/dev/video2"\nfps = 100\nresolution = [1280, 720]\n'
                            'confidence_threshold = 0.99\n'
                            'markers = { "0" = [-40, -40], "1" = [465, -40], "2" = [465, 665], "3" = [-40, 665] }'))
    cam = c.camera
    assert cam is not None and cam.device == "/dev/video2" and cam.backend == "v4l2"
    assert cam.fps == 100 and cam.resolution == (1280, 720) and cam.confidence_threshold == 0.99
    assert cam.markers["2"] == (465.0, 665.0) and cam.marker_size_mm == 40.0
    default = parse(tomllib.loads("[camera]")).camera
    assert default is not None and default.backend == "picamera2" and default.confidence_threshold == 0.98
    assert parse(tomllib.loads("[camera]\ndevice = 0")).camera.device == 0  # type: ignore[union-attr]


def test_the_shipped_default_tables_camera_example_is_valid_once_uncommented():
    text = (ROOT / "controller/data/default-table.toml").read_text(encoding="utf-8")
    block = re.search(r"^# \[camera\]\n((?:# .*\n)+)", text, re.M)
    assert block is not None
    lines = [line[2:] for line in block.group(0).splitlines() if not line.startswith("# #")]
    data = tomllib.loads("\n".join(lines))
    cam = parse(data).camera
    assert cam is not None and cam.device == "picamera2" and len(cam.markers) == 4
    # it says "every key may be left out (these are the defaults)": all of them, exactly the declared ones
    assert set(data["camera"]) == set(keys_of(CameraConfig)) and cam == CameraConfig()


@pytest.mark.parametrize("text, message", [
    ('[camera]\ndevice = "video0"', "camera.device: expected 'picamera2' or an absolute V4L2 device path"),
    ('[camera]\ndevice = true', "camera.device: expected 'picamera2', a V4L2 device path"),
    ('[camera]\ndevice = 99', "camera.device: expected a V4L2 index from 0 to 63"),
    ('[camera]\nfps = 0', "camera.fps: expected an integer from 1 to 1000, got 0"),
    ('[camera]\nresolution = [1280]', "camera.resolution: expected [width, height] in pixels"),
    ('[camera]\nconfidence_threshold = 1.5', "camera.confidence_threshold: expected a number from 0.5 to 1.0"),
    ('[camera]\nlens = "wide"', "camera.lens: unknown key"),
    ('[camera]\nmarkers = { "0" = [-35, -35] }', "camera.markers.1: expected the centre [x_mm, y_mm] of marker 1"),
    ('[camera]\nmarkers = { "0" = [-35, -35], "1" = [460, -35], "2" = [460, 660], "3" = [-35, 660], "7" = [1, 1] }',
     "camera.markers.7: expected a marker id 0, 1, 2 or 3"),
    ('[camera]\nmarkers = { "0" = [100, 100], "1" = [460, -35], "2" = [460, 660], "3" = [-35, 660] }',
     "camera.markers.0: expected a point outside the playing surface"),
    ('[camera]\nmarkers = { "0" = "corner", "1" = [460, -35], "2" = [460, 660], "3" = [-35, 660] }',
     "camera.markers.0: expected a point [x_mm, y_mm]"),
    ('camera = 3', "camera: expected a table ([camera])"),
])
def test_camera_errors_name_the_key(text, message):
    import tomllib

    with pytest.raises(ConfigError) as err:
        parse(tomllib.loads(text))
    assert message in str(err.value)


def test_seat_colours_and_sticker_marks_tell_coins_apart():
    import tomllib

    cam = parse(tomllib.loads('[camera]\nseat_colours = { "4" = "#D32F2F" }\nseat_marks = { "4" = 2 }')).camera
    assert cam is not None and cam.seat_colours[4] == "#d32f2f" and cam.seat_colours[1] == "#d03030"
    assert cam.seat_marks == {4: 2}
    for text, message in [('[camera]\nseat_colours = { "7" = "#ffffff" }', "camera.seat_colours.7: expected a seat"),
                          ('[camera]\nseat_colours = { "1" = "red" }', "camera.seat_colours.1: expected a colour"),
                          ('[camera]\nseat_marks = { "1" = 9 }', "camera.seat_marks.1: expected an integer from 0 to 4")]:
        with pytest.raises(ConfigError, match=message):
            parse(tomllib.loads(text))


# --- the one declaration: the docs that list keys agree with it ------------------------------------


def _readme_rows() -> dict[str, tuple[list[str], list[str]]]:
    """README's config table: ``[section] key, key`` -> (the keys, the default cells)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8").split("### Configuration", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\| `(?:\[\[?([a-z_]+)(?:\.<kind>)?\]\]?)? ?([^`]*)` \|.*\| (.*) \|$", line)
        if m:
            rows[m.group(1) or "table_id"] = ([k for k in re.split(r"[,/ ]+", m.group(2)) if k],
                                              [d.strip().strip("`") for d in m.group(3).split(",")])
    return rows


def _same_default(cell: str, default: object) -> bool:
    if default is None:
        return cell == "–"
    if isinstance(default, int | float) and not isinstance(default, bool):
        return float(cell) == default
    return cell == str(default)


def test_the_readme_lists_every_key_of_every_section_with_its_default():
    rows = _readme_rows()
    assert set(rows) == TOP_KEYS, "README's config table lists other sections than gametable_core/config.py declares"
    for name, section in SECTIONS.items():
        declared = keys_of(section)
        names, defaults = rows[name]
        assert names == list(declared), f"README [{name}]: {names} but gametable_core/config.py declares {list(declared)}"
        if name in ("mqtt", "striker", "gpio", "journal", "panel", "sim"):  # rows that give every default
            assert len(defaults) == len(declared), f"README [{name}]: one default per key"
            for cell, f in zip(defaults, declared.values(), strict=True):
                assert _same_default(cell, default_of(f)), f"README [{name}] {f.name}: {cell} but {default_of(f)!r}"
    assert rows["beams"][0] == list(keys_of(BeamConfig))
    assert rows["beam_parts"][0] == list(PART_KEYS)


def test_the_camera_docs_and_the_shipped_example_give_every_key_and_its_declared_default():
    declared = keys_of(CameraConfig)
    text = (ROOT / "hardware_docs/pi_setup.md").read_text(encoding="utf-8").split("**Config.** Add `[camera]`")[1]
    table = text.split("\n\n")[1]
    documented = [k for line in table.splitlines()[2:] for k in re.findall(r"`([a-z_]+)`", line.split("|")[1])]
    assert documented == list(declared)
    for line in table.splitlines()[2:]:
        name, cell = line.split("|")[1].strip(), line.split("|")[3].strip()
        if re.fullmatch(r"`[^`]+`", name) and re.fullmatch(r"`[^`]+`", cell):  # a default given as a TOML value
            cam = parse(tomllib.loads(f"[camera]\n{name.strip('`')} = {cell.strip('`')}")).camera
            assert getattr(cam, name.strip("`")) == default_of(declared[name.strip("`")])


def test_the_panel_docs_name_every_panel_key():
    text = (ROOT / "web_panel/PANEL.md").read_text(encoding="utf-8")
    config_line = text.split("- Config: ", 1)[1].split("\n- ", 1)[0]
    assert [k for k in keys_of(PanelConfig) if f"{k}" not in config_line] == []


def test_the_pin_factories_the_config_accepts_are_the_ones_the_gpio_module_makes():
    from sensors.gpio import FACTORIES

    assert set(PIN_FACTORIES) == set(FACTORIES)
    for name in PIN_FACTORIES:
        assert parse({"gpio": {"pin_factory": name}, "striker": {"port": "/dev/ttyACM0"}}).gpio.pin_factory == name


# --- any value for any declared key: accepted as the rule reads it, or one error naming that key ---

toml_values = st.recursive(
    st.booleans() | st.integers(-2**64, 2**64) | st.floats() | st.text(max_size=12)
    | st.sampled_from(["picamera2", "/dev/video0", "#a0b0c0", "1234", "lgpio", "segment", "point"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3) | st.sampled_from("0123456"),
                                                                inner, max_size=4),
    max_leaves=8,
)
declared_keys = [(name, k) for name, section in SECTIONS.items() for k in keys_of(section)]


@given(st.sampled_from(declared_keys), toml_values)
@example(("gpio", "pin_factory"), "lgpio")  # read; then refused across keys (a real table needs strikers)
@example(("camera", "markers"), {"\n": False})  # a key that is no name: quoted, on one line
def test_any_value_of_a_declared_key_is_read_by_its_rule_or_refused_naming_that_key(section_key, value):
    name, k = section_key
    try:
        config = parse({name: {k: value}})
    except ConfigError as err:
        # refused by its own rule, naming it -- or read, and then a rule across keys refuses the
        # whole config, naming it with its value ("... on a real table (gpio.pin_factory = 'lgpio')")
        assert str(err).startswith(f"config error: {name}.{k}") or f"({name}.{k} = " in str(err), str(err)
        assert "\n" not in str(err)
        return
    section = getattr(config, name)
    assert getattr(section, k) == keys_of(SECTIONS[name])[k].metadata["rule"].read(value, f"{name}.{k}")


@given(st.sampled_from(list(keys_of(BeamConfig))), toml_values)
def test_any_value_of_a_beam_key_is_accepted_or_refused_naming_the_beam(k, value):
    beam = {"id": "g1", "pin": 8, "kind": "point", "at": [205.0, 258.3], k: value}
    try:
        parse({"beams": [beam]})
    except ConfigError as err:
        assert str(err).startswith("config error: beams[0]."), str(err)


def test_every_key_the_docs_name_in_a_table_section_is_declared():
    """`[panel] absent_s`, `[striker] low_battery_v` ... in prose: a renamed or dropped key shows here."""
    # multi_table.md also names the venue service's own file (gametable/venue/config.py)
    docs = [ROOT / "README.md", ROOT / "web_panel/PANEL.md", *sorted((ROOT / "hardware_docs").glob("*.md")),
            *sorted((ROOT / "docs").glob("*.md"))]
    unknown = []
    for doc in docs:
        if doc.name == "multi_table.md":
            continue
        for m in re.finditer(r"`\[([a-z_]+)\] ([a-z_]+(?:, [a-z_]+)*)", doc.read_text(encoding="utf-8")):
            section = SECTIONS.get(m.group(1))
            if m.group(1) in ("database", "board"):  # the venue service's own file (gametable/venue/config.py)
                continue
            if m.group(1) != "strikers":  # [strikers] keys are striker ids
                unknown += [f"{doc.name}: {m.group(0)}" for k in m.group(2).split(", ")
                            if section is None or k not in keys_of(section)]
    assert unknown == []


def test_a_seat_table_key_like_a_newline_is_named_quoted_in_the_error():
    """The property test's find: camera.seat_colours = { "\\n" = … } printed the newline raw."""
    from gametable_core.config import parse
    from gametable_core.config_rules import ConfigError

    with pytest.raises(ConfigError) as err:
        parse({"camera": {"seat_colours": {"\n": "#ffffff"}}})
    assert "\n" not in str(err.value) and "camera.seat_colours: expected a seat number" in str(err.value)
