"""Tables bridged into a venue broker with the files of ``gametable venue-setup``, on real
Mosquitto processes (hardware_docs/multi_table.md, "A venue of tables").

Only public topics reach the venue (never a hand, never ``cmd``); a table publishes only under its
own id; a bridge cut mid-game and restored delivers what happened exactly once.
"""

from __future__ import annotations

import json
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from gametable.testing.games import quick_coup
from gametable.testing.panel import NEW_GAME
from gametable.testing.recorder import Recorder
from gametable.venue.setup import BRIDGED, SetupError, build, table_user

pytestmark = pytest.mark.mqtt


def _keys(obj: Any) -> set[str]:
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in _keys(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in _keys(v)}
    return set()


def test_setup_bridges_only_public_topics_and_gives_each_table_its_own_login():
    setup = build(["t1", "t2"], "venue.local", 1883)
    bridge = setup.files["tables/t1/venue-bridge.conf"]
    topics = [line.split()[1:3] for line in bridge.splitlines() if line.startswith("topic ")]
    assert topics == [[f"gametable/t1/{name}", "out"] for name in BRIDGED] + [["gametable/t1/offer", "in"],
                                                                            ["gametable/t1/sync", "in"]]
    assert "\nmax_queued" not in bridge  # (global in Mosquitto: it would lift the phones' limits too)
    assert "seat/" not in bridge and "/cmd" not in bridge
    assert "cleansession false" in bridge and "local_cleansession false" in bridge
    assert setup.passwords[table_user("t1")] != setup.passwords[table_user("t2")]
    assert setup.passwords[table_user("t1")] in bridge
    assert setup.passwords[table_user("t2")] not in bridge
    acl = setup.files["venue/venue.acl"]
    t1_rules = acl.split("user table-t1\n")[1].split("\n\n")[0]
    assert all(" gametable/t1/" in line for line in t1_rules.splitlines())


@pytest.mark.parametrize("tables, error", [([], "at least one"), (["t/1"], "letters, digits"),
                                            (["t1", "t1"], "repeat: t1")])
def test_setup_refuses_bad_table_ids(tables, error):
    with pytest.raises(SetupError, match=error):
        build(tables, "venue.local", 1883)


def test_public_topics_reach_the_venue_and_no_hand_or_command_does(venue, table):
    at_venue = Recorder(venue.broker.host, venue.broker.port, "#", **venue.login("venue"))
    panel = Recorder(table.broker.host, table.broker.port, "#", **table.panel_login())
    try:
        for cmd in quick_coup("coup-1"):
            assert panel.command("t1", cmd)["ok"]
        final = at_venue.wait_for("gametable/t1/state", lambda m: m.json().get("winner") == [1])
        assert final.json()["players"][1]["revealed"] == ["captain", "contessa"]
        at_venue.wait_for("gametable/t1/link", lambda m: m.payload == b"1")
        # The panel (on the table's own broker) saw the hands; the venue never.
        assert any("hand" in m.json() for m in panel.messages if m.topic.endswith("/private"))
        topics = {m.topic for m in at_venue.messages}
        assert topics <= {f"gametable/t1/{name}" for name in (*BRIDGED, "link")}, topics
        assert not any("hand" in _keys(json.loads(m.payload)) for m in at_venue.messages
                       if m.payload.startswith((b"{", b"[")))
    finally:
        at_venue.close()
        panel.close()


def test_a_table_publishes_only_under_its_own_id_and_strangers_are_refused(venue):
    at_venue = Recorder(venue.broker.host, venue.broker.port, "#", **venue.login("venue"))
    t1 = Recorder(venue.broker.host, venue.broker.port, "gametable/none", **venue.login(table_user("t1")))
    try:
        t1.publish("gametable/t2/state", {"game": "forged"})
        t1.publish("gametable/t1/cmd", {"type": "abort", "id": "x"})
        t1.publish("gametable/t1/seat/1/private", {"hand": ["duke"]})
        t1.publish("gametable/t1/state", {"game": "own"})  # barrier: published after the refused ones
        at_venue.wait_for("gametable/t1/state", lambda m: m.json() == {"game": "own"})
        assert [m.topic for m in at_venue.messages] == ["gametable/t1/state"]
    finally:
        at_venue.close()
        t1.close()
    stranger = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)  # anonymous: refused at CONNECT
    answers: list[Any] = []
    stranger.on_connect = lambda c, u, f, reason, p: answers.append(reason)
    stranger.connect(venue.broker.host, venue.broker.port)
    while not answers and stranger.loop(1) == mqtt.MQTT_ERR_SUCCESS:
        pass
    assert answers and answers[0].is_failure, answers
    stranger.disconnect()


def test_a_bridge_cut_mid_game_delivers_what_happened_once_when_restored(venue, table):
    at_venue = Recorder(venue.broker.host, venue.broker.port, "gametable/t1/#", **venue.login("venue"))
    panel = Recorder(table.broker.host, table.broker.port, "#", **table.panel_login())
    try:
        assert panel.command("t1", {**NEW_GAME, "id": "cw-1"})["ok"]
        at_venue.wait_for("gametable/t1/events", lambda m: m.json()["seq"] == 1)
        table.link.cut()
        at_venue.wait_for("gametable/t1/link", lambda m: m.payload == b"0")
        turns = 10
        for i in range(turns):  # the table plays on alone
            assert panel.command("t1", {"type": "end_turn", "seat": 1 + i % 3, "id": f"cw-end-{i}"})["ok"]
        table.link.restore()
        at_venue.wait_for("gametable/t1/events", lambda m: m.json()["seq"] == turns + 1, timeout=20)
        assert panel.command("t1", {"type": "abort", "id": "cw-abort"})["ok"]
        at_venue.wait_for("gametable/t1/state", lambda m: m.json().get("phase") == "aborted")
        seqs = [m.json()["seq"] for m in at_venue.messages if m.topic == "gametable/t1/events"]
        assert seqs == list(range(1, turns + 3))  # every input once, in order
        links = [m.payload for m in at_venue.messages if m.topic == "gametable/t1/link"]
        assert links[-1] == b"1" and b"0" in links
    finally:
        at_venue.close()
        panel.close()


def test_venue_setup_command_writes_both_sides_private_and_names_a_bad_id(tmp_path, capsys):
    from gametable.cli import main

    assert main(["venue-setup", "--tables", "t1,t2", "--venue-host", "10.0.0.5", "--out", str(tmp_path)]) == 0
    bridge = tmp_path / "tables" / "t2" / "venue-bridge.conf"
    assert "address 10.0.0.5:1883" in bridge.read_text()
    assert bridge.stat().st_mode & 0o077 == 0
    passwd = (tmp_path / "venue" / "venue.passwd").read_text()
    assert passwd.startswith("venue:$") and "table-t2:$" in passwd  # hashed, never plain
    assert main(["venue-setup", "--tables", "t1", "--venue-host", "h", "--venue-port", "1884", "--out",
                 str(tmp_path / "p"), "--mosquitto-etc", "/opt/mq", "--persistence", "/srv/mq", "--bind", "10.0.0.5"]) == 0
    conf = (tmp_path / "p" / "venue" / "venue.conf").read_text()
    assert "listener 1884 10.0.0.5" in conf and "acl_file /opt/mq/venue.acl" in conf
    assert "persistence_location /srv/mq/" in conf
    assert main(["venue-setup", "--tables", "t1,a+b", "--venue-host", "h", "--out", str(tmp_path / "x")]) == 2
    assert "table id 'a+b'" in capsys.readouterr().err
