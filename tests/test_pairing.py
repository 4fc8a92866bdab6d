"""Pairing strikers from the host, Pi side: the pairing file, the base's reports,
and end to end through a real pty to the base station's own firmware logic (BaseCore), the real
daemon, Hardware and StrikerLink, and a real Mosquitto."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.pairing import PairingDesk, PairingError, Pairings, base_report, pairings_file
from gametable.testing.pty import wait_for
from gametable.testing.recorder import Recorder
from gametable.testing.table import RigTable, start_table
from tests.helpers.firmware_base import FirmwareBase, fw

MAC = "3485181a2b3c"
SID = "st-1a2b3c"
NEW = {"type": "new_game", "game": "coinwar", "mode": "ffa", "seed": 3,
       "players": [{"seat": 1, "name": "Ann"}, {"seat": 3, "name": "Cy"}], "order": [3, 1]}


# --- the pairing file ---------------------------------------------------------------------------

def test_pairings_merge_over_the_config_and_survive_a_reload(tmp_path):
    path = tmp_path / "j.sqlite.strikers.json"
    p = Pairings(path, {"s1": 1, "s2": 2})
    p.pair(SID, MAC, 3)
    p.unpair("s2")  # a config entry the host removes stays removed
    again = Pairings(path, {"s1": 1, "s2": 2})
    assert again.seats() == {"s1": 1, SID: 3}
    assert again.peers() == {MAC: SID}
    assert json.loads(path.read_text())["removed"] == ["s2"]


def test_a_pairing_names_what_is_wrong_and_changes_nothing(tmp_path):
    p = Pairings(tmp_path / "p.json", {})
    p.pair(SID, MAC, 3)
    for args, message in (((SID, "34:85:18:1a:2b:3c", 3), "'mac' must be 12 lowercase hex digits"),
                          ((SID, MAC, 7), "'seat' must be a seat number from 1 to 6, got 7"),
                          (("base", MAC, 1), "'striker' must be a striker id"),
                          (("st-other", MAC, 1), f"MAC {MAC} is already paired as {SID}")):
        with pytest.raises(PairingError, match=message):
            p.pair(*args)
    for i in range(5):
        p.pair(f"st-{i}", f"00000000000{i}", 1)
    with pytest.raises(PairingError, match="encrypts at most 6 strikers"):  # ESP-NOW's encrypted peers
        p.pair("st-9", "000000000009", 1)
    with pytest.raises(PairingError, match="st-x is not paired"):
        p.unpair("st-x")
    assert Pairings(tmp_path / "p.json", {}).seats()[SID] == 3


def test_an_unreadable_pairing_file_falls_back_to_the_config_and_says_so(tmp_path):
    path = tmp_path / "p.json"
    path.write_text("{not json")
    p = Pairings(path, {"s1": 1})
    assert p.seats() == {"s1": 1} and "unreadable" in p.load_error


def test_the_first_pairing_makes_the_tables_esp_now_secret_peers_set_carries_it_nothing_shows_it(tmp_path):
    """One 16-byte secret per table (secrets), made at the first pairing from the panel,
    kept across restarts; peers_set carries it; nothing the panel shows does; the file is 0600."""
    path = tmp_path / "p.json"
    p = Pairings(path, {"s1": 1})
    assert p.adopt({"aabbccddeeff": "s1"}) and p.key is None
    assert p.peers_set() == {"t": "peers_set", "peers": {"aabbccddeeff": "s1"}}  # nothing paired here: no key
    assert p.listing()[0]["encrypted"] is False
    p.pair(SID, MAC, 3)
    assert re.fullmatch(r"[0-9a-f]{32}", p.key)
    assert p.peers_set() == {"t": "peers_set", "peers": p.peers(), "key": p.key}
    assert all(entry["encrypted"] for entry in p.listing()) and p.key not in json.dumps(p.listing())
    assert path.stat().st_mode & 0o777 == 0o600
    again = Pairings(path, {"s1": 1})
    again.unpair(SID)
    again.pair(SID, MAC, 5)
    assert again.key == p.key  # the table's secret stays; the striker's LMK follows from it and its MAC


def test_the_base_list_gives_a_configured_striker_its_mac(tmp_path):
    p = Pairings(tmp_path / "p.json", {"s1": 1})
    assert p.adopt({"aabbccddeeff": "s1", "001122334455": "stranger"})
    assert p.peers() == {"aabbccddeeff": "s1"}  # a stranger on the base's list is not adopted


def test_base_reports_are_checked_field_by_field():
    assert base_report({"t": "pairing", "s": 60}) == {"t": "pairing", "s": 60}
    assert base_report({"t": "pairing", "s": 601}) is None
    assert base_report({"t": "pair_seen", "sid": SID, "mac": MAC, "g": 6.2})["g"] == 6.2
    assert base_report({"t": "pair_seen", "sid": SID, "mac": "XYZ", "g": 6.2}) is None
    assert base_report({"t": "peers", "peers": {f"{i:012x}": f"s{i}" for i in range(9)}}) is None


def test_the_desk_lists_each_waved_striker_once_newest_first_and_bounded():
    desk = PairingDesk()
    desk.on_report({"t": "pairing", "s": 60}, 0.0)
    for i in range(40):
        desk.on_report({"t": "pair_seen", "sid": f"st-{i % 20}", "mac": f"{i % 20:012x}", "g": 3.0}, float(i))
    status = desk.status(Pairings("/nonexistent/x.json", {}), 10.0)
    assert status["open"] and status["seconds_left"] == 50.0
    assert len(status["seen"]) == 16 and status["seen"][0]["striker"] == "st-19"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 9), st.integers(1, 6)), max_size=25))
def test_any_pair_and_unpair_sequence_reloads_to_the_same_table(tmp_path_factory, steps):
    path = tmp_path_factory.mktemp("p") / "p.json"
    p = Pairings(path, {"st-0": 1, "st-5": 2})
    for pair, n, seat in steps:
        try:
            p.pair(f"st-{n}", f"{n:012x}", seat) if pair else p.unpair(f"st-{n}")
        except PairingError:
            pass
        assert len(p.peers()) <= 8
    again = Pairings(path, {"st-0": 1, "st-5": 2})
    assert (again.seats(), again.peers()) == (p.seats(), p.peers()) if steps else True


# --- end to end: pty base (firmware logic) + Hardware + daemon + Mosquitto ---------------------------

def _cid() -> str:
    return f"test-{uuid.uuid4().hex}"


def _pair_on_a_booted_base(base, phone) -> None:
    """The base says hello (the Pi answers with peers_set), then the host pairs SID to seat 3."""
    base.boot()
    wait_for(lambda: base.commands, what="peers_set")
    assert phone.command("pair", {"type": "pair_striker", "striker": SID, "mac": MAC, "seat": 3, "id": _cid()})["ok"]


@pytest.fixture
def rig(broker, tmp_path):
    base = FirmwareBase()
    phone = Recorder(broker.host, broker.port, "gametable/pair/#")
    tables: list[RigTable] = []

    def start(strikers: dict | None = None, **extra) -> RigTable:
        """The rig's table on the firmware's base, on one journal (a restart keeps its pairings)."""
        t = start_table(broker, tmp_path / "j.sqlite", table_id="pair", phone=False, base=base,
                        strikers={"s1": 1} if strikers is None else strikers, config=extra)
        tables.append(t)
        wait_for(lambda: t.hardware.link.is_open, what="the link to open the pty")
        return t

    yield base, phone, start
    for t in tables:
        t.stop()
    phone.close()
    base.close()


def _pairing(phone: Recorder, pred, start: int = 0) -> dict:
    return phone.wait_for("gametable/pair/sensors/pairing", lambda m: pred(m.json()), start=start).json()


def test_the_pi_sends_its_list_after_every_hello_and_a_waved_striker_paired_to_seat_3_strikes_for_it(rig):
    base, phone, start = rig
    table = start()
    base.boot()  # hello: the Pi answers with its whole allow-list (empty: s1 has no MAC yet)
    wait_for(lambda: any(c["t"] == "peers_set" for c in base.commands), what="peers_set after hello")
    assert base.commands[0] == {"t": "peers_set", "id": "pi", "seq": 0, "peers": {}}

    # a striker that is not paired: the base drops its strikes, the game never hears of it
    table.daemon.submit(NEW)
    base.strike(SID, MAC)
    assert base.core.unknown == 1

    # the host opens a window, waves the striker, taps seat 3 (host commands over MQTT)
    cid = _cid()
    assert phone.command("pair", {"type": "pair_open", "seconds": 60, "id": cid}) == {"id": cid, "ok": True}
    wait_for(lambda: base.core.pair_until is not None, what="the base to open its window")
    _pairing(phone, lambda p: p["open"])
    base.wave(SID, MAC, g=6.2)
    seen = _pairing(phone, lambda p: p["seen"])["seen"]
    assert seen[0] == {"striker": SID, "mac": MAC, "g": 6.2, "t": seen[0]["t"], "paired": False}
    journalled = table.daemon.journal.last_seq
    cid = _cid()
    res = phone.command("pair", {"type": "pair_striker", "striker": SID, "mac": MAC, "seat": 3, "id": cid})
    assert res == {"id": cid, "ok": True}
    again = phone.command("pair", {"type": "pair_striker", "striker": SID, "mac": MAC, "seat": 3, "id": cid})
    assert again["ok"] and again.get("duplicate") is True
    assert table.daemon.journal.last_seq == journalled  # the table's wiring, not a game input
    wait_for(lambda: base.core.peers == {MAC: SID}, what="the base's allow-list")
    status = _pairing(phone, lambda p: p["in_sync"] and p["base_peers"])
    assert {"striker": SID, "seat": 3, "mac": MAC, "from": "panel", "encrypted": True} in status["paired"]

    # the striker's strike now reaches the Pi and counts for seat 3 (Cy's turn)
    mark = len(phone.messages)
    base.strike(SID, MAC, g=7.0)
    state = phone.wait_for("gametable/pair/state", lambda m: (m.json().get("turn") or {}).get("strikes") == 1,
                           start=mark).json()
    assert state["turn"]["seat"] == 3
    # the first pairing made the table's ESP-NOW secret; the base derives the keys from
    # it, the file is its owner's only, and no MQTT message ever carries a key
    path = pairings_file(table.config.journal.path)
    stored = json.loads(path.read_text())
    secret = stored["key"]
    assert stored["strikers"][SID] == {"mac": MAC, "seat": 3} and re.fullmatch(r"[0-9a-f]{32}", secret)
    keys = fw("keys")
    assert base.core.secret == secret and base.core.pmk == keys.table_pmk(secret)
    assert base.core.keys == {MAC: keys.striker_lmk(secret, MAC)}
    assert path.stat().st_mode & 0o777 == 0o600
    assert not [m for m in phone.messages for k in (secret, base.core.pmk, base.core.keys[MAC])
                if k in m.payload.decode(errors="replace")]


def test_a_pairing_survives_a_restart_and_is_sent_to_a_rebooted_base(rig):
    base, phone, start = rig
    table = start()
    _pair_on_a_booted_base(base, phone)
    wait_for(lambda: base.core.peers == {MAC: SID}, what="the base's allow-list")
    table.stop()

    base.core.peers = {}  # the base lost its peers.json meanwhile
    table = start()
    assert table.hardware.strikers == {"s1": 1, SID: 3}
    sent = len(base.commands)
    base.boot()
    wait_for(lambda: len(base.commands) > sent, what="peers_set after the new hello")
    assert base.commands[-1]["peers"] == {MAC: SID} and base.core.peers == {MAC: SID}
    table.daemon.submit(NEW)
    mark = len(phone.messages)
    base.strike(SID, MAC)
    phone.wait_for("gametable/pair/state", lambda m: (m.json().get("turn") or {}).get("strikes") == 1, start=mark)


def test_an_unpaired_striker_no_longer_counts_and_bad_commands_say_why(rig):
    base, phone, start = rig
    table = start()
    res = phone.command("pair", {"type": "pair_open", "seconds": 60, "id": _cid()})
    assert res["ok"] is False and "has not said hello yet" in res["error"]  # the Pi writes nothing before it
    base.boot()
    wait_for(lambda: base.commands, what="peers_set")
    bad = phone.command("pair", {"type": "pair_open", "seconds": 601, "id": _cid()})
    assert bad["error"] == "'seconds' must be a whole number from 0 to 600, got 601"
    bad = phone.command("pair", {"type": "pair_striker", "striker": SID, "mac": "nope", "seat": 3, "id": _cid()})
    assert bad["ok"] is False and "'mac' must be 12 lowercase hex digits" in bad["error"]
    assert phone.command("pair", {"type": "pair_striker", "striker": SID, "mac": MAC, "seat": 3, "id": _cid()})["ok"]
    wait_for(lambda: base.core.peers == {MAC: SID}, what="paired")
    assert phone.command("pair", {"type": "unpair_striker", "striker": SID, "id": _cid()})["ok"]
    wait_for(lambda: base.core.peers == {}, what="unpaired on the base")
    assert table.hardware.strikers == {"s1": 1}
    table.daemon.submit(NEW)
    base.strike(SID, MAC)
    assert table.daemon.public_state()["turn"]["strikes"] == 0


def test_table_commands_without_a_base_station_never_reach_the_game(offline_daemon):
    offline_daemon.submit(NEW)
    seq = offline_daemon.journal.last_seq
    res = offline_daemon.submit({"type": "pair_open", "seconds": 60, "id": "p1"})
    assert res == {"id": "p1", "ok": False,
                   "error": "pair_open: this table has no striker base station ([striker] port is not set)"}
    assert offline_daemon.journal.last_seq == seq


def test_a_real_table_with_no_striker_paired_waits_and_says_so_until_one_is(rig):
    base, phone, start = rig
    table = start(strikers={}, gpio={"pin_factory": "mock"})
    assert table.daemon.waiting == "no striker is paired with this table: pair them on the host's bring-up page"
    base.boot()
    wait_for(lambda: base.commands, what="peers_set")
    assert phone.command("pair", {"type": "pair_striker", "striker": SID, "mac": MAC, "seat": 1, "id": _cid()})["ok"]
    assert table.daemon.waiting is None
    assert phone.command("pair", {"type": "unpair_striker", "striker": SID, "id": _cid()})["ok"]
    assert table.daemon.waiting.startswith("no striker is paired")


def test_a_base_already_running_when_the_pi_starts_gets_the_list_at_its_first_heartbeat(rig):
    base, phone, start = rig
    table = start()
    assert table.hardware.link.stats()["sent"] == 0  # nothing heard from the base: the Pi writes nothing
    base.tick()  # no hello on this port (the base did not reset), only its heartbeat
    wait_for(lambda: base.commands, what="peers_set after the base's heartbeat")
    assert base.commands[0]["t"] == "peers_set"
    cid = _cid()
    assert phone.command("pair", {"type": "pair_open", "seconds": 30, "id": cid}) == {"id": cid, "ok": True}


# --- the link's send path and the panel's cache ----------------------------------------------------

def test_the_link_writes_pi_frames_in_order_and_refuses_when_no_port_is_open(fake_clock):
    from gametable.testing.pty import PtyPair
    from gametable_core.frames import FrameDecoder
    from sensors.striker_link import LinkDown, StrikerLink

    got: list[dict] = []
    link = StrikerLink("/nonexistent/port", 115200, fake_clock, got.append, lambda e: None, allowed={"s1"})
    with pytest.raises(LinkDown, match=r"the striker base station \(/nonexistent/port\) is not connected"):
        link.send({"t": "pair_open", "s": 60})
    pty = PtyPair()
    link = StrikerLink(pty.path, 115200, fake_clock, got.append, lambda e: None, allowed={"s1"})
    link.start()
    try:
        wait_for(lambda: link.is_open, what="open")
        link.send({"t": "pair_open", "s": 60})
        link.send({"t": "peers_set", "peers": {MAC: SID}})
        import os
        import time

        data = b""
        deadline = time.monotonic() + 5
        while data.count(b"\x00") < 4 and time.monotonic() < deadline:  # each frame: 0x00 first and last
            data += os.read(pty.master, 4096)
        assert FrameDecoder().feed(data) == [{"t": "pair_open", "id": "pi", "seq": 0, "s": 60},
                                             {"t": "peers_set", "id": "pi", "seq": 1, "peers": {MAC: SID}}]
        # the base's reports reach on_frame; the same types from a striker do not
        from gametable_core.frames import encode

        pty.write(encode({"t": "pair_seen", "id": "base", "seq": 0, "sid": SID, "mac": MAC, "g": 6.2})
                  + encode({"t": "pair_seen", "id": "s1", "seq": 0, "sid": "x", "mac": MAC, "g": 1}))
        wait_for(lambda: link.stats()["frames"] >= 2, what="frames")
        assert [f["id"] for f in got] == ["base"]
        link.set_allowed({SID})  # s1 unpaired: its state goes, its frames are dropped
        link.check()
        assert set(link.stats()["senders"]) == {"base"}
    finally:
        link.stop()
        pty.close()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["beams", "walk", "striker", "pairing", "waiting", "other"]),
                          st.dictionaries(st.sampled_from(["t", "id", "event", "g", "bat", "beam", "blocked",
                                                           "message", "rssi", "waiting", "fw"]),
                                          st.one_of(st.none(), st.booleans(), st.integers(-5, 2000),
                                                    st.floats(allow_nan=False), st.text(max_size=40)))),
                max_size=60))
def test_the_bringup_cache_takes_any_sensor_payload_and_stays_bounded(messages):
    from web_panel.bringup import MAX_STRIKERS, BringupCache

    cache = BringupCache()
    for kind, data in messages:
        cache.handle(kind, data)
    for i in range(40):
        cache.handle("striker", {"t": "strike", "id": f"st-{i}", "g": 5.0})
    snap = cache.snapshot()
    json.dumps(snap)
    assert len(snap["strikers"]) <= MAX_STRIKERS and len(snap["reports"]) <= 12
    assert snap["strikers"]["st-39"]["g"] == [5.0]


# --- threshold tuning and RSSI (firmware 1.2.0) ------------------------------------------------------

def _strikers(phone: Recorder, pred, start: int = 0) -> dict:
    """The retained ``sensors/strikers`` payload the bring-up page reads."""
    def ok(m) -> bool:
        try:
            return bool(pred(m.json()))
        except KeyError:  # an earlier payload, from before the striker was paired
            return False

    return phone.wait_for("gametable/pair/sensors/strikers", ok, start=start).json()


def test_the_host_tunes_a_paired_striker_and_sees_it_applied_with_its_rssi(rig):
    """tune_striker → the tune frame on the base's serial port → the base's radio copy → the striker's own
    firmware logic applies it → its heartbeat's thr → sensors/strikers says "applied"; RSSI from radio."""
    from tests.helpers.firmware_base import fw

    base, phone, start = rig
    table = start()
    assert phone.command("pair", {"type": "pair_striker", "striker": SID, "mac": MAC, "seat": 3, "id": _cid()})["ok"]
    res = phone.command("pair", {"type": "tune_striker", "striker": SID, "threshold_g": 3.0, "id": _cid()})
    assert res["ok"] is False and "has not said hello yet" in res["error"]  # nothing is written before it
    base.boot()
    wait_for(lambda: base.core.peers == {MAC: SID}, what="the base's allow-list")
    journalled = table.daemon.journal.last_seq

    cid = _cid()
    res = phone.command("pair", {"type": "tune_striker", "striker": SID, "threshold_g": 3.0, "id": cid})
    assert res == {"id": cid, "ok": True, "threshold_g": 3.0}
    wait_for(lambda: base.commands[-1]["t"] == "tune", what="the tune frame")
    assert base.commands[-1] == {"t": "tune", "id": "pi", "seq": base.commands[-1]["seq"], "sid": SID, "thr": 3.0}
    pending = _strikers(phone, lambda p: p["strikers"].get(SID, {}).get("tune") == "pending")
    assert pending["strikers"][SID]["wanted_g"] == 3.0 and pending["strikers"][SID]["threshold_g"] is None

    # the base reboots before delivering it (RAM lost): the Pi sends the pending tune again after its hello
    base.core.wanted, base.core.tunes = {}, []
    sent = len(base.commands)
    base.boot()
    wait_for(lambda: [c["t"] for c in base.commands[sent:]] == ["peers_set", "tune"], what="peers_set, then the tune again")
    assert base.commands[-1]["thr"] == 3.0 and base.core.wanted == {MAC: 3.0}

    # the striker: the base's radio copy reaches the firmware's own radio and core logic
    base_mac = bytes.fromhex("3485180000ff")
    mac, payload = base.air_tune()
    assert mac == MAC
    radio = fw("radio").StrikerRadio(SID, base_mac)
    assert radio.receive(base_mac, payload) == "tune"
    core = fw("striker_core").StrikerCore(SID, fw("strike_detector").StrikeDetector(1000))
    assert core.set_threshold(radio.tune_thr)
    base.radio(core.tick(0, 3.9), MAC)
    applied = _strikers(phone, lambda p: p["strikers"][SID]["tune"] == "applied")["strikers"][SID]
    assert applied["threshold_g"] == 3.0 and applied["wanted_g"] == 3.0
    assert base.core.wanted == {}  # the base saw the heartbeat too: nothing more to send

    base.report_rssi({MAC: -52, "aabbccddeeff": -30})  # a stranger's RSSI is never named
    radio_state = _strikers(phone, lambda p: p["strikers"][SID]["rssi"] is not None)["strikers"]
    assert radio_state[SID]["rssi"] == -52 and radio_state[SID]["signal"] == "good"
    assert set(radio_state) == {"s1", SID} and radio_state["s1"]["rssi"] is None
    base.report_rssi({MAC: -86})
    assert _strikers(phone, lambda p: p["strikers"][SID]["rssi"] == -86)["strikers"][SID]["signal"] == "weak"
    assert table.daemon.journal.last_seq == journalled  # table wiring, never a game input


