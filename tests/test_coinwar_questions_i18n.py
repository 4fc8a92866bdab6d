"""CW-8: the referee's questions travel as messages like log lines (docs/i18n.md), so every phone
asks them in its own language and a new question cannot show English on a Chinese phone."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from controller.games import coinwar as cw
from tests.coinwar_helpers import ffa, play, shot
from web_panel.i18n import po_path, render


def _open_question(state: dict) -> dict:
    q = cw.view(state)["questions"][0]
    assert q["text"] == render(q["says"], "en")  # the English text stays exactly as it was
    return q


@pytest.mark.parametrize(("inp", "zh_has"), [
    (shot(1, dead=None), "球门"),
    (shot(1, flown=None), "飞"),
    (shot(1, touch=None), "c1"),
])
def test_cw8_each_question_of_the_referee_is_a_message_with_chinese(inp, zh_has):
    q = _open_question(play(ffa(1, 2, 3), inp))
    zh = render(q["says"], "zh")
    assert zh != q["text"] and zh_has in zh


def test_cw8_every_question_id_the_referee_sends_is_in_the_chinese_catalogue():
    from controller.games.coinwar.referee import QUESTION_TEXT

    path = po_path("zh")
    assert path is not None
    with path.open("rb") as fp:
        catalogue = {m.id: m.string for m in read_po(fp) if m.id}
    for template in QUESTION_TEXT.values():
        assert catalogue.get(template), template
