"""Registers the CW-7 modes built on Classic (imported by the package when present)."""

from __future__ import annotations

from controller.games.coinwar import register_mode
from controller.games.coinwar.biohazard import Biohazard
from controller.games.coinwar.football import Football
from controller.games.coinwar.infinite import Infinite
from controller.games.coinwar.three_kingdoms import ThreeKingdoms

for _mode in (Infinite(), Biohazard(), Football(), ThreeKingdoms()):
    register_mode(_mode)
