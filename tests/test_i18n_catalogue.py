"""The catalogue is complete (docs/i18n.md): every string a player can read has its Chinese, the
``.po`` holds nothing the code no longer says, and no translation drops or invents a {field}.
Run ``make i18n`` after changing a string, then translate what arrives empty."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from gametable.i18n_catalogue import extract, terms
from web_panel.i18n import LANGUAGES, catalogue, po_path, translate

FIELD = re.compile(r"\{(\w+)\}")


def _key(message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


@pytest.fixture(scope="module")
def template():
    return extract()


@pytest.fixture(scope="module", params=[lang for lang, folder in LANGUAGES.items() if folder])
def po(request):
    with po_path(request.param).open("rb") as fp:
        return read_po(fp, locale=LANGUAGES[request.param])


def test_every_string_of_the_code_has_a_translation(template, po):
    untranslated = []
    for m in template:
        if not m.id:
            continue
        entry = po.get(m.id)
        strings = [] if entry is None else [entry.string] if isinstance(entry.string, str) else list(entry.string)
        if entry is None or entry.fuzzy or not strings or not all(strings):
            untranslated.append(_key(m))
    assert not untranslated, f"{len(untranslated)} strings have no translation (make i18n, then translate): {untranslated[:20]}"


def test_the_catalogue_holds_no_string_the_code_no_longer_uses(template, po):
    stale = [_key(m) for m in po if m.id and m.id not in template]
    assert not stale, f"stale entries (make i18n drops them): {stale[:20]}"


def test_no_translation_drops_or_invents_a_field(po):
    wrong = []
    for m in po:
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        wanted = set().union(*(FIELD.findall(i) for i in ids))
        for s in strings:
            got = set(FIELD.findall(s))
            if got - wanted or (isinstance(m.id, str) and got != wanted):
                wrong.append((_key(m), s))
    assert not wrong, wrong[:10]


def test_every_game_describe_text_and_card_title_is_a_term_of_the_catalogue():
    found = terms()
    for text in ("Free-for-all", "Biohazard (币战·生化危机)", "BANG!", "Wells Fargo", "Tax · blocks aid",
                 "seconds a response window stays open; no answer takes the hit (BG-7, BG-8.7)", "Mother"):
        assert text in found


def test_the_phones_catalogue_and_the_servers_gettext_agree():
    zh = catalogue("zh")
    assert zh["{who}'s turn"] == "{who} 的回合"
    assert zh["{n} coin"] == ["{n} 元"]  # plural forms as a list (Chinese has one)
    assert translate("zh", "'lang' must be one of {langs} or empty, got {got}", langs="en, zh", got="'fr'") \
        == "“lang”必须是 en, zh 之一或留空，收到的是 'fr'"
    assert translate("en", "Seat {n}", n=3) == "Seat 3" and catalogue("en") == {}


def test_rule_numbers_stay_out_of_the_chinese_players_view(po):
    """The English texts cite rules for the referee (CW-7.1 …); the players' Chinese never does."""
    cited = [(_key(m), m.string) for m in po if m.id and re.search(r"\b(CW|CP|BG|SG)-\d", str(m.string))]
    assert not cited, cited[:5]
