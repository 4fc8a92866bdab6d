from __future__ import annotations

import os

import pytest

from gametable_core.clock import FakeClock
from tests.helpers.broker import Broker, start_broker

pytest_plugins = ["tests.helpers.browser"]  # the panel's browser fixtures

# A CI machine's temp folder may be a tmpfs: the daemons the tests start journal there on purpose
# (gametable/startup_checks.py; tests/test_startup_checks.py clears it to see the refusal).
os.environ.setdefault("GAMETABLE_VOLATILE_JOURNAL_OK", "1")


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def broker() -> Broker:
    """A real Mosquitto on a free port, private to one test."""
    b = start_broker()
    yield b
    b.close()


@pytest.fixture
def offline_daemon(tmp_path, fake_clock):
    """The real daemon on a FakeClock with no broker: for its timers and command handling."""
    from controller.daemon import Daemon
    from gametable_core.config import parse

    d = Daemon(parse({"journal": {"path": str(tmp_path / "j.sqlite")}}), fake_clock)
    d.start(connect=False)
    yield d
    d.stop()
