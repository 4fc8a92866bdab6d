"""The table's one TOML config file, validated at load.

Every error names the key and what was expected, e.g.
``config error: panel.port: expected an integer from 1 to 65535, got 'eighty'``.
Unknown keys are errors too: a typo must not silently fall back to a default.

The schema is declared once: each section is a dataclass whose fields are its keys, and each
field's ``key(default, rule)`` (gametable_core/config_rules.py) gives the default and the rule that validates
it and says what was expected. The readers, the unknown-key lists and the docs check (tests/test_config.py) all read
these declarations; only what spans keys (a beam's reach, pins used twice, a real table's
strikers) is checked by hand in :func:`parse`.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from gametable_core import table_geometry as geo
from gametable_core.config_rules import (
    BOOL,
    POINT,
    REFUSED,
    ConfigError,
    Rule,
    check_keys,
    integer,
    is_int,
    is_number,
    key,
    keys_of,
    number,
    one_of,
    read_keys,
    read_section,
    refusal,
    table,
    text,
)

# --- rules with more to say than "expected ..." -----------------------------------------------

GPIO_PINS = range(0, 28)
# GPIO0/1 are ID_SD/ID_SC, the HAT ID EEPROM's I2C bus: the firmware reads them at boot, so a beam
# or LED there misbehaves (hardware_docs/wiring.md; draw_wiring.py refuses them too).
HAT_EEPROM_PINS = {0: "ID_SD", 1: "ID_SC"}


def _gpio_pin(value: Any, where: str) -> Any:
    """A GPIO a beam or LED may use: 2-27 (BCM), never the HAT EEPROM pins."""
    pin = integer(0, 27).read(value, where)
    if pin in HAT_EEPROM_PINS:
        raise ConfigError(f"config error: {where}: GPIO{pin} is {HAT_EEPROM_PINS[pin]}, the HAT ID EEPROM "
                          "pin: use a GPIO from 2 to 27 (hardware_docs/wiring.md)")
    return pin


GPIO = Rule("an integer from 0 to 27", _gpio_pin)


def _at_key(where: str, key: object) -> str:
    """Where a refused table key sits: ``where.key``, or ``where`` alone for a key that is not
    plain letters and digits (a key like "\n" would break the message; the refusal quotes it)."""
    return f"{where}.{key}" if str(key).isalnum() else where


def _by_seat(raw: dict[str, Any], where: str, rule: Rule) -> dict[int, Any]:
    """A table keyed by seat ("1" .. "6"), each value by ``rule``."""
    out: dict[int, Any] = {}
    for seat, value in raw.items():
        if not seat.isdigit() or not 1 <= int(seat) <= 6:
            raise refusal(_at_key(where, seat), "a seat number from 1 to 6 as the key", seat)
        out[int(seat)] = rule.read(value, f"{where}.{seat}")
    return out


def _seat_table(expected: str, rule: Rule, base: dict[int, Any] | None = None) -> Rule:
    """A by-seat table; ``base``: the seats not given keep these values."""
    return Rule(expected, lambda v, k: {**(base or {}), **_by_seat(v, k, rule)} if isinstance(v, dict) else REFUSED)


def _table_id(value: Any, where: str) -> Any:
    name = text().read(value, where)
    return REFUSED if "/" in name or "+" in name or "#" in name else name


def _panel_pin(value: Any, _: str) -> Any:
    pin = str(value) if is_int(value) else value  # pin = 1234 is read as "1234"
    return pin if isinstance(pin, str) and pin.isdigit() and 4 <= len(pin) <= 8 else REFUSED


def _status_pins(value: Any, where: str) -> Any:
    if not isinstance(value, list) or len(value) != 3 or any(not is_int(p) or p not in GPIO_PINS for p in value):
        return REFUSED
    return tuple(GPIO.read(p, where) for p in value)


# --- the sections: each field is a key, with its default and its rule --------------------------

@dataclass(frozen=True)
class MqttConfig:
    host: str | None = key(None, text())  # None: `gametable sim` starts a private Mosquitto
    port: int = key(1883, integer(1, 65535))
    username: str | None = key(None, text())
    password: str | None = key(None, text(nonempty=False))
    keepalive: int = key(15, integer(5, 3600))


@dataclass(frozen=True)
class StrikerConfig:
    port: str | None = key(None, text())
    baud: int = key(115200, integer(1200, 4_000_000))
    silence_s: float = key(3.0, number(0.1, 3600.0))
    # the diode power path browns out at 3.6-3.7 V (hardware_docs/firmware.md)
    low_battery_v: float = key(3.8, number(0.0, 5.0))


# the gpiozero factories sensors/gpio.py can make; "lgpio" on a Pi, "mock" elsewhere
PIN_FACTORIES = ("lgpio", "rpigpio", "pigpio", "native", "mock")


@dataclass(frozen=True)
class GpioConfig:
    pin_factory: str = key("mock", one_of(*PIN_FACTORIES, notes={"lgpio": "on a Pi", "mock": "off a Pi"}))


@dataclass(frozen=True)
class JournalConfig:
    path: str = key("gametable-journal.sqlite", text())


@dataclass(frozen=True)
class PanelConfig:
    host: str = key("0.0.0.0", text())
    port: int = key(8080, integer(1, 65535))
    pin: str = key("0000", Rule("4 to 8 digits, as a string", _panel_pin))
    public_url: str | None = key(None, text())
    mqtt_username: str | None = key(None, text())  # the panel's own broker user (ACL: reads private views)
    mqtt_password: str | None = key(None, text(nonempty=False))
    # a seat whose phone has had no stream open this long is named to the host (docs/phones.md)
    absent_s: float = key(120.0, number(5.0, 86400.0))


def _venue_url(value: Any, _: str) -> Any:
    return value.rstrip("/") if isinstance(value, str) and re.match(r"^https?://[^/\s]+(/\S*)?$", value) else REFUSED


@dataclass(frozen=True)
class VenueLinkConfig:
    """The venue this table belongs to (hardware_docs/multi_table.md): its lobby lists the venue's players."""

    url: str | None = key(None, Rule("the venue board's address, e.g. \"http://venue.local:8090\"", _venue_url))


