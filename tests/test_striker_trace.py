"""Recording striker traces and tuning the detector from them.

The striker side (firmware/striker/record_trace.py) runs on the stand-in MPU under real MicroPython
and CPython; its printed output is parsed by the Pi side (gametable/striker_trace.py). No trace has
been recorded on real hardware: the traces here are synthesised (tests/vectors/make_strikes.py).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametable import striker_trace, trace_file
from gametable.cli import main
from tests.vectors.make_strikes import trace as synth

ROOT = Path(__file__).resolve().parents[1]
LIB = ROOT / "firmware" / "lib"
STRIKER = ROOT / "firmware" / "striker"
RUNNER = ROOT / "firmware" / "test_runner"
VECTORS = ROOT / "tests" / "vectors"
REPLAYED = next(c for c in json.loads((VECTORS / "strikes.json").read_text())["cases"]
                if c["name"] == "set_down_then_strike")
DOWN = (0.0, 0.0, 1.0)
HEADER = {"rate_hz": 1000, "range_g": 16, "lsb_per_g": 2048, "fw": "1.2.0", "id": "st-1a2b3c", "thr": 2.5}


def write_trace(path: Path, hits: list[tuple], ms: int = 800, seed: int = 1, **kw) -> Path:
    """A synthesised trace in record_trace.py's format, with its countdown and CRLF line ends (mpremote)."""
    samples = [tuple(s) for s in synth(1000, ms, hits, seed, **kw)]
    text = trace_file.dumps(HEADER, list(range(len(samples))), samples)
    path.write_text("recording 5000 ms in 1 ...\nGO\ndone\n" + text.replace("\n", "\r\n"))
    return path


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(["striker-trace", *argv])
    out = capsys.readouterr()
    return rc, out.out, out.err


def suggested(out: str) -> float:
    m = re.search(r"suggested threshold: ([0-9.]+) g", out)
    assert m, out
    return float(m.group(1))


# --- the striker side: record_trace.py on the stand-in MPU -------------------------------------------

def _check_parsed_output(stdout: str) -> None:
    trace = trace_file.parse(stdout, "record_trace output")
    assert trace.header["rate_hz"] == 1000 and trace.header["fw"] == "1.3.0" and trace.header["thr"] == 3.25
    assert len(trace.samples) == len(REPLAYED["samples"])
    for got, want in zip(trace.samples, REPLAYED["samples"], strict=True):
        assert all(abs(g - w) <= 0.00076 for g, w in zip(got, want, strict=True)), (got, want)
    assert all(abs(t - i) <= 1 for i, t in enumerate(trace.t_ms))
    # and the detector sees in it what the trace holds: a set-down at 400 ms, a strike at 700 ms
    hits, rejected, _ = striker_trace.run_detector(trace, 2.5, 0.8)
    assert [round(h.t_ms, -1) for h in hits] == [700] and [round(r.t_ms, -1) for r in rejected] == [400]


