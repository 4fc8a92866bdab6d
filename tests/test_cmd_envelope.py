"""The command envelope over MQTT (docs/architecture.md "Commands and inputs"): specific errors on
``cmd/result`` for malformed commands, nothing applied, QoS 1 both ways."""

from __future__ import annotations

import pytest

from controller.daemon import MAX_COMMAND_BYTES
from gametable.testing.panel import NEW_GAME
from gametable.testing.recorder import Recorder

pytestmark = pytest.mark.mqtt


@pytest.fixture
def t1(table):
    t = table()
    return t.daemon, t.phone


def raw(r: Recorder, payload: bytes) -> dict:
    start = len(r.messages)
    r.publish("gametable/t1/cmd", payload)
    return r.wait_for("gametable/t1/cmd/result", start=start).json()


@pytest.mark.parametrize(("payload", "error"), [
    (b"[1, 2]", "a command must be a JSON object, got list"),
    (b'{"type": "undo"}', "a command needs a client-chosen 'id' (a repeated id is answered again, never applied twice)"),
    (b"\xff\xfe", "command is not valid JSON"),
])
def test_malformed_envelopes_get_specific_errors(t1, payload, error):
    daemon, r = t1
    r.command("t1", {**NEW_GAME, "id": "g1"})
    before = daemon.public_state()
    res = raw(r, payload)
    assert res["ok"] is False and res["error"].startswith(error)
    assert daemon.public_state() == before


def test_schema_errors_name_the_field(t1):
    daemon, r = t1
    r.command("t1", {**NEW_GAME, "id": "g1"})
    cases = [
        ({"id": "a1", "type": 5}, "a command needs a 'type' (e.g. \"shot\", \"new_game\")"),
        ({"id": "a2", "type": "x" * 100}, "'type' must be a command name, got 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'..."),
        ({"id": True, "type": "undo"}, "'id' must be a string or number of at most 128 characters, got True"),
        ({"id": "a3", "type": "shot", "seat": "1", "coin": "c1"}, "'seat' must be a seat number, got '1'"),
        ({"id": "a4", "type": "shot", "seat": 1, "coin": "c1", "dead": "c2", "flown": [], "contacts": []},
         "'dead' must be a list of coin ids or null, got 'c2'"),
        ({"id": "a5", "type": "end_turn", "seat": 2}, "it is seat 1's turn, not seat 2's (CW-3)"),
    ]
    for cmd, error in cases:
        res = r.command("t1", cmd)
        res.pop("error_msg", None)  # the same refusal as a message, for phones in Chinese (docs/i18n.md)
        assert res == {"id": cmd["id"], "ok": False, "error": error}
    long_id = {"id": "y" * 200, "type": "undo"}
    res = r.command("t1", long_id)
    assert res["error"] == "'id' must be a string or number of at most 128 characters, got 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy..."
    assert daemon.public_state()["turn"] == {"seat": 1, "strikes": 0, "extra": False}


def test_an_oversized_command_is_refused_unread(t1):
    daemon, r = t1
    res = raw(r, b'{"id": "big", "type": "undo", "pad": "' + b"x" * MAX_COMMAND_BYTES + b'"}')
    assert res["ok"] is False and res["error"].endswith(f"over the {MAX_COMMAND_BYTES} byte limit")
    assert daemon.public_state() is None
