"""The test rig: real parts a test or a benchmark stands a table up from (docs/testing.md).

Shipped with the product, as MPF ships ``mpf.tests``, so ``tests/`` and ``benchmarks/`` share one
set-up and a game written outside this repository can test itself on the same table. At import time
every module here needs only the standard library and the runtime dependencies; pytest is imported
by the fixture plugin (``gametable.testing.fixtures``) alone.

- :mod:`.recorder` — an MQTT client that records every message (a phone, a wire tap).
- :mod:`.table` — one call that builds a whole table: the real daemon in process (on any clock),
  a phone, the panel, the serial link and mock pins; :mod:`.daemon_proc` — the daemon as a process.
- :mod:`.panel` — the panel's config and host PIN, the phones' HTTP and SSE clients.
- :mod:`.pty` — a pseudo-terminal pair standing in for a USB serial port.
- :mod:`.bots` — bots that play every registered game with random legal inputs.
- :mod:`.fake_daemon` — the daemon's referee API without I/O, for tests of one part alone.
- :mod:`.netcut`, :mod:`.junk`, :mod:`.venue`, :mod:`.games`, :mod:`.chromium` — a cuttable
  network, hostile payloads, a venue of bridged brokers, stacked games, Debian's Chromium.
"""
