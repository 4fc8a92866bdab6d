"""The ``gametable`` command: ``run`` (the Pi), ``panel`` (its phone panel), ``sim`` (the virtual table),
``replay``, ``journal``, ``host``, ``striker-trace``."""

from __future__ import annotations

import argparse
import logging
import sys

from controller import __version__


def _positive_seat(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seat number, got {text!r}") from None
    if not 1 <= value <= 6:
        raise argparse.ArgumentTypeError(f"a seat from 1 to 6, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gametable", description="Referee software for a smart game table.")
    parser.add_argument("--version", action="version", version=f"gametable {__version__}")
    parser.add_argument("--log-level", default="INFO", help="DEBUG, INFO, WARNING (default INFO)")
    sub = parser.add_subparsers(dest="command", required=True)

    rp = sub.add_parser("replay", help="apply a JSON-lines file of inputs and print the final public state")
    rp.add_argument("file", help="one input per line (new_game first)")
    rp.add_argument("--view", type=_positive_seat, metavar="SEAT", help="print this seat's view instead")
    rp.add_argument("--config", help="config file (accepted for symmetry; replay needs none)")

    from gametable.journal_cli import add_parser as add_journal_parser

    add_journal_parser(sub)  # gametable journal check|export|repair FILE
    from gametable.host_cli import add_parser as add_host_parser

    add_host_parser(sub)  # gametable host unlock --config FILE

    run = sub.add_parser("run", help="the daemon on a Raspberry Pi: beams, strikers, LEDs, MQTT")
    run.add_argument("--config", help="TOML config file")
    run.add_argument("--no-hardware", action="store_true",
                     help="MQTT inputs only, no GPIO/serial (fault tests, a table driven from elsewhere)")
    run.add_argument("--no-panel", action="store_true",
                     help="the referee alone (the panel runs as `gametable panel`, e.g. its own systemd unit)")
    from gametable.panel_proc import add_parser as add_panel_parser

    add_panel_parser(sub)  # gametable panel --config FILE

    sim = sub.add_parser("sim", help="the daemon on the virtual table (pymunk), with the panel")
    sim.add_argument("--config", help="TOML config file")
    from gametable.sim import add_sim_arguments

    add_sim_arguments(sim)
    from gametable.striker_trace import add_parser as add_trace_parser

    add_trace_parser(sub)  # gametable striker-trace FILE... (recorded striker traces → a threshold)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=getattr(logging, str(args.log_level).upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if args.command == "replay":
        if args.config:
            from core.config import ConfigError, load

            try:
                load(args.config)
            except ConfigError as exc:
                print(exc, file=sys.stderr)
                return 2
        from gametable.replay import run as run_replay

        return run_replay(args.file, args.view)
    if args.command == "journal":
        from gametable.journal_cli import run as run_journal

        return run_journal(args)
    if args.command == "host":
        from gametable.host_cli import run as run_host

        return run_host(args)
    if args.command == "panel":
        from gametable.panel_proc import run_panel

        return run_panel(args)
    if args.command == "run":
        from gametable.run import run_daemon

        return run_daemon(args)
    if args.command == "striker-trace":
        from gametable.striker_trace import run as run_trace

        return run_trace(args)
    if args.command == "sim":
        from gametable.sim import run_sim

        return run_sim(args)
    return 2


if __name__ == "__main__":
    sys.exit(main())