def test_bad_tune_commands_say_what_is_wrong_and_write_nothing(rig):
    base, phone, start = rig
    table = start()
    _pair_on_a_booted_base(base, phone)
    wait_for(lambda: base.core.peers == {MAC: SID}, what="paired")
    sent = len(base.commands)
    for cmd, error in (
        ({"striker": "st-nobody", "threshold_g": 3.0}, "striker st-nobody is not paired with this table; pair it first"),
        ({"striker": "s1", "threshold_g": 3.0}, "striker s1 has no radio address yet"),
        ({"striker": SID, "threshold_g": 16.5}, "'threshold_g' must be a number of g from 1 to 16, got 16.5"),
        ({"striker": SID, "threshold_g": 0.5}, "'threshold_g' must be a number of g from 1 to 16, got 0.5"),
        ({"striker": SID, "threshold_g": True}, "'threshold_g' must be a number of g from 1 to 16, got True"),
        ({"striker": SID, "threshold_g": "3"}, "'threshold_g' must be a number of g from 1 to 16, got '3'"),
        ({"striker": SID}, "'threshold_g' must be a number of g from 1 to 16, got None"),
        ({"striker": "pi", "threshold_g": 3.0}, "'striker' must be a striker id"),
    ):
        res = phone.command("pair", {"type": "tune_striker", "id": _cid(), **cmd})
        assert res["ok"] is False and res["error"].startswith(error), res
    assert len(base.commands) == sent and base.core.wanted == {}
    status = table.hardware.tuning.status(table.hardware.strikers)["strikers"]
    assert all(s["tune"] == "firmware" for s in status.values())
    res = phone.command("pair", {"type": "tune_striker", "striker": SID, "threshold_g": 4.567, "id": _cid()})
    assert res["ok"] and res["threshold_g"] == 4.57  # the frame carries 2 decimals
    wait_for(lambda: len(base.commands) == sent + 1, what="the tune frame")
    assert base.commands[-1]["thr"] == 4.57 and base.core.wanted == {MAC: 4.57}
    assert phone.command("pair", {"type": "unpair_striker", "striker": SID, "id": _cid()})["ok"]
    wait_for(lambda: base.core.peers == {}, what="unpaired")
    assert base.core.wanted == {} and SID not in table.hardware.tuning.wanted


