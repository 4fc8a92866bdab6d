"""Each game's phone view is served from its own package, found by path.

The panel serves ``controller/games/<game>/phone/<file>`` at ``/games/<game>/<file>`` (and a
folder given for a game living elsewhere), and nothing else: no engine source, no path outside
the phone folder, no odd file names. No MQTT here: the link is never started.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gametable_core.config import parse
from web_panel.app import create_app
from web_panel.game_views import GameViews
from web_panel.link import TableLink

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def client(tmp_path):
    extra = tmp_path / "mygame"
    extra.mkdir()
    (extra / "view.js").write_text('GameViews.register("mygame", {});\n')
    config = parse({"table_id": "t1", "journal": {"path": str(tmp_path / "j.sqlite")}})
    app = create_app(config, TableLink("t1", "127.0.0.1", 1), game_views={"mygame": extra})
    return app.test_client()


@pytest.mark.parametrize("game", ["coinwar", "coup"])
def test_a_shipped_games_phone_view_is_served_from_its_package(client, game):
    for name, kind in (("view.js", "javascript"), ("view.css", "text/css")):
        resp = client.get(f"/games/{game}/{name}")
        assert resp.status_code == 200 and kind in resp.content_type
        assert resp.data == (ROOT / "controller" / "games" / game / "phone" / name).read_bytes()
        assert resp.headers["X-Content-Type-Options"] == "nosniff"
        assert "Set-Cookie" not in resp.headers  # a static asset, like /static/: no CSRF cookie
    assert b'GameViews.register("' + game.encode() in client.get(f"/games/{game}/view.js").data


def test_a_game_outside_the_package_is_served_from_the_folder_given(client):
    resp = client.get("/games/mygame/view.js")
    assert resp.status_code == 200 and b'register("mygame"' in resp.data


@pytest.mark.parametrize("path", [
    "/games/coup/engine.py", "/games/coup/..%2Fengine.py", "/games/coup/%2e%2e%2fcards.py", "/games/..%2Fweb_panel/app.py",
    "/games/Coup/view.js", "/games/nosuchgame/view.js", "/games/coup/.view.js", "/games/coup/view.js.map",
    "/games/coinwar/phone/view.js", "/games/mygame/../coup/view.js",
])
def test_only_phone_files_of_a_plain_game_name_are_served(client, path):
    assert client.get(path).status_code == 404


def test_game_views_refuse_names_that_could_leave_the_phone_folder(tmp_path):
    views = GameViews(root=tmp_path)
    (tmp_path / "g" / "phone").mkdir(parents=True)
    (tmp_path / "g" / "phone" / "view.js").write_text("x")
    (tmp_path / "g" / "secret.js").write_text("x")
    assert views.find("g", "view.js") == tmp_path / "g" / "phone" / "view.js"
    for game, name in (("g", "../secret.js"), ("g", "view.py"), ("../g", "view.js"), ("g", "missing.js")):
        assert views.find(game, name) is None



def test_cp_1_coups_description_carries_the_card_table_its_phone_view_draws():
    """The phones' card faces and block sentences come from what the daemon publishes, not a copy."""
    from controller.games.coup import describe
    from controller.games.coup.cards import BLOCK_CLAIMS, CARDS, POKER_RANK

    d = describe()
    assert {c: v["rank"] for c, v in d["cards"].items()} == POKER_RANK and list(d["cards"]) == list(CARDS)
    assert d["cards"]["duke"]["power"] == "Tax · blocks aid"
    assert d["blocks"] == {m: list(c) for m, c in BLOCK_CLAIMS.items()}
    view = (ROOT / "controller" / "games" / "coup" / "phone" / "view.js").read_text()
    assert '"K"' not in view and "Tax · blocks aid" not in view


def test_the_panel_imports_no_rules_engine():
    """web_panel talks to the daemon only over MQTT (docs/architecture.md): loading and serving the
    panel never imports controller.games or any game package."""
    code = ("import sys, web_panel.app, web_panel.server, web_panel.commands; "
            "print(sorted(m for m in sys.modules if m.startswith('controller.games')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


def test_a_plug_in_games_phone_view_is_found_beside_its_module_without_importing_it(tmp_path):
    """An installed game (entry point ``gametable.games``) ships ``phone/`` in its own package."""
    pkg = tmp_path / "poker_game"
    (pkg / "phone").mkdir(parents=True)
    (pkg / "__init__.py").write_text("raise SystemExit('the panel must not import a game')\n")
    (pkg / "phone" / "view.js").write_text('GameViews.register("poker", {});\n')
    dist = tmp_path / "poker_game-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: poker-game\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[gametable.games]\npoker = poker_game\n")
    code = ("import sys; from web_panel.game_views import GameViews; v = GameViews(); "
            "print(v.find('poker', 'view.js')); print('poker_game' in sys.modules)")
    env = {"PYTHONPATH": f"{tmp_path}:{ROOT}", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    assert out.stdout.split() == [str(pkg / "phone" / "view.js"), "False"]
