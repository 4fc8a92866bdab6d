"""``gametable venue-setup``: the Mosquitto files of a venue, for both sides of every bridge.

Why Mosquitto's own bridge and no relay of ours: the table's broker queues what the venue missed
(persistent bridge session, QoS 1) and delivers it once when the link returns, and the venue
broker's ACL, not our code, decides what a table may publish.

Written files (``out``):
- ``venue/venue.conf``, ``venue/venue.acl``, ``venue/venue.passwd`` (hashed): the venue broker. Each
  table logs in as ``table-<id>`` and may write only its own public topics; the venue service
  (user ``venue``) reads every table's public topics; anonymous clients get nothing.
- ``tables/<id>/venue-bridge.conf``: for ``/etc/mosquitto/conf.d/`` on that table's Pi. It bridges
  out ``state``, ``events``, ``games``, ``leds``, ``status`` and ``results`` (BRIDGED) and nothing
  else: never a seat's private view, never ``cmd``. In: the venue's ``offer`` and ``sync`` only.

The bridge's queue is not what keeps results: Mosquitto bounds it (the table's ``max_queued_*``)
and drops the newest messages once it is full. After any gap the venue asks the table's journal
(``sync``/``results``, controller/finished_games.py), so the phones' queue limits stay as shipped.
- ``venue.toml``: the venue service's config with its broker login.
"""

from __future__ import annotations

import argparse
import re
import secrets
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from controller.topics import RESULTS, SYNC, base
from controller.venue_offer import OFFER

# public topics (docs/architecture.md, MQTT), out; ``results`` answers the venue's ``sync``
BRIDGED = ("state", "events", "games", "leds", "status", RESULTS)
BRIDGED_IN = (OFFER, SYNC)  # the venue's proposals and questions, never a command
LINK = "link"  # gametable/<id>/link: "1" while the table's bridge is up, "0" (its will) when it drops
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
SERVICE_USER = "venue"


class SetupError(ValueError):
    """Bad input to venue-setup; one line naming what is wrong."""


@dataclass(frozen=True)
class VenueSetup:
    """Every file of a venue's broker set-up, by path relative to the output directory."""

    files: dict[str, str]
    passwords: dict[str, str]  # broker user -> password (table-<id>, venue)


def table_user(table_id: str) -> str:
    return f"table-{table_id}"


def check_tables(tables: list[str]) -> list[str]:
    if not tables:
        raise SetupError("name at least one table id (--tables t1,t2)")
    for table in tables:
        if not TABLE_ID.fullmatch(table):
            raise SetupError(f"table id {table!r}: use 1-64 letters, digits, '-' or '_' (it is a topic and a user name)")
    if len(set(tables)) != len(tables):
        raise SetupError(f"table ids repeat: {', '.join(sorted(t for t in tables if tables.count(t) > 1))}")
    return tables


def venue_acl(tables: list[str]) -> str:
    lines = ["# Venue broker: who may read and write what (gametable venue-setup).",
             "# Anonymous clients: nothing (no lines before the first user).", "",
             f"user {SERVICE_USER}", "topic read gametable/#",
             *(f"topic write gametable/+/{name}" for name in BRIDGED_IN), ""]
    for table in tables:
        # A table publishes only under its own id, and only its public topics.
        lines.append(f"user {table_user(table)}")
        lines += [f"topic write {base(table)}/{name}" for name in (*BRIDGED, LINK)]
        lines += [f"topic read {base(table)}/{name}" for name in BRIDGED_IN]  # never a command
        lines.append("")
    return "\n".join(lines)


def venue_conf(port: int, etc: Path, persistence: Path, bind: str = "") -> str:
    return (f"# Venue broker (gametable venue-setup). Tables bridge in here; the venue service reads.\n"
            f"listener {port} {bind}".rstrip() + "\n"
            "set_tcp_nodelay true\nmax_packet_size 262144\n"
            "allow_anonymous false\n"
            f"password_file {etc / 'venue.passwd'}\nacl_file {etc / 'venue.acl'}\n"
            # The bridges' persistent sessions and the venue service's survive a restart.
            f"persistence true\npersistence_location {persistence}/\n"
            "persistent_client_expiration 7d\n"
            "max_queued_messages 100000\n")


