"""Moved to the rig (gametable/testing/recorder.py): kept for the camera tests until they import it."""

from gametable.testing.recorder import Message, Recorder

__all__ = ["Message", "Recorder"]
