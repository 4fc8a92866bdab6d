"""The speed-ups of the engines and the journal change nothing a player or the daemon can see:
each fast path gives exactly what the plain one it replaces gives (property tests)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.journal import parse_body

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


def _outcome(fn, text):
    try:
        return "ok", json.dumps(fn(text))
    except ValueError as exc:
        return "error", type(exc).__name__, str(exc)


@settings(max_examples=300, deadline=None)
@given(value=json_values, before=st.sampled_from(["", " ", "\n", "\ufeff"]),
       after=st.sampled_from(["", " ", "\n", "x", "{}", "]"]), cut=st.integers(0, 40))
def test_journal_body_parser_gives_exactly_what_json_loads_gives(value, before, after, cut):
    body = json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    for text in (body, before + body + after, body[:cut], body[cut:]):
        assert _outcome(parse_body, text) == _outcome(json.loads, text)
