"""Shared pieces below everything: the clock, the table config and geometry, the serial frames, LED patterns."""
