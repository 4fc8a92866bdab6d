"""The text format of a striker trace, as ``firmware/striker/record_trace.py`` prints it.

Why a parser of its own: a trace is captured with ``mpremote run ... > FILE`` and may carry the
countdown before it, mpremote's noise after it, CRLF line ends, or stop early when the cable is
pulled. Anything but a complete trace is refused with one line naming the file and the line.

    {"trace": "gametable-striker", "v": 1, "rate_hz": 1000, "n": 5000, ...}   header (any key order)
    0 0.012 -0.004 1.001                                                       ms, then x y z in g
    {"end": 5000}
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT = "gametable-striker"
VERSION = 1
MAX_G = 16.5  # the MPU-6050 at ±16 g reads at most 16 g; a little slack for rounding


class TraceError(ValueError):
    """A file that is not a complete trace; the message is one line naming the file and the line."""


@dataclass
class Trace:
    source: str
    header: dict[str, Any]
    t_ms: list[int] = field(default_factory=list)
    samples: list[tuple[float, float, float]] = field(default_factory=list)

    @property
    def rate_hz(self) -> int:
        return int(self.header["rate_hz"])


def dumps(header: dict[str, Any], t_ms: list[int], samples: list[tuple[float, float, float]]) -> str:
    """The text record_trace.py prints (the tests write traces with it)."""
    head = dict(header, trace=FORMAT, v=VERSION, n=len(samples))
    lines = [json.dumps(head)]
    lines += [f"{t} {x:.3f} {y:.3f} {z:.3f}" for t, (x, y, z) in zip(t_ms, samples, strict=True)]
    lines.append(json.dumps({"end": len(samples)}))
    return "\n".join(lines) + "\n"


def _header(line: str) -> dict[str, Any] | None:
    if not line.startswith("{"):
        return None
    try:
        doc = json.loads(line)
    except ValueError:
        return None
    return doc if isinstance(doc, dict) and doc.get("trace") == FORMAT else None


def _check_header(head: dict[str, Any], where: str) -> None:
    if head.get("v") != VERSION:
        raise TraceError(f"{where}: trace format version {head.get('v')!r}, this gametable reads {VERSION}")
    rate, n = head.get("rate_hz"), head.get("n")
    if not isinstance(rate, int) or isinstance(rate, bool) or not 500 <= rate <= 10000:
        raise TraceError(f"{where}: rate_hz must be a whole number from 500 to 10000, got {rate!r}")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise TraceError(f"{where}: n must be a whole number of samples, got {n!r}")


def _sample(line: str, where: str, prev_ms: int) -> tuple[int, tuple[float, float, float]]:
    parts = line.split()
    try:
        if len(parts) != 4:
            raise ValueError
        t = int(parts[0])
        x, y, z = (float(p) for p in parts[1:])
    except ValueError:
        raise TraceError(f"{where}: expected 'ms ax ay az', got {line[:40]!r}") from None
    if not all(math.isfinite(v) and abs(v) <= MAX_G for v in (x, y, z)):
        raise TraceError(f"{where}: acceleration beyond ±16 g in {line[:40]!r}")
    if t < prev_ms:
        raise TraceError(f"{where}: time {t} ms goes back (previous {prev_ms} ms)")
    return t, (x, y, z)


def parse(text: str, source: str = "<trace>") -> Trace:
    """Lines before the header (the countdown, mpremote's noise) and after the end line are ignored."""
    lines = text.splitlines()
    start = next((i for i, ln in enumerate(lines) if _header(ln.strip()) is not None), None)
    if start is None:
        raise TraceError(f"{source}:1: no trace header (a JSON line with \"trace\": \"{FORMAT}\") "
                         f"in {len(lines)} lines: is this record_trace.py's output?")
    head = _header(lines[start].strip())
    assert head is not None
    _check_header(head, f"{source}:{start + 1}")
    trace = Trace(source, head)
    n = head["n"]
    for i in range(start + 1, len(lines)):
        line, where = lines[i].strip(), f"{source}:{i + 1}"
        if line.startswith("{"):
            try:
                end = json.loads(line)["end"]
            except (ValueError, KeyError, TypeError):
                raise TraceError(f"{where}: expected a sample or the end line, got {line[:40]!r}") from None
            if end != n or len(trace.samples) != n:
                raise TraceError(f"{where}: end line says {end!r} samples, the header {n}, the file has "
                                 f"{len(trace.samples)}")
            return trace
        if len(trace.samples) == n:
            raise TraceError(f"{where}: more than the header's {n} samples")
        if i == len(lines) - 1 and not text.endswith(("\n", "\r")):
            where += f": truncated after {len(trace.samples)} of {n} samples (no end line)"
        t, s = _sample(line, where, trace.t_ms[-1] if trace.t_ms else 0)
        trace.t_ms.append(t)
        trace.samples.append(s)
    raise TraceError(f"{source}:{len(lines)}: truncated: no end line after {len(trace.samples)} of {n} samples")


def read(path: str | Path) -> Trace:
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise TraceError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return parse(text, str(path))
