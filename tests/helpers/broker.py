"""Real Mosquitto for tests: the package's own starter (gametable.broker), re-exported."""

from gametable.broker import Broker, free_port, mosquitto_binary, start_broker

__all__ = ["Broker", "free_port", "mosquitto_binary", "start_broker"]
