"""The table the simulator and the virtual sensors use when a config names none: the beam layout
and LEDs of ``controller/data/default-table.toml`` (one place, below both ``sim`` and
``sim_rig``). Read for its layout only: the file is a real table's template, with no base station
port yet (``gametable run`` refuses it as it is)."""

from __future__ import annotations

from pathlib import Path

from gametable_core.config import BeamConfig, LedConfig, load

DEFAULT_TABLE = Path(__file__).parent / "data" / "default-table.toml"


def default_beams() -> tuple[BeamConfig, ...]:
    """The beam layout of controller/data/default-table.toml."""
    return load(DEFAULT_TABLE, layout_only=True).beams


def default_leds() -> LedConfig:
    """The seat and status LEDs of controller/data/default-table.toml."""
    return load(DEFAULT_TABLE, layout_only=True).leds
