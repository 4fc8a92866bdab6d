"""gametable referee: table, journal, daemon, deadlines, MQTT bridge, games (one package each), bots."""

__version__ = "0.1.0"
