"""Moved to the rig (gametable/testing/pty.py): kept for the camera tests until they import it."""

from gametable.testing.pty import PtyPair, wait_for

__all__ = ["PtyPair", "wait_for"]
