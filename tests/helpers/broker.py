"""Real Mosquitto for tests: the package's own starter (controller.broker), re-exported."""

from controller.broker import Broker, free_port, mosquitto_binary, start_broker

__all__ = ["Broker", "free_port", "mosquitto_binary", "start_broker"]
