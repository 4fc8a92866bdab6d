"""The table's one TOML config file, validated at load.

Every error names the key and what was expected, e.g.
``config error: panel.port: expected an integer from 1 to 65535, got 'eighty'``.
Unknown keys are errors too: a typo must not silently fall back to a default.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar


class ConfigError(ValueError):
    """A broken config; the message names the key."""


@dataclass(frozen=True)
class MqttConfig:
    host: str | None = None  # None: `gametable sim` starts a private Mosquitto
    port: int = 1883
    username: str | None = None
    password: str | None = None
    keepalive: int = 15


@dataclass(frozen=True)
class StrikerConfig:
    port: str | None = None
    baud: int = 115200
    silence_s: float = 3.0
    low_battery_v: float = 3.8  # the diode power path browns out at 3.6-3.7 V (hardware_docs/firmware.md)


@dataclass(frozen=True)
class GpioConfig:
    pin_factory: str = "mock"


@dataclass(frozen=True)
class JournalConfig:
    path: str = "gametable-journal.sqlite"


@dataclass(frozen=True)
class PanelConfig:
    host: str = "0.0.0.0"
    port: int = 8080
    pin: str = "0000"
    public_url: str | None = None
    mqtt_username: str | None = None  # the panel's own broker user (ACL: reads private views)
    mqtt_password: str | None = None


@dataclass(frozen=True)
class BeamConfig:
    """One IR break-beam: a horizontal `segment` a→b or a vertical `point` at `at` (table mm)."""

    id: str
    pin: int
    kind: str
    active_high: bool = False
    a: tuple[float, float] | None = None
    b: tuple[float, float] | None = None
    at: tuple[float, float] | None = None
    part: str | None = None  # the emitter/receiver pair, e.g. "Vishay TSSP4038 + TSAL6200"
    range_mm: float | None = None  # the part's rated emitter-to-receiver range
    span_mm: float | None = None  # a point beam's emitter-to-receiver distance (not in its geometry)

    @property
    def length_mm(self) -> float | None:
        """The emitter-to-receiver distance the part must reach: a segment's length, a point's span."""
        if self.kind == "segment" and self.a is not None and self.b is not None:
            return math.hypot(self.b[0] - self.a[0], self.b[1] - self.a[1])
        return self.span_mm


@dataclass(frozen=True)
class LedConfig:
    seats: dict[int, int] = field(default_factory=dict)
    status: tuple[int, int, int] | None = None


@dataclass(frozen=True)
class SimConfig:
    seed: int = 1
    speed: float = 1.0
    hz: int = 240


@dataclass(frozen=True)
class Config:
    table_id: str = "table1"
    mqtt: MqttConfig = MqttConfig()
    striker: StrikerConfig = StrikerConfig()
    strikers: dict[str, int] = field(default_factory=dict)
    gpio: GpioConfig = GpioConfig()
    journal: JournalConfig = JournalConfig()
    panel: PanelConfig = PanelConfig()
    beams: tuple[BeamConfig, ...] = ()
    leds: LedConfig = LedConfig()
    sim: SimConfig = SimConfig()
    source: str = "<defaults>"


# --- small typed readers: each names the key on failure -------------------------------------

def _fail(key: str, expected: str, value: Any) -> ConfigError:
    return ConfigError(f"config error: {key}: expected {expected}, got {value!r}")


def _table(data: dict[str, Any], key: str, prefix: str = "") -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise _fail(prefix + key, "a table ([section])", value)
    return value


def _check_keys(section: dict[str, Any], allowed: set[str], prefix: str) -> None:
    for key in section:
        if key not in allowed:
            raise ConfigError(
                f"config error: {prefix}{key}: unknown key (expected one of: {', '.join(sorted(allowed))})"
            )


def _str(section: dict[str, Any], key: str, prefix: str, default: str | None, *, nonempty: bool = True) -> Any:
    if key not in section:
        return default
    value = section[key]
    if not isinstance(value, str) or (nonempty and not value.strip()):
        raise _fail(prefix + key, "a non-empty string", value)
    return value


def _int(section: dict[str, Any], key: str, prefix: str, default: int, lo: int, hi: int) -> int:
    if key not in section:
        return default
    value = section[key]
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _fail(prefix + key, f"an integer from {lo} to {hi}", value)
    return value


# A number's default: a number, or None where absent means "unknown" (a beam part's range).
_Default = TypeVar("_Default", float, None)


def _float(section: dict[str, Any], key: str, prefix: str, default: _Default, lo: float, hi: float) -> float | _Default:
    if key not in section:
        return default
    value = section[key]
    if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
        raise _fail(prefix + key, f"a number from {lo} to {hi}", value)
    return float(value)


def _bool(section: dict[str, Any], key: str, prefix: str, default: bool) -> bool:
    if key not in section:
        return default
    value = section[key]
    if not isinstance(value, bool):
        raise _fail(prefix + key, "true or false", value)
    return value


def _point(section: dict[str, Any], key: str, prefix: str) -> tuple[float, float] | None:
    if key not in section:
        return None
    value = section[key]
    if (
        not isinstance(value, list)
        or len(value) != 2
        or any(isinstance(v, bool) or not isinstance(v, int | float) for v in value)
    ):
        raise _fail(prefix + key, "a point [x_mm, y_mm]", value)
    return (float(value[0]), float(value[1]))


GPIO_PINS = range(0, 28)
# GPIO0/1 are ID_SD/ID_SC, the HAT ID EEPROM's I2C bus: the firmware reads them at boot, so a beam
# or LED there misbehaves (hardware_docs/wiring.md; draw_wiring.py refuses them too).
HAT_EEPROM_PINS = {0: "ID_SD", 1: "ID_SC"}


def _gpio(section: dict[str, Any], key: str, prefix: str) -> int:
    """A GPIO a beam or LED may use: 2-27 (BCM), never the HAT EEPROM pins."""
    pin = _int(section, key, prefix, 0, 0, 27)
    if pin in HAT_EEPROM_PINS:
        raise ConfigError(f"config error: {prefix}{key}: GPIO{pin} is {HAT_EEPROM_PINS[pin]}, the HAT ID EEPROM "
                          "pin: use a GPIO from 2 to 27 (hardware_docs/wiring.md)")
    return pin
BEAM_KINDS = ("segment", "point")
PART_KEYS = {"part", "range_mm", "span_mm"}


def _beam_parts(section: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``[beam_parts.segment]`` / ``[beam_parts.point]``: the part every beam of that kind uses,
    unless the beam names its own (``part``, ``range_mm``, ``span_mm`` in ``[[beams]]``)."""
    _check_keys(section, set(BEAM_KINDS), "beam_parts.")
    out: dict[str, dict[str, Any]] = {}
    for kind in BEAM_KINDS:
        t = _table(section, kind, "beam_parts.")
        prefix = f"beam_parts.{kind}."
        _check_keys(t, PART_KEYS, prefix)
        out[kind] = {
            "part": _str(t, "part", prefix, None),
            "range_mm": _float(t, "range_mm", prefix, None, 1.0, 100_000.0),
            "span_mm": _float(t, "span_mm", prefix, None, 1.0, 100_000.0),
        }
    return out


