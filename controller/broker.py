"""A private Mosquitto on a free loopback port.

Used by ``gametable sim`` when the config names no broker (so the virtual table runs anywhere
with nothing set up) and by the tests (a real broker, never a mock).
"""

from __future__ import annotations

import dataclasses
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


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


def ensure_broker(config: Any) -> tuple[Any, Broker | None]:
    """``gametable sim``: when the config names no broker, start a private one and return a config
    pointing at it (plus the broker, to stop on exit); otherwise the config as it is and None."""
    if config.mqtt.host:
        return config, None
    broker = start_broker()
    mqtt = dataclasses.replace(config.mqtt, host=broker.host, port=broker.port)
    return dataclasses.replace(config, mqtt=mqtt), broker
