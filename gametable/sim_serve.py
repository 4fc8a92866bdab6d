"""The serving loop of `gametable sim`: flicks from the phone panel over MQTT, bot moves, coin positions.

Why a module of its own: it is the only part of the simulator that speaks MQTT (the virtual table's
``sensors/table`` and ``sim/flick`` topics); the table, the demo and the CLI know nothing of it.
"""

from __future__ import annotations

import math
import threading
from typing import Any

from controller.bot_runner import BotRunner
from controller.topics import Topics, client_id
from gametable.sim_demo import Demo
from gametable.sim_platform import SimError
from gametable.sim_table import VirtualTable
from gametable_core.config import Config
from sensors.virtual.physics import Point


def sensor_topics(table_id: str) -> dict[str, str]:
    """MQTT topics of the virtual table (under the contract's `gametable/T/sensors/…`, QoS 0).

    - ``sensors/table`` (published, retained): ``{"coins": {"c1": [x, y], …}, "off": [...],
      "moving": bool}`` during a strike (about 20 times a second) and after every change, so the
      panel's table view can draw and animate them;
    - ``sim/flick`` (subscribed, QoS 1): ``{"seat": S, "coin": "c1", "vx": mm/s, "vy": mm/s}`` from the
      panel's drag (the panel has checked the seat's token);
    - ``sim/flick/result`` (published): ``{"ok": true}`` or ``{"ok": false, "error": "…"}``, with the
      flick's ``id`` when it had one (the panel answers the phone that flicked with the real outcome).
    """
    t = Topics(table_id)
    return {"coins": t.sim_table, "flick": t.sim_flick, "result": t.sim_flick_result}


def serve(table: VirtualTable, config: Config, stop: threading.Event, changed: threading.Event | None = None,
          runner: BotRunner | None = None, demo: Demo | None = None) -> None:
    """The interactive loop: flicks from the panel over MQTT, bot seats, placements, until ``stop``."""
    import json
    import queue

    from controller.mqtt_client import mqtt_client

    topics = sensor_topics(config.table_id)
    flicks: queue.Queue[bytes] = queue.Queue()
    client = mqtt_client(client_id("sim", config.table_id), username=config.mqtt.username,
                         password=config.mqtt.password)
    client.on_connect = lambda c, u, f, rc, p=None: c.subscribe(topics["flick"], qos=1)
    client.on_message = lambda c, u, msg: flicks.put(bytes(msg.payload))

    def publish_coins(positions: dict[str, Point]) -> None:
        body = {"coins": {c: [round(x, 1), round(y, 1)] for c, (x, y) in positions.items()},
                "off": sorted(table.physics.off_table()), "moving": table.moving}
        client.publish(topics["coins"], json.dumps(body, sort_keys=True), qos=0, retain=True)

    table.on_change = publish_coins
    client.connect(config.mqtt.host or "127.0.0.1", config.mqtt.port, keepalive=config.mqtt.keepalive)
    client.loop_start()
    try:
        last_pub = last_bot = -math.inf
        while not stop.is_set():
            try:
                payload = flicks.get(timeout=0.2)
            except queue.Empty:
                payload = None
            if payload is not None:
                client.publish(topics["result"], json.dumps(_flick_from_panel(table, payload)), qos=0)
            if changed is not None and changed.is_set():
                changed.clear()
            if demo is not None:
                demo.step(table)
            table.sync()  # the bot seats are the running game's (its new_game: bot_seats)
            now = table.clock.now()
            if now - last_bot >= table.bot_pause_s:
                if runner is not None:
                    runner.seats = set(table.bots)
                # one move a pass: Ctrl-C and the panel's flicks are not kept waiting
                if (runner.poll() if runner is not None else 0) + table.play_bots(max_moves=1):
                    last_bot = now
            if now - last_pub > 3.0:
                publish_coins(table.physics.positions())
                last_pub = now
    finally:
        client.loop_stop()
        client.disconnect()


def _flick_from_panel(table: VirtualTable, payload: bytes) -> dict[str, Any]:
    """Validate and play a flick the panel sent; one-line error for anything wrong."""
    import json

    try:
        msg = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        return {"ok": False, "error": "flick: payload is not JSON"}
    if not isinstance(msg, dict):
        return {"ok": False, "error": "flick: expected an object {coin, vx, vy}"}
    coin, vx, vy = msg.get("coin"), msg.get("vx"), msg.get("vy")
    if not isinstance(coin, str) or not isinstance(vx, int | float) or not isinstance(vy, int | float) \
            or isinstance(vx, bool) or isinstance(vy, bool):
        return {"ok": False, "error": "flick: expected coin (string), vx and vy (numbers, mm/s)"}
    rid = msg.get("id")
    echo = {"id": rid} if isinstance(rid, str) else {}  # the panel matches the outcome to its phone's flick
    st = table.state() or {}
    mine = _flickable_coins(table, st)
    if coin not in mine:
        turn = (st.get("turn") or {}).get("seat")
        who = next((str(p.get("name")) for p in st.get("players", []) if p.get("seat") == turn), None)
        if not mine or who is None:
            return {"ok": False, "error": "flick: nobody may flick now", **echo}
        return {"ok": False, "error": f"flick: it is {who}'s turn: flick {' or '.join(mine)}, not {coin} (CW-5.1)", **echo}
    try:
        result = table.flick(coin, float(vx), float(vy))
    except (SimError, ValueError) as exc:
        return {"ok": False, "error": f"flick: {exc}", **echo}
    return {"ok": bool(result.get("ok")), **({"error": result["error"]} if not result.get("ok") else {}), **echo}


def _flickable_coins(table: VirtualTable, st: dict[str, Any]) -> list[str]:
    """The coins the seat whose turn it is may flick: its legal ``shot`` coins (football: any of the
    team's three, CW-7.3), else the player's own coin (a referee without seat views)."""
    seat = (st.get("turn") or {}).get("seat")
    if seat is None:
        return []
    legal = (table.daemon.seat_view(seat) or {}).get("legal")
    if isinstance(legal, list):
        shot = next((m for m in legal if isinstance(m, dict) and m.get("type") == "shot"), None)
        return [str(c) for c in (shot or {}).get("coins") or []]
    coin = next((p.get("coin") for p in st.get("players", []) if p.get("seat") == seat), None)
    return [str(coin)] if coin else []
