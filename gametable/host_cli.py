"""``gametable host unlock``: the table's console lifts a PIN lockout of the phone panel.

Why here: when the LAN guessed PINs until host login locked, the person at the
table lifts it, and only from the table: this command talks to the panel over loopback, which the
panel treats as the table's own screen (``web_panel/host_login.py``). It prints what the lockout
was (wrong PINs, from how many addresses) and this run's host link.
"""

from __future__ import annotations

import argparse
import http.client
import json
import uuid
from typing import Any, TextIO

from gametable.config_load import load_config


def add_parser(sub: Any) -> None:
    """``gametable host …`` (hooked into gametable/cli.py)."""
    hp = sub.add_parser("host", help="the phone panel's host login, from the table's console")
    hsub = hp.add_subparsers(dest="host_command", required=True)
    unlock = hsub.add_parser("unlock", help="lift a PIN lockout and print the host link")
    unlock.add_argument("--config", help="the table's TOML config file (for [panel] port)")


def _loopback(host: str) -> str:
    return "::1" if ":" in host and host != "::" else "127.0.0.1"


def lift(port: int, host: str = "127.0.0.1", timeout: float = 10.0) -> tuple[int, dict[str, Any]]:
    """POST /api/host/lift over loopback as the table's own screen does (CSRF cookie first)."""
    shown = f"[{host}]" if ":" in host else host
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request("GET", "/api/info", headers={"Host": f"{shown}:{port}"})
        resp = conn.getresponse()
        resp.read()
        csrf = ""
        for header in resp.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            if name == "gt_csrf":
                csrf = rest.split(";", 1)[0]
        body = json.dumps({"id": f"host-unlock-{uuid.uuid4()}"})  # never repeats across runs
        conn.request("POST", "/api/host/lift", body, headers={
            "Host": f"{shown}:{port}", "Content-Type": "application/json", "X-CSRF-Token": csrf,
            "Cookie": f"gt_csrf={csrf}"})
        resp = conn.getresponse()
        payload = resp.read()
    finally:
        conn.close()
    try:
        return resp.status, json.loads(payload)
    except ValueError:
        return resp.status, {"error": payload.decode(errors="replace")}


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    import sys

    out = out or sys.stdout
    config = load_config(args.config, "gametable host unlock")
    host = _loopback(config.panel.host)
    try:
        status, body = lift(config.panel.port, host)
    except OSError as exc:
        print(f"gametable host unlock: no panel on {host}:{config.panel.port} ({exc}); is `gametable run` running?",
              file=out)
        return 1
    if status != 200:
        print(f"gametable host unlock: the panel refused ({status}): {body.get('error')}", file=out)
        return 1
    was = body["was"]
    state = "was LOCKED" if was["locked"] else "was not locked"
    print(f"host login {state}: {was['wrong_pins']} wrong PINs from {was['addresses']} addresses, "
          f"{was['refused']} attempts refused unchecked; PIN login is open again", file=out)
    if body.get("host_link"):
        print(f"host link (keep it to yourself): {body['host_link']}", file=out)
    return 0
