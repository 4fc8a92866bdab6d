"""Per-staff venue host keys (gametable/venue/staff.py, hardware_docs/multi_table.md "Staff keys"):
the owner makes a named key for each member of staff, a staff key does what the venue host does but
hand out keys, a revoked key stops working at its next request (its cookie too), and the operator
log names who made each change. SQLite and PostgreSQL; the HTTP routes on the real board app; the
owner's page in Chromium."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

from gametable.venue.board import Changes, create_board
from gametable.venue.board_server import BoardServer
from gametable.venue.config import VenueConfig
from gametable.venue.ingest import Venue
from gametable.venue.operator import Operator
from gametable.venue.profiles import Profiles
from gametable.venue.scheduler import Scheduler
from gametable.venue.staff import Staff, StaffError
from gametable.venue.store import MIGRATIONS, Store
from tests.venue.test_operator import _game
from tests.venue.test_store import FakeClock as Clock

OWNER_KEY = "the-owners-key"


@pytest.fixture
def staff(database_url):
    store = Store(database_url)
    return store, Staff(store, Clock())


def test_a_staff_key_names_its_holder_until_it_is_revoked(staff):
    store, keys = staff
    mei, key = keys.issue("  Mei   Lin ")
    assert mei.name == "Mei Lin" and keys.who(key) == "Mei Lin"
    assert keys.who("") is None and keys.who(key + "x") is None
    with store.engine.connect() as conn:  # only its hash is kept: a copy of the database opens nothing
        dump = repr(conn.execute(sa.text("SELECT * FROM staff_keys")).all())
    assert key not in dump
    keys.revoke(mei.id)
    assert keys.who(key) is None
    assert [(k.name, k.revoked_at is not None) for k in keys.known()] == [("Mei Lin", True)]
    assert [(e.action, e.subject, e.detail, e.by) for e in Operator(store, Clock()).log()] == [
        ("staff_key", mei.id, {"name": "Mei Lin"}, "owner"), ("revoke", mei.id, {"name": "Mei Lin"}, "owner")]


@pytest.mark.parametrize(("name", "message"), [
    ("", "the staff member's name"), ("Owner", "the venue key's own name"), ("a\x07b", "printable"),
    ("mei", "'mei' already has a key")])
def test_a_staff_key_that_makes_no_sense_is_refused_and_nothing_changes(staff, name, message):
    store, keys = staff
    keys.issue("Mei")
    before = keys.known()
    with pytest.raises(StaffError, match=message):
        keys.issue(name)
    assert keys.known() == before


def test_a_revoked_name_may_have_a_new_key_and_revoking_twice_is_refused(staff):
    _, keys = staff
    old, old_key = keys.issue("Mei")
    keys.revoke(old.id)
    with pytest.raises(StaffError, match="revoked already"):
        keys.revoke(old.id)
    with pytest.raises(StaffError, match="no staff key 's-none'"):
        keys.revoke("s-none")
    new, new_key = keys.issue("Mei")
    assert keys.who(new_key) == "Mei" and keys.who(old_key) is None
    assert [k.id for k in keys.known()] == [new.id, old.id]  # in use first


def _board(store: Store):
    clock = Clock()
    return create_board(Venue(store, clock), VenueConfig(), Changes(), Scheduler(store, clock), OWNER_KEY,
                        lambda: None, Profiles(store, clock), Operator(store, clock), Staff(store, clock))


def test_staff_act_as_the_host_under_their_own_name_and_a_revoked_key_stops_at_once(staff):
    store, _ = staff
    _game(store, "t1:g1", ("Ann", "Bo"), 1)
    _game(store, "t1:g2", ("Ann", "Bo"), 2)
    app = _board(store)
    owner, mei = app.test_client(), app.test_client()
    assert owner.post("/api/host", json={"key": OWNER_KEY}).status_code == 200
    assert owner.get("/api/host").get_json() == {"host": True, "who": "owner", "owner": True}
    made = owner.post("/api/staff", json={"name": "Mei"})
    assert made.status_code == 201 and set(made.get_json()) == {"id", "name", "key"}
    key = made.get_json()["key"]
    assert key not in owner.get("/api/staff").get_data(as_text=True)  # listed without its key

    assert mei.post("/api/host", json={"key": key}).status_code == 200  # the cookie holds her key
    assert mei.get("/api/host").get_json() == {"host": True, "who": "Mei", "owner": False}
    assert mei.post("/api/operator/void", json={"key": "t1:g1", "reason": "a test game"}).status_code == 200
    refused = mei.post("/api/staff", json={"name": "Her friend"})
    assert refused.status_code == 403 and "own host key" in refused.get_json()["error"]
    assert mei.get("/api/staff").status_code == 403
    log = owner.get("/api/operator/log").get_json()
    assert [(e["action"], e["by"]) for e in log] == [("staff_key", "owner"), ("void", "Mei")]

    sid = made.get_json()["id"]
    assert owner.post(f"/api/staff/{sid}/revoke").get_json() == {"ok": True, "id": sid, "name": "Mei"}
    gone = mei.post("/api/operator/void", json={"key": "t1:g2", "reason": "x"})
    assert gone.status_code == 403 and "staff key" in gone.get_json()["error"]
    assert mei.get("/api/host").get_json()["host"] is False
    assert mei.post("/api/host", json={"key": key}).status_code == 403
    assert store.game_count() == 1  # her last try voided nothing
    again = owner.post(f"/api/staff/{sid}/revoke")
    assert again.status_code == 400 and "revoked already" in again.get_json()["error"]
    assert owner.post("/api/staff", json={"name": ""}).status_code == 400
    assert owner.post("/api/host/logout").status_code == 200
    assert owner.get("/api/staff").status_code == 403


def test_a_tournament_result_corrected_by_staff_is_logged_under_their_name(staff):
    store, keys = staff
    scheduler = Scheduler(store, Clock())
    tid = scheduler.create("Friday", "round_robin", "coup", None, ["Ann", "Bo"], ["t1"])
    scheduler.award(tid, 1, "Ann")
    _, key = keys.issue("Mei")
    client = _board(store).test_client()
    got = client.post(f"/api/tournaments/{tid}/matches/1/correct", json={"winner": "Bo"}, headers={"X-Venue-Host": key})
    assert got.status_code == 200
    entry = Operator(store, Clock()).log()[-1]
    assert (entry.action, entry.detail, entry.by) == ("correct", {"before": "Ann", "after": "Bo"}, "Mei")


def test_a_venue_database_from_before_staff_keys_gains_them_and_its_log_reads_as_the_owners(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    store = Store(url)
    _game(store, "t1:g1", ("Ann", "Bo"), 1)
    Operator(store, Clock()).void("t1:g1", "before staff keys")
    with store.engine.begin() as conn:  # back to how schema 5 left it
        conn.execute(sa.text("ALTER TABLE operator_log DROP COLUMN staff"))
        conn.execute(sa.text("DROP TABLE staff_keys"))
        conn.execute(sa.text("UPDATE schema_version SET version = 5"))
    again = Store(url)
    assert again.migrate() == len(MIGRATIONS) == 6
    assert [(e.action, e.by) for e in Operator(again, Clock()).log()] == [("void", "owner")]
    _, key = Staff(again, Clock()).issue("Mei")
    assert Staff(again, Clock()).who(key) == "Mei"


@pytest.mark.browser
@pytest.mark.usefixtures("close_contexts")
def test_the_owner_hands_out_and_revokes_a_staff_key_on_the_board(browser, tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'v.sqlite'}")
    server = BoardServer(_board(store), "127.0.0.1", 0).start()
    url = f"http://127.0.0.1:{server.port}"
    try:
        owner = browser.new_context().new_page()
        owner.goto(url + "/?lang=zh")
        owner.fill("#host-key", OWNER_KEY)
        owner.click("#host-login button")
        expect(owner.locator("#host-name")).to_have_text("当前登录： 店主")
        owner.fill("#staff-name", "Mei")
        owner.click("#staff-new button")
        key = owner.locator("#staff-key").inner_text()
        expect(owner.locator("#staff-made")).to_contain_text("只显示这一次")
        expect(owner.locator("#staff-keys tbody tr")).to_have_count(1)

        mei = browser.new_context().new_page()
        mei.goto(url + "/?lang=en")
        mei.fill("#host-key", key)
        mei.click("#host-login button")
        expect(mei.locator("#host-name")).to_have_text("Logged in as Mei")
        expect(mei.locator("#tournament-new")).to_be_visible()
        expect(mei.locator("#staff")).to_be_hidden()  # staff do not hand out keys

        owner.locator("#staff-keys tbody tr button").click()
        expect(owner.locator("#staff-keys tbody tr")).to_contain_text("已吊销")
        expect(owner.locator("#changes-log tbody tr")).to_have_count(2)
        expect(owner.locator("#changes-log tbody tr").first).to_contain_text("吊销员工密钥： Mei")
        mei.reload()
        expect(mei.locator("#host-login")).to_be_visible()  # her key no longer opens the host's tools
        expect(mei.locator("#tournament-new")).to_be_hidden()
    finally:
        server.stop()
        store.engine.dispose()
