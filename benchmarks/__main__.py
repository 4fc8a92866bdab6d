"""`make bench`: run every benchmarks/bench_*.py and print `name: value` lines.

Targets are the issue's aims for this machine; a Pi is several times slower. Each module
exposes ``run() -> dict[str, float]``; one failing module is reported and the rest still run.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
import traceback
from pathlib import Path


def main(argv: list[str]) -> int:
    only = set(argv)
    here = Path(__file__).parent
    failures = 0
    for info in sorted(pkgutil.iter_modules([str(here)]), key=lambda i: i.name):
        if not info.name.startswith("bench_"):
            continue
        if only and info.name not in only and info.name.removeprefix("bench_") not in only:
            continue
        started = time.perf_counter()
        try:
            module = importlib.import_module(f"benchmarks.{info.name}")
            figures = module.run()
        except Exception:
            failures += 1
            print(f"# {info.name} failed:", file=sys.stderr)
            traceback.print_exc()
            continue
        for name, value in figures.items():
            shown = f"{value:.3f}" if isinstance(value, float) else str(value)
            print(f"{name}: {shown}", flush=True)
        print(f"# {info.name} took {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
