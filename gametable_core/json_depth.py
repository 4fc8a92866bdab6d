"""Refuse deeply nested JSON *before* parsing it.

Why: Python's ``json`` parser recurses once per level and raises ``RecursionError`` somewhere past
~1,000 levels; besides costing a deep stack, the half-built structure and the error's traceback
can surface again during garbage collection, outside any handler. Bodies and commands are a few
KB at most, so one flat byte scan is cheap and never recurses.
"""

from __future__ import annotations

_OPEN, _CLOSE, _QUOTE, _BACKSLASH = frozenset(b"[{"), frozenset(b"]}"), ord('"'), ord("\\")


def too_deep(raw: bytes | str, limit: int) -> bool:
    """True when ``raw`` opens more than ``limit`` arrays/objects inside one another (brackets in
    strings do not count). Malformed JSON is the parser's business: this only bounds the depth."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    depth = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == _BACKSLASH:
                escaped = True
            elif byte == _QUOTE:
                in_string = False
        elif byte == _QUOTE:
            in_string = True
        elif byte in _OPEN:
            depth += 1
            if depth > limit:
                return True
        elif byte in _CLOSE:
            depth -= 1
    return False
