"""Seat tickets (gametable/venue/tickets.py): a phone proves its venue profile at a table without
the profile's key leaving the venue's origin; a seat is bound only by a ticket for that table, for
one game; a bare profile id (public in every lobby) binds nothing."""

from __future__ import annotations

import functools
import json
from urllib.parse import urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gametable.testing.venue_feed import finish
from gametable.venue.board import PROFILE_COOKIE, Changes, create_board
from gametable.venue.config import VenueConfig
from gametable.venue.ingest import Venue
from gametable.venue.profiles import Profiles
from gametable.venue.ratings import league
from gametable.venue.scheduler import Scheduler
from gametable.venue.store import Store
from gametable.venue.tickets import TICKET_S, TicketError, Tickets


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def venue(tmp_path):
    clock = Clock()
    store = Store(f"sqlite:///{tmp_path / 'v.sqlite'}")
    return Venue(store, clock), Profiles(store, clock), clock


def _new_game(venue: Venue, table: str, game_id: str, players: list[dict]) -> None:
    venue.on_message(f"gametable/{table}/events", json.dumps(
        {"seq": 1, "input": {"type": "new_game", "id": game_id, "game": "coup", "players": players}}).encode())


def _finish(venue: Venue, table: str, game_id: str, players: list[dict], winner: list[int]) -> None:
    finish(venue, table, game_id, players, {"game": "coup", "phase": "over", "winner": winner,
                                            "players": [{"seat": p["seat"], "name": p["name"]} for p in players]},
           ts=venue.clock())


def _counted(venue: Venue) -> dict[str, tuple[str, int, int]]:
    return {s.player: (s.name, s.played, s.won) for s in league(venue.store.results())}


def test_only_a_ticket_for_this_table_binds_a_seat_and_a_bare_profile_id_binds_nothing(venue):
    venue, profiles, _ = venue
    ann, _key = profiles.create("Ann")
    _finish(venue, "t1", "g1", [{"seat": 1, "name": "Mallory", "profile": ann.id}, {"seat": 2, "name": "Bo"}], [1])
    _finish(venue, "t1", "g2", [{"seat": 1, "name": "Mallory", "venue_ticket": venue.tickets.issue(ann.id, "t2")},
                                {"seat": 2, "name": "Bo"}], [1])
    assert ann.id not in _counted(venue)  # neither the public id nor another table's ticket
    _finish(venue, "t1", "g3", [{"seat": 1, "name": "ann", "venue_ticket": venue.tickets.issue(ann.id, "t1")},
                                {"seat": 2, "name": "Bo"}], [1])
    assert _counted(venue)[ann.id] == ("Ann", 1, 1)


def test_a_ticket_copied_from_the_public_events_binds_no_other_game(venue):
    venue, profiles, _ = venue
    ann, _key = profiles.create("Ann")
    ticket = venue.tickets.issue(ann.id, "t1")
    seats = [{"seat": 1, "name": "Ann", "venue_ticket": ticket}, {"seat": 2, "name": "Bo"}]
    _finish(venue, "t1", "g1", seats, [1])
    _new_game(venue, "t1", "g1", seats)  # the bridge redelivers the event (QoS 1): still Ann's game
    _finish(venue, "t1", "g2", [{"seat": 1, "name": "Mallory", "venue_ticket": ticket}, {"seat": 2, "name": "Bo"}],
            [1])
    counted = _counted(venue)
    assert counted[ann.id] == ("Ann", 1, 1) and counted["mallory"] == ("Mallory", 1, 1)


def test_an_expired_ticket_binds_nothing(venue):
    venue, profiles, clock = venue
    ann, _key = profiles.create("Ann")
    ticket = venue.tickets.issue(ann.id, "t1")
    clock.now += TICKET_S + 1
    with pytest.raises(TicketError, match="expired"):
        venue.tickets.redeem(ticket, "t1", "t1:g1")


@functools.cache
def _tickets() -> Tickets:
    return Tickets(Store("sqlite:///:memory:"), lambda: 5.0)


@given(st.integers(min_value=0, max_value=200), st.characters(codec="ascii", categories=["L", "N", "P"]))
def test_a_ticket_changed_anywhere_is_refused(at, char):
    tickets = _tickets()
    ticket = tickets.issue("p-0123456789", "t1")
    at %= len(ticket)
    changed = ticket[:at] + char + ticket[at + 1:]
    if changed == ticket:
        return
    with pytest.raises(TicketError):
        tickets.redeem(changed, "t1", "t1:g1")


def test_the_board_sends_a_phone_back_to_its_table_with_a_ticket_never_the_key(venue):
    venue, profiles, _ = venue
    config = VenueConfig(tables=("t1", "t2"), spectator={"t1": "http://t1.local:8080/table"})
    app = create_board(venue, config, Changes(), Scheduler(venue.store, lambda: 5.0), "host-key", lambda: None,
                       profiles)
    phone = app.test_client()
    assert phone.get("/profile/ticket?table=t1").status_code == 404  # no profile on this phone yet
    ann = phone.post("/api/profiles", json={"name": "Ann"}).json
    key = phone.get_cookie(PROFILE_COOKIE).value
    back = phone.get("/profile/ticket?table=t1")
    assert back.status_code == 303
    target = urlsplit(back.headers["Location"])
    assert (target.scheme, target.netloc, target.path) == ("http", "t1.local:8080", "/")
    ticket = target.fragment.removeprefix("venue_ticket=")
    assert key not in back.headers["Location"]
    assert venue.tickets.redeem(ticket, "t1", "t1:g1") == ann["id"]
    assert phone.get("/profile/ticket?table=t9").status_code == 400  # not this venue's table
    assert phone.get("/profile/ticket?table=t2").status_code == 404  # no panel address configured
    assert phone.get("/api/profiles/me/ticket?table=t2").json["ticket"].startswith("vt1.")
