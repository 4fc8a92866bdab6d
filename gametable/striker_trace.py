"""``gametable striker-trace``: run the striker's own detector over recorded traces and suggest a threshold.

Why: the strike threshold (2.5 g) and ``VERTICAL_MAX`` (0.8) were chosen on synthesised traces. A
builder records real flicks and set-downs on the striker (``firmware/striker/record_trace.py``),
and this command says what the firmware's detector makes of each file (read by ``trace_file.py``) —
with the very code the striker runs (``firmware/lib/strike_detector.py``) and the settings of
``firmware/striker/config.py`` — and which threshold to type into the bring-up page (firmware 1.2.0). ``--save-vector`` keeps a
labelled trace as a test vector in ``tests/vectors/recorded/``, run by ``check_vectors.py`` under
CPython and MicroPython like the synthesised cases.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import firmware
from gametable.trace_file import Trace, TraceError, read

MIN_THR = 1.0  # the bring-up page accepts 1.0–16.0 g (frames.MIN_THR / MAX_THR)
MAX_THR = 16.0
RECORDED = Path(__file__).resolve().parents[1] / "tests" / "vectors" / "recorded"
STRIKE, SET_DOWN = "strike", "set-down"
_FW = Path(firmware.__file__).resolve().parent


def _load(name: str, path: Path) -> ModuleType:
    """A firmware file as a module of its own name (``config`` would clash with other modules)."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_detector_mod = _load("gametable_fw_strike_detector", _FW / "lib" / "strike_detector.py")
config = _load("gametable_fw_striker_config", _FW / "striker" / "config.py")


# --- the detector over a trace ---------------------------------------------------------------------

@dataclass
class Spike:
    t_ms: int
    peak_g: float
    cos_g: float  # |cos| of the angle between the spike at its peak and gravity (1: straight down)
    source: str = ""

    @property
    def from_vertical(self) -> float:
        return math.degrees(math.acos(min(1.0, self.cos_g)))


@dataclass
class Report:
    trace: Trace
    label: str | None
    threshold: float
    hits: list[Spike]
    rejected: list[Spike]  # spikes over the threshold the vertical test called set-downs
    max_hp: float  # the largest |high-passed acceleration| in the file
    spikes: list[Spike]  # every spike over MIN_THR, orientation test off: what a threshold can separate


def run_detector(trace: Trace, threshold: float, vertical_max: float | None) -> tuple[list[Spike], list[Spike], float]:
    """The firmware's StrikeDetector with config.py's settings: (hits, set-downs rejected, max |hp|),
    each spike as the detector's ``last_spike`` describes it when its peak window closes."""
    det: Any = _detector_mod.StrikeDetector(trace.rate_hz, threshold, config.REFRACTORY_MS, config.PEAK_WINDOW_MS,
                                            vertical_max=vertical_max)
    hits: list[Spike] = []
    rejected: list[Spike] = []
    max_hp = 0.0
    for t, (x, y, z) in zip(trace.t_ms, trace.samples, strict=True):
        before = det.last_spike
        det.feed(x, y, z, t)
        max_hp = max(max_hp, det.last_magnitude)
        spike = det.last_spike
        if spike is not None and spike is not before:
            peak, start, along, was_rejected = spike
            (rejected if was_rejected else hits).append(Spike(start, peak, along, trace.source))
    return hits, rejected, max_hp


def analyse(trace: Trace, label: str | None, threshold: float) -> Report:
    hits, rejected, max_hp = run_detector(trace, threshold, config.VERTICAL_MAX)
    spikes, _, _ = run_detector(trace, MIN_THR, None)
    return Report(trace, label, threshold, hits, rejected, max_hp, spikes)


def label_of(path: str) -> str | None:
    """A label from the file name: "set-down"/"setdown"/"set_down" or "strike"/"flick" (not both)."""
    name = Path(path).name.lower()
    down = bool(re.search(r"set[-_ ]?down", name))
    strike = "strike" in name or "flick" in name
    return SET_DOWN if down and not strike else STRIKE if strike and not down else None


# --- printing and the suggestion ----------------------------------------------------------------

