"""Recovery after a crash: daemon process start -> retained state republished.

The journal holds a realistic evening (a few hundred inputs: Coin War games, and Coup when it is
registered). We start the real daemon process on it against a real Mosquitto and time until a
phone subscribed to ``state`` receives the resumed state - what players wait for after a power
cut or a ``kill -9``. Median of a few runs.

Figures:
  recovery_s          process start -> resumed state on the phone (median)
  recovery_replay_ms  of which: replaying the journal in-process (Table.load), median
  recovery_inputs     inputs in the journal
  startup_cpu_s_1m_inputs  CPU seconds of the real daemon process (`gametable run --no-hardware`,
                      Python's imports and the panel included) from its start until it is ``online``
                      on the broker, on a journal of 1,000,000 inputs: bot games with a snapshot at
                      each new_game (benchmarks/journal_builder.py); median of 3. Aim <= 1: start-up
                      must not replay all history (it reads from the latest snapshot on)
  startup_resume_cpu_s_1m_inputs  of which: opening, checking and resuming the journal (in-process)
  startup_resume_cpu_s_1m_inputs_full_replay  the same with the snapshots deleted: every input
                      replayed, as every start did before snapshots
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.journal_builder import build
from controller.daemon import Daemon
from controller.journal import Journal, JournalBusy
from controller.table import Table
from gametable.broker import start_broker
from gametable.replay import replay_lines
from gametable.testing.bots import Bot, comparable
from gametable.testing.daemon_proc import DaemonProcess
from gametable.testing.recorder import Recorder
from gametable_core.config import parse

INPUTS = 400
RUNS = 5
TABLE = "bench"


def _write_journal(path: Path, n: int) -> None:
    journal = Journal(path)
    table, bot = Table(journal), Bot(seed=11, prefix="r", max_inputs_per_game=150)
    for _ in range(n):
        cmd = bot.next_command()
        if not table.submit(cmd).ok:
            raise RuntimeError(f"bot input refused: {cmd}")
        bot.accepted(cmd)
    journal.close()


def _start_cpu_s(path: Path) -> float:
    """CPU seconds of one daemon start on ``path``, without MQTT (the broker link is the same either way)."""
    started = time.process_time()
    daemon = Daemon(parse({"journal": {"path": str(path)}}))
    daemon.start(connect=False)
    cpu = time.process_time() - started
    daemon.stop()
    return cpu


def _process_cpu_s(pid: int) -> float:
    """utime + stime of a live process (proc(5): fields 14 and 15 of /proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _ready_cpu_s(daemon: DaemonProcess, phone: Recorder) -> float:
    daemon.start_online(phone, timeout=120)
    cpu = _process_cpu_s(daemon.pid)
    daemon.kill()
    return cpu


def startup_cpu_1m() -> dict[str, float]:
    workdir = Path(tempfile.mkdtemp(prefix="gametable-bench-startup-"))
    broker = start_broker()
    daemon = DaemonProcess(workdir, broker.host, broker.port, TABLE)
    phone = Recorder(broker.host, broker.port, f"gametable/{TABLE}/status")
    try:
        count = build(daemon.journal, 1_000_000)
        ready = statistics.median(_ready_cpu_s(daemon, phone) for _ in range(3))
        resume = statistics.median(_start_cpu_s(daemon.journal) for _ in range(3))
        db = sqlite3.connect(daemon.journal)
        db.execute("DELETE FROM snapshots")
        db.commit()
        db.close()
        full = _start_cpu_s(daemon.journal)  # (this start stores a snapshot: one run is the figure)
    finally:
        daemon.kill()
        phone.close()
        broker.close()
        shutil.rmtree(workdir, ignore_errors=True)
    return {"startup_cpu_s_1m_inputs": round(ready, 3), "startup_resume_cpu_s_1m_inputs": round(resume, 3),
            "startup_resume_cpu_s_1m_inputs_full_replay": round(full, 2), "startup_inputs": float(count)}


def _open_when_free(path: Path, timeout_s: float = 5.0) -> Journal:
    """The killed daemon's journal, once its lock is free: right after ``kill -9`` of ``gametable run``
    (which now has a panel child) the lock was seen still held now and then, for a moment; the
    cause is not pinned down. The replay time below is measured on an open that does not wait."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return Journal(path)
        except JournalBusy:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def run() -> dict[str, float]:
    workdir = Path(tempfile.mkdtemp(prefix="gametable-bench-recovery-"))
    broker = start_broker()
    daemon = DaemonProcess(workdir, broker.host, broker.port, TABLE)
    _write_journal(daemon.journal, INPUTS)
    expected = comparable(replay_lines([b for _s, _c, b in daemon.journal_rows()]).public_view())
    topic = f"gametable/{TABLE}/state"
    phone = Recorder(broker.host, broker.port, topic)
    times: list[float] = []
    replays: list[float] = []
    try:
        for _ in range(RUNS):
            # a stale retained state from the last run would be a false positive: clear it
            phone.client.publish(topic, b"", qos=1, retain=True).wait_for_publish(5)
            mark = len(phone.messages)
            started = time.perf_counter()
            daemon.start()
            phone.wait_for(topic, lambda m: bool(m.payload) and comparable(m.json()) == expected, timeout=60, start=mark)
            times.append(time.perf_counter() - started)
            daemon.kill()
            journal = _open_when_free(daemon.journal)
            journal.close()
            t0 = time.perf_counter()
            journal = Journal(daemon.journal)
            Table(journal).load()
            replays.append((time.perf_counter() - t0) * 1000)
            journal.close()
    finally:
        daemon.kill()
        phone.close()
        broker.close()
        shutil.rmtree(workdir, ignore_errors=True)
    return {
        "recovery_s": round(statistics.median(times), 3),
        "recovery_replay_ms": round(statistics.median(replays), 1),
        "recovery_inputs": float(INPUTS),
        **startup_cpu_1m(),
    }


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name}: {value}")
