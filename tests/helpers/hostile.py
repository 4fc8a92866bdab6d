"""Hypothesis strategies for hostile commands: wrong types, huge strings, nested junk, unknown
types, wrong seats, broken envelopes. Shared by the Table fuzz and the MQTT fuzz (the soak's
hypothesis-free junk is gametable/testing/junk.py)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

KNOWN_TYPES = ["strike", "shot", "placed", "end_turn", "answer", "new_game", "move", "abort", "timeout"]
FIELDS = ["seat", "coin", "dead", "flown", "contacts", "question", "value", "game", "mode", "players",
          "order", "options", "seed", "move", "args", "window"]

scalars = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30))
junk = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=15)
huge_text = st.integers(10_000, 200_000).map(lambda n: "x" * n)
nested = st.integers(17, 300).map(lambda depth: _nest(depth))
wrong_seats = st.sampled_from([0, -1, 7, 99, 2**40, "1", 1.0, True, None, [1], {"seat": 1}])


def _nest(depth: int) -> Any:
    value: Any = "deep"
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


field_values = junk | huge_text | wrong_seats | nested


@st.composite
def hostile_commands(draw: st.DrawFn) -> Any:
    """A command that is wrong in at least one way a buggy or malicious client could send."""
    kind = draw(st.sampled_from(["fields", "unknown_type", "bad_type", "not_object", "wrong_seat"]))
    if kind == "not_object":
        return draw(junk.filter(lambda v: not isinstance(v, dict)))
    cmd: dict[str, Any] = {}
    if kind == "unknown_type":
        cmd["type"] = draw(st.text(min_size=1, max_size=40).filter(lambda t: t not in KNOWN_TYPES + ["undo"]))
    elif kind == "bad_type":
        cmd["type"] = draw(junk.filter(lambda v: not isinstance(v, str)) | st.just(""))
    else:
        cmd["type"] = draw(st.sampled_from(KNOWN_TYPES))
    for name in draw(st.lists(st.sampled_from(FIELDS), max_size=5, unique=True)):
        cmd[name] = draw(field_values)
    if kind == "wrong_seat":
        cmd["seat"] = draw(wrong_seats)
    return cmd
