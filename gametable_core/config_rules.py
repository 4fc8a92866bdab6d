"""How a config key is declared and read: its default and the rule that checks it.

gametable_core/config.py declares the table's schema with these, once; a rule says what it expects, so every
error names the key and what was expected without a message written twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, Field, dataclass, field, fields
from typing import Any, TypeVar


class ConfigError(ValueError):
    """A broken config; the message names the key."""


def refusal(where: str, expected: str, value: Any) -> ConfigError:
    return ConfigError(f"config error: {where}: expected {expected}, got {value!r}")


# --- rules: one per kind of value, each says what it expects ---------------------------------

@dataclass(frozen=True)
class Rule:
    """How one key's TOML value is checked and converted.

    ``accept`` returns the converted value, or :data:`REFUSED` so that the error says
    ``expected <expected>``; a rule with more to say raises its own :class:`ConfigError`.
    """

    expected: str
    accept: Callable[[Any, str], Any]

    def read(self, value: Any, where: str) -> Any:
        out = self.accept(value, where)
        if out is REFUSED:
            raise refusal(where, self.expected, value)
        return out


REFUSED: Any = object()


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def integer(lo: int, hi: int) -> Rule:
    return Rule(f"an integer from {lo} to {hi}", lambda v, _: v if is_int(v) and lo <= v <= hi else REFUSED)


def number(lo: float, hi: float) -> Rule:
    return Rule(f"a number from {lo} to {hi}", lambda v, _: float(v) if is_number(v) and lo <= v <= hi else REFUSED)


def text(*, nonempty: bool = True) -> Rule:
    def accept(v: Any, _: str) -> Any:
        return v if isinstance(v, str) and (v.strip() or not nonempty) else REFUSED
    return Rule("a non-empty string" if nonempty else "a string", accept)


def one_of(*choices: str, notes: dict[str, str] | None = None) -> Rule:
    """One of a few names; ``notes`` say where one belongs, e.g. ``'lgpio' (on a Pi)``."""
    said = [repr(c) + (f" ({notes[c]})" if notes and c in notes else "") for c in choices]
    return Rule(", ".join(said[:-1]) + " or " + said[-1], lambda v, _: v if v in choices else REFUSED)


BOOL = Rule("true or false", lambda v, _: v if isinstance(v, bool) else REFUSED)
POINT = Rule("a point [x_mm, y_mm]", lambda v, _: (float(v[0]), float(v[1]))
             if isinstance(v, list) and len(v) == 2 and all(is_number(x) for x in v) else REFUSED)


def key(default: Any = MISSING, rule: Rule | None = None, *, factory: Callable[[], Any] | None = None,
        missing: str = "") -> Any:
    """A config key: its default (or ``factory``; none: required, ``missing`` says why) and its rule."""
    meta = {"rule": rule, "missing": missing}
    if factory is not None:
        return field(default_factory=factory, metadata=meta)
    return field(default=default, metadata=meta)


_KEYS: dict[type, dict[str, Field[Any]]] = {}  # by section: read at every load, fields never change


def keys_of(section: type) -> dict[str, Field[Any]]:
    """The TOML keys a section's dataclass declares, in order (fields without a rule are not keys)."""
    if section not in _KEYS:
        _KEYS[section] = {f.name: f for f in fields(section) if f.metadata.get("rule") is not None}
    return _KEYS[section]


def default_of(f: Field[Any]) -> Any:
    """A key's default as a config without it gets it (``MISSING`` for a required key)."""
    return f.default_factory() if f.default_factory is not MISSING else f.default


def check_keys(section: dict[str, Any], allowed: set[str], prefix: str) -> None:
    for name in section:
        if name not in allowed:
            raise ConfigError(
                f"config error: {prefix}{name}: unknown key (expected one of: {', '.join(sorted(allowed))})"
            )


_Section = TypeVar("_Section")


def read_section(section: type[_Section], raw: dict[str, Any], prefix: str,
          defaults: dict[str, Any] | None = None) -> _Section:
    """A section's dataclass from its TOML table: unknown keys refused, each key by its rule;
    ``defaults`` override the declared ones (a beam's kind's part)."""
    return section(**read_keys(keys_of(section), raw, prefix, defaults))


def read_keys(declared: dict[str, Field[Any]], raw: dict[str, Any], prefix: str,
               defaults: dict[str, Any] | None = None) -> dict[str, Any]:
    """The keys given (each by its rule) and the ``defaults`` for those not given."""
    check_keys(raw, set(declared), prefix)
    values: dict[str, Any] = {}
    for name, f in declared.items():
        if name in raw:
            values[name] = f.metadata["rule"].read(raw[name], prefix + name)
        elif defaults and name in defaults:
            values[name] = defaults[name]
        elif f.default is MISSING and f.default_factory is MISSING:
            raise ConfigError(f"config error: {prefix}{name}: missing ({f.metadata['missing']})")
    return values


def table(data: dict[str, Any], name: str, prefix: str = "") -> dict[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise refusal(prefix + name, f"a table ([{prefix}{name}])", value)
    return value
