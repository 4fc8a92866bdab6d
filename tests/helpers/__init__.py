"""Test-only helpers (browser, oracles, engine tables); the shared rig is gametable/testing/ (docs/testing.md)."""