def test_tuning_without_a_base_station_says_so(offline_daemon):
    res = offline_daemon.submit({"type": "tune_striker", "striker": SID, "threshold_g": 3.0, "id": "t1"})
    assert res == {"id": "t1", "ok": False,
                   "error": "tune_striker: this table has no striker base station ([striker] port is not set)"}


def test_the_tuning_state_goes_pending_applied_and_yields_to_a_reflashed_value():
    from controller.pairing import StrikerTuning

    t = StrikerTuning()
    assert t.report(SID, 2.5) and t.state(SID) == "firmware" and not t.report(SID, 2.5)
    t.want(SID, 3.0)
    assert t.state(SID) == "pending"
    assert t.report(SID, 3.0) and t.state(SID) == "applied"
    assert t.report(SID, 2.5) and t.state(SID) == "firmware" and t.wanted == {}  # reflashed: the striker's wins
    t.want(SID, 4.0)
    assert not t.report(SID, None) and t.state(SID) == "pending"  # an old striker never says
    assert t.radio({SID: -70, "stranger": -20}, {SID}) and t.rssi == {SID: -70}
    assert not t.radio({SID: -70}, {SID})
    t.forget(SID)
    assert t.status({SID})["strikers"][SID] == {"threshold_g": None, "wanted_g": None, "tune": "firmware",
                                                 "rssi": None, "signal": None}


