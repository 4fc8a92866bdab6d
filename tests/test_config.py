"""Config: one TOML file, validated at load, every error names the key."""

from __future__ import annotations

import pytest

from controller.config import ConfigError, load, parse


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
    ('[gpio]\npin_factory = "magic"', "gpio.pin_factory: expected 'lgpio' (on a Pi) or 'mock'"),
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
