"""The checks of one scenario script (check_striker.py, check_base.py), counted, and its verdict.

run.mjs passes a script only when it printed a line starting with "OK". Each script keeps its
own tally: check_mpy.py runs both scripts' ``main()`` in one interpreter. Runs under MicroPython
and CPython alike (check_vectors.py keeps its own: it runs without this folder on the path).
"""

import sys


class Tally:
    def __init__(self):
        self.n = 0
        self.fail = 0

    def check(self, ok, what):
        self.n += 1
        if not ok:
            self.fail += 1
            print("FAIL " + what)

    def run(self, scenarios):
        """Each scenario in turn (one that raises is a failed check, and the next still runs);
        prints the verdict and returns the exit code."""
        for fn in scenarios:
            try:
                fn()
            except Exception as exc:  # noqa: BLE001 - report and go on with the next scenario
                self.check(False, f"{fn.__name__} raised {type(exc).__name__}: {exc}")
        impl = sys.implementation.name
        if self.fail:
            print(f"FAIL {self.fail} of {self.n} checks ({impl})")
            return 1
        print(f"OK {self.n} checks ({impl})")
        return 0