def test_thresholds_heartbeats_and_signal_words():
    from controller.pairing import PairingError, check_threshold, heartbeat_threshold, signal_word

    assert check_threshold(1) == 1.0 and check_threshold(16) == 16.0 and check_threshold(2.345) == 2.35
    for bad in (0.99, 16.01, float("nan"), float("inf"), None, "3", True, [3]):
        with pytest.raises(PairingError, match="'threshold_g' must be a number of g from 1 to 16"):
            check_threshold(bad)
    assert heartbeat_threshold({"thr": 3.25}) == 3.25
    assert heartbeat_threshold({"bat": 3.9}) is None and heartbeat_threshold({"thr": 99}) is None
    assert [signal_word(r) for r in (-40, -67, -68, -80, -81, None)] == ["good", "good", "fair", "fair", "weak", None]


_any_json = st.recursive(st.none() | st.booleans() | st.integers(-300, 300) | st.floats() | st.text(max_size=8),
                         lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=34), c, max_size=10),
                         max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(_any_json)
def test_property_any_radio_report_is_taken_whole_or_refused(rssi):
    """Random RSSI maps never crash the Pi's check; what passes has only striker ids and whole dBm -127..0."""
    report = base_report({"t": "radio", "id": "base", "seq": 1, "rssi": rssi})
    if report is None:
        return
    assert report["t"] == "radio" and report["rssi"] == rssi and len(rssi) <= 8
    for sid, v in report["rssi"].items():
        assert 0 < len(sid) <= 32 and sid not in ("base", "pi")
        assert type(v) is int and -127 <= v <= 0


