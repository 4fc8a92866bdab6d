from __future__ import annotations

# The rig's fixtures (fake_clock, broker, table, stack, offline_daemon, daemon_process, wire:
# docs/testing.md) and the panel's browser fixtures.
pytest_plugins = ["gametable.testing.fixtures", "tests.helpers.browser"]
