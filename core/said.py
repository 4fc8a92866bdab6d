"""Log lines that every phone can say in its own language (docs/i18n.md).

The daemon writes one ``events`` message for many phones, some reading Chinese, some English. A
game's words therefore build each line with :func:`say`: the result *is* the English sentence (a
``str``, so ``words`` stays exactly what existing clients read) and also carries ``.msg``, the
language-neutral form published beside it as ``says``: the message id (the English template, a
gettext msgid in ``web_panel/locale/``) and its arguments. A phone looks the id up in its
catalogue and fills in the arguments, which may themselves be messages (a card's name) or lists
of them. Nothing here translates: the daemon only marks and carries.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from typing import Any

Msg = dict[str, Any]
_FIELDS = string.Formatter()


class Said(str):
    """An English line or name (the ``str`` itself) with its message: ``{"id": template, "args": {...}}``
    (plus ``"plural"`` and ``"n"`` for a count)."""

    msg: Msg

    def __new__(cls, text: str, msg: Msg) -> Said:
        made = super().__new__(cls, text)
        made.msg = msg
        return made


def N_(template: str) -> str:
    """Marks a template kept in a table (``{"strike": N_("{who} strikes")}``) for the catalogue;
    :func:`say` it where it is used."""
    return template


def say(template: str, /, **args: Any) -> Said:
    """``say("{who} passes", who="Ann")`` -> "Ann passes", carrying its id and arguments."""
    return Said(_fill(template, args), _msg(template, args))


def term(text: str) -> Said:
    """A name the catalogue holds but the code does not spell (a mode's title from a game's
    ``describe()``, a card's title from its data): its own id, no fields."""
    return Said(text, {"id": text})


def say_n(singular: str, plural: str, n: Any, /, **args: Any) -> Said:
    """A line with a count: ``say_n("{who} draws {n} card", "{who} draws {n} cards", 2, who="Bo")``."""
    args = {"n": n, **args}
    return Said(_fill(singular if n == 1 else plural, args), _msg(singular, args) | {"plural": plural, "n": n})


class Listing(list[Any]):
    """A list argument (``{cards}``): English joins it with ``sep``, a phone in its own way."""

    sep = ", "


def listing(items: Iterable[Any], sep: str = ", ") -> Listing:
    made = Listing(items)
    made.sep = sep
    return made


def msg_of(line: Any) -> Msg:
    """The wire form of one line of ``words``: its message, or ``{"text": line}`` for a plain line
    (a player's name, a line a game wrote without :func:`say`): shown as it is in every language."""
    if isinstance(line, Said):
        return line.msg
    return {"text": str(line)}


def says(lines: Iterable[Any]) -> list[Msg]:
    """``events``' ``says``: one message per line of ``words``, in the same order."""
    return [msg_of(line) for line in lines]


def _wire(value: Any) -> Any:
    if isinstance(value, Said):
        return value.msg
    if isinstance(value, list | tuple):
        return [_wire(v) for v in value]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    return str(value)  # a name, or anything else as the English line shows it


def _english(value: Any) -> str:
    if isinstance(value, list | tuple):
        return getattr(value, "sep", ", ").join(_english(v) for v in value)
    return str(value)


def _fill(template: str, args: Mapping[str, Any]) -> str:
    wanted = {name for _, name, _, _ in _FIELDS.parse(template) if name}
    missing = wanted - set(args)
    if missing:  # a programming error in a game's words: say which field, at once
        raise KeyError(f"message {template!r} needs {', '.join(sorted(missing))}")
    return template.format_map({k: _english(v) for k, v in args.items()})


def _msg(template: str, args: Mapping[str, Any]) -> Msg:
    msg: Msg = {"id": template}
    if args:
        msg["args"] = {k: _wire(v) for k, v in args.items()}
    return msg