def _check_reach(beam: BeamConfig, prefix: str, real_table: bool) -> None:
    """#2: a beam longer than its part's rated range reads "blocked" (or flickers) forever."""
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


def _beams(raw: Any, parts: dict[str, dict[str, Any]] | None = None, real_table: bool = False) -> tuple[BeamConfig, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise _fail("beams", "an array of tables ([[beams]])", raw)
    beams: list[BeamConfig] = []
    seen_ids: set[str] = set()
    seen_pins: set[int] = set()
    for i, item in enumerate(raw):
        prefix = f"beams[{i}]."
        if not isinstance(item, dict):
            raise _fail(f"beams[{i}]", "a table", item)
        _check_keys(item, {"id", "pin", "kind", "active_high", "a", "b", "at"} | PART_KEYS, prefix)
        beam_id = _str(item, "id", prefix, None)
        if beam_id is None:
            raise ConfigError(f"config error: {prefix}id: missing (every beam needs an id)")
        if beam_id in seen_ids:
            raise ConfigError(f"config error: {prefix}id: duplicate beam id {beam_id!r}")
        if "pin" not in item:
            raise ConfigError(f"config error: {prefix}pin: missing (the GPIO number the beam is wired to)")
        pin = _gpio(item, "pin", prefix)
        if pin in seen_pins:
            raise ConfigError(f"config error: {prefix}pin: GPIO{pin} is used by another beam")
        kind = _str(item, "kind", prefix, "segment")
        if kind not in ("segment", "point"):
            raise _fail(prefix + "kind", "'segment' or 'point'", kind)
        a, b, at = _point(item, "a", prefix), _point(item, "b", prefix), _point(item, "at", prefix)
        if kind == "segment" and (a is None or b is None):
            raise ConfigError(f"config error: {prefix}a/b: a segment beam needs both ends a = [x, y] and b = [x, y]")
        if kind == "point" and at is None:
            raise ConfigError(f"config error: {prefix}at: a point beam needs its position at = [x, y]")
        seen_ids.add(beam_id)
        seen_pins.add(pin)
        dflt = (parts or {}).get(kind, {})
        beam = BeamConfig(
            beam_id, pin, kind, _bool(item, "active_high", prefix, False), a, b, at,
            part=_str(item, "part", prefix, dflt.get("part")),
            range_mm=_float(item, "range_mm", prefix, dflt.get("range_mm"), 1.0, 100_000.0),
            span_mm=_float(item, "span_mm", prefix, dflt.get("span_mm"), 1.0, 100_000.0),
        )
        _check_reach(beam, prefix, real_table)
        beams.append(beam)
    return tuple(beams)


def _check_pins(beams: tuple[BeamConfig, ...], leds: LedConfig) -> None:
    """#13: a beam and an LED (or two LEDs) on one GPIO: the LED's output would fight the receiver."""
    used = {b.pin: f"beam {b.id!r}" for b in beams}
    outputs = [(f"leds.seats.{seat}", pin) for seat, pin in sorted(leds.seats.items())]
    outputs += [(f"leds.status[{i}]", pin) for i, pin in enumerate(leds.status or ())]
    for key, pin in outputs:
        if pin in used:
            raise ConfigError(f"config error: {key}: GPIO{pin} is already used by {used[pin]}; "
                              "every beam and LED needs its own GPIO")
        used[pin] = key


def _leds(section: dict[str, Any]) -> LedConfig:
    _check_keys(section, {"seats", "status"}, "leds.")
    seats_raw = section.get("seats", {})
    if not isinstance(seats_raw, dict):
        raise _fail("leds.seats", "a table of seat = GPIO pin", seats_raw)
    seats: dict[int, int] = {}
    for key in seats_raw:
        if not key.isdigit() or not 1 <= int(key) <= 6:
            raise _fail(f"leds.seats.{key}", "a seat number from 1 to 6 as the key", key)
        seats[int(key)] = _gpio(seats_raw, key, "leds.seats.")
    status = section.get("status")
    if status is not None:
        if (
            not isinstance(status, list)
            or len(status) != 3
            or any(isinstance(p, bool) or not isinstance(p, int) or p not in GPIO_PINS for p in status)
        ):
            raise _fail("leds.status", "three GPIO pins [red, green, blue]", status)
        status = tuple(_gpio({"status": p}, "status", "leds.") for p in status)
    return LedConfig(seats, status)


def parse(data: dict[str, Any], source: str = "<config>", *, layout_only: bool = False) -> Config:
    """Validate a decoded TOML document into a :class:`Config`.

    ``layout_only`` skips the one check that matters only to a table that plays (a real table with
    neither strikers nor a base station port): the drawings and the simulator read the shipped
    ``default-table.toml``, a real table's template that has no base station port yet.
    """
    top = {"table_id", "mqtt", "striker", "strikers", "gpio", "journal", "panel", "beams", "beam_parts", "leds",
           "sim"}
    _check_keys(data, top, "")
    table_id = _str(data, "table_id", "", "table1")
    if "/" in table_id or "+" in table_id or "#" in table_id:
        raise _fail("table_id", "a name without '/', '+' or '#' (it is part of MQTT topics)", table_id)

    m = _table(data, "mqtt")
    _check_keys(m, {"host", "port", "username", "password", "keepalive"}, "mqtt.")
    mqtt = MqttConfig(
        host=_str(m, "host", "mqtt.", None),
        port=_int(m, "port", "mqtt.", 1883, 1, 65535),
        username=_str(m, "username", "mqtt.", None),
        password=_str(m, "password", "mqtt.", None, nonempty=False),
        keepalive=_int(m, "keepalive", "mqtt.", 15, 5, 3600),
    )

    s = _table(data, "striker")
    _check_keys(s, {"port", "baud", "silence_s", "low_battery_v"}, "striker.")
    striker = StrikerConfig(
        port=_str(s, "port", "striker.", None),
        baud=_int(s, "baud", "striker.", 115200, 1200, 4_000_000),
        silence_s=_float(s, "silence_s", "striker.", 3.0, 0.1, 3600.0),
        low_battery_v=_float(s, "low_battery_v", "striker.", 3.8, 0.0, 5.0),
    )

    st = _table(data, "strikers")
    strikers: dict[str, int] = {}
    for sid in st:
        if not 0 < len(sid) <= 32:
            raise _fail(f"strikers.{sid}", "a striker id of 1 to 32 characters (as its frames say it)", sid)
        strikers[sid] = _int(st, sid, "strikers.", 1, 1, 6)

    g = _table(data, "gpio")
    _check_keys(g, {"pin_factory"}, "gpio.")
    factory = _str(g, "pin_factory", "gpio.", "mock")
    if factory not in ("mock", "lgpio", "rpigpio", "pigpio", "native"):
        raise _fail("gpio.pin_factory", "'lgpio' (on a Pi) or 'mock'", factory)
    real_table = factory != "mock"
    if real_table and not strikers and not striker.port and not layout_only:
        # without a base station no strike reaches the table and nobody can play; with one the host pairs
        # strikers from the bring-up page (the game waits until then)
        raise ConfigError(
            f"config error: strikers: empty on a real table (gpio.pin_factory = {factory!r}) and no [striker] "
            "port: set [striker] port to the base station's /dev/serial/by-id/... path and pair the strikers "
            "from the host's bring-up page (see hardware_docs/pi_setup.md)")
    beams = _beams(data.get("beams"), _beam_parts(_table(data, "beam_parts")), real_table)
    leds = _leds(_table(data, "leds"))
    _check_pins(beams, leds)

    j = _table(data, "journal")
    _check_keys(j, {"path"}, "journal.")
    p = _table(data, "panel")
    _check_keys(p, {"host", "port", "pin", "public_url", "mqtt_username", "mqtt_password"}, "panel.")
    pin = p.get("pin", "0000")
    if isinstance(pin, int) and not isinstance(pin, bool):
        pin = str(pin)
    if not isinstance(pin, str) or not pin.isdigit() or not 4 <= len(pin) <= 8:
        raise _fail("panel.pin", "4 to 8 digits, as a string", p.get("pin"))

    sim_t = _table(data, "sim")
    _check_keys(sim_t, {"seed", "speed", "hz"}, "sim.")

    return Config(
        table_id=table_id,
        mqtt=mqtt,
        striker=striker,
        strikers=strikers,
        gpio=GpioConfig(factory),
        journal=JournalConfig(_str(j, "path", "journal.", "gametable-journal.sqlite")),
        panel=PanelConfig(
            host=_str(p, "host", "panel.", "0.0.0.0"),
            port=_int(p, "port", "panel.", 8080, 1, 65535),
            pin=pin,
            public_url=_str(p, "public_url", "panel.", None),
            mqtt_username=_str(p, "mqtt_username", "panel.", None),
            mqtt_password=_str(p, "mqtt_password", "panel.", None, nonempty=False),
        ),
        beams=beams,
        leds=leds,
        sim=SimConfig(
            seed=_int(sim_t, "seed", "sim.", 1, 0, 2**63 - 1),
            speed=_float(sim_t, "speed", "sim.", 1.0, 0.01, 1000.0),
            hz=_int(sim_t, "hz", "sim.", 240, 30, 2000),
        ),
        source=source,
    )


def load(path: str | Path | None, *, layout_only: bool = False) -> Config:
    """Load and validate a config file; ``None`` gives the built-in defaults (``layout_only``: see :func:`parse`)."""
    if path is None:
        return parse({}, "<defaults>", layout_only=layout_only)
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"config error: cannot read {path}: {exc.strerror or exc}") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config error: {path} is not valid TOML: {exc}") from exc
    return parse(data, str(path), layout_only=layout_only)
