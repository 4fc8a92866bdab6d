"""The ``gametable venue`` command line, apart from the service: building the parser must not import
the venue extra (SQLAlchemy, openskill), which a table's Pi does not install."""

from __future__ import annotations

import argparse

EXTRA_MISSING = ("venue: the venue service needs the venue extra (SQLAlchemy, openskill): "
                 ".venv/bin/pip install -c constraints.txt -e '.[venue]'")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("venue", help="the venue service: every table's games, ratings and the venue board")
    p.add_argument("--config", required=True, help="venue.toml (gametable venue-setup writes one)")
