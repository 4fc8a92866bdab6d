"""Each game brings its own parts (rules pages, bots, lobby choices, phone views) through the game
contract (docs/architecture.md, Games): outside ``controller/games/`` the code names a game in at
most a handful of lines, so a game added as a package needs no edit anywhere else."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = ("controller", "gametable", "gametable_core", "sensors", "web_panel", "firmware")
GAME_NAMES = re.compile(r"coinwar|coin_war|coin war|\bcoup\b|\bbang\b|sanguosha|battlefield|three_kingdoms", re.I)
ALLOWED = 5


def _naming_lines() -> list[str]:
    found = []
    for top in CODE:
        for path in sorted((ROOT / top).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.suffix not in (".py", ".js") or rel.startswith(("controller/games/", "gametable/testing/")) \
                    or "node_modules" in rel:
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if GAME_NAMES.search(line):
                    found.append(f"{rel}:{n}: {line.strip()[:100]}")
    return found


def test_at_most_a_handful_of_lines_outside_the_games_name_a_game():
    lines = _naming_lines()
    assert len(lines) <= ALLOWED, "\n".join(lines)
