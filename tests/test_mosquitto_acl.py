"""The shipped Mosquitto config and ACL (hardware_docs/mosquitto), on a real broker.

Only the panel's user reads private views; only the panel and the daemon write ``cmd``;
the viewer reads state/events/status and nothing else; anonymous clients are refused.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from gametable.broker import start_broker
from gametable.testing.panel import NEW_GAME
from gametable.testing.recorder import Recorder
from gametable.testing.table import start_table
from web_panel.link import TableLink

pytestmark = pytest.mark.mqtt
DOCS = Path(__file__).resolve().parent.parent / "hardware_docs" / "mosquitto"


@pytest.fixture
def secured(tmp_path):
    if not shutil.which("mosquitto_passwd"):
        pytest.skip("mosquitto_passwd is not installed")
    # Mosquitto started as root drops to its own user: the files must be reachable by it, so they
    # live in a world-traversable directory (pytest's tmp_path parents are private to root).
    files = Path(tempfile.mkdtemp(prefix="gametable-acl-"))
    files.chmod(0o755)
    pw, acl = files / "gametable.passwd", files / "gametable.acl"
    subprocess.run(["mosquitto_passwd", "-b", "-c", str(pw), "daemon", "d-secret"], check=True)
    subprocess.run(["mosquitto_passwd", "-b", str(pw), "panel", "p-secret"], check=True)
    subprocess.run(["mosquitto_passwd", "-b", str(pw), "viewer", "v-secret"], check=True)
    shutil.copy(DOCS / "gametable.acl", acl)
    for f in (pw, acl):
        f.chmod(0o644)
    conf = (DOCS / "gametable.conf").read_text()
    conf = conf.replace("/etc/mosquitto/gametable.passwd", str(pw)).replace("/etc/mosquitto/gametable.acl", str(acl))
    conf = "\n".join(line for line in conf.splitlines() if not line.startswith("listener"))
    broker = start_broker(conf + "\n")
    table = start_table(broker, tmp_path / "j.sqlite", phone=False,  # an anonymous phone is refused
                        config={"mqtt": {"username": "daemon", "password": "d-secret"}})
    yield broker, table.daemon
    table.stop()
    broker.close()
    shutil.rmtree(files, ignore_errors=True)


def test_the_viewer_never_sees_private_views_and_cannot_write_cmd(secured):
    broker, daemon = secured
    anon = Recorder(broker.host, broker.port, "#", username="viewer", password="v-secret")
    panel = Recorder(broker.host, broker.port, "#", username="panel", password="p-secret")
    try:
        assert panel.command("t1", {**NEW_GAME, "id": "g1"}) == {"id": "g1", "ok": True}
        panel.wait_for("gametable/t1/seat/1/private")
        anon.wait_for("gametable/t1/state", lambda m: m.json().get("game") == "coinwar")
        # A viewer's command is dropped by the broker: never applied, never answered.
        before = daemon.public_state()
        anon.publish("gametable/t1/cmd", {"type": "abort", "id": "evil-1"})
        anon.publish("gametable/t1/cmd", {"type": "undo", "id": "evil-2"})
        # Barrier: a later panel command is answered, so the viewer's would have been too.
        assert panel.command("t1", {"type": "end_turn", "seat": 1, "id": "p2"})["ok"]
        panel.wait_for("gametable/t1/state", lambda m: (m.json().get("turn") or {}).get("seat") == 2)
        anon.wait_for("gametable/t1/state", lambda m: (m.json().get("turn") or {}).get("seat") == 2)
        assert before["phase"] == daemon.public_state()["phase"] == "playing"
        results = [m.json()["id"] for m in panel.messages if m.topic == "gametable/t1/cmd/result"]
        assert "evil-1" not in results and "evil-2" not in results
        anon_topics = {m.topic for m in anon.messages}
        assert not [t for t in anon_topics if "/seat/" in t], anon_topics
        assert anon_topics <= {"gametable/t1/state", "gametable/t1/events", "gametable/t1/status"}, anon_topics
        assert any("/seat/2/private" in m.topic for m in panel.messages)
    finally:
        anon.close()
        panel.close()


@pytest.mark.parametrize("user", [("panel", "guess"), None])
def test_a_wrong_password_or_no_user_is_refused(secured, user):
    broker, _ = secured
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="intruder")
    if user:
        client.username_pw_set(*user)
    codes: list = []
    client.on_connect = lambda c, u, f, r, p: codes.append(r)
    client.connect(broker.host, broker.port)
    client.loop_start()
    deadline = time.monotonic() + 5
    while not codes and time.monotonic() < deadline:
        time.sleep(0.01)
    client.loop_stop()
    assert codes and codes[0].is_failure


def test_the_panel_link_with_its_credentials_reads_private_views_and_commands(secured):
    broker, daemon = secured
    link = TableLink("t1", broker.host, broker.port, username="panel", password="p-secret")
    link.start()
    try:
        assert link.connected.wait(10)
        result = None
        deadline = time.monotonic() + 10
        while result is None and time.monotonic() < deadline:
            result = link.command({**NEW_GAME, "id": f"g-{time.monotonic_ns()}"}, timeout=3)
        assert result and result["ok"]
        deadline = time.monotonic() + 10
        while link.private_view(3) is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert link.private_view(3)["seat"] == 3
    finally:
        link.stop()