def describe(r: Report) -> list[str]:
    h = r.trace.header
    n = len(r.trace.samples)
    out = [f"{r.trace.source} [{r.label or 'unlabelled'}]: {h.get('id') or '?'} fw {h.get('fw') or '?'}, "
           f"{n} samples at {r.trace.rate_hz} Hz ({(r.trace.t_ms[-1] if n else 0) / 1000:.2f} s), striker's "
           f"threshold {h.get('thr', '?')} g; detector at {r.threshold:g} g, VERTICAL_MAX {config.VERTICAL_MAX}"]
    for s in r.hits:
        out.append(f"  hit       {s.peak_g:6.2f} g at {s.t_ms} ms ({s.from_vertical:.0f}° from vertical)")
    for s in r.rejected:
        out.append(f"  set-down  {s.peak_g:6.2f} g at {s.t_ms} ms ({s.from_vertical:.0f}° from vertical: rejected)")
    if not r.hits and not r.rejected:
        out.append(f"  nothing over {r.threshold:g} g")
    out.append(f"  largest |high-passed| {r.max_hp:.2f} g")
    return out


def _vertical_lines(flicks: list[Spike], downs: list[Spike], vm: float | None) -> list[str]:
    if vm is None:
        return ["VERTICAL_MAX is None: the orientation test is off"]
    fmax = max(s.cos_g for s in flicks)
    dmin = min(s.cos_g for s in downs)
    deg = math.degrees(math.acos(vm))
    if fmax <= vm < dmin:
        return [f"VERTICAL_MAX {vm} separates them: every flick points more than {deg:.0f}° from vertical "
                f"(cos at most {fmax:.2f}), every set-down within it (cos at least {dmin:.2f})"]
    out = [f"VERTICAL_MAX {vm} does not separate them:"]
    dropped = [s for s in flicks if s.cos_g > vm]
    through = [s for s in downs if s.cos_g <= vm]
    if dropped:
        out.append(f"  {len(dropped)} of {len(flicks)} flicks point within {deg:.0f}° of vertical and are dropped")
    if through:
        out.append(f"  {len(through)} of {len(downs)} set-downs point further than {deg:.0f}° from vertical: "
                   f"only the threshold stops them")
    if fmax < dmin:
        out.append(f"  a VERTICAL_MAX of {(fmax + dmin) / 2:.2f} would (config.py; needs copying to the striker)")
    return out


def suggest(reports: list[Report]) -> tuple[float | None, list[str]]:
    """A threshold between the set-downs the vertical test lets through and the weakest flick."""
    flicks = [s for r in reports if r.label == STRIKE for s in r.spikes]
    downs = [s for r in reports if r.label == SET_DOWN for s in r.spikes]
    out = [f"{r.trace.source}: no spike over {MIN_THR:g} g in a strike file: was there a flick?"
           for r in reports if r.label == STRIKE and not r.spikes]
    if not flicks or not downs:
        return None, out + ["a suggestion needs flicks (--strike) and set-downs (--set-down) with a spike over "
                            f"{MIN_THR:g} g"]
    vm = config.VERTICAL_MAX
    kept = [s for s in flicks if vm is None or s.cos_g <= vm]
    through = [s for s in downs if vm is None or s.cos_g <= vm]
    out += _vertical_lines(flicks, downs, vm)
    if not kept:
        return None, out + ["no flick gets past VERTICAL_MAX: no threshold helps"]
    weakest = min(kept, key=lambda s: s.peak_g)
    strongest = max(through, key=lambda s: s.peak_g) if through else None
    lo = strongest.peak_g if strongest else MIN_THR
    where = f"{strongest.peak_g:.2f} g ({strongest.source} at {strongest.t_ms} ms)" if strongest else "none"
    out.append(f"weakest flick {weakest.peak_g:.2f} g ({weakest.source} at {weakest.t_ms} ms); strongest set-down "
               f"past the vertical test: {where}")
    if weakest.peak_g <= lo:
        return None, out + ["no threshold separates them: keep the striker's threshold and record again"]
    thr = round(min(MAX_THR, max(MIN_THR, (lo + weakest.peak_g) / 2)), 2)
    return thr, out + [f"suggested threshold: {thr:.2f} g — type it into the striker's threshold box on the "
                       f"bring-up page (/bringup, firmware 1.2.0) and press Set"]


# --- test vectors --------------------------------------------------------------------------------