BEAM_KINDS = ("segment", "point")
BEAM_KIND = one_of(*BEAM_KINDS)
PART_KEYS = ("part", "range_mm", "span_mm")  # also `[beam_parts.<kind>]`: every beam of that kind


@dataclass(frozen=True)
class BeamConfig:
    """One IR break-beam: a horizontal `segment` a→b or a vertical `point` at `at` (table mm)."""

    id: str = key(rule=text(), missing="every beam needs an id")
    pin: int = key(rule=GPIO, missing="the GPIO number the beam is wired to")
    kind: str = key("segment", BEAM_KIND)
    active_high: bool = key(False, BOOL)
    a: tuple[float, float] | None = key(None, POINT)
    b: tuple[float, float] | None = key(None, POINT)
    at: tuple[float, float] | None = key(None, POINT)
    part: str | None = key(None, text())  # the emitter/receiver pair, e.g. "Vishay TSSP4038 + TSAL6200"
    range_mm: float | None = key(None, number(1.0, 100_000.0))  # the part's rated emitter-to-receiver range
    span_mm: float | None = key(None, number(1.0, 100_000.0))  # a point beam's emitter-to-receiver distance
    # a goal point under a foil dot fixed for good, off the playing surface: it must always read
    # blocked, so when it reads clear the goal sensors' carrier, emitters or cable have failed and
    # "no coin died" cannot be proven (hardware_docs/beam_layout.md, "Failing safe")
    reference: bool = key(False, BOOL)

    @property
    def length_mm(self) -> float | None:
        """The emitter-to-receiver distance the part must reach: a segment's length, a point's span."""
        if self.kind == "segment" and self.a is not None and self.b is not None:
            return math.hypot(self.b[0] - self.a[0], self.b[1] - self.a[1])
        return self.span_mm


@dataclass(frozen=True)
class LedConfig:
    seats: dict[int, int] = key(rule=_seat_table("a table of seat = GPIO pin", GPIO), factory=dict)
    status: tuple[int, int, int] | None = key(None, Rule("three GPIO pins [red, green, blue]", _status_pins))


@dataclass(frozen=True)
class SimConfig:
    seed: int = key(1, integer(0, 2**63 - 1))
    speed: float = key(1.0, number(0.01, 1000.0))
    hz: int = key(240, integer(30, 2000))


# --- [camera]: the optional overhead camera (docs/camera.md CAM-1, CAM-2) -----------------------

