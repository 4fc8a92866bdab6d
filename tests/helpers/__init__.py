"""Shared test helpers: real Mosquitto brokers, MQTT clients, fake clock."""
