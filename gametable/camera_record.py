"""``gametable camera record DIR``: the next strike on this table, saved as ``gametable-strike/1`` (CAM-4).

Why through the daemon: the camera belongs to ``gametable run`` (one process reads it, frames stay in
its memory, CAM-6). This asks it over MQTT (the table command ``camera_record``, with the config's
``[mqtt]`` user) to write the next whole strike into DIR -- the only way a frame reaches the disk --
and waits until ``sensors/camera_record`` says it is written. DIR must be new (or empty): a
recording never mixes with other files. The result is a test vector for ``gametable camera analyse``.
"""

from __future__ import annotations

import argparse
import json
import threading
from pathlib import Path
from typing import Any

WAIT_S = 600.0  # how long to wait for someone to strike


def add_record_parser(group: Any) -> None:
    """``record`` beside ``analyse`` in the ``gametable camera`` group."""
    rec = group.add_parser("record", help="write the next strike on this table into DIR (gametable-strike/1)")
    rec.add_argument("dir", help="a new (or empty) directory for meta.json and the frames")
    rec.add_argument("--config", default="/etc/gametable/table.toml", help="the table's config (its [mqtt] broker)")
    rec.add_argument("--wait", type=float, default=WAIT_S, metavar="S", help="seconds to wait for a strike")
    rec.set_defaults(camera_run=run_record)


def run_record(args: argparse.Namespace) -> int:
    """Exit 0 with the directory on stdout once written; one line on stderr and 1 (or 2: bad input)."""
    import sys

    from controller.command_client import CommandClient
    from controller.command_ids import new_id
    from controller.topics import Topics
    from gametable.config_load import load_config

    config = load_config(args.config, "gametable camera record")
    target = str(Path(args.dir).resolve())
    m = config.mqtt
    client = CommandClient(m.host or "127.0.0.1", m.port, config.table_id, username=m.username, password=m.password)
    done = threading.Event()
    report: dict[str, Any] = {}

    def on_report(_c: Any, _u: Any, msg: Any) -> None:
        try:
            data = json.loads(msg.payload)
        except ValueError:
            return
        if isinstance(data, dict) and data.get("dir") == target:
            report.update(data)
            done.set()

    topic = Topics(config.table_id).sensor("camera_record")
    client.client.message_callback_add(topic, on_report)
    try:
        if not client.wait_ready(10.0):
            print(f"camera record: cannot reach the broker at {m.host or '127.0.0.1'}:{m.port}", file=sys.stderr)
            return 1
        client.client.subscribe(topic, qos=0)
        result = client.send({"type": "camera_record", "id": new_id("rec"), "dir": target}, timeout=15.0)
        if not result.get("ok"):
            print(f"camera record: {result.get('error')}", file=sys.stderr)
            return 1
        print(f"recording the next strike into {target} (strike now) ...", file=sys.stderr, flush=True)
        if not done.wait(args.wait):
            print(f"camera record: no strike within {args.wait:g} s", file=sys.stderr)
            return 1
    finally:
        client.close()
    if report.get("event") != "recorded":
        print(f"camera record: {report.get('message')}", file=sys.stderr)
        return 1
    print(report["dir"])
    return 0
