"""venue.toml (gametable/venue/config.py): what venue-setup writes loads; a bad key is named."""

from __future__ import annotations

import pytest

from gametable.venue.config import VenueConfigError, load, parse
from gametable.venue.setup import build


def test_the_config_venue_setup_writes_loads_with_the_database_beside_it(tmp_path):
    setup = build(["t1", "t2"], "10.0.0.5", 1883)
    path = tmp_path / "venue.toml"
    path.write_text(setup.files["venue.toml"])
    config = load(path)
    assert (config.mqtt_host, config.mqtt_username, config.tables) == ("10.0.0.5", "venue", ("t1", "t2"))
    assert config.mqtt_password == setup.passwords["venue"]
    assert config.database_url == f"sqlite:///{tmp_path / 'venue.sqlite'}"


@pytest.mark.parametrize("data, error", [
    ({"mqtt": {"port": "x"}}, "mqtt.port: expected int"),
    ({"board": {"port": 70000}}, "board.port: a TCP port"),
    ({"board": {"tables": ["a/b"]}}, "board.tables: 'a/b'"),
    ({"board": {"spectator": {"t1": "ftp://x"}}}, "board.spectator.t1"),
    ({"tables": []}, "unknown section"),
    ({"mqtt": 3}, r"\[mqtt\] must be a table"),
])
def test_bad_keys_are_named(data, error):
    with pytest.raises(VenueConfigError, match=error):
        parse(data)


def test_an_unreadable_or_broken_file_is_named(tmp_path):
    with pytest.raises(VenueConfigError, match="cannot read"):
        load(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[mqtt\n")
    with pytest.raises(VenueConfigError, match="not valid TOML"):
        load(bad)


def test_the_venue_command_names_a_bad_config_and_starts_nothing(tmp_path, capsys):
    from gametable.cli import main

    bad = tmp_path / "venue.toml"
    bad.write_text('[board]\nport = "8090"\n')
    assert main(["venue", "--config", str(bad)]) == 2
    assert "board.port: expected int" in capsys.readouterr().err
