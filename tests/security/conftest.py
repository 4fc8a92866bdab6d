"""A whole table for the hostile-LAN tests: real Mosquitto, the real daemon, the served panel."""

from __future__ import annotations

import json

import pytest

from gametable.testing.panel import NEW_GAME, PIN
from gametable.testing.recorder import Recorder
from gametable.testing.table import start_table
from gametable_core.clock import FakeClock
from tests.security.lan import Phone, lan
from tests.security.mqtt_rig import start_secured_table
from web_panel.server import Limits

# Short head deadline so the slowloris tests finish quickly; everything else as shipped.
TEST_LIMITS = Limits(head_timeout_s=1.0)


@pytest.fixture
def stack(broker, tmp_path):
    """The daemon and the served panel, the panel on a FakeClock (``panel_clock``) and TEST_LIMITS
    (the rig's ``start_table``: this folder's ``table`` is the secured one below)."""
    s = start_table(broker, tmp_path / "journal.sqlite", phone=False, panel=True,
                    panel_kwargs={"clock": FakeClock(), "limits": TEST_LIMITS})
    yield s
    s.stop()


@pytest.fixture
def table(tmp_path):
    """A table on a Mosquitto set up exactly as shipped (tests/security/mqtt_rig.py)."""
    t = start_secured_table(tmp_path / "j.sqlite")
    yield t
    t.daemon.stop()
    t.broker.close()


def commands(wire: Recorder, start: int = 0) -> list[dict]:
    return [m.json() for m in wire.messages[start:] if m.topic.endswith("/cmd")]


def host_of(stack, address: str | None = None) -> Phone:
    host = Phone(stack.panel.port, address or lan(1, net=9))
    assert host.post("/api/host/unlock", {"id": "unlock-host-1", "pin": PIN})[0] == 200
    return host


def start_game(stack, host: Phone) -> None:
    status, body = host.post("/api/host/cmd", {**{k: v for k, v in NEW_GAME.items() if k != "type"},
                                               "type": "new_game", "id": "start-game-1"})
    assert (status, body) == (200, {"ok": True})
    stack.wait(lambda: stack.panel.link.private_view(3), what="private views")


def join_code(stack) -> str:
    """The join code, read as a person at the table reads it: from the table's own screen's QR link."""
    url = json.loads(Phone(stack.panel.port, "127.0.0.1").get("/api/info")[1])["join_url"]
    return url.split("?code=", 1)[1]


def seated(stack, seat: int, address: str | None = None) -> Phone:
    """A phone at the table: it scanned the table's QR code, then took ``seat``."""
    phone = Phone(stack.panel.port, address or lan(seat, net=8))
    claim = {"id": f"claim-seat-{seat}", "seat": seat, "code": join_code(stack)}
    assert phone.post("/api/seat/claim", claim) == (200, {"ok": True, "seat": seat})
    return phone


def unlock_with_pin(phone: Phone, n: int, pin: str) -> tuple[int, dict]:
    return phone.post("/api/host/unlock", {"id": f"rotating-guess-{n:06d}", "pin": pin})


def rotating_pin_attack(stack, addresses: int, max_requests: int = 3000) -> tuple[int, list[int]]:
    """Round-robin wrong PINs from ``addresses`` phones, waiting out every pause (fake clock).
    Returns (PINs actually compared, i.e. answered 403 'wrong PIN'; every status seen)."""
    phones = [Phone(stack.panel.port, lan(i, net=40)) for i in range(addresses)]
    compared, seen = 0, []
    for n in range(max_requests):
        status, body = unlock_with_pin(phones[n % addresses], n, f"{n % 1_000_000:06d}")
        seen.append(status)
        if status == 403:
            compared += 1
        elif status == 429:
            stack.panel_clock.advance(float(body["error"].rsplit("in ", 1)[1].split(" ")[0]) + 0.5)
        elif status == 423:
            break
        else:
            raise AssertionError((status, body))
    return compared, seen
