"""The virtual table's MQTT side (real Mosquitto): flicks from the panel, coin positions to it."""

from __future__ import annotations

import json
import queue
import threading
import time

import paho.mqtt.client as mqtt
import pytest

from gametable.sim_serve import sensor_topics, serve
from gametable.sim_table import VirtualTable
from gametable_core.clock import FakeClock
from gametable_core.config import parse
from tests.helpers.mini_referee import mini_daemon

pytestmark = pytest.mark.mqtt


def wait_for(q: queue.Queue, pred, timeout: float = 10.0):
    """The first message (in arrival order, not yet taken) matching ``pred``; bounded wait for real I/O."""
    deadline = time.monotonic() + timeout
    while True:
        for i, (topic, body) in enumerate(q.seen):
            if pred(topic, body):
                del q.seen[: i + 1]
                return body
        if time.monotonic() > deadline:
            raise AssertionError("no matching MQTT message")
        try:
            q.seen.append(q.get(timeout=0.1))
        except queue.Empty:
            pass


def test_a_flick_from_the_panel_is_played_and_the_coins_are_published(broker):
    config = parse({"table_id": "t9", "mqtt": {"host": broker.host, "port": broker.port}})
    daemon = mini_daemon()
    table = VirtualTable(daemon, FakeClock(), seed=2)
    players = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bob"}]
    daemon.submit({"id": "g", "type": "new_game", "game": "coinwar", "mode": "ffa", "players": players,
                   "order": [1, 2], "seed": 1})
    topics = sensor_topics("t9")
    got: queue.Queue = queue.Queue()
    got.seen = []
    sub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    sub.on_message = lambda c, u, m: got.put((m.topic, json.loads(m.payload)))
    subscribed = threading.Event()
    sub.on_subscribe = lambda *a: subscribed.set()
    sub.connect(broker.host, broker.port)
    sub.subscribe([(topics["coins"], 0), (topics["result"], 0)])
    sub.loop_start()
    assert subscribed.wait(10)
    stop = threading.Event()
    worker = threading.Thread(target=serve, args=(table, config, stop), daemon=True)
    worker.start()
    try:
        wait_for(got, lambda t, b: t == topics["coins"] and "c1" in b["coins"])  # the initial table
        sub.publish(topics["flick"], json.dumps({"coin": "c2", "vx": 0, "vy": 300}))
        bad = wait_for(got, lambda t, b: t == topics["result"])
        assert bad == {"ok": False, "error": "flick: it is Ann's turn: flick c1, not c2 (CW-5.1)"}
        sub.publish(topics["flick"], json.dumps({"coin": "c2", "vx": 0, "vy": 300, "id": "flick-x1"}))
        assert wait_for(got, lambda t, b: t == topics["result"])["id"] == "flick-x1"  # echoed for the panel
        sub.publish(topics["flick"], b"not json")
        assert wait_for(got, lambda t, b: t == topics["result"])["error"] == "flick: payload is not JSON"
        sub.publish(topics["flick"], json.dumps({"coin": "c1", "vx": 0, "vy": 400}))
        moved = wait_for(got, lambda t, b: t == topics["coins"] and not b["moving"] and b["coins"]["c1"][1] > 60.0)
        assert wait_for(got, lambda t, b: t == topics["result"]) == {"ok": True}
        assert moved["coins"]["c1"][1] == pytest.approx(45.0 + 400.0**2 / (2 * 0.30 * 9810.0), abs=1.0)
        assert [c["type"] for c in daemon.inputs] == ["new_game", "strike", "shot"]
    finally:
        stop.set()
        worker.join(5)
        sub.loop_stop()
        sub.disconnect()
