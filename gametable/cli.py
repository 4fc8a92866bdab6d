"""The ``gametable`` command: ``run`` (the Pi), ``panel`` (its phone panel), ``sim`` (the virtual table),
``replay``, ``journal``, ``host``, ``striker-trace``, ``camera``, ``venue-setup`` and ``venue`` (a venue of
tables)."""

from __future__ import annotations

import argparse
import importlib
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
    from gametable.camera_cli import add_parser as add_camera_parser
    from gametable.camera_record import add_record_parser

    add_record_parser(add_camera_parser(sub))  # gametable camera analyse|record DIR (gametable-strike/1, docs/camera.md)
    from gametable.venue.setup import add_parser as add_venue_setup_parser

    add_venue_setup_parser(sub)  # gametable venue-setup: both sides' bridge, password and ACL files
    from gametable.venue.service_args import add_parser as add_venue_parser

    add_venue_parser(sub)  # gametable venue --config venue.toml: the venue service and its board
    from gametable.venue.offers import add_parser as add_autostart_parser

    add_autostart_parser(sub)  # gametable venue-autostart: a table starts the venue's offers itself
    return parser


# Each sub-command's entry point as "module:function", imported only when that command runs (a
# table's Pi has neither the camera's nor the venue's extra unless it uses them).
COMMANDS = {
    "journal": "gametable.journal_cli:run",
    "host": "gametable.host_cli:run",
    "panel": "gametable.panel_proc:run_panel",
    "run": "gametable.run:run_daemon",
    "striker-trace": "gametable.striker_trace:run",
    "camera": "gametable.camera_cli:run",
    "venue-setup": "gametable.venue.setup:run",
    "venue-autostart": "gametable.venue.offers:run",
    "venue": "gametable.venue.service:run",
    "sim": "gametable.sim:run_sim",
}


def _replay(args: argparse.Namespace) -> int:
    if args.config:
        from gametable.config_load import load_config

        load_config(args.config, "gametable replay")
    from gametable.replay import run as run_replay

    return run_replay(args.file, args.view)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=getattr(logging, str(args.log_level).upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if args.command == "replay":
        return _replay(args)
    target = COMMANDS.get(args.command)
    if target is None:
        return 2
    module_name, function = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if args.command != "venue":
            raise
        from gametable.venue.service_args import EXTRA_MISSING  # a table's Pi has no venue extra

        print(f"{EXTRA_MISSING} ({exc.name} is missing)", file=sys.stderr)
        return 2
    result: int = getattr(module, function)(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
