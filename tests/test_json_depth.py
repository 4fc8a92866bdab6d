"""``gametable_core.json_depth``: deep JSON is refused before the parser recurses."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from gametable_core.json_depth import too_deep

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=20)


def _depth(value) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


@given(value=JSON, limit=st.integers(0, 8))
def test_the_scan_agrees_with_the_parsed_depth(value, limit):
    raw = json.dumps(value)
    assert too_deep(raw, limit) == (_depth(value) > limit)
    assert too_deep(raw.encode(), limit) == (_depth(value) > limit)


def test_brackets_inside_strings_and_escaped_quotes_do_not_count():
    assert not too_deep(r'{"a": "[[[[{{{{\"[[[[", "b": ["]]]]"]}', 2)
    assert too_deep(b"[" * 3000 + b"]" * 3000, 64)
    assert not too_deep(b"[" * 64 + b"]" * 64, 64)


@given(raw=st.binary(max_size=200), limit=st.integers(0, 10))
def test_any_bytes_never_crash_the_scan(raw, limit):
    assert too_deep(raw, limit) in (True, False)