PICAMERA2 = "picamera2"  # the Pi camera through libcamera (Debian's python3-picamera2)
MARKER_IDS = ("0", "1", "2", "3")  # CAM-1: ArUco DICT_4X4_50, ids 0-3
DEFAULT_THRESHOLD = 0.98  # CAM-2: a fact below this confidence is unknown (the referee asks, CW-8)
# CAM-1: outside the playing surface (0..425 x 0..625): 40 mm markers lying flat on the board 75 mm
# beyond each short end of the surface, 40 mm in from the long sides (hardware_docs/camera.md "Where
# the markers go"): not on the rail tops (out of the surface's plane), not at the corners (the rail
# posts hang there), and no coin at rest on the surface ever covers one
DEFAULT_MARKERS: dict[str, tuple[float, float]] = {
    "0": (40.0, -75.0),
    "1": (geo.WIDTH_MM - 40.0, -75.0),
    "2": (geo.WIDTH_MM - 40.0, geo.LENGTH_MM + 75.0),
    "3": (40.0, geo.LENGTH_MM + 75.0),
}
# CAM-2 identity: the colour a person names each seat's coin by -- colours a real group has, that
# stand out on light wood (red, blue, green, yellow, black). Two seats may share one (two reds): then
# one coin carries a white sticker dot (``seat_marks``), as seat 6's does by default
DEFAULT_SEAT_COLOURS: dict[int, str] = {1: "#d03030", 2: "#3050d0", 3: "#30a040", 4: "#e0c020", 5: "#202020",
                                        6: "#d03030"}
DEFAULT_SEAT_MARKS: dict[int, int] = {6: 1}


def _camera_device(value: Any, where: str) -> Any:
    if is_int(value):
        if not 0 <= value <= 63:
            raise refusal(where, "a V4L2 index from 0 to 63", value)
        return value
    if not isinstance(value, str):
        return REFUSED
    if value != PICAMERA2 and not value.startswith("/"):
        raise refusal(where, f"{PICAMERA2!r} or an absolute V4L2 device path such as '/dev/video0'", value)
    return value


def _camera_resolution(value: Any, _: str) -> Any:
    if not isinstance(value, list) or len(value) != 2 or any(not is_int(v) or not 64 <= v <= 8192 for v in value):
        return REFUSED
    return (value[0], value[1])


def _finite_number(value: Any) -> bool:
    return is_number(value) and math.isfinite(value)


def _camera_markers(value: Any, where: str) -> Any:
    """CAM-1: all four markers, each outside the playing surface, in table mm."""
    if not isinstance(value, dict):
        return REFUSED
    for marker in value:
        if marker not in MARKER_IDS:
            raise refusal(_at_key(where, marker), "a marker id 0, 1, 2 or 3 (ArUco DICT_4X4_50) as the key", marker)
    out: dict[str, tuple[float, float]] = {}
    for marker in MARKER_IDS:
        if marker not in value:
            raise refusal(f"{where}.{marker}", f"the centre [x_mm, y_mm] of marker {marker} (all four are needed)", None)
        p = value[marker]
        if not isinstance(p, list) or len(p) != 2 or not all(_finite_number(v) for v in p):
            raise refusal(f"{where}.{marker}", "a point [x_mm, y_mm]", p)
        point = (float(p[0]), float(p[1]))
        if geo.SURFACE.contains_point(point):
            raise refusal(f"{where}.{marker}", "a point outside the playing surface (0..425 x 0..625 mm): "
                        "a coin would cover a marker on the surface", p)
        out[marker] = point
    if len(set(out.values())) < 4:
        raise refusal(where, "four different points", value)
    return out


