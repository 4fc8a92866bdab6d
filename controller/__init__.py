"""gametable controller: daemon, rules engines, journal, LEDs, MQTT bridge, config, CLI."""

__version__ = "0.1.0"
