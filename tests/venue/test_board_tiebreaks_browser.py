"""The board's Swiss standings in Chromium (hardware_docs/multi_table.md, "Tournaments"): four players
level on points stand in Buchholz order, not seed order, and the table shows the Buchholz column in
the board's language. The real board app (waitress) on a real database; no broker needed."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from gametable.venue.board import Changes, create_board
from gametable.venue.board_server import BoardServer
from gametable.venue.config import VenueConfig
from gametable.venue.ingest import Venue
from gametable.venue.profiles import Profiles
from gametable.venue.scheduler import Scheduler
from gametable.venue.store import Store
from gametable.venue.tournament import standings

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("close_contexts")]


PLAYERS = [f"p{i}" for i in range(1, 9)]


@pytest.fixture
def board_with_swiss(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'v.sqlite'}")
    clock = lambda: 1_000.0  # noqa: E731
    scheduler = Scheduler(store, clock)
    tid = scheduler.create("Friday", "swiss", "coup", None, PLAYERS, ["t1"])
    pick = random.Random(4)
    for _ in range(2):  # two of its three rounds, awarded by the venue host
        for placed in [p for p in scheduler.placed(tid) if not p.match.done]:
            scheduler.award(tid, placed.match.number, pick.choice(placed.match.players))
    app = create_board(Venue(store, clock), VenueConfig(), Changes(), scheduler, "host-key", lambda: None,
                       Profiles(store, clock))
    server = BoardServer(app, "127.0.0.1", 0).start()
    yield f"http://127.0.0.1:{server.port}", [p.match for p in scheduler.placed(tid)], tid
    server.stop()
    store.engine.dispose()


def test_swiss_standings_break_ties_by_buchholz_in_both_languages(browser, board_with_swiss):
    url, matches, tid = board_with_swiss
    expected = standings("swiss", PLAYERS, matches)
    by_seed = sorted(expected, key=lambda s: (-s.points, PLAYERS.index(s.player)))
    assert [s.player for s in expected] != [s.player for s in by_seed]  # (this draw has ties to break)
    page = browser.new_context().new_page()
    page.goto(url + "/?lang=en")
    rows = page.locator(f"[data-tournament='{tid}'] table.standings tbody tr")
    expect(rows).to_have_count(8)
    assert rows.evaluate_all("rs => rs.map(r => r.dataset.player)") == [s.player for s in expected]
    assert rows.locator("[data-tie=buchholz]").all_inner_texts() == [str(s.buchholz) for s in expected]
    assert page.locator(f"[data-tournament='{tid}'] thead th").last.inner_text() == "Bh"
    page.goto(url + "/?lang=zh")
    expect(page.locator(f"[data-tournament='{tid}'] thead th").last).to_have_text("对手分")
    page.context.close()
