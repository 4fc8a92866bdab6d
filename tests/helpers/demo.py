"""`make demo`'s own process for the browser tests (``gametable sim --bots 1``: its virtual table,
bots and panel), on the port its config gives, started and waited for until its panel answers."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def start_demo(cfg: Path, port: int, *, keep_output: bool = True) -> subprocess.Popen:
    """The demo at ``speed 20``; ``keep_output``: its console in ``proc.stdout`` (read it, or it may
    fill the pipe: a long-lived demo is started without)."""
    out = subprocess.PIPE if keep_output else subprocess.DEVNULL
    proc = subprocess.Popen([sys.executable, "-m", "gametable.cli", "sim", "--config", str(cfg), "--bots", "1",
                             "--no-browser", "--speed", "20"], stdout=out, stderr=subprocess.STDOUT,
                            text=True, cwd=ROOT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=2):
                return proc
        except OSError:
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else "the demo exited"
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("the demo's panel never answered")
