"""A flood of strangers' requests never queues in front of a seated phone: strangers spend one
budget for the whole table (web_panel/budget.py) and wait their turn parked in the event loop;
seated phones, the host and the table's own screen never wait for it. Real served panel, daemon
and Mosquitto; a tiny budget makes the queue visible without timing anything."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gametable.testing.table import start_table
from gametable_core.clock import FakeClock
from tests.security.conftest import host_of, seated, start_game
from tests.security.lan import Phone, lan
from web_panel.budget import RequestBudget
from web_panel.server import Limits

pytestmark = pytest.mark.mqtt


@pytest.fixture
def slow_budget_stack(broker, tmp_path):
    s = start_table(broker, tmp_path / "journal.sqlite", phone=False, panel=True, panel_kwargs={
        "clock": FakeClock(), "limits": Limits(head_timeout_s=1.0, public_rate=4.0, public_burst=1.0)})
    yield s
    s.stop()


def test_a_seated_phone_is_served_while_a_strangers_flood_waits_its_turn(slow_budget_stack):
    stack = slow_budget_stack
    host = host_of(stack)
    start_game(stack, host)
    ann = seated(stack, 1)
    strangers = [Phone(stack.panel.port, lan(i, net=60)) for i in range(4)]
    done: list[int] = []
    lock = threading.Lock()

    def flood(phone: Phone) -> None:
        for _ in range(8):
            status, _ = phone.get("/api/info")
            with lock:
                done.append(status)

    threads = [threading.Thread(target=flood, args=(p,)) for p in strangers]
    for t in threads:
        t.start()
    try:
        for i in range(5):  # each answered at once, while strangers' requests wait (4 a second)
            status, _ = ann.post("/api/cmd", {"id": f"seated-first-{i}", "type": "end_turn", "confirm": True})
            assert status in (200, 409)  # (409: it is no longer seat 1's turn; answered all the same)
            with lock:
                assert len(done) < 32
    finally:
        for t in threads:
            t.join(30)
    assert done == [200] * 32  # the flood was delayed, never refused: every stranger got its answer


@given(st.lists(st.floats(0, 5), max_size=200), st.floats(0.5, 50), st.floats(1, 20))
def test_a_budget_never_serves_more_than_its_burst_plus_its_rate(gaps, rate, burst):
    now = 0.0
    budget = RequestBudget(rate, burst, now)
    served = 0
    for gap in gaps:
        now += gap
        if budget.take(now):
            served += 1
        else:
            assert budget.wait_s(now) > 0
    assert served <= burst + rate * now + 1e-6
