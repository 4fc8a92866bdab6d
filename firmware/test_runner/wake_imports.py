"""How long the striker's imports take at a wake, under real MicroPython (benchmarks/bench_striker.py).

A deep-sleep wake is a reboot: main.py imports striker_app and with it every firmware module. Run
once with the .py sources on the path and once with firmware/mpy; the difference is the compile
step the .mpy files save. The WebAssembly port's clock ticks in whole milliseconds, so the figure
is the mean over RUNS imports, and the fastest of BLOCKS such means (the least disturbed by other
load on a shared machine). Prints "WAKE_IMPORT_US <us>" and "OK".
"""

import gc
import sys
import time

import fakehw

NAMES = ("config", "cobs", "crc16", "frames", "strike_detector", "striker_core", "radio", "mpu6050", "striker_app")


RUNS = 20
BLOCKS = 8


def forget():
    for name in NAMES:
        if name in sys.modules:
            del sys.modules[name]
    gc.collect()


def main():
    fakehw.Sim().install()
    forget()
    __import__("striker_app")  # the first run also loads the stand-ins' own imports
    best = None
    for _ in range(BLOCKS):
        total = 0
        for _ in range(RUNS):
            forget()
            t0 = time.ticks_ms()
            __import__("striker_app")
            total += time.ticks_diff(time.ticks_ms(), t0)
        if best is None or total < best:
            best = total
    print("WAKE_IMPORT_US", best * 1000 // RUNS)
    print("OK")


main()
