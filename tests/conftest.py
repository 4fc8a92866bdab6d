from __future__ import annotations

import pytest

from controller.clock import FakeClock
from tests.helpers.broker import Broker, start_broker

pytest_plugins = ["tests.helpers.browser"]  # the panel's browser fixtures


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def broker() -> Broker:
    """A real Mosquitto on a free port, private to one test."""
    b = start_broker()
    yield b
    b.close()