def bridge_conf(table: str, host: str, port: int, password: str, restart_timeout: str = "2 30") -> str:
    lines = [
        f"# Bridge of table {table} into the venue broker (gametable venue-setup).",
        "# Copy to /etc/mosquitto/conf.d/ on this table's Pi; keep it private (it holds the password).",
        "# Events are QoS 0 on the table: upgraded to the bridge's QoS 1 so an outage queues them too.",
        "upgrade_outgoing_qos true",
        "# The queue of an outage is bounded (the table's max_queued_*: the newest are dropped once it is",
        "# full); the venue fetches the finished games it missed from the table's journal (sync/results).",
        f"connection venue-{table}",
        f"address {host}:{port}",
        f"remote_clientid gametable-bridge-{table}",
        f"remote_username {table_user(table)}",
        f"remote_password {password}",
        # Persistent on both sides: what happened while the link was down is delivered once.
        "cleansession false",
        "local_cleansession false",
        f"restart_timeout {restart_timeout}",
        "try_private true",
        # The venue's own view of the link: "1" when up, the broker's will "0" when it drops.
        "notifications true",
        "notifications_local_only false",
        f"notification_topic {base(table)}/{LINK}",
    ]
    # Only the public topics, out, at QoS 1. Never seat/+/private, never cmd. In: only the venue's
    # match offers (the table's host or its auto-start turns one into a new_game) and its sync asks.
    lines += [f"topic {base(table)}/{name} out 1" for name in BRIDGED]
    lines += [f"topic {base(table)}/{name} in 1" for name in BRIDGED_IN]
    return "\n".join(lines) + "\n"


def build(tables: list[str], host: str, port: int, *, etc: Path = Path("/etc/mosquitto"),
          persistence: Path = Path("/var/lib/mosquitto"), passwords: dict[str, str] | None = None,
          restart_timeout: str = "2 30", bind: str = "") -> VenueSetup:
    """All files; ``passwords`` (tests, re-runs) keeps given ones, others are made fresh."""
    check_tables(tables)
    if not 0 < port < 65536:
        raise SetupError(f"venue port {port}: a TCP port 1-65535")
    users = [SERVICE_USER, *(table_user(t) for t in tables)]
    pw = {u: (passwords or {}).get(u) or secrets.token_urlsafe(18) for u in users}
    files = {
        "venue/venue.conf": venue_conf(port, etc, persistence, bind),
        "venue/venue.acl": venue_acl(tables),
        "venue/venue.passwd": "".join(f"{u}:{pw[u]}\n" for u in users),
        "venue.toml": (f'# gametable venue --config venue.toml\n[mqtt]\nhost = "{host}"\nport = {port}\n'
                       f'username = "{SERVICE_USER}"\npassword = "{pw[SERVICE_USER]}"\n'
                       '[database]\nurl = "sqlite:///venue.sqlite"\n'
                       '[board]\nhost = "0.0.0.0"\nport = 8090\n'
                       f'tables = [{", ".join(repr(t).replace(chr(39), chr(34)) for t in tables)}]\n'),
    }
    for table in tables:
        files[f"tables/{table}/venue-bridge.conf"] = bridge_conf(
            table, host, port, pw[table_user(table)], restart_timeout)
    return VenueSetup(files, pw)


def write(setup: VenueSetup, out: Path) -> list[Path]:
    """Write every file private to its owner (they hold passwords); the venue's password file is
    hashed in place by ``mosquitto_passwd -U`` (no password on a command line)."""
    tool = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    if not Path(tool).exists():
        raise SetupError("mosquitto_passwd is not installed (apt-get install mosquitto)")
    written = []
    out.mkdir(parents=True, exist_ok=True)
    for rel, text in setup.files.items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(mode=0o600, exist_ok=True)
        path.chmod(0o600)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    subprocess.run([tool, "-U", str(out / "venue" / "venue.passwd")], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return written


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("venue-setup", help="write the venue broker's and every table's bridge config")
    p.add_argument("--tables", required=True, help="table ids, comma-separated (t1,t2,t3)")
    p.add_argument("--venue-host", required=True, help="the venue broker's address as the tables reach it")
    p.add_argument("--venue-port", type=int, default=1883)
    p.add_argument("--out", default="venue-setup", help="output directory (default venue-setup)")
    p.add_argument("--mosquitto-etc", default="/etc/mosquitto",
                   help="where the venue broker's venue.acl and venue.passwd will live (default /etc/mosquitto)")
    p.add_argument("--persistence", default="/var/lib/mosquitto",
                   help="the venue broker's persistence directory, owned by its mosquitto user (default /var/lib/mosquitto)")
    p.add_argument("--bind", default="", help="the address the venue broker listens on (default: every address)")


def run(args: argparse.Namespace) -> int:
    import sys

    tables = [t.strip() for t in str(args.tables).split(",") if t.strip()]
    try:
        setup = build(tables, args.venue_host, args.venue_port, etc=Path(args.mosquitto_etc),
                      persistence=Path(args.persistence), bind=args.bind)
    except SetupError as exc:
        print(f"venue-setup: {exc}", file=sys.stderr)
        return 2
    try:
        written = write(setup, Path(args.out))
    except SetupError as exc:
        print(f"venue-setup: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    print("Next: hardware_docs/multi_table.md, 'A venue of tables'.")
    return 0
