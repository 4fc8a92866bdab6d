"""The striker's record_trace.py on stand-in hardware: a fake MPU-6050 replays a known trace.

Runs under real MicroPython (node run.mjs ../lib <vectors> check_record.py ../striker .) and under
CPython (cwd = a scratch folder). The replayed trace is the "set_down_then_strike" case of
strikes.json. The recorder's output is printed between "BEGIN TRACE" and "END TRACE" so the Pi-side
test can parse it with gametable/striker_trace.py; this script checks it line by line too.
Prints "OK <n> checks (<impl>)" or one FAIL line per failure.
"""

import json
import os
import sys

import fakehw

_results = {"n": 0, "fail": 0}
CASE = "set_down_then_strike"


def check(ok, what):
    _results["n"] += 1
    if not ok:
        _results["fail"] += 1
        print("FAIL " + what)


def load_case(dirname):
    with open(dirname + "/strikes.json") as f:
        doc = json.loads(f.read())
    return [c for c in doc["cases"] if c["name"] == CASE][0]["samples"]


def read(name):
    try:
        with open(name) as f:
            return f.read()
    except OSError:
        return None


def main(dirname):
    samples = load_case(dirname)
    sim = fakehw.Sim()
    sim.install()
    for name in ("record_trace", "striker_app", "mpu6050", "config"):
        if name in sys.modules:
            del sys.modules[name]
    reads = {"n": 0}

    def replay(t):
        i = reads["n"]
        reads["n"] += 1
        return samples[i] if i < len(samples) else samples[-1]

    sim.mpu.accel = replay
    sim.mpu.regs[fakehw.PWR_MGMT_1] = 0x28  # as left by a deep sleep: cycle mode
    # the app's files: the recorder must leave them exactly as they are
    with open("settings.json", "w") as f:
        f.write('{"thr": 3.25}')
    with open("base_mac.txt", "w") as f:
        f.write("aabbccddee01")
    before = sorted(os.listdir("."))
    import config
    import record_trace

    lines = []

    def write(line):
        lines.append(line)
        print(line)

    seconds = len(samples) / config.RATE_HZ
    t_start = sim.now_us
    print("BEGIN TRACE")
    record_trace.main(seconds=seconds, write=write, countdown_s=1)
    print("END TRACE")
    elapsed_ms = (sim.now_us - t_start) // 1000

    check(sorted(os.listdir(".")) == before, f"record_trace created or removed files: {sorted(os.listdir('.'))!r}")
    check(read("settings.json") == '{"thr": 3.25}' and read("base_mac.txt") == "aabbccddee01",
          "settings.json / base_mac.txt changed")
    written = sorted(set(e[1] for e in sim.mpu.log if e[0] == "w"))
    check(written == [0x19, 0x1A, 0x1C, 0x38, 0x6B, 0x6C], f"only the driver's start() registers are written: {written!r}")
    check(sim.mpu.regs.get(fakehw.ACCEL_CONFIG) == 0x18, "the MPU runs at +-16 g (ACCEL_CONFIG 0x18)")
    check(sim.mpu.regs.get(fakehw.PWR_MGMT_1) == 0x01, "the MPU left cycle mode (full power)")
    starts = [i for i, s in enumerate(lines) if s.startswith("{")]
    check(len(starts) == 2, f"one header and one end line, got {len(starts)} JSON lines")
    if len(starts) != 2:
        return
    head = json.loads(lines[starts[0]])
    body = lines[starts[0] + 1:starts[1]]
    check(json.loads(lines[starts[1]]) == {"end": len(samples)}, "end line " + lines[starts[1]])
    check(head["trace"] == "gametable-striker" and head["v"] == 1, f"header names the format: {head!r}")
    check(head["rate_hz"] == config.RATE_HZ and head["range_g"] == 16 and head["n"] == len(samples),
          f"header rate/range/n: {head!r}")
    check(head["thr"] == 3.25 and head["id"] == "st-1a2b3c", f"header has the tuned threshold and the id: {head!r}")
    import frames

    check(head["fw"] == frames.FW_VERSION, "header fw " + str(head["fw"]))
    check(len(body) == len(samples), f"{len(body)} sample lines for {len(samples)} samples")
    worst = 0.0
    prev_ms = -1
    bad_ms = 0
    for i in range(min(len(body), len(samples))):
        parts = body[i].split()
        ms = int(parts[0])
        if not (i - 1 <= ms <= i + 1) or ms < prev_ms:
            bad_ms += 1
        prev_ms = ms
        for k in range(3):
            worst = max(worst, abs(float(parts[k + 1]) - samples[i][k]))
            if len(parts[k + 1].split(".")[1]) != 3:
                worst = 99.0
    check(bad_ms == 0, f"{bad_ms} sample times off the 1 kHz pace")
    # 1/2048 g quantisation (half of it) plus rounding to 3 decimals (half of 0.001)
    check(worst <= 0.00025 + 0.0005 + 1e-9, f"samples differ from the replayed trace by up to {worst:.5f} g")
    check(len(samples) <= elapsed_ms <= len(samples) + 1100, f"recording paced at 1 kHz: {elapsed_ms} ms")
    check(record_trace.milli(-1, 2048) == "0.000" and record_trace.milli(-3, 2048) == "-0.001"
          and record_trace.milli(32767, 2048) == "16.000" and record_trace.milli(-32768, 2048) == "-16.000",
          "milli() rounding and signs")

    impl = sys.implementation.name
    if _results["fail"]:
        print(f"FAIL {_results['fail']} of {_results['n']} checks ({impl})")
        return
    print(f"OK {_results['n']} checks ({impl})")


try:
    vdir = VECTORS_DIR  # noqa: F821 - injected by run.mjs under MicroPython
except NameError:
    vdir = sys.argv[1]
main(vdir)
if _results["fail"]:
    sys.exit(1)
