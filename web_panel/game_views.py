"""Finding a game's phone view (its JS/CSS) by path, so the panel never imports a rules engine.

Each game ships its phone view in its own package, ``controller/games/<game>/phone/`` (package
data): ``view.js`` registers the game's screens with the page (``GameViews.register``) and an
optional ``view.css`` styles them. The panel serves those files at ``/games/<game>/<file>`` for the
game named by the published state, so adding a game touches no file of the panel. A game
installed as a plug-in (an entry point of the ``gametable.games`` group, named like the game) has
its ``phone/`` folder next to its module; a game that lives elsewhere (e.g. a test game under
``tests/``) is given to :func:`web_panel.create_app` as ``game_views={"name": Path(...)}``.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Mapping
from importlib.metadata import entry_points
from pathlib import Path

GAME_NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
FILE_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}\.(js|css|svg|png)$")
PHONE_DIR = "phone"
ENTRY_POINT_GROUP = "gametable.games"  # the daemon's plug-in games (controller.games)


def shipped_games_dir() -> Path | None:
    """The folder holding one package per game (found, not imported: only ``controller`` loads)."""
    spec = importlib.util.find_spec("controller.games")
    locations = list(spec.submodule_search_locations or []) if spec else []
    return Path(locations[0]) if locations else None


def plugin_folder(game: str) -> Path | None:
    """The ``phone/`` folder beside a plug-in game's module, found without importing it."""
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name != game:
            continue
        try:
            spec = importlib.util.find_spec(ep.module)
        except (ImportError, ValueError):
            return None
        if spec is None or spec.origin is None:
            return None
        return Path(spec.origin).parent / PHONE_DIR
    return None


class GameViews:
    """Where each game's phone files are: its package's ``phone/`` folder, or a given folder."""

    def __init__(self, extra: Mapping[str, Path | str] | None = None, root: Path | None = None) -> None:
        self.extra = {name: Path(folder) for name, folder in (extra or {}).items()}
        self.root = root if root is not None else shipped_games_dir()

    def folder(self, game: str) -> Path | None:
        """The phone folder of ``game``; None for a name that is not a plain game name."""
        if not GAME_NAME.match(game):
            return None
        if game in self.extra:
            return self.extra[game]
        shipped = self.root / game / PHONE_DIR if self.root is not None else None
        if shipped is not None and shipped.is_dir():
            return shipped
        return plugin_folder(game)

    def find(self, game: str, name: str) -> Path | None:
        """The file ``name`` of ``game``'s phone view, or None (bad name, no such file)."""
        folder = self.folder(game)
        if folder is None or not FILE_NAME.match(name):
            return None
        path = folder / name
        return path if path.is_file() else None
