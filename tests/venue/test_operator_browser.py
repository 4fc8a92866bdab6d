"""The operator's tools on the board in Chromium (hardware_docs/multi_table.md "Operator's tools"):
the venue host opens a player's history from the league and renames the profile, merges the guest
who is the same person into it, voids a game and deletes the person, each shown in the log of
changes made by hand; a visitor sees none of the tools. The real board app on a real database."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from gametable.venue.board import Changes, create_board
from gametable.venue.board_server import BoardServer
from gametable.venue.config import VenueConfig
from gametable.venue.ingest import Venue
from gametable.venue.operator import Operator
from gametable.venue.profiles import Profiles
from gametable.venue.scheduler import Scheduler
from gametable.venue.staff import Staff
from gametable.venue.store import Store
from tests.venue.test_operator import _game
from tests.venue.test_store import FakeClock as Clock

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("close_contexts")]


@pytest.fixture
def board(tmp_path):
    store, clock = Store(f"sqlite:///{tmp_path / 'v.sqlite'}"), Clock()
    profiles = Profiles(store, clock)
    tess, _ = profiles.create("Tess")
    _game(store, "t1:g1", ("Tess", "Bo"), 1, {1: tess.id})
    _game(store, "t1:g2", ("Tess", "Cy"), 1)  # her ticket failed: a guest "Tess"
    _game(store, "t1:g3", ("Tess", "Bo"), 2, {1: tess.id})
    app = create_board(Venue(store, clock), VenueConfig(), Changes(), Scheduler(store, clock), "KEY", lambda: None,
                       profiles, Operator(store, clock), Staff(store, clock))
    server = BoardServer(app, "127.0.0.1", 0).start()
    yield f"http://127.0.0.1:{server.port}", store, tess.id
    server.stop()
    store.engine.dispose()


def test_the_venue_host_corrects_the_records_from_a_players_history(browser, board):
    url, store, tess = board
    visitor = browser.new_context().new_page()
    visitor.goto(url + "/?lang=en")
    visitor.locator(f"#league a[data-player='{tess}']").click()
    expect(visitor.locator("#history tbody tr")).to_have_count(2)
    expect(visitor.locator("#history-tools")).to_be_hidden()
    assert visitor.locator("#history tbody button").count() == 0  # no void for a visitor

    page = browser.new_context().new_page()
    page.on("dialog", lambda d: d.accept("a wrong winner") if d.type == "prompt" else d.accept())
    page.goto(url + "/?lang=zh")
    page.fill("#host-key", "KEY")
    page.click("#host-login button")
    expect(page.locator("#host-who")).to_be_visible()
    page.locator(f"#league a[data-player='{tess}']").click()
    expect(page.locator("#history-tools")).to_be_visible()

    page.fill("#op-rename-name", "Tess Lee")
    page.click("#op-rename button")
    expect(page.locator("#history-name")).to_have_text("Tess Lee")
    page.fill("#op-merge-other", "tess")  # the guest of the failed ticket
    page.click("#op-merge button")
    expect(page.locator("#history tbody tr")).to_have_count(3)
    expect(page.locator("#league a[data-player='tess']")).to_have_count(0)
    page.locator("#history tbody tr[data-game='t1:g3'] button").click()  # voided, with the prompt's reason
    expect(page.locator("#history tbody tr")).to_have_count(2)
    page.fill("#op-merge-other", "nobody")
    page.click("#op-merge button")
    expect(page.locator("#op-result")).to_have_text("no player 'nobody': nothing to merge")
    page.click("#op-delete")  # confirmed
    expect(page.locator("#history")).to_be_hidden()
    expect(page.locator(f"#league a[data-player='{tess}']")).to_have_count(0)
    expect(page.locator("#changes-log tbody tr")).to_have_count(4)
    assert [e.action for e in Operator(store, Clock()).log()] == ["rename", "merge", "void", "delete"]
    assert Operator(store, Clock()).log()[2].detail == {"reason": "a wrong winner"}
    expect(page.locator("#changes-log tbody tr").first).to_contain_text("删除了一位玩家")
