"""The venue tests' real parts: a venue Mosquitto (tables t1, t2) with exactly the files of
``gametable venue-setup``, table t1 bridged into it, and the venue service on it."""

from __future__ import annotations

import pytest

from gametable.testing.venue import bridged_table, start_venue_broker
from gametable.venue.config import VenueConfig
from gametable.venue.service import VenueService
from tests.helpers import postgres


@pytest.fixture(scope="session")
def postgres_cluster():
    """One real PostgreSQL for the session (skipped, with the reason, where it cannot start)."""
    reason = postgres.why_not()
    if reason:
        pytest.skip(reason)
    cluster = postgres.Postgres()
    yield cluster
    cluster.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """The venue's two databases through the same code (gametable/venue/store.py): an empty one each."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'venue.sqlite'}"
    return request.getfixturevalue("postgres_cluster").new_database()


@pytest.fixture
def venue():
    v = start_venue_broker(["t1", "t2"])
    yield v
    v.broker.close()


@pytest.fixture
def table(venue, tmp_path):
    t = bridged_table(venue, "t1", tmp_path / "t1.sqlite")
    yield t
    t.close()


@pytest.fixture
def service(venue, tmp_path):
    login = venue.login("venue")
    config = VenueConfig(mqtt_host=venue.broker.host, mqtt_port=venue.broker.port,
                         mqtt_username=login["username"], mqtt_password=login["password"],
                         client_id="venue-test", database_url=f"sqlite:///{tmp_path / 'venue.sqlite'}",
                         board_port=0, tables=("t1", "t2"), spectator={"t1": "http://t1.local:8080/table"})
    s = VenueService(config).start()
    assert s.connected.wait(10)
    yield s
    s.stop()
