"""Extracting the catalogue's msgids and updating the Chinese ``.po`` (``make i18n``).

``pybabel extract`` with the project's keywords, done through Babel's API so the test that fails
on an untranslated string (tests/test_i18n_catalogue.py) reads exactly what ``make i18n`` writes.
``make i18n`` rewrites ``web_panel/locale/messages.pot`` and merges it into the ``.po``: new
msgids arrive empty (the test then fails until a translator fills them in), gone ones are dropped.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_python
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from controller.games import registry
from web_panel.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, po_path

TERM_KEYS = ("title", "summary", "description", "power", "ability")  # the texts of a game's describe()
ROOT = LOCALE_DIR.parent.parent  # the repository (the mapping's paths are relative to it)
KEYWORDS = {"N_": None, "say": None, "say_n": (1, 2), "t": None, "tn": (1, 2), "translate": (2,)}
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"


_JS_STRING = r'"((?:[^"\\\n]|\\.)*)"'
_JS_CALL = re.compile(r"(?<![\w.$])(tn|t|N_)\(\s*" + _JS_STRING + r"(?:\s*,\s*" + _JS_STRING + r")?")


def extract_js(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple[int, str, Any, list[str]]]:
    """Babel extraction method for the panel's JavaScript: ``t("…")``, ``tn("…", "…", n)`` and the
    no-op mark ``N_("…")`` with double-quoted literals, wherever they sit (template literals nest
    deeply in the views)."""
    text = fileobj.read().decode("utf-8")
    for m in _JS_CALL.finditer(text):
        lineno = text.count("\n", 0, m.start()) + 1
        first = json.loads(f'"{m.group(2)}"')
        if m.group(1) == "tn" and m.group(3) is not None:
            yield lineno, "tn", (first, json.loads(f'"{m.group(3)}"')), []
        elif first:
            yield lineno, "t", first, []


_JS_ONLY = ("t", "tn")


def extract_py(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[Any]:
    """Babel's Python extraction without the JavaScript keywords: Babel 2.19 reads ``t["team"]``
    (a variable named ``t``) as a call of ``t``, which put "team" in the catalogue."""
    python_keywords: Any = {k: KEYWORDS.get(k) for k in keywords if k not in _JS_ONLY}
    yield from extract_python(fileobj, python_keywords, comment_tags, options)


_HTML_TEXT = re.compile(r'data-i18n(?:-aria)?="([^"]+)"')


def extract_html(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple[int, str, Any, list[str]]]:
    """Babel extraction method for the page's own HTML: the ``data-i18n`` / ``data-i18n-aria``
    attributes i18n.js translates in place."""
    text = fileobj.read().decode("utf-8")
    for m in _HTML_TEXT.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, "t", m.group(1), []


def terms() -> dict[str, str]:
    """The texts the code does not spell but phones show (``t(mode.title)``, ``term(...)``): every
    game's describe() texts (titles, summaries, options, card powers, abilities) and its optional
    ``phone_terms()`` (card titles, say) -> where they come from; also each option's name and each
    seat role, as the lobby shows them ("timeout s", "Mother")."""
    found: dict[str, str] = {}

    def walk(value: object, where: str) -> None:
        if isinstance(value, dict):
            for option in value.get("options") or {} if isinstance(value.get("options"), dict) else {}:
                found.setdefault(str(option).replace("_", " "), f"{where}.options")
            roles = value.get("seat_roles")
            if isinstance(roles, dict):
                found.setdefault(str(roles.get("option")).replace("_", " ").capitalize(), f"{where}.seat_roles")
                for role in roles.get("values") or []:
                    found.setdefault(str(role).replace("_", " ").capitalize(), f"{where}.seat_roles")
            for k, v in value.items():
                if k in TERM_KEYS and isinstance(v, str) and v:
                    found.setdefault(v, f"{where}.{k}")
                else:
                    walk(v, f"{where}.{k}")
        elif isinstance(value, list):
            for v in value:
                walk(v, where)

    for name, game in sorted(registry().items()):
        walk(game.describe(), f"describe:{name}")
        extra = getattr(game, "phone_terms", None)  # optional: texts its phones show beyond describe()
        for text in extra() if callable(extra) else ():
            found.setdefault(text, f"phone_terms:{name}")
    return found


def extract(root: Path = ROOT) -> Catalog:
    """Every marked string of the code and every term, with where it is used."""
    with (LOCALE_DIR / "babel.cfg").open() as fp:
        method_map, options_map = parse_mapping_cfg(fp)
    template = Catalog(project="gametable", domain=DOMAIN)
    for filename, lineno, message, comments, context in extract_from_dir(
            root, method_map, options_map, keywords=KEYWORDS, comment_tags=("i18n:",), strip_comment_tags=True):
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    for text, where in terms().items():
        if text not in template:
            template.add(text, None, [(where, 0)])
    return template


def update(root: Path = ROOT) -> None:
    """Write the template and merge it into each language's ``.po`` (``make i18n``)."""
    template = extract(root)
    with TEMPLATE.open("wb") as fp:
        write_po(fp, template, width=110, sort_output=True, omit_header=True)  # no date: no churn
    for lang, folder in LANGUAGES.items():
        path = po_path(lang)
        if path is None or folder is None:
            continue
        if path.exists():
            with path.open("rb") as fp:
                po = read_po(fp, locale=folder)
        else:
            po = Catalog(locale=folder, domain=DOMAIN, project="gametable")
        created = po.creation_date
        po.update(template, no_fuzzy_matching=True)
        po.obsolete.clear()  # a string the code no longer uses leaves the catalogue
        po.creation_date = created  # the header changes only when a translator edits it
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as fp:
            # where each string is used lives in the .pot: the .po changes only when strings do,
            # so branches that move code do not collide in it
            write_po(fp, po, width=110, sort_output=True, no_location=True)


if __name__ == "__main__":
    update()
    sys.exit(0)
