"""Seat squatting: Strangers on the LAN took seats 3-6 with one request each and took a
freed seat back within milliseconds. A seat now needs something only a person at the table has: the
join code of the QR code shown on the table's screen (it rotates), or the host's approval; watching
stays open to anyone. Real served panel, daemon and Mosquitto; the panel's FakeClock rotates codes.
"""

from __future__ import annotations

import json

import pytest

from tests.security.conftest import host_of, join_code, seated, start_game
from tests.security.lan import Phone, lan

pytestmark = pytest.mark.mqtt

NEEDS_QR = "taking a seat needs the QR code shown on the table's screen"


def _claim(phone: Phone, seat: int, tag: str, code: str | None = None) -> tuple[int, dict]:
    body = {"id": f"squat-{tag}-{seat}", "seat": seat, **({"code": code} if code is not None else {})}
    return phone.post("/api/seat/claim", body)


def test_strangers_cannot_take_seats_3_to_6_with_one_request_each(stack):
    host = host_of(stack)
    start_game(stack, host)
    for seat in (3, 4, 5, 6):
        stranger = Phone(stack.panel.port, lan(seat, net=50))
        status, body = _claim(stranger, seat, "one-request")
        assert status == 403 and body["error"].startswith(NEEDS_QR)
        guessed = _claim(stranger, seat, "guessed-code", "A" * 16)
        assert guessed[0] == 403 and "wrong or has expired" in guessed[1]["error"]
    assert json.loads(Phone(stack.panel.port, lan(9, net=50)).get("/api/info")[1])["taken"] == []
    # Watching stays open: the stranger's stream and the public state.
    watcher = Phone(stack.panel.port, lan(10, net=50))
    stream = watcher.stream()
    assert stream.status == 200 and stream.wait_for("me") == {"seat": None, "host": False, "taken": []}
    assert stream.wait_for("state")["game"] == "coinwar"
    stream.close()


def test_a_freed_seat_is_not_taken_back_by_a_stranger(stack):
    host = host_of(stack)
    start_game(stack, host)
    seated(stack, 1, lan(1, net=51))
    squatter = Phone(stack.panel.port, lan(2, net=51))
    assert host.post("/api/host/release", {"id": "free-seat-1", "seat": 1}) == (200, {"ok": True})
    assert _claim(squatter, 1, "grab-freed")[0] == 403  # at once, as the red team did
    player = Phone(stack.panel.port, lan(3, net=51))  # a person at the table scans the QR code
    assert _claim(player, 1, "at-table", join_code(stack)) == (200, {"ok": True, "seat": 1})


def test_strangers_never_see_the_join_code(stack):
    stranger = Phone(stack.panel.port, lan(1, net=52))
    info = json.loads(stranger.get("/api/info")[1])
    assert info["join_url"].endswith("/join") and "code" not in info["join_url"]
    screen = Phone(stack.panel.port, "127.0.0.1")
    assert stranger.get("/qr.svg")[1] != screen.get("/qr.svg")[1]  # the table's QR code carries the code
    host = host_of(stack)
    assert json.loads(host.get("/api/info")[1])["join_url"].endswith("?code=" + join_code(stack))


def test_the_join_code_rotates_and_an_old_one_expires(stack):
    phone = Phone(stack.panel.port, lan(1, net=53))
    old = join_code(stack)
    stack.panel_clock.advance(600)  # one period on: the code just scanned still works, a new one is shown
    assert join_code(stack) != old
    stack.panel_clock.advance(600)  # two periods on: the old code is refused
    status, body = _claim(phone, 2, "expired", old)
    assert status == 403 and "scan the QR code on the table's screen again" in body["error"]
    assert _claim(phone, 2, "fresh", join_code(stack)) == (200, {"ok": True, "seat": 2})


def test_the_hosts_approval_or_the_consoles_code_seats_a_phone(stack):
    host = host_of(stack)
    guest = Phone(stack.panel.port, lan(1, net=54))
    assert host.post("/api/host/share", {"id": "approve-seat-4", "seat": 4}) == (200, {"ok": True, "seat": 4})
    assert _claim(guest, 4, "approved") == (200, {"ok": True, "seat": 4})
    other = Phone(stack.panel.port, lan(2, net=54))
    stack.panel_clock.advance(24 * 3600)  # the console's code (`gametable sim`'s banner) lasts the run
    assert _claim(other, 5, "console", stack.panel.console_join_code) == (200, {"ok": True, "seat": 5})
