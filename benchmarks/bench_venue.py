"""``venue_board_p95_ms_200_tables``: a table's state change -> the venue board's browsers.

200 simulated tables log in to a real venue Mosquitto (the files of ``gametable venue-setup``, each
table with its own login and ACL, as its bridge does) and publish a public state about every 2 s
(a move every 2 s per table: ~100 states a second). The venue service runs as its own process
(``gametable venue``), and two Chromium pages show its board; each page notes when a table's card
shows the state's number (a MutationObserver). The figure is the p95 of publish -> shown, over both
pages (aim <= 250 ms, docs/performance.md).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import paho.mqtt.client as mqtt

from controller.mqtt_client import no_delay
from gametable.broker import free_port
from gametable.testing.chromium import ARGS, CHROMIUM
from gametable.testing.venue import start_venue_broker
from gametable.venue.setup import table_user

TABLES = 200
SECONDS = 20.0
MOVE_EVERY_S = 2.0
REPO = Path(__file__).resolve().parent.parent

OBSERVE = """
window.__shown = [];
new MutationObserver(() => {
  const now = Date.now();
  for (const node of document.querySelectorAll('#tables .game')) {
    const m = /· m(\\d+)$/.exec(node.textContent);
    if (!m) continue;
    const key = node.closest('article').dataset.table + ':' + m[1];
    if (!window.__seen) window.__seen = new Set();
    if (!window.__seen.has(key)) { window.__seen.add(key); window.__shown.push([key, now]); }
  }
}).observe(document.getElementById('tables'), {childList: true, subtree: true, characterData: true});
"""


def _state(table: int, n: int) -> str:
    return json.dumps({"game": "coup", "mode": f"m{n}", "phase": "playing", "turn": {"seat": 1 + n % 2},
                       "players": [{"seat": 1, "name": f"A{table}", "alive": True, "coins": n % 10},
                                   {"seat": 2, "name": f"B{table}", "alive": True, "coins": 2}],
                       "winner": None, "questions": []})


def _tables(venue, ids: list[str]) -> list[mqtt.Client]:
    clients = []
    for t in ids:
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"bench-{t}-{os.getpid()}")
        login = venue.login(table_user(t))
        c.username_pw_set(login["username"], login["password"])
        no_delay(c)
        c.connect(venue.broker.host, venue.broker.port)
        c.loop_start()
        clients.append(c)
    return clients


def _service(venue, ids: list[str], workdir: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    login = venue.login("venue")
    config = workdir / "venue.toml"
    config.write_text(f'[mqtt]\nhost = "{venue.broker.host}"\nport = {venue.broker.port}\n'
                      f'username = "{login["username"]}"\npassword = "{login["password"]}"\n'
                      f'client_id = "bench-venue-{os.getpid()}"\n'
                      f'[database]\nurl = "sqlite:///{workdir / "venue.sqlite"}"\n'
                      f'[board]\nport = {port}\ntables = {json.dumps(ids)}\n')
    proc = subprocess.Popen([sys.executable, "-m", "gametable.cli", "--log-level", "WARNING", "venue",
                             "--config", str(config)], cwd=REPO, stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url + "/api/tables", timeout=1).read()
            return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the venue service did not start")


def run() -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    ids = [f"t{i}" for i in range(1, TABLES + 1)]
    venue = start_venue_broker(ids)
    workdir = Path(tempfile.mkdtemp(prefix="bench-venue-"))
    clients = _tables(venue, ids)
    proc, url = _service(venue, ids, workdir)
    sent: dict[str, float] = {}
    try:
        for i, c in enumerate(clients):  # every table's first state, before the boards open
            c.publish(f"gametable/{ids[i]}/state", _state(i, 0), qos=1, retain=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pages = []
            for path in ("/", "/tv"):
                page = browser.new_page()
                page.goto(url + path)
                page.wait_for_function(f"document.querySelectorAll('#tables article').length >= {TABLES}")
                page.evaluate(OBSERVE)
                pages.append(page)
            rnd = random.Random(27)
            stop = time.monotonic() + SECONDS
            n = 0
            lock = threading.Lock()
            while time.monotonic() < stop:
                n += 1
                i = rnd.randrange(TABLES)
                with lock:
                    sent[f"{ids[i]}:{n}"] = time.time() * 1000
                clients[i].publish(f"gametable/{ids[i]}/state", _state(i, n), qos=1, retain=True)
                time.sleep(rnd.expovariate(TABLES / MOVE_EVERY_S))
            time.sleep(2.0)  # the last states reach the pages
            shown = [row for page in pages for row in page.evaluate("window.__shown")]
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
        for c in clients:
            c.disconnect()
            c.loop_stop()
        venue.broker.close()
    # A card shows only its newest state: a state overtaken within one frame is never shown (and
    # not counted); every shown state is.
    latencies = sorted(at - sent[key] for key, at in shown if key in sent)
    if not latencies:
        raise RuntimeError("no state reached the board")
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    return {"venue_board_p95_ms_200_tables": round(p95, 1), "venue_board_states_shown": float(len(latencies)),
            "venue_board_states_sent": float(len(sent))}
