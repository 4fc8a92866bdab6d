"""On the host's page: inputs the storage lost are named on the host's phone.

A journal whose last committed records vanished behind SQLite's back (what a card that drops synced
pages leaves; its anchor still names them): the real daemon, real Mosquitto and panel, and the
host's phone in real Chromium shows the loss in its connection line; a seated phone does not.
"""

from __future__ import annotations

import sqlite3

import pytest

from controller.journal import Journal
from controller.table import Table
from gametable.testing.panel import NEW_GAME
from tests.test_panel_journal_notice import host_alone_is_told

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]


def test_the_host_is_told_which_committed_inputs_were_lost(broker, browser, tmp_path):
    path = tmp_path / "journal.sqlite"
    table = Table(Journal(path))
    for i in range(5):  # (a new game is always legal)
        assert table.submit({**NEW_GAME, "id": f"g{i}"}).ok
    table.journal.close()
    db = sqlite3.connect(path)
    db.execute("DELETE FROM inputs WHERE seq > 3")  # seqs 4 and 5: committed, then gone
    db.commit()
    db.close()
    host_alone_is_told(broker, browser, path, "2 committed input(s) (#4-#5) were lost from the journal", "lost",
                       "host-journal-lost.png")
