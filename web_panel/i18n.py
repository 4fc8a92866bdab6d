"""The panel's two languages, Simplified Chinese and English, from one gettext catalogue (docs/i18n.md).

Every string a player reads — the panel's own (``static/*.js``), the games' phone views, the
games' log lines (``controller/games/*/words.py``) and the panel's errors — is a msgid in
``web_panel/locale/messages.pot`` (extracted by ``pybabel``, ``make i18n``); the Chinese
translations are ``locale/zh_Hans/LC_MESSAGES/messages.po``. The ``.po`` file is compiled at
import (Babel reads it and writes the ``.mo`` in memory), so a fresh install needs no build step
and can never run a stale ``.mo``. Phones get the same catalogue as JSON (``/i18n/zh.json``)
and translate on the phone: one ``events`` message serves phones of both languages.
"""

from __future__ import annotations

import io
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from gametable_core.said import say

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "messages"
ENGLISH = "en"
# the panel's language codes -> the catalogue's locale folder (English is the msgids themselves)
LANGUAGES = {"en": None, "zh": "zh_Hans"}
LANGUAGE_NAMES = {"en": "English", "zh": "中文"}
COOKIE = "gt_lang"  # the phone's own choice (the page's toggle), read by the server for its errors


def po_path(lang: str) -> Path | None:
    folder = LANGUAGES.get(lang)
    return LOCALE_DIR / folder / "LC_MESSAGES" / f"{DOMAIN}.po" if folder else None


@lru_cache(maxsize=4)
def catalogue(lang: str) -> dict[str, Any]:
    """``{msgid: text}`` (``{msgid: [forms]}`` for plurals) of ``lang``: what phones receive as JSON.
    Untranslated and fuzzy entries are left out, so the phone shows the English msgid."""
    path = po_path(lang)
    if path is None:
        return {}
    with path.open("rb") as fp:
        po = read_po(fp, locale=LANGUAGES[lang])
    out: dict[str, Any] = {}
    for m in po:
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, tuple | list):
            forms = [s for s in m.string or () if s]
            if forms:
                out[m.id[0]] = forms
        elif isinstance(m.string, str) and m.string:
            out[m.id] = m.string
    return out


@lru_cache(maxsize=4)
def translations(lang: str) -> NullTranslations:
    """gettext for the panel's own answers (HTTP errors) in ``lang``; English needs none."""
    path = po_path(lang)
    if path is None:
        return NullTranslations()
    with path.open("rb") as fp:
        po = read_po(fp, locale=LANGUAGES[lang])
    compiled = io.BytesIO()
    write_mo(compiled, po)  # compiled at import, never stale
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def normalise(code: Any) -> str | None:
    """``zh-CN``, ``zh_Hans``, ``zh`` -> ``zh``; ``en-GB`` -> ``en``; anything else -> None."""
    if not isinstance(code, str):
        return None
    base = code.strip().replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None


def from_accept_language(header: str | None) -> str | None:
    """The first of our languages in an ``Accept-Language`` header, by its q weights."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((header or "").split(",")):
        code, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        lang = normalise(code)
        if lang and q > 0:
            ranked.append((-q, i, lang))
    return min(ranked)[2] if ranked else None


def choose(chosen: Any, table_default: Any, accept_language: str | None) -> str:
    """The language of one phone: its own choice (the toggle), else the table's default set by
    the host, else the browser's language, else English."""
    return normalise(chosen) or normalise(table_default) or from_accept_language(accept_language) or ENGLISH


def translate(lang: str, message: str, /, **args: Any) -> str:
    """``message`` (a msgid template) in ``lang``, its ``{fields}`` filled in."""
    text = translations(lang).gettext(message)
    return text.format(**args) if args else text


class TableLanguage:
    """The table's default language, set by the host on the Host tab and kept in a small file next
    to the journal (so it outlives a restart); None: each phone follows its browser."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.lang: str | None = None
        if path is not None and path.is_file():
            self.lang = normalise(path.read_text(encoding="utf-8").strip())

    def set(self, lang: Any) -> str | None:
        """Set the default (``"zh"``, ``"en"``, or None/"" for the phones' own); raises ValueError."""
        if lang in (None, ""):
            self.lang = None
        elif isinstance(lang, str) and lang in LANGUAGES:
            self.lang = lang
        else:
            raise ValueError(say("'lang' must be one of {langs} or empty, got {got}", langs=", ".join(LANGUAGES),
                                 got=repr(lang)))
        if self.path is not None:
            try:
                self.path.write_text(self.lang or "", encoding="utf-8")
            except OSError:
                pass  # kept for this run: a read-only card must not refuse the host
        return self.lang


def render(msg: Any, lang: str) -> str:
    """A message (``{"id", "args"[, "plural", "n"]}`` or ``{"text"}``, gametable_core/said.py) in ``lang``, by
    gettext: the panel's refusals and the daemon's errors, said in the asking phone's language."""
    if not isinstance(msg, dict):
        return str(msg)
    if isinstance(msg.get("text"), str):
        return str(msg["text"])
    template = msg.get("id")
    if not isinstance(template, str):
        return ""
    tr = translations(lang)
    plural, n = msg.get("plural"), msg.get("n")
    text = tr.ngettext(template, plural, n) if isinstance(plural, str) and isinstance(n, int) else tr.gettext(template)
    raw = msg.get("args")
    args = {str(k): _shown(v, lang) for k, v in raw.items()} if isinstance(raw, dict) else {}
    return _FIELD.sub(lambda m: args.get(m.group(1), m.group(0)), text)


_FIELD = re.compile(r"\{(\w+)\}")


def _shown(value: Any, lang: str) -> str:
    if isinstance(value, list):
        return ("、" if lang == "zh" else ", ").join(_shown(v, lang) for v in value)
    if isinstance(value, dict):
        return render(value, lang)
    return str(value)
