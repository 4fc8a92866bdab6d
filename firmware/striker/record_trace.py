"""Record an accelerometer trace on the striker and print it on the USB console (no radio).

Run from the PC, with the striker on USB (woken: move it, then connect within its 5 minutes):

    mpremote run firmware/striker/record_trace.py > flick-01.txt

Why: the strike threshold and ``VERTICAL_MAX`` were chosen on synthesised traces; real flicks and
set-downs, read by ``gametable striker-trace``, say what the detector really sees. The script uses
the app's own MPU-6050 driver and settings (``config.RATE_HZ``, ±16 g) and the same paced loop as
``striker_app.run``, so a trace has the app's timing. It only reads the app's files
(``settings.json``, ``base_mac.txt``): nothing on the flash changes.

Samples are kept as raw integers in preallocated arrays (6 bytes a sample + 2 for its time: 40 kB
for 5 s at 1 kHz) and printed only after recording, so printing cannot slow the sampling.
Output (self-describing; ``gametable/striker_trace.py`` parses it; lines before the header, such
as the countdown, are ignored)::

    {"trace":"gametable-striker","v":1,"rate_hz":1000,"range_g":16,"fw":"1.2.0",...,"n":5000}
    0 0.012 -0.004 1.001          <- ms since the start, then x y z in g (3 decimals)
    ...
    {"end":5000}
"""

import gc
import json
import time
from array import array

import config
import frames
import mpu6050
import network
import striker_app

SECONDS = 5  # how long to record; edit here (mpremote run passes no arguments)
COUNTDOWN_S = 3  # get ready: "GO" is printed when recording starts
FORMAT_VERSION = 1
MAX_SECONDS = 10  # 80 kB at 1 kHz: about half of MicroPython's heap on the ESP32-C3 (and ms fit 16 bits)


def milli(raw, lsb_per_g):
    """A raw reading as g with 3 decimals, in integer arithmetic (float32 printing is not exact)."""
    n = raw * 1000
    q = (abs(n) * 2 + lsb_per_g) // (2 * lsb_per_g)  # round half up on the magnitude
    sign = "-" if n < 0 and q else ""
    return f"{sign}{q // 1000}.{q % 1000:03d}"


def record(mpu, n, rate_hz):
    """``n`` samples paced at ``rate_hz``: (ms since the first sample, raw x/y/z integers)."""
    lsb = mpu6050.LSB_PER_G
    t_ms = array("H", bytes(2 * n))
    raw = array("h", bytes(6 * n))
    period_us = 1000000 // rate_hz
    gc.collect()  # a collection now, not in the middle of the trace
    t0 = time.ticks_us()
    next_us = t0
    for i in range(n):
        ax, ay, az = mpu.accel_g()
        t_ms[i] = time.ticks_diff(time.ticks_us(), t0) // 1000
        raw[3 * i] = int(ax * lsb)  # exact: the driver divided a 16-bit integer by 2048
        raw[3 * i + 1] = int(ay * lsb)
        raw[3 * i + 2] = int(az * lsb)
        next_us = time.ticks_add(next_us, period_us)
        wait = time.ticks_diff(next_us, time.ticks_us())
        if wait > 0:
            time.sleep_us(wait)
        else:
            next_us = time.ticks_us()  # fell behind: the times say so, as in the app
    return t_ms, raw


def header(n, rate_hz):
    """What a reader needs to trust the trace: rate, range, firmware, which striker, its threshold."""
    try:
        sid = striker_app.striker_id(network.WLAN(network.STA_IF))
    except OSError:
        sid = None
    return {"trace": "gametable-striker", "v": FORMAT_VERSION, "rate_hz": rate_hz, "range_g": 16,
            "lsb_per_g": int(mpu6050.LSB_PER_G), "fw": frames.FW_VERSION, "id": sid,
            "thr": striker_app.load_threshold(), "vertical_max": config.VERTICAL_MAX, "n": n}


def dump(t_ms, raw, head, write):
    lsb = int(mpu6050.LSB_PER_G)
    write(json.dumps(head))
    for i in range(len(t_ms)):
        write(f"{t_ms[i]} {milli(raw[3 * i], lsb)} {milli(raw[3 * i + 1], lsb)} {milli(raw[3 * i + 2], lsb)}")
    write(json.dumps({"end": len(t_ms)}))


def main(seconds=SECONDS, write=print, countdown_s=COUNTDOWN_S):
    rate = config.RATE_HZ
    n = int(min(seconds, MAX_SECONDS) * rate)
    mpu = mpu6050.MPU6050(striker_app.new_i2c())
    mpu.start()  # full power, ±16 g at 1 kHz: the app's own setup
    head = header(n, rate)
    for k in range(countdown_s, 0, -1):
        write(f"recording {n * 1000 // rate} ms in {k} ...")
        time.sleep_ms(1000)
    write("GO")
    try:
        t_ms, raw = record(mpu, n, rate)
    except MemoryError:
        write(f"ERROR: no room for {n} samples: lower SECONDS at the top of record_trace.py")
        return
    write(f"done: {n} samples in {t_ms[n - 1] if n else 0} ms")
    dump(t_ms, raw, head, write)


if __name__ == "__main__":
    main()
