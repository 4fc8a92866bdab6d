"""Striker wake path and battery life under real MicroPython (WebAssembly build, Node).

Wake: a deep-sleep wake reboots the board and main.py imports striker_app with every firmware
module. ``firmware/test_runner/wake_imports.py`` times those imports with the ``.py`` sources and
with the shipped ``firmware/mpy/*.mpy``; the difference is the compile step the ``.mpy`` files save.
These are this machine's milliseconds, not an ESP32-C3's (hardware_docs/firmware.md "Wake time").
The source lines compiled at each wake are exact on any machine.

Battery: ``duty_cycle.py`` plays a game night on the real striker_app and prints the mean awake
time per turn and the hours of play on the BOM's cell (the sum in firmware.md "Power").
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from firmware.build_mpy import MODULES, STRIKER

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"
RUNNER = FIRMWARE / "test_runner"
VECTORS = ROOT / "tests" / "vectors"


def _node(lib: Path, script: str, *extra: Path) -> str:
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is not installed (make test-deps)")
    proc = subprocess.run([node, str(RUNNER / "run.mjs"), str(lib), str(VECTORS), str(RUNNER / script),
                           *map(str, extra), str(RUNNER)], cwd=RUNNER, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"{script} failed: {proc.stdout[-500:]}{proc.stderr[-500:]}")
    return proc.stdout


def _figure(out: str, name: str) -> float:
    m = re.search(rf"^{name} (\S+)$", out, re.M)
    if m is None:
        raise RuntimeError(f"no {name} in {out[-300:]}")
    return float(m.group(1))


def _lines(paths: list[Path]) -> int:
    return sum(len(p.read_text().splitlines()) for p in paths)


def run() -> dict[str, float]:
    py = _figure(_node(FIRMWARE / "lib", "wake_imports.py", FIRMWARE / "striker"), "WAKE_IMPORT_US")
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(FIRMWARE / "striker" / "config.py", Path(tmp) / "config.py")
        mpy = _figure(_node(FIRMWARE / "mpy", "wake_imports.py", Path(tmp)), "WAKE_IMPORT_US")
    duty = _node(FIRMWARE / "lib", "duty_cycle.py", FIRMWARE / "striker")
    always = [FIRMWARE / "striker" / "main.py", FIRMWARE / "striker" / "config.py"]
    sources = [FIRMWARE / MODULES[name] for name in STRIKER]
    return {
        "striker_wake_source_lines_py": _lines(always + sources),
        "striker_wake_source_lines_mpy": _lines(always),
        "striker_wake_import_ms_py": py / 1000,
        "striker_wake_import_ms_mpy": mpy / 1000,
        "striker_awake_s_per_turn": _figure(duty, "AWAKE_MS") / 1000,
        "striker_play_hours_250mah": _figure(duty, "HOURS"),
    }
