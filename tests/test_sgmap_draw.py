"""The default map's drawing in the docs is generated from its data (docs/rules/sanguosha-map.md SG-8.2)."""

from __future__ import annotations

from pathlib import Path

from controller.games.sanguosha_map import draw, maps

SVG = Path(__file__).resolve().parent.parent / "docs" / "sanguosha-default-map.svg"


def test_the_committed_svg_is_drawn_from_the_default_map_data():
    assert SVG.read_text() == draw.svg(maps.load("default")), (
        "docs/sanguosha-default-map.svg is stale: python -m controller.games.sanguosha_map.draw > "
        "docs/sanguosha-default-map.svg")


def test_the_drawing_shows_every_wall_minion_and_boss_point():
    m = maps.load("default")
    text = draw.svg(m)
    assert text.count('stroke-width="6"') == len(m["walls"]) + 1  # + the legend's wall
    for side in "AB":
        for i in range(1, 7):
            assert f">{side}{i}</text>" in text
    assert "Boss A" in text and "Boss B" in text
