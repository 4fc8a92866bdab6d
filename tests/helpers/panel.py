"""Moved to the rig (gametable/testing/panel.py): kept for the camera tests until they import it."""

from gametable.testing.panel import NEW_GAME, PIN, Http

__all__ = ["NEW_GAME", "PIN", "Http"]
