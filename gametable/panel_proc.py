"""The phone panel in its own process: ``gametable panel``, and the child ``gametable run`` keeps.

Why: the panel and the referee shared one interpreter, so a flood of GETs or 2,000 spectator
streams slowed the referee, and every seated phone with it (``make bench``:
``seated_p95_ratio_under_get_flood``, ``seated_p95_ratio_with_2000_spectators``). The panel talks to
the referee only over MQTT (web_panel/PANEL.md), so it runs apart: ``gametable run`` starts it as a
child process, restarts it if it dies, and stops it with itself. A child whose parent vanished
(``kill -9``) is killed by Linux at once (``PR_SET_PDEATHSIG``; elsewhere it notices the end of its
stdin pipe), so a restarted referee finds the panel's port free and its console holds only its own lines.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any

from gametable.config_load import SERVICE, load_config

log = logging.getLogger("gametable.run")
RESTART_S = (1.0, 2.0, 5.0, 10.0, 30.0)  # waits before restarting a panel that died, growing
STEADY_S = 60.0  # a panel that ran this long before dying starts the waits over


def add_parser(sub: Any) -> None:
    """``gametable panel`` (hooked into gametable/cli.py)."""
    panel = sub.add_parser("panel", help="the phone panel alone (`gametable run` starts it as its own process)")
    panel.add_argument("--config", help="TOML config file (the same as the referee's)")
    panel.add_argument("--with-parent", type=int, metavar="PID",
                       help="the referee's process id: exit the moment it is gone (`gametable run` passes it)")


def run_panel(args: argparse.Namespace) -> int:
    """Serve the panel until SIGTERM/SIGINT (or, ``--with-parent``, until the referee is gone)."""
    if args.with_parent and not _tied_to(args.with_parent):
        return 0  # the referee died while this process started: say nothing, serve nothing
    from web_panel import serve

    config = load_config(args.config, "gametable panel", SERVICE)  # 78: `gametable run` does not restart it
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    # Threads hand the interpreter over every 1 ms instead of 5: a seated phone's request, its
    # MQTT round trip and its frame each wait less behind the event loop's writes to 2,000 streams.
    sys.setswitchinterval(0.001)
    if args.with_parent:
        threading.Thread(target=_until_eof, args=(stop,), name="gametable-panel-parent", daemon=True).start()
    try:
        panel = serve(config, generate_pin=True)
    except OSError as exc:
        print(f"gametable panel: cannot serve on {config.panel.host}:{config.panel.port}: {exc.strerror or exc}")
        return 1
    stop.wait()
    panel.stop()
    return 0


def _tied_to(parent: int) -> bool:
    """Ask Linux to kill this process when its parent dies (``PR_SET_PDEATHSIG``), then check the
    parent is still the one that started it (it may have died before the request)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the stdin pipe's end still tells
        pass
    return os.getppid() == parent


def _until_eof(stop: threading.Event) -> None:
    try:  # (the raw descriptor: a buffered stdin's lock would hold up the interpreter's exit)
        while os.read(0, 4096):
            pass
    except OSError:
        pass
    stop.set()


class PanelProcess:
    """``gametable run``'s panel child: started, restarted when it dies, stopped with the referee."""

    def __init__(self, config_path: str | None, log_level: str = "INFO") -> None:
        self.command = [sys.executable, "-m", "gametable.cli", "--log-level", log_level, "panel",
                        "--with-parent", str(os.getpid())]
        if config_path:
            self.command += ["--config", config_path]
        self.proc: subprocess.Popen[bytes] | None = None
        self.restarts = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._watcher = threading.Thread(target=self._watch, name="gametable-panel-watch", daemon=True)

    def start(self) -> PanelProcess:
        self._spawn()
        self._watcher.start()
        return self

    @property
    def pid(self) -> int | None:
        proc = self.proc
        return proc.pid if proc is not None else None

    def _spawn(self) -> None:
        with self._lock:
            if self._stop.is_set():
                return
            # stdout/stderr shared with the referee: one console, one service journal
            self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE)

    def _watch(self) -> None:
        attempt = 0
        while not self._stop.is_set():
            proc = self.proc
            if proc is None:
                return
            started = time.monotonic()
            code = proc.wait()
            if self._stop.is_set():
                return
            if code == 78:  # a fatal config fault: a restart cannot fix it (the referee said why)
                log.error("the phone panel stopped on a config error (exit 78); not restarting it")
                return
            attempt = 0 if time.monotonic() - started > STEADY_S else attempt
            wait = RESTART_S[min(attempt, len(RESTART_S) - 1)]
            attempt += 1
            log.warning("the phone panel process exited (%s); restarting it in %g s", code, wait)
            if self._stop.wait(wait):
                return
            self.restarts += 1
            self._spawn()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        with self._lock:
            proc = self.proc
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        finally:
            if proc.stdin is not None:
                proc.stdin.close()
