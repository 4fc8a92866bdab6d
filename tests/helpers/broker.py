"""Real Mosquitto is gametable/broker.py: kept for the camera tests until they import it."""

from gametable.broker import Broker, free_port, mosquitto_binary, start_broker

__all__ = ["Broker", "free_port", "mosquitto_binary", "start_broker"]
