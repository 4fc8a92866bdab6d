"""Hostile commands over a real Mosquitto to the real daemon process: every one is answered on
``cmd/result`` with a specific error; the state, the retained topics and the journal don't move."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.daemon import MAX_COMMAND_BYTES as MAX_PAYLOAD_BYTES
from tests.faults.rig import T, retained
from tests.helpers.hostile import hostile_commands

pytestmark = [pytest.mark.mqtt, pytest.mark.slow]

RAW_PAYLOADS = [  # (bytes on cmd, what the error must say, the id the result carries)
    (b"", "not valid JSON", None),
    (b"{nope", "not valid JSON", None),
    (b"\xff\xfe\x00garbage", "command is not valid JSON: not UTF-8 text", None),
    (b'{"type":"strike","seat":NaN,"id":"n1"}', "NaN is not a JSON value", None),
    (b'{"type":"strike","seat":1,"id":Infinity}', "Infinity is not a JSON value", None),
    (b"[" * 100_000 + b"]" * 100_000, "byte limit", None),
    (b"[" * 30_000 + b"]" * 30_000, "nested too deeply", None),
    (json.dumps({"type": "strike", "seat": 1, "id": "big", "pad": "x" * 1_000_000}).encode(), "byte limit", None),
    (json.dumps({"type": "strike", "seat": 1, "id": "mid", "pad": "x" * 30_000}).encode(), "the limit is 16384",
     "mid"),
    (json.dumps({"type": "strike", "seat": 1, "id": "deep", "x": [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]}).encode(),
     "more than 16 deep", "deep"),
    (b'"just a string"', "must be a JSON object, got str", None),
    (b'{"type":"strike","seat":1}', "client-chosen 'id'", None),
    (b"null", "JSON object", None),
    (b'{"type":"strike","seat":1,"id":["x"]}', "'id' must be a string or number", ["x"]),  # echoed as sent
    (json.dumps({"type": "strike", "seat": 1, "id": "y" * 500}).encode(), "at most 128 characters", "y" * 500),
]


def _answer(rig, payload: bytes, cid=None) -> dict:
    """Publish raw bytes on cmd and wait for the daemon's answer (id ``cid``; None if it has none)."""
    mark = len(rig.phone.messages)
    rig.phone.publish(f"{T}/cmd", payload)
    return rig.phone.wait_for(f"{T}/cmd/result", lambda m: m.json().get("id") == cid, timeout=20, start=mark).json()


def _published_since(rig, mark: int) -> set[str]:
    return {m.topic for m in rig.phone.messages[mark:]}


def _unchanged(rig, rows_before, mark) -> None:
    assert rig.daemon.journal_rows() == rows_before
    assert not _published_since(rig, mark) & {f"{T}/state", f"{T}/events", f"{T}/leds"}


def test_raw_garbage_on_cmd_is_answered_with_a_specific_error(rig):
    rig.play(4)
    for payload, fragment, cid in RAW_PAYLOADS:
        rows, mark = rig.daemon.journal_rows(), len(rig.phone.messages)
        result = _answer(rig, payload, cid)
        assert result["ok"] is False and fragment in result["error"], (payload[:60], result)
        assert "\n" not in result["error"] and len(result["error"]) <= 300
        _unchanged(rig, rows, mark)
        rig.play(1)  # still alive, still playing
    assert rig.daemon.alive()


def test_hypothesis_hostile_commands_over_mqtt(rig):
    rig.play(6)
    counter = iter(range(10**9))

    @settings(max_examples=80, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(cmd=hostile_commands(), with_id=st.booleans())
    def check(cmd, with_id):
        if isinstance(cmd, dict) and with_id:
            cmd = {**cmd, "id": f"h{next(counter)}"}
        rows, mark = rig.daemon.journal_rows(), len(rig.phone.messages)
        payload = json.dumps(cmd).encode()
        # a payload over the daemon's parse limit is refused unread, so its answer carries no id
        cid = cmd["id"] if isinstance(cmd, dict) and with_id and len(payload) <= MAX_PAYLOAD_BYTES else None
        result = _answer(rig, payload, cid)
        if result["ok"]:  # junk that happens to be legal: applied once, journalled, the bot follows
            assert rig.daemon.journal_rows()[:-1] == rows
            rig.bot.accepted(cmd)
            return
        error = result["error"]
        assert isinstance(error, str) and error and "\n" not in error and len(error) <= 300, result
        assert not error.startswith("internal error"), result
        _unchanged(rig, rows, mark)

    check()
    assert rig.daemon.alive()
    rig.play(3)
    assert retained(rig.broker, f"{T}/state") == rig.expected() == rig.journal_state()
