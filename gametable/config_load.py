"""How every ``gametable`` command loads its ``--config``: the config, or one line naming the file
and the key and the command's exit status.

Two kinds of command, two ways to refuse a broken config:

- :data:`SERVICE` — ``gametable run`` and the panel it starts as its own process
  (``gametable panel``): exit 78 (EX_CONFIG) on stdout. The systemd unit
  (``hardware_docs/systemd/gametable.service``) names 78 in ``RestartPreventExitStatus=``, so a
  config that a restart cannot fix is not restarted every 2 s, and ``gametable run`` does not
  restart a panel that exited 78 (``gametable/panel_proc.py``). Their console is the service's
  journal, where their other fatal lines go too (README "Configuration",
  ``hardware_docs/pi_setup.md``).
- :data:`CONSOLE` — the commands a person types (``replay``, ``sim``, ``host unlock``,
  ``camera record``, ``venue-autostart``): exit 2 on stderr, as argparse refuses a bad command
  line and ``sensors.hwcheck`` a bad config, so stdout carries only what the command prints
  (``replay``'s state JSON, ``camera record``'s directory).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from gametable_core.config import Config, ConfigError, load


@dataclass(frozen=True)
class Refusal:
    """How a command says its config is broken: its exit status, and on which stream."""

    status: int
    on_stdout: bool


SERVICE = Refusal(os.EX_CONFIG, on_stdout=True)
CONSOLE = Refusal(2, on_stdout=False)


def config_line(command: str, path: str | Path | None, exc: ConfigError) -> str:
    """``gametable run: config error in /etc/gametable/table.toml: panel.port: expected …``: the
    command, the file (unless the error names it already: unreadable, not TOML) and the key."""
    message = " ".join(str(exc).split())
    if path is not None and str(path) not in message:
        message = message.replace("config error: ", f"config error in {path}: ", 1)
    return f"{command}: {message}"


def load_config(path: str | Path | None, command: str, refusal: Refusal = CONSOLE, *,
                layout_only: bool = False) -> Config:
    """The config at ``path`` (None: the built-in defaults); a broken one prints
    :func:`config_line` and exits with ``refusal``'s status (SystemExit: nothing has started)."""
    try:
        return load(path, layout_only=layout_only)
    except ConfigError as exc:
        refuse(command, path, exc, refusal)


def refuse(command: str, path: str | Path | None, exc: ConfigError, refusal: Refusal = CONSOLE) -> NoReturn:
    """Print :func:`config_line` on ``refusal``'s stream and exit with its status: also for a
    config that loads but lacks what the command needs (``gametable run`` without ``[mqtt] host``)."""
    print(config_line(command, path, exc), file=sys.stdout if refusal.on_stdout else sys.stderr, flush=True)
    raise SystemExit(refusal.status)
