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

from collections.abc import Iterable
from typing import Any

Msg = dict[str, Any]


class Said(str):
    """An English line or name (the ``str`` itself) with its message: ``{"id": template, "args": {...}}``
    (plus ``"plural"`` and ``"n"`` for a count). The message is built only when asked for (a view
    says its log on every call; only ``events`` and errors need the messages)."""

    _parts: tuple[str, dict[str, Any], Msg | None]  # template, arguments, extra fields (a count)

    def __new__(cls, text: str, msg: Msg | None = None) -> Said:
        made = super().__new__(cls, text)
        made._parts = (msg["id"], msg.get("args") or {}, None) if msg else (text, {}, None)
        return made

    @property
    def msg(self) -> Msg:
        template, args, extra = self._parts
        out: Msg = {"id": template}
        if args:
            out["args"] = {k: v if type(v) in _AS_IS else _wire(v) for k, v in args.items()}
        if extra:
            out.update(extra)
        return out


def _said(text: str, template: str, args: dict[str, Any], extra: Msg | None = None) -> Said:
    made = str.__new__(Said, text)
    made._parts = (template, args, extra)
    return made


def N_(template: str) -> str:
    """Marks a template kept in a table (``{"strike": N_("{who} strikes")}``) for the catalogue;
    :func:`say` it where it is used."""
    return template


def say(template: str, /, **args: Any) -> Said:
    """``say("{who} passes", who="Ann")`` -> "Ann passes", carrying its id and arguments."""
    made = str.__new__(Said, _fill(template, args))
    made._parts = (template, args, None)
    return made


def term(text: str) -> Said:
    """A name the catalogue holds but the code does not spell (a mode's title from a game's
    ``describe()``, a card's title from its data): its own id, no fields."""
    return _said(text, text, {})


def say_n(singular: str, plural: str, n: Any, /, **args: Any) -> Said:
    """A line with a count: ``say_n("{who} draws {n} card", "{who} draws {n} cards", 2, who="Bo")``."""
    args = {"n": n, **args}
    return _said(_fill(singular if n == 1 else plural, args), singular, args, {"plural": plural, "n": n})


class Listing(list[Any]):
    """A list argument (``{cards}``): English joins it with ``sep``, a phone in its own way."""

    sep = ", "


def listing(items: Iterable[Any], sep: str = ", ") -> Listing:
    made = Listing(items)
    made.sep = sep
    return made


def heard(text: str, msg: Msg) -> Said:
    """A line said earlier and kept in a game's state as its English ``text`` and wire ``msg``
    (state is plain JSON): the same line again, its message exactly as it was published."""
    extra: Msg | None = {k: msg[k] for k in ("plural", "n") if k in msg} or None
    return _said(text, str(msg["id"]), dict(msg.get("args") or {}), extra)


def msg_of(line: Any) -> Msg:
    """The wire form of one line of ``words``: its message, or ``{"text": line}`` for a plain line
    (a player's name, a line a game wrote without :func:`say`): shown as it is in every language."""
    if isinstance(line, Said):
        return line.msg
    return {"text": str(line)}


def says(lines: Iterable[Any]) -> list[Msg]:
    """``events``' ``says``: one message per line of ``words``, in the same order."""
    return [msg_of(line) for line in lines]


# What goes on the wire as it is: a name, a number (not a bool, which is said as "True").
_AS_IS = frozenset({str, int, float})
_SEQUENCES = (list, tuple)


def _wire(value: Any) -> Any:
    if isinstance(value, Said):
        return value.msg
    if isinstance(value, dict):
        return value  # already a wire message (a line :func:`heard` again)
    if isinstance(value, list | tuple):
        return [_wire(v) for v in value]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    return str(value)  # a name, or anything else as the English line shows it


def _english(value: Any) -> str:
    if isinstance(value, list | tuple):
        return getattr(value, "sep", ", ").join(_english(v) for v in value)
    return str(value)


def _fill(template: str, args: dict[str, Any]) -> str:
    """The English sentence; a missing field fails at once, naming it (a bug in a game's words)."""
    for v in args.values():
        if isinstance(v, _SEQUENCES):
            args = {k: _english(v) for k, v in args.items()}
            break
    try:
        return template.format_map(args)
    except KeyError as exc:
        raise KeyError(f"message {template!r} needs {exc.args[0]}") from None
