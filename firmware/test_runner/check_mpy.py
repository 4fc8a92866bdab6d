"""The shipped .mpy files (firmware/mpy) under real MicroPython: every firmware module loads as
bytecode, not from source, and the striker's and the base station's checks pass on them.

Run with lib_dir = firmware/mpy and an extra folder holding only config.py (the one striker file
that stays source on the board) plus this folder. Prints "OK ..." or the failures.
"""

import sys

import check_base
import check_striker
import fakehw

MODULES = ("cobs", "crc16", "frames", "strike_detector", "striker_core", "radio", "keys", "base_core", "mpu6050",
           "striker_app", "base_app")


def main():
    failures = 0
    fakehw.Sim().install()  # striker_app and base_app import machine, esp32, espnow at the top
    for name in MODULES:
        mod = __import__(name)
        where = getattr(mod, "__file__", "")
        if not where.endswith(".mpy"):
            print(f"FAIL {name} was loaded from {where!r}, not from a .mpy")
            failures += 1
    for checks in (check_striker, check_base):
        if checks.main():
            failures += 1
    if failures:
        print(f"FAIL {failures} ({sys.implementation.name})")
        return 1
    print(f"OK every module from .mpy, striker and base checks pass ({sys.implementation.name})")
    return 0


if __name__ == "__main__":
    code = main()
    if code:
        sys.exit(code)