@settings(max_examples=200, deadline=None)
@given(_any_json)
def test_property_any_threshold_value_is_taken_in_range_or_refused(value):
    from controller.pairing import MAX_THRESHOLD_G, MIN_THRESHOLD_G, PairingError, check_threshold

    try:
        thr = check_threshold(value)
    except PairingError:
        return
    assert MIN_THRESHOLD_G <= thr <= MAX_THRESHOLD_G and round(thr, 2) == thr


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["event", "strikers", "min_g"]),
                       st.one_of(_any_json, st.dictionaries(st.text(max_size=34), st.dictionaries(
                           st.sampled_from(["threshold_g", "wanted_g", "tune", "rssi", "signal"]), _any_json,
                           max_size=5), max_size=30))))
def test_property_the_bringup_cache_takes_any_strikers_payload_and_shows_only_checked_values(data):
    from web_panel.bringup import MAX_STRIKERS, SIGNAL_WORDS, TUNE_STATES, BringupCache

    cache = BringupCache()
    cache.handle("strikers", data)
    snap = cache.snapshot()
    json.dumps(snap, allow_nan=False)  # the page's JSON: no NaN/Infinity
    assert len(snap["strikers"]) <= MAX_STRIKERS
    for entry in snap["strikers"].values():
        assert entry["tune"] in TUNE_STATES and entry["signal"] in (None, *SIGNAL_WORDS)
        assert entry["rssi"] is None or type(entry["rssi"]) is int
        assert all(entry[k] is None or type(entry[k]) in (int, float) for k in ("threshold_g", "wanted_g"))