COLOUR = Rule("a colour '#rrggbb'", lambda v, _: v.lower()
              if isinstance(v, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", v) else REFUSED)


@dataclass(frozen=True)
class CameraConfig:
    """The overhead camera: where frames come from and how the table is found in them."""

    # "picamera2", a V4L2 device path ("/dev/video0") or index (0)
    device: str | int = key(PICAMERA2, Rule(
        f"{PICAMERA2!r}, a V4L2 device path such as '/dev/video0' or an index such as 0", _camera_device))
    # the analysis resolution (Camera Module 3 at 120 fps)
    resolution: tuple[int, int] = key((1536, 864), Rule("[width, height] in pixels, each from 64 to 8192",
                                                        _camera_resolution))
    fps: int = key(120, integer(1, 1000))  # CAM-1: >= 100 during a strike
    markers: dict[str, tuple[float, float]] = key(
        rule=Rule('a table of the four ArUco markers, e.g. { "0" = [-35, -35], ... }', _camera_markers),
        factory=lambda: dict(DEFAULT_MARKERS))
    marker_size_mm: float = key(40.0, number(10.0, 200.0))  # the printed side of one marker (hardware_docs/marker_sheet.svg)
    # the lens's height above the playing surface, measured at the mount (hardware_docs/camera.md):
    # a coin's 2 mm top face is seen outward by 2 / height of its distance from below the lens
    height_mm: float = key(620.0, number(100.0, 5000.0))
    confidence_threshold: float = key(DEFAULT_THRESHOLD, number(0.5, 1.0))
    # by seat; the seats not given keep their default colour
    seat_colours: dict[int, str] = key(rule=_seat_table('a table by seat, e.g. { "1" = "#d32f2f" }', COLOUR,
                                                        DEFAULT_SEAT_COLOURS),
                                       factory=lambda: dict(DEFAULT_SEAT_COLOURS))
    # seat -> white sticker dots; given, it replaces the default
    seat_marks: dict[int, int] = key(rule=_seat_table('a table by seat, e.g. { "1" = 1 }', integer(0, 4)),
                                     factory=lambda: dict(DEFAULT_SEAT_MARKS))

    @property
    def backend(self) -> str:
        """``"picamera2"`` or ``"v4l2"`` (OpenCV's VideoCapture on a USB webcam or a file)."""
        return PICAMERA2 if self.device == PICAMERA2 else "v4l2"


@dataclass(frozen=True)
class Config:
    """The whole file: its top-level keys and sections (``source`` is where it came from)."""

    table_id: str = key("table1", Rule("a name without '/', '+' or '#' (it is part of MQTT topics)", _table_id))
    mqtt: MqttConfig = MqttConfig()
    striker: StrikerConfig = StrikerConfig()
    strikers: dict[str, int] = field(default_factory=dict)
    gpio: GpioConfig = GpioConfig()
    journal: JournalConfig = JournalConfig()
    panel: PanelConfig = PanelConfig()
    beams: tuple[BeamConfig, ...] = ()
    leds: LedConfig = LedConfig()
    sim: SimConfig = SimConfig()
    venue: VenueLinkConfig = VenueLinkConfig()
    camera: CameraConfig | None = None  # None: no camera, the beams and phones as before
    source: str = "<defaults>"


# The [section]s read by their declaration alone, by name (the docs check reads this too); a new key
# is one line in its section's dataclass (and its row in README.md's table). [camera] alone is optional.
SECTIONS: dict[str, type] = {"mqtt": MqttConfig, "striker": StrikerConfig, "gpio": GpioConfig,
                             "journal": JournalConfig, "panel": PanelConfig, "leds": LedConfig, "sim": SimConfig,
                             "venue": VenueLinkConfig, "camera": CameraConfig}
TOP_KEYS = {f.name for f in fields(Config)} - {"source"} | {"beam_parts"}


# --- what spans keys: parts, reach, pins, strikers ---------------------------------------------

def _beam_parts(section: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``[beam_parts.segment]`` / ``[beam_parts.point]``: the part every beam of that kind uses,
    unless the beam names its own (``part``, ``range_mm``, ``span_mm`` in ``[[beams]]``)."""
    check_keys(section, set(BEAM_KINDS), "beam_parts.")
    part_keys = {name: f for name, f in keys_of(BeamConfig).items() if name in PART_KEYS}
    return {kind: read_keys(part_keys, table(section, kind, "beam_parts."), f"beam_parts.{kind}.",
                            defaults=dict.fromkeys(PART_KEYS))
            for kind in BEAM_KINDS}


def _check_reach(beam: BeamConfig, prefix: str, real_table: bool) -> None:
    """A beam longer than its part's rated range reads "blocked" (or flickers) forever."""
    length = beam.length_mm
    where = "[[beams]] range_mm or [beam_parts." + beam.kind + "] range_mm"
    if beam.range_mm is None:
        if real_table and beam.kind == "segment":
            raise ConfigError(
                f"config error: {prefix}range_mm: missing for beam {beam.id!r} on a real table: give its part's "
                f"rated range in {where} (the beam spans {length:.0f} mm; see hardware_docs/bill_of_materials.md)")
        return
    if length is not None and length > beam.range_mm:
        part = f" ({beam.part})" if beam.part else ""
        raise ConfigError(
            f"config error: {prefix}range_mm: beam {beam.id!r} spans {length:.0f} mm, more than its part's rated "
            f"range of {beam.range_mm:.0f} mm{part}; use a longer-range part (hardware_docs/bill_of_materials.md) "
            "or shorten the beam")


def _beams(raw: Any, parts: dict[str, dict[str, Any]], real_table: bool) -> tuple[BeamConfig, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise refusal("beams", "an array of tables ([[beams]])", raw)
    beams: list[BeamConfig] = []
    for i, item in enumerate(raw):
        prefix = f"beams[{i}]."
        if not isinstance(item, dict):
            raise refusal(f"beams[{i}]", "a table", item)
        kind = BEAM_KIND.read(item.get("kind", "segment"), prefix + "kind")  # which parts are its defaults
        beam = read_section(BeamConfig, item, prefix, defaults=parts[kind])
        if any(b.id == beam.id for b in beams):
            raise ConfigError(f"config error: {prefix}id: duplicate beam id {beam.id!r}")
        if any(b.pin == beam.pin for b in beams):
            raise ConfigError(f"config error: {prefix}pin: GPIO{beam.pin} is used by another beam")
        if kind == "segment" and (beam.a is None or beam.b is None):
            raise ConfigError(f"config error: {prefix}a/b: a segment beam needs both ends a = [x, y] and b = [x, y]")
        if kind == "point" and beam.at is None:
            raise ConfigError(f"config error: {prefix}at: a point beam needs its position at = [x, y]")
        _check_reach(beam, prefix, real_table)
        beams.append(beam)
    return tuple(beams)


def _check_pins(beams: tuple[BeamConfig, ...], leds: LedConfig) -> None:
    """A beam and an LED (or two LEDs) on one GPIO: the LED's output would fight the receiver."""
    used = {b.pin: f"beam {b.id!r}" for b in beams}
    outputs = [(f"leds.seats.{seat}", pin) for seat, pin in sorted(leds.seats.items())]
    outputs += [(f"leds.status[{i}]", pin) for i, pin in enumerate(leds.status or ())]
    for key_name, pin in outputs:
        if pin in used:
            raise ConfigError(f"config error: {key_name}: GPIO{pin} is already used by {used[pin]}; "
                              "every beam and LED needs its own GPIO")
        used[pin] = key_name


def _strikers(section: dict[str, Any]) -> dict[str, int]:
    """``[strikers]``: optional seats by striker id (any id a striker's frames name)."""
    for sid in section:
        if not 0 < len(sid) <= 32:
            raise refusal(f"strikers.{sid}", "a striker id of 1 to 32 characters (as its frames say it)", sid)
    return {sid: integer(1, 6).read(seat, f"strikers.{sid}") for sid, seat in section.items()}


def _camera(section: Any) -> CameraConfig | None:
    """``[camera]`` -> :class:`CameraConfig`; None when the section is absent (no camera)."""
    if section is None:
        return None
    if not isinstance(section, dict):
        raise refusal("camera", "a table ([camera])", section)
    return read_section(CameraConfig, section, "camera.")


def parse(data: dict[str, Any], source: str = "<config>", *, layout_only: bool = False) -> Config:
    """Validate a decoded TOML document into a :class:`Config`.

    ``layout_only`` skips the one check that matters only to a table that plays (a real table with
    neither strikers nor a base station port): the drawings and the simulator read the shipped
    ``default-table.toml``, a real table's template that has no base station port yet.
    """
    check_keys(data, TOP_KEYS, "")
    top = keys_of(Config)  # the top-level keys that are values, not [sections]
    values = read_keys(top, {name: value for name, value in data.items() if name in top}, "")
    sections: dict[str, Any] = {name: read_section(cls, table(data, name), name + ".")
                                for name, cls in SECTIONS.items() if name != "camera"}  # [camera]: below
    strikers = _strikers(table(data, "strikers"))
    factory = sections["gpio"].pin_factory
    real_table = factory != "mock"
    if real_table and not strikers and not sections["striker"].port and not layout_only:
        # without a base station no strike reaches the table and nobody can play; with one the host pairs
        # strikers from the bring-up page (the game waits until then)
        raise ConfigError(
            f"config error: strikers: empty on a real table (gpio.pin_factory = {factory!r}) and no [striker] "
            "port: set [striker] port to the base station's /dev/serial/by-id/... path and pair the strikers "
            "from the host's bring-up page (see hardware_docs/pi_setup.md)")
    beams = _beams(data.get("beams"), _beam_parts(table(data, "beam_parts")), real_table)
    _check_pins(beams, sections["leds"])
    return Config(
        **values,
        strikers=strikers,
        beams=beams,
        camera=_camera(data.get("camera")),
        source=source,
        **sections,
    )


def load(path: str | Path | None, *, layout_only: bool = False) -> Config:
    """Load and validate a config file; ``None`` gives the built-in defaults (``layout_only``: see :func:`parse`)."""
    if path is None:
        return parse({}, "<defaults>", layout_only=layout_only)
    path = Path(path)
    try:
        toml_text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"config error: cannot read {path}: {exc.strerror or exc}") from exc
    try:
        data = tomllib.loads(toml_text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config error: {path} is not valid TOML: {exc}") from exc
    return parse(data, str(path), layout_only=layout_only)
