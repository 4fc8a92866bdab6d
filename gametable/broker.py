"""A private Mosquitto on a free loopback port.

Used by ``gametable sim`` when the config names no broker (so the virtual table runs anywhere
with nothing set up) and by the tests (a real broker, never a mock).

``start_table_broker`` runs it exactly as a real table's broker is set up
(hardware_docs/mosquitto: the shipped ``gametable.conf`` and ``gametable.acl``) with a
``daemon`` and a ``panel`` user whose passwords are generated per run in a private temp dir: anyone
else on the machine may watch the public topics, but never reads a private view or writes ``cmd``.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SHIPPED = Path(__file__).resolve().parent.parent / "hardware_docs" / "mosquitto"
USERS = ("daemon", "panel", "viewer")  # the shipped ACL's users (hardware_docs/mosquitto/gametable.acl)


def free_port(avoid: frozenset[int] = frozenset()) -> int:
    """A loopback port nobody listens on now, never one of ``avoid`` (ports the caller has promised
    elsewhere but not bound yet: the kernel would happily hand them out again)."""
    while True:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port: int = sock.getsockname()[1]
        if port not in avoid:
            return port


def mosquitto_binary() -> str:
    for candidate in (shutil.which("mosquitto"), "/usr/sbin/mosquitto"):
        if candidate and Path(candidate).exists():
            return candidate
    raise RuntimeError("mosquitto is not installed (make deps installs it: apt-get install mosquitto)")


@dataclass
class Broker:
    host: str
    port: int
    process: subprocess.Popen
    conf: Path
    users: dict[str, str] = field(default_factory=dict)  # user -> password (start_table_broker)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def close(self) -> None:
        """Stop for good and remove the broker's private config directory."""
        self.stop()
        shutil.rmtree(self.conf.parent, ignore_errors=True)

    def restart(self) -> None:
        self.stop()
        self.process = _spawn(self.conf, self.port)


def _spawn(conf: Path, port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [mosquitto_binary(), "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"mosquitto exited with {proc.returncode}") from None
            time.sleep(0.02)
    proc.kill()
    raise RuntimeError("mosquitto did not start listening")


def start_broker(extra_conf: str = "", port: int | None = None) -> Broker:
    """Start Mosquitto on 127.0.0.1; ``extra_conf`` replaces the default ``allow_anonymous true``."""
    port = port or free_port()
    workdir = Path(tempfile.mkdtemp(prefix="gametable-mosquitto-"))
    conf = workdir / "mosquitto.conf"
    body = extra_conf or "allow_anonymous true\n"
    conf.write_text(f"listener {port} 127.0.0.1\npersistence false\nset_tcp_nodelay true\n{body}")
    return Broker("127.0.0.1", port, _spawn(conf, port), conf)


def shipped_conf() -> str:
    """The shipped ``gametable.conf`` without the lines a private broker sets itself (its listener,
    the paths of its password and ACL files)."""
    path = SHIPPED / "gametable.conf"
    if not path.exists():
        raise RuntimeError(f"the shipped Mosquitto config {path} is missing (run from the repository)")
    own = ("listener", "password_file", "acl_file")
    return "".join(line + "\n" for line in path.read_text().splitlines() if not line.startswith(own))


def _hand_to_mosquitto(*paths: Path) -> None:
    """Mosquitto started as root drops to its own user before it reads the password and ACL files:
    give it those (private, 0700/0600) files instead of making them world-readable."""
    if os.geteuid() != 0:
        return
    try:
        import pwd

        entry = pwd.getpwnam("mosquitto")
    except (ImportError, KeyError):
        return
    for path in paths:
        os.chown(path, entry.pw_uid, entry.pw_gid)


def start_table_broker(port: int | None = None, *, users: dict[str, str] | None = None,
                       avoid: frozenset[int] = frozenset()) -> Broker:
    """Start Mosquitto with the shipped config and ACL and fresh random passwords for the daemon,
    the panel and a viewer (``broker.users``); anonymous clients are refused. Without a ``port``, a
    free one that is none of ``avoid``."""
    passwd_tool = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    if not Path(passwd_tool).exists():
        raise RuntimeError("mosquitto_passwd is not installed (apt-get install mosquitto)")
    port = port or free_port(avoid)
    users = users or {name: secrets.token_urlsafe(18) for name in USERS}
    workdir = Path(tempfile.mkdtemp(prefix="gametable-mosquitto-"))  # 0700
    passwd, acl, conf = workdir / "gametable.passwd", workdir / "gametable.acl", workdir / "mosquitto.conf"
    # plain "user:password" lines hashed in place (-U): no password ever appears on a command line
    fd = os.open(passwd, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.writelines(f"{user}:{pw}\n" for user, pw in users.items())
    subprocess.run([passwd_tool, "-U", str(passwd)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    acl.write_text((SHIPPED / "gametable.acl").read_text())
    acl.chmod(0o600)
    conf.write_text(f"listener {port} 127.0.0.1\npersistence false\n{shipped_conf()}"
                    f"password_file {passwd}\nacl_file {acl}\n")
    _hand_to_mosquitto(workdir, passwd, acl)
    return Broker("127.0.0.1", port, _spawn(conf, port), conf, dict(users))


def ensure_broker(config: Any) -> tuple[Any, Broker | None]:
    """``gametable sim``: when the config names no broker, start a private one set up as a real
    table's (shipped config and ACL, passwords generated for this run) and return a config pointing
    at it with the daemon's and the panel's credentials (plus the broker, to stop on exit);
    otherwise the config as it is and None."""
    if config.mqtt.host:
        return config, None
    broker = start_table_broker(avoid=frozenset({config.panel.port}))  # the panel binds it later
    mqtt = dataclasses.replace(config.mqtt, host=broker.host, port=broker.port,
                               username="daemon", password=broker.users["daemon"])
    panel = dataclasses.replace(config.panel, mqtt_username="panel", mqtt_password=broker.users["panel"])
    return dataclasses.replace(config, mqtt=mqtt, panel=panel), broker


def say_how_to_watch(broker: Broker) -> None:
    """Anonymous clients are refused (hardware_docs/mosquitto/README.md): the console, the person
    running the sim, gets this run's read-only viewer to watch the public topics with."""
    print(f"watch the public topics: mosquitto_sub -h {broker.host} -p {broker.port} -u viewer "
          f"-P {broker.users['viewer']} -t 'gametable/#' -v", flush=True)
