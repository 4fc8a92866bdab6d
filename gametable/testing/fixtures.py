"""The rig's pytest fixtures (a plugin: ``pytest_plugins = ["gametable.testing.fixtures"]``).

A test names the table it needs instead of building it (docs/testing.md)::

    def test_x(table):
        t = table(game="coinwar", panel=True, serial=True)

Everything a fixture starts is stopped at the end of the test, newest first.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from gametable.broker import Broker, start_broker
from gametable.testing.daemon_proc import DaemonProcess
from gametable.testing.recorder import Recorder
from gametable.testing.table import RigTable, start_stack, start_table
from gametable_core.clock import FakeClock

# A CI machine's temp folder may be a tmpfs: the daemons the tests start journal there on purpose
# (gametable/startup_checks.py; tests/test_startup_checks.py clears it to see the refusal).
os.environ.setdefault("GAMETABLE_VOLATILE_JOURNAL_OK", "1")


@pytest.fixture
def fake_clock() -> FakeClock:
    """The one clock of the test's process: time moves only when the test advances it."""
    return FakeClock()


@pytest.fixture
def broker() -> Iterator[Broker]:
    """A real Mosquitto on a free port, private to one test."""
    b = start_broker()
    yield b
    b.close()


@pytest.fixture
def table(broker: Broker, tmp_path: Path) -> Iterator[Callable[..., RigTable]]:
    """``table(game=..., panel=..., serial=..., clock=..., table_id=..., config=...)`` starts a
    table on the test's broker (gametable/testing/table.py ``start_table``); several may be asked
    for, each journals in its own folder."""
    started: list[RigTable] = []

    def make(**kwargs: Any) -> RigTable:
        folder = tmp_path / f"table{len(started) + 1}"
        folder.mkdir()
        rig = start_table(broker, folder / "journal.sqlite", **kwargs)
        started.append(rig)
        return rig

    yield make
    for rig in reversed(started):
        rig.stop()


@pytest.fixture
def stack(broker: Broker, tmp_path: Path) -> Iterator[RigTable]:
    """The daemon and the served panel (no phone): what the panel's browser tests stand on."""
    s = start_stack(broker, str(tmp_path / "journal.sqlite"))
    yield s
    s.stop()


@pytest.fixture
def offline_daemon(tmp_path: Path, fake_clock: FakeClock) -> Iterator[Any]:
    """The real daemon on a FakeClock with no broker: for its timers and command handling."""
    from controller.daemon import Daemon
    from gametable_core.config import parse

    d = Daemon(parse({"journal": {"path": str(tmp_path / "j.sqlite")}}), fake_clock)
    d.start(connect=False)
    yield d
    d.stop()


@pytest.fixture
def daemon_process(broker: Broker, tmp_path: Path) -> Iterator[DaemonProcess]:
    """The real daemon as a process (``gametable run --no-hardware``) on the test's broker, not yet
    started: ``start`` / ``kill`` / ``terminate`` it as often as the test likes."""
    proc = DaemonProcess(tmp_path / "daemon", broker.host, broker.port)
    yield proc
    proc.kill()


@pytest.fixture
def wire(broker: Broker) -> Iterator[Recorder]:
    """Everything written on table ``t1``'s topics (what the daemon or the simulator would act on)."""
    r = Recorder(broker.host, broker.port, "gametable/t1/#")
    yield r
    r.close()
