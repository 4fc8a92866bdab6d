"""Run the REAL daemon (``python -m gametable.cli run --no-hardware``) as a subprocess.

Fault tests and the soak kill it with SIGKILL at random points, restart it on the same journal,
and measure its memory, exactly as systemd would on the Pi.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from gametable.testing.recorder import Recorder

REPO = Path(__file__).resolve().parents[2]


def panel_port() -> int:
    """A free port below the ephemeral range: a port the OS handed out and took back (port 0)
    may meanwhile become the source port of the daemon's own MQTT connection, and the panel could
    then not bind it."""
    low, _ = (int(v) for v in Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    rnd = random.SystemRandom()
    for _ in range(200):
        port = rnd.randrange(10_000, max(10_001, low))
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port for the panel below the ephemeral range")


def write_config(path: Path, table_id: str, host: str, port: int, journal: Path,
                 credentials: dict[str, str] | None = None, panel: dict[str, Any] | None = None) -> Path:
    """A daemon config; its panel on a free loopback port unless ``panel`` names one (never the
    default 8080: the suite must pass while ``make demo`` runs); ``panel`` may add keys such as
    ``pin``; ``credentials``: the broker's ``username`` and ``password``."""
    auth = "".join(f'{k} = "{v}"\n' for k, v in (credentials or {}).items())
    panel = {"host": "127.0.0.1", "port": panel_port(), **(panel or {})}
    panel_keys = "".join(f"{k} = {v}\n" if isinstance(v, int) else f'{k} = "{v}"\n' for k, v in panel.items())
    path.write_text(
        f'table_id = "{table_id}"\n'
        f'[mqtt]\nhost = "{host}"\nport = {port}\nkeepalive = 5\n{auth}'
        f'[journal]\npath = "{journal}"\n'
        f'[panel]\n{panel_keys}',
        encoding="utf-8",
    )
    return path


class DaemonProcess:
    """One table daemon process; ``start`` / ``kill`` / ``terminate`` as often as a test likes."""

    def __init__(self, workdir: Path, host: str, port: int, table_id: str = "t1", *,
                 credentials: dict[str, str] | None = None, panel: dict[str, Any] | None = None) -> None:
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.table_id = table_id
        self.journal = self.workdir / "journal.sqlite"
        self.host, self.port, self.credentials, self.panel = host, port, credentials, panel
        self.config = write_config(self.workdir / "gametable.toml", table_id, host, port, self.journal, credentials,
                                   panel)
        self.log = self.workdir / "daemon.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        assert self.proc is None or self.proc.poll() is not None, "daemon already running"
        # a fresh free port for its panel each start (the last one may have been taken meanwhile)
        write_config(self.config, self.table_id, self.host, self.port, self.journal, self.credentials, self.panel)
        env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "gametable.cli", "--log-level", "INFO", "run",
                 "--config", str(self.config), "--no-hardware"],
                cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
            )
        self.starts += 1

    def start_online(self, phone: Recorder, timeout: float = 40.0) -> int:
        """Start the process and wait until ``phone`` (subscribed to its ``status``) sees it come
        ``online``; returns the phone's message index before the start."""
        mark = len(phone.messages)
        self.start()
        self.wait_online(phone, mark, timeout)
        return mark

    def wait_online(self, phone: Recorder, mark: int, timeout: float = 40.0) -> None:
        """Wait for ``online`` on ``phone`` after message ``mark``; the daemon's log when it never comes."""
        try:
            phone.wait_for(f"gametable/{self.table_id}/status", lambda m: m.payload == b"online", timeout,
                           start=mark)
        except TimeoutError:
            raise TimeoutError("the daemon did not come online; its log:\n" + self.log_text()[-3000:]) from None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """``kill -9``: no cleanup, no goodbye, exactly like a power cut for the process."""
        if self.alive():
            assert self.proc is not None
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def terminate(self, timeout: float = 10.0) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    def rss_kb(self) -> int:
        """Resident memory of the daemon process (Linux /proc)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS for the daemon process")

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def journal_rows(self, after: int = 0) -> list[tuple[int, str | None, str]]:
        """(seq, cmd_id, body) of every record after ``after``, read-only (safe while the daemon writes)."""
        if not self.journal.exists():
            return []
        db = sqlite3.connect(f"file:{self.journal}?mode=ro", uri=True)
        try:
            return list(db.execute("SELECT seq, cmd_id, body FROM inputs WHERE seq > ? ORDER BY seq", (after,)))
        finally:
            db.close()

    def tear_record(self, seq: int) -> None:
        """Cut record ``seq``'s body to 7 characters, as a write torn by a power cut leaves it
        (the daemon must be stopped)."""
        db = sqlite3.connect(self.journal)
        db.execute("UPDATE inputs SET body = substr(body, 1, 7) WHERE seq = ?", (seq,))
        db.commit()
        db.close()


def journal_inputs(rows: list[tuple[int, str | None, str]]) -> list[dict[str, Any]]:
    import json

    return [json.loads(body) for _seq, _cid, body in rows]