def test_record_trace_output_parses_back_to_the_replayed_samples_under_real_micropython() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed (make test-deps installs nodejs)")
    proc = subprocess.run([node, str(RUNNER / "run.mjs"), str(LIB), str(VECTORS), str(RUNNER / "check_record.py"),
                           str(STRIKER), str(RUNNER)], cwd=RUNNER, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "OK" in proc.stdout and "(micropython)" in proc.stdout, proc.stdout + proc.stderr
    assert "FAIL" not in proc.stdout
    _check_parsed_output(proc.stdout)


def test_record_trace_output_parses_back_under_cpython_and_leaves_the_app_files(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(RUNNER / "check_record.py"), str(VECTORS)],
                          env={"PYTHONPATH": f"{LIB}:{STRIKER}:{RUNNER}", "PATH": "/usr/bin:/bin"},
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "OK" in proc.stdout, proc.stdout + proc.stderr
    assert (tmp_path / "settings.json").read_text() == '{"thr": 3.25}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base_mac.txt", "settings.json"]
    _check_parsed_output(proc.stdout)


# --- the Pi side: reports and the suggestion -----------------------------------------------------------

def test_reports_hits_and_set_downs_and_suggests_a_threshold_that_separates_them(tmp_path, capsys) -> None:
    f1 = write_trace(tmp_path / "a.txt", [(200, 8.0, 300, 6), (500, 4.0, 300, 6)], seed=1)
    f2 = write_trace(tmp_path / "b.txt", [(200, 3.2, 300, 6)], seed=2)
    d1 = write_trace(tmp_path / "c.txt", [(400, 5.0, 220, 3, DOWN)], seed=3, lower=[400], noise=0.01)
    d2 = write_trace(tmp_path / "d.txt", [(400, 6.0, 220, 3, (0.42, 0.0, 0.906))], seed=4, lower=[400], noise=0.01)
    rc, out, err = run_cli(capsys, "--strike", str(f1), str(f2), "--set-down", str(d1), str(d2))
    assert rc == 0 and err == ""
    assert re.search(r"a\.txt \[strike\].*\n  hit +[78]\.\d\d g at 200 ms .*\n  hit +[34]\.\d\d g at 500 ms", out), out
    assert re.search(r"c\.txt \[set-down\].*\n  set-down +[45]\.\d\d g at 400 ms \(\d° from vertical: rejected\)", out)
    assert "largest |high-passed|" in out and "VERTICAL_MAX 0.8 separates them" in out
    thr = suggested(out)
    assert 1.0 < thr < 3.2
    # the suggested value counts every flick and no set-down
    for f, want in ((f1, 2), (f2, 1), (d1, 0), (d2, 0)):
        hits, _, _ = striker_trace.run_detector(trace_file.read(f), thr, 0.8)
        assert len(hits) == want, f


def test_a_set_down_past_the_vertical_test_raises_the_suggestion_above_it(tmp_path, capsys) -> None:
    flick = write_trace(tmp_path / "flick-1.txt", [(200, 7.0, 300, 6)], seed=5)
    # the striker lands on a slope: the spike points 60° from vertical, so only the threshold can stop it
    slope = write_trace(tmp_path / "set-down-1.txt", [(400, 4.0, 220, 3, (0.866, 0.0, 0.5))], seed=6,
                        lower=[400], noise=0.01)
    rc, out, _ = run_cli(capsys, str(flick), str(slope))  # labelled by their names
    assert rc == 0
    assert "VERTICAL_MAX 0.8 does not separate them" in out and "1 of 1 set-downs point further" in out
    thr = suggested(out)
    peak = striker_trace.run_detector(trace_file.read(slope), 1.0, None)[0][0].peak_g
    assert peak < thr < 7.0
    assert striker_trace.run_detector(trace_file.read(slope), thr, 0.8)[0] == []


def test_no_threshold_separates_a_weak_flick_from_a_hard_sideways_set_down(tmp_path, capsys) -> None:
    flick = write_trace(tmp_path / "f.txt", [(200, 3.0, 300, 6)], seed=7)
    side = write_trace(tmp_path / "s.txt", [(400, 6.0, 220, 3, (0.866, 0.0, 0.5))], seed=8, lower=[400], noise=0.01)
    rc, out, _ = run_cli(capsys, "--strike", str(flick), "--set-down", str(side))
    assert rc == 1
    assert "no threshold separates them" in out and "suggested threshold" not in out


def test_files_of_one_kind_are_reported_without_a_suggestion(tmp_path, capsys) -> None:
    f = write_trace(tmp_path / "quiet.txt", [], seed=9)
    rc, out, _ = run_cli(capsys, str(f), "--threshold", "3")
    assert rc == 0 and "[unlabelled]" in out and "nothing over 3 g" in out and "a suggestion needs flicks" in out


@pytest.mark.parametrize(("name", "label"), [
    ("flick-01.txt", "strike"), ("STRIKE_hard.txt", "strike"), ("set-down-3.txt", "set-down"),
    ("setdown.txt", "set-down"), ("set_down_felt.log", "set-down"), ("trace.txt", None),
    ("strike-then-set-down.txt", None)])
def test_labels_from_file_names(name: str, label: str | None) -> None:
    assert striker_trace.label_of(name) == label


# --- bad files: one line, the line number, a non-zero exit, nothing written ----------------------------

GOOD = '{"trace":"gametable-striker","v":1,"rate_hz":1000,"n":3}\n0 0 0 1\n1 0 0 1\n2 0 0 1\n{"end":3}\n'


@pytest.mark.parametrize(("text", "message"), [
    (GOOD.replace("1 0 0 1", "1 0 zero 1"), r"t\.txt:3: expected 'ms ax ay az', got '1 0 zero 1'"),
    (GOOD.replace("1 0 0 1", "1 0 0"), r"t\.txt:3: expected 'ms ax ay az'"),
    (GOOD.replace('{"end":3}\n', ""), r"t\.txt:4: truncated: no end line after 3 of 3 samples"),
    (GOOD[:GOOD.index("2 0 0 1") + 3], r"t\.txt:4: truncated after 2 of 3 samples"),
    (GOOD.replace('{"end":3}', '{"end":4}'), r"t\.txt:5: end line says 4 samples, the header 3, the file has 3"),
    (GOOD.replace('"n":3', '"n":2'), r"t\.txt:4: more than the header's 2 samples"),
    (GOOD.replace("2 0 0 1", "0 0 0 1"), r"t\.txt:4: time 0 ms goes back"),
    (GOOD.replace("2 0 0 1", "2 0 0 17.5"), r"t\.txt:4: acceleration beyond ±16 g"),
    (GOOD.replace("2 0 0 1", "2 0 nan 1"), r"t\.txt:4: acceleration beyond ±16 g"),
    (GOOD.replace('"rate_hz":1000', '"rate_hz":100'), r"t\.txt:1: rate_hz must be a whole number from 500"),
    (GOOD.replace('"v":1', '"v":2'), r"t\.txt:1: trace format version 2"),
    ("MicroPython v1.27\n>>> \n", r"t\.txt:1: no trace header"),
    ("", r"t\.txt:1: no trace header"),
])
def test_a_bad_file_is_one_line_with_its_line_number(tmp_path, capsys, text: str, message: str) -> None:
    (tmp_path / "t.txt").write_text(text)
    out_dir = tmp_path / "vectors" / "recorded"
    (tmp_path / "vectors").mkdir()
    rc, out, err = run_cli(capsys, "--strike", str(tmp_path / "t.txt"), "--save-vector", "x",
                           "--vectors-dir", str(out_dir))
    assert rc == 2 and out == ""
    assert re.search(message, err) and err.count("\n") == 1, err
    assert not out_dir.exists()


def test_a_missing_file_and_no_file_are_errors(tmp_path, capsys) -> None:
    rc, _, err = run_cli(capsys, "--set-down", str(tmp_path / "nope.txt"))
    assert rc == 2 and "nope.txt: cannot read" in err
    rc, _, err = run_cli(capsys)
    assert rc == 2 and "give trace files" in err


# --- --save-vector: recorded traces as test vectors, run by check_vectors.py in both interpreters ----

def _check_vectors(vdir: Path, micropython: bool) -> subprocess.CompletedProcess[str]:
    if micropython:
        node = shutil.which("node")
        if node is None:
            pytest.fail("node is not installed (make test-deps installs nodejs)")
        return subprocess.run([node, str(RUNNER / "run.mjs"), str(LIB), str(vdir), str(RUNNER / "check_vectors.py")],
                              cwd=RUNNER, capture_output=True, text=True, timeout=120)
    return subprocess.run([sys.executable, str(RUNNER / "check_vectors.py"), str(vdir)],
                          env={"PYTHONPATH": str(LIB), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                          timeout=120)


def test_saved_vectors_run_through_the_detector_in_both_interpreters(tmp_path, capsys) -> None:
    vdir = tmp_path / "vectors"
    vdir.mkdir()
    for name in ("frames.json", "strikes.json"):
        shutil.copy(VECTORS / name, vdir / name)
    flick = write_trace(tmp_path / "f.txt", [(200, 6.0, 300, 6), (500, 9.0, 300, 6)], seed=10)
    down = write_trace(tmp_path / "d.txt", [(400, 5.0, 220, 3, DOWN)], seed=11, lower=[400], noise=0.01)
    rc, out, err = run_cli(capsys, "--strike", str(flick), "--set-down", str(down), "--save-vector", "felt",
                           "--vectors-dir", str(vdir / "recorded"))
    assert rc == 0 and err == "" and "saved" in out and "note:" not in out
    docs = [json.loads((vdir / "recorded" / f"felt-0{i}.json").read_text()) for i in (1, 2)]
    case_keys = set(REPLAYED)
    assert all(case_keys <= set(d) for d in docs)
    assert [d["label"] for d in docs] == ["strike", "set-down"]
    assert [(e["ms"], round(e["g"])) for e in docs[0]["expect"]] == [(200, 6), (500, 9)] and docs[1]["expect"] == []
    assert docs[0]["detector"] == {"threshold_g": 2.5, "refractory_ms": 120, "peak_window_ms": 8, "cutoff_hz": 5.0,
                                   "vertical_max": 0.8}
    for mp in (False, True):
        proc = _check_vectors(vdir, mp)
        assert proc.returncode == 0 and "; 2 recorded traces" in proc.stdout, proc.stdout + proc.stderr
    # a vector the detector does not meet fails, in both interpreters
    docs[1]["expect"] = [{"g": 5.0, "g_tol": 1.0, "ms": 400, "ms_tol": 2}]
    (vdir / "recorded" / "felt-02.json").write_text(json.dumps(docs[1]))
    for mp in (False, True):
        proc = _check_vectors(vdir, mp)
        assert proc.returncode != 0 and "FAIL strikes felt-02: 0 events, expected 1" in proc.stdout, proc.stdout


def test_save_vector_refuses_overwrites_unlabelled_files_and_flicks_below_the_threshold(tmp_path, capsys) -> None:
    rec = tmp_path / "recorded"
    flick = write_trace(tmp_path / "f.txt", [(200, 6.0, 300, 6)], seed=12)
    assert run_cli(capsys, "--strike", str(flick), "--save-vector", "one", "--vectors-dir", str(rec))[0] == 0
    rc, _, err = run_cli(capsys, "--strike", str(flick), "--save-vector", "one", "--vectors-dir", str(rec))
    assert rc == 2 and "exists already" in err
    rc, _, err = run_cli(capsys, str(flick), "--save-vector", "two", "--vectors-dir", str(rec))
    assert rc == 2 and "label it with --strike or --set-down" in err
    weak = write_trace(tmp_path / "w.txt", [(200, 2.0, 300, 6)], seed=13)
    rc, _, err = run_cli(capsys, "--strike", str(weak), "--save-vector", "three", "--vectors-dir", str(rec))
    assert rc == 2 and "no spike over 2.5 g" in err
    rc, _, err = run_cli(capsys, "--strike", str(flick), "--save-vector", "../up", "--vectors-dir", str(rec))
    assert rc == 2 and "lower-case letters" in err
    assert sorted(p.name for p in rec.iterdir()) == ["one.json"]


def test_a_saved_set_down_the_detector_counts_says_the_vector_fails_until_the_detector_changes(tmp_path, capsys):
    side = write_trace(tmp_path / "s.txt", [(400, 6.0, 220, 3, (0.866, 0.0, 0.5))], seed=14, lower=[400], noise=0.01)
    rc, out, _ = run_cli(capsys, "--set-down", str(side), "--save-vector", "sideways", "--vectors-dir",
                         str(tmp_path / "recorded"))
    assert rc == 0 and "reports 1 strike(s) here, the vector expects 0: check_vectors fails" in out


def test_the_repository_holds_no_invented_recorded_traces() -> None:
    assert sorted(p.name for p in (VECTORS / "recorded").iterdir()) == ["README.md"]


# --- the parser: properties -------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=40), st.sampled_from([GOOD.splitlines()[0], '{"end":3}', "0 0 0 1",
                                                                 '{"trace":"gametable-striker"}', "{"])),
                max_size=12))
def test_random_lines_never_crash_the_parser(lines: list[str]) -> None:
    try:
        trace_file.parse("\n".join(lines), "r.txt")
    except trace_file.TraceError as exc:
        assert str(exc).startswith("r.txt:") and "\n" not in str(exc)


g3 = st.integers(-16000, 16000).map(lambda v: v / 1000)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), g3, g3, g3), max_size=60), st.sampled_from([500, 1000, 2000]))
def test_a_valid_file_round_trips(rows: list[tuple[int, float, float, float]], rate: int) -> None:
    t_ms, t = [], 0
    for step, *_ in rows:
        t += step
        t_ms.append(t)
    samples = [(x, y, z) for _, x, y, z in rows]
    header = dict(HEADER, rate_hz=rate)
    trace = trace_file.parse("noise\r\n" + trace_file.dumps(header, t_ms, samples) + "after\n", "v.txt")
    assert trace.t_ms == t_ms and trace.samples == samples and trace.rate_hz == rate and trace.header["id"] == "st-1a2b3c"
