"""``gametable run``: the daemon on the Pi with its real hardware and the phone panel, wired
together (the one place that knows all three; :mod:`controller.daemon` knows neither)."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import threading

from controller.daemon import Daemon
from controller.hardware import Hardware
from controller.journal import JournalBusy, JournalError
from gametable import sd_notify
from gametable.config_load import SERVICE, load_config, refuse
from gametable.panel_proc import PanelProcess
from gametable.startup_checks import startup_refusal
from gametable_core.clock import SystemClock
from gametable_core.config import ConfigError

log = logging.getLogger("gametable.run")


def run_daemon(args: argparse.Namespace) -> int:
    """``gametable run --config FILE``: the daemon on the Pi with its real hardware."""
    # A fatal error needs a person, not a restart every 2 s: EX_CONFIG (78) is the exit status the
    # systemd unit's RestartPreventExitStatus= names. Another daemon on the journal (2) may go away.
    config = load_config(args.config, "gametable run", SERVICE)
    if not config.mqtt.host:
        refuse("gametable run", args.config, ConfigError(
            "config error: mqtt.host: expected the broker's host name (e.g. \"127.0.0.1\"), got nothing"), SERVICE)
    refusal = startup_refusal(config.journal.path)
    if refusal is not None:
        print(refusal)
        return os.EX_CONFIG
    clock = SystemClock()
    try:
        daemon = Daemon(config, clock)
    except JournalBusy as exc:
        print(f"gametable run: {exc}")
        return 2
    except JournalError as exc:  # not a database, a bad record, a damaged page: never touched, say so
        print(f"gametable run: {exc}")
        return os.EX_CONFIG
    hardware = None
    if args.no_hardware:  # fault tests, a table driven from elsewhere
        log.info("--no-hardware: running with MQTT inputs only")
    else:
        hardware = Hardware(config, clock, daemon)
    daemon.start()
    if hardware is not None:
        hardware.start()
    # the phone panel in its own process (gametable/panel_proc.py); host/port/PIN from [panel]
    panel = None if args.no_panel else PanelProcess(args.config, getattr(args, "log_level", "INFO")).start()
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    sd_notify.notify("READY=1")
    watchdog = sd_notify.Watchdog(clock, healthy=sd_notify.DaemonHealth(daemon, clock))
    watchdog.start()
    log.info("gametable run: table %s up (broker %s:%s)", config.table_id, config.mqtt.host, config.mqtt.port)
    stop.wait()
    watchdog.stop()
    if panel is not None:
        panel.stop()
    if hardware is not None:
        hardware.stop()
    daemon.stop()
    return 0