def vector(r: Report, name: str) -> dict[str, Any]:
    """The case shape of tests/vectors/strikes.json, with the sample times and the detector's settings.

    Expectation: a set-down file, no strike; a strike file, every spike over the threshold is a
    strike (found with the orientation test off: the builder says they are flicks).
    """
    if r.label not in (STRIKE, SET_DOWN):
        raise TraceError(f"{r.trace.source}: label it with --strike or --set-down to save it as a vector")
    expect = []
    if r.label == STRIKE:
        strikes, _, _ = run_detector(r.trace, r.threshold, None)
        if not strikes:
            raise TraceError(f"{r.trace.source}: no spike over {r.threshold:g} g: nothing to expect as a strike")
        expect = [{"g": round(s.peak_g, 2), "g_tol": round(0.12 * s.peak_g + 0.2, 2), "ms": s.t_ms, "ms_tol": 2}
                  for s in strikes]
    return {"name": name, "label": r.label, "rate_hz": r.trace.rate_hz, "t_ms": r.trace.t_ms,
            "samples": [list(s) for s in r.trace.samples], "expect": expect,
            "detector": {"threshold_g": r.threshold, "refractory_ms": config.REFRACTORY_MS,
                         "peak_window_ms": config.PEAK_WINDOW_MS, "cutoff_hz": 5.0,
                         "vertical_max": config.VERTICAL_MAX},
            "recorded": r.trace.header}


def save_vectors(reports: list[Report], name: str, directory: Path) -> list[str]:
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,60}", name):
        raise TraceError(f"--save-vector {name!r}: use lower-case letters, digits, - and _")
    if not directory.parent.is_dir():
        raise TraceError(f"{directory.parent}: no such folder (run from the repository or pass --vectors-dir)")
    names = [name] if len(reports) == 1 else [f"{name}-{i + 1:02d}" for i in range(len(reports))]
    docs = [vector(r, n) for r, n in zip(reports, names, strict=True)]
    paths = [directory / f"{n}.json" for n in names]
    for p in paths:
        if p.exists():
            raise TraceError(f"{p}: exists already; choose another name")
    directory.mkdir(exist_ok=True)
    out = []
    for r, doc, p in zip(reports, docs, paths, strict=True):
        p.write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")
        out.append(f"saved {p}")
        got = len(r.hits)
        if got != len(doc["expect"]):
            out.append(f"  note: the detector with config.py's settings reports {got} strike(s) here, the vector "
                       f"expects {len(doc['expect'])}: check_vectors fails until the detector does")
    return out


# --- the command -----------------------------------------------------------------------------------

def _threshold(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a threshold in g, got {text!r}") from None
    if not MIN_THR <= v <= MAX_THR:
        raise argparse.ArgumentTypeError(f"a threshold from {MIN_THR:g} to {MAX_THR:g} g, got {v:g}")
    return v


def add_parser(sub: Any) -> None:
    p = sub.add_parser("striker-trace", help="run the striker's detector over recorded traces, suggest a threshold")
    p.add_argument("files", nargs="*", metavar="FILE", help="traces labelled by name (strike/flick, set-down)")
    p.add_argument("--strike", nargs="+", default=[], metavar="FILE", help="traces of flicks")
    p.add_argument("--set-down", nargs="+", default=[], metavar="FILE", help="traces of putting the striker down")
    p.add_argument("--threshold", type=_threshold, default=config.THRESHOLD_G,
                   help=f"the threshold to run the detector at (default {config.THRESHOLD_G} g, config.py)")
    p.add_argument("--save-vector", metavar="NAME", help="keep the labelled traces as tests/vectors/recorded/NAME.json")
    p.add_argument("--vectors-dir", type=Path, default=RECORDED,
                   help="where --save-vector writes (default: tests/vectors/recorded of this checkout)")


def run(args: argparse.Namespace) -> int:
    """Exit 0; 1 when flicks and set-downs were given and no threshold separates them; 2 on a bad file."""
    labelled = ([(f, STRIKE) for f in args.strike] + [(f, SET_DOWN) for f in args.set_down]
                + [(f, label_of(f)) for f in args.files])
    if not labelled:
        print("striker-trace: give trace files (--strike FILE..., --set-down FILE..., or FILE...)", file=sys.stderr)
        return 2
    try:
        reports = [analyse(read(f), label, args.threshold) for f, label in labelled]
        saved = save_vectors(reports, args.save_vector, args.vectors_dir) if args.save_vector else []
    except TraceError as exc:
        print(f"striker-trace: {exc}", file=sys.stderr)
        return 2
    for r in reports:
        print("\n".join(describe(r)))
    thr, lines = suggest(reports)
    print("\n".join(lines + saved))
    both = any(r.label == STRIKE for r in reports) and any(r.label == SET_DOWN for r in reports)
    return 1 if both and thr is None else 0
