"""The phone panel in a real Chromium (Playwright), against the real daemon and Mosquitto.

A host creates a Coin War game, three phones join seats, the sensors' shot (published on MQTT)
updates every phone, the right phone answers the CW-8 question while another phone is refused,
the host undoes, and a reload keeps the seat. Screenshots go to test-artifacts/ (360x740).
"""

from __future__ import annotations

import json

import pytest

from gametable.testing.panel import NEW_GAME, PIN
from gametable.testing.recorder import Recorder
from tests.helpers.browser import PHONE, drawn_box, shot, start_from_lobby

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]

def test_host_game_three_phones_question_undo_and_reload(stack, browser, broker):
    base = stack.url
    host_ctx = browser.new_context(**PHONE)
    host = host_ctx.new_page()
    host.set_default_timeout(10_000)
    host.goto(base + "/host")
    host.locator("#qr").wait_for()
    shot("host-locked.png", host)
    host.fill("#pin", "1111")
    host.click("#unlock")
    host.locator("#toast").filter(has_text="wrong PIN").wait_for()
    host.fill("#pin", PIN)
    host.click("#unlock")
    host.locator("#lobby").wait_for()
    for seat, name in ((1, "Ann"), (2, "Bo"), (3, "Cy")):
        host.fill(f"#name-{seat}", name)
    host.click("[data-action=lobby-set][data-key=orderMode][data-value=manual]")
    shot("host-lobby.png", host, full=True)
    start_from_lobby(host)
    host.locator("#turn-banner").filter(has_text="Ann's turn").wait_for()
    assert stack.daemon.public_state()["order"] == [1, 2, 3]

    phones = []
    for seat in (1, 2, 3):
        ctx = browser.new_context(**PHONE)
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(base + "/join")
        page.click(f"#seat-{seat}")
        page.locator("#my-coin").wait_for()
        phones.append(page)
    ann, bo, cy = phones
    ann.locator("#turn-banner").filter(has_text="YOUR TURN").wait_for()
    about = ann.inner_text("#my-coin-about")  # the coin by its look, as players name it, not "c1"
    assert "c1" not in about and "red" in about, about
    assert "2 strikes left" in ann.inner_text("#strikes-left")
    bo.locator("#turn-banner").filter(has_text="Ann's turn").wait_for()
    shot("phone-ann-your-turn.png", ann)
    # A fourth phone sees the held seats as taken and cannot claim them.
    late = browser.new_context(**PHONE).new_page()
    late.set_default_timeout(10_000)
    late.goto(base + "/join")
    late.locator("#seat-1").filter(has_text="Taken").wait_for()
    assert late.locator("#seat-1").is_disabled() and late.locator("#seat-3").is_disabled()
    shot("phone-join.png", late)

    # The sensors report a shot whose dead coins are unknown: CW-8 asks Ann (seat 1).
    sensors = Recorder(broker.host, broker.port, "gametable/t1/cmd/result")
    try:
        res = sensors.command("t1", {"type": "shot", "seat": 1, "coin": "c1", "dead": None, "flown": [],
                                     "contacts": [["c1", "c2"]], "id": "sensor-1"})
    finally:
        sensors.close()
    assert res["ok"] is True
    for page in phones:
        page.locator("#turn-banner").filter(has_text="1 strike left").wait_for()
    ann.locator("#question").wait_for()
    bo.get_by_text("Waiting for an answer").wait_for()
    assert bo.locator("#question").count() == 0
    shot("phone-ann-question.png", ann)

    # Bo's phone tries to answer Ann's question anyway: refused by the panel, nothing applied.
    refused = bo.evaluate("""async () => {
        const csrf = document.cookie.split('; ').find(c => c.startsWith('gt_csrf=')).slice(8);
        const r = await fetch('/api/cmd', {method: 'POST', headers: {'Content-Type': 'application/json',
            'X-CSRF-Token': csrf}, body: JSON.stringify({id: 'bo-tries-q1', type: 'answer', question: 'q1',
            value: ['c2']})});
        return [r.status, await r.json()];
    }""")
    assert refused[0] == 403
    assert refused[1]["error"] == "question q1 is for seat(s) 1, not seat 2"
    assert stack.daemon.public_state()["questions"][0]["id"] == "q1"

    # Ann taps Bo's coin and sends: Bo's coin died in the goal (CW-4.1/4.2).
    ann.click("#question [data-coin=c2]")
    ann.click("#send-answer")
    bo.get_by_text("You are out").wait_for()
    shot("phone-bo-out.png", bo)
    table = host_ctx.new_page()
    table.goto(base + "/table")
    table.locator("#log").filter(has_text="Ann knocked Bo's coin into the goal").wait_for()
    shot("table-log.png", table)

    # Undo is a host power: the answer is taken back and the question is open again.
    host.click("#undo")
    ann.locator("#question").wait_for()
    bo.locator("#my-coin").filter(has_text="You are out").wait_for(state="detached")
    assert all(p["alive"] for p in stack.daemon.public_state()["players"])
    # A phone cannot undo.
    no_undo = bo.evaluate("""async () => {
        const csrf = document.cookie.split('; ').find(c => c.startsWith('gt_csrf=')).slice(8);
        const r = await fetch('/api/host/cmd', {method: 'POST', headers: {'Content-Type': 'application/json',
            'X-CSRF-Token': csrf}, body: JSON.stringify({id: 'bo-tries-undo', type: 'undo'})});
        return [r.status, await r.json()];
    }""")
    assert no_undo[0] == 403 and "host PIN" in no_undo[1]["error"]

    # A reload keeps the seat (HttpOnly cookie) and resyncs the whole screen from the stream.
    bo.reload()
    bo.locator("#my-coin").filter(has_text="Seat 2").wait_for()
    bo.locator("#turn-banner").filter(has_text="Ann's turn").wait_for()
    assert bo.url.endswith("/seat")
    shot("phone-bo-after-reload.png", bo)
    shot("host-playing.png", host)


def test_virtual_table_drawing_and_slingshot_flick(stack, browser, broker):
    """The active player drags back from their coin; the panel publishes sim/flick (QoS 1)."""
    watcher = Recorder(broker.host, broker.port, "gametable/t1/#")
    try:
        assert watcher.command("t1", {**NEW_GAME, "id": "g1"})["ok"]
        watcher.publish("gametable/t1/sensors/table",
                        {"coins": {"c1": [100, 500], "c2": [300, 150], "c3": [250, 420]}, "moving": False})
        pages = {}
        for seat in (1, 2):
            page = browser.new_context(**PHONE).new_page()
            page.set_default_timeout(10_000)
            page.goto(stack.url + "/join")
            page.click(f"#seat-{seat}")
            page.locator("#my-coin").wait_for()
            page.goto(stack.url + "/table")
            page.locator("#board").wait_for()
            pages[seat] = page
        ann = pages[1]
        ann.get_by_text("drag back from your coin").wait_for()
        ann.locator("#board").scroll_into_view_if_needed()
        box = drawn_box(ann.locator("#board"))
        k = box["width"] / 425

        def at(x_mm: float, y_mm: float) -> tuple[float, float]:
            return box["x"] + x_mm * k, box["y"] + y_mm * k

        ann.mouse.move(*at(100, 500))
        ann.mouse.down()
        ann.mouse.move(*at(100, 560), steps=5)
        assert drawn_box(ann.locator("#board"))["y"] < 740
        shot("table-slingshot.png", ann)
        start = len(watcher.messages)
        ann.mouse.up()
        flick = watcher.wait_for("gametable/t1/sim/flick", start=start).json()
        assert flick["seat"] == 1 and flick["coin"] == "c1"
        assert abs(flick["vx"]) < 1 and flick["vy"] == pytest.approx(-480, abs=40)  # 60 mm back -> 0.48 m/s up
        # the phone shows the table's real outcome, not "sent" (here the table, this
        # test's stand-in, refuses it as a virtual table does when the coin left the surface).
        watcher.publish("gametable/t1/sim/flick/result",
                        {"ok": False, "error": "flick: coin 'c1' is not on the table", "id": flick["id"]}, qos=0)
        ann.locator("#toast").filter(has_text="flick: coin 'c1' is not on the table").wait_for()
        shot("flick-refused.png", ann)
        # Bo is not the active player: dragging Bo's coin publishes nothing.
        bo = pages[2]
        bo.locator("#board").scroll_into_view_if_needed()
        box = drawn_box(bo.locator("#board"))
        k = box["width"] / 425
        start = len(watcher.messages)
        bo.mouse.move(box["x"] + 300 * k, box["y"] + 150 * k)
        bo.mouse.down()
        bo.mouse.move(box["x"] + 300 * k, box["y"] + 250 * k, steps=5)
        bo.mouse.up()
        watcher.publish("gametable/t1/sensors/table",
                        {"coins": {"c1": [100, 300], "c2": [300, 150], "c3": [250, 420]}, "moving": True})
        watcher.wait_for("gametable/t1/sensors/table", lambda m: m.json()["moving"], start=start)
        assert not [m for m in watcher.messages[start:] if m.topic.endswith("/sim/flick")]
        shot("table-board.png", bo)
        # CW-5.4: ending a turn without a strike asks for confirmation first.
        ann.goto(stack.url + "/seat")
        ann.click("#end-turn")
        ann.locator("#confirm-text").filter(has_text="End your turn without striking?").wait_for()
        ann.click("#confirm-no")
        assert stack.daemon.public_state()["turn"]["seat"] == 1
        ann.click("#end-turn")
        ann.click("#confirm-yes")
        ann.locator("#turn-banner").filter(has_text="Bo's turn").wait_for()
        bo.locator("#turn-banner").filter(has_text="YOUR TURN").wait_for()
        shot("table-bo-turn.png", bo)
        # Streams cut (Wi-Fi drop, panel restart): EventSource reconnects by itself and the snapshot
        # brings what happened meanwhile.
        stack.panel.link.hub.close_all()
        assert stack.daemon.submit({"type": "end_turn", "seat": 2, "id": "while-away"})["ok"]
        for page in (ann, bo):
            page.locator("#turn-banner").filter(has_text="Cy's turn").wait_for()
        assert len(stack.panel.link.hub) >= 2
    finally:
        watcher.close()


def test_lobby_teams_mode_with_random_teams_and_order(stack, browser):
    host = browser.new_context(**PHONE).new_page()
    host.set_default_timeout(10_000)
    host.goto(stack.url + "/host")
    host.fill("#pin", PIN)
    host.click("#unlock")
    host.locator("#lobby").wait_for()
    host.click("[data-action=lobby-set][data-key=mode][data-value=teams]")
    assert host.locator("#start").is_disabled()  # Teams is for 4 or 6 players; 3 are ticked
    host.get_by_text("This mode is for 4, 6 players.").wait_for()
    host.check("[data-lobby=include][data-seat='4']")
    host.locator("#start").filter(has_text="4 players").wait_for()
    host.fill("#name-4", "Di")
    start_from_lobby(host)
    host.locator("#turn-banner").wait_for()
    state = stack.daemon.public_state()
    assert state["mode"] == "teams"
    teams = {p["seat"]: p["team"] for p in state["players"]}
    assert sorted(teams.values()) == ["A", "A", "B", "B"]
    assert sorted(state["order"]) == [1, 2, 3, 4]
    assert [p["name"] for p in state["players"]] == ["Seat 1", "Seat 2", "Seat 3", "Di"]
    shot("host-teams-started.png", host)
    # Abort is a host power, behind a confirmation.
    host.click("#abort")
    host.click("#confirm-yes")
    host.locator("#turn-banner").filter(has_text="Game aborted").wait_for()
    assert stack.daemon.public_state()["phase"] == "aborted"


COUP_PUBLIC = {
    "game": "coup", "mode": "classic", "phase": "playing", "turn": {"seat": 2}, "order": [1, 2],
    "players": [{"seat": 1, "name": "Ann", "alive": True, "coins": 2, "influence": 2, "revealed": []},
                {"seat": 2, "name": "Bo", "alive": True, "coins": 3, "influence": 2, "revealed": []}],
    "window": None, "questions": [], "winner": None, "last": [], "deck_size": 11, "treasury": 45,
}


def test_card_game_buttons_come_from_the_seats_legal_moves(broker, browser, tmp_path):
    """Coup (docs/rules/coup.md) through the MQTT contract only: hand, legal moves -> `move` commands."""
    from gametable.testing.panel import panel_config
    from web_panel.server import PanelServer

    panel = PanelServer(panel_config(broker, str(tmp_path / "j.sqlite")), port=0).start()
    table = Recorder(broker.host, broker.port, "gametable/t1/#")
    try:
        assert panel.link.connected.wait(10)
        private = dict(COUP_PUBLIC, seat=2, hand=["duke", "captain"],
                       legal=[{"move": "income"}, {"move": "steal", "targets": [1]}])
        table.publish("gametable/t1/state", COUP_PUBLIC)
        table.publish("gametable/t1/seat/2/private", private)
        # Play the daemon's part of the contract: answer every command on cmd/result.
        table.client.on_message = _answering(table)
        bo = browser.new_context(**PHONE).new_page()
        bo.set_default_timeout(10_000)
        bo.goto(panel.url + "/join")
        bo.click("#seat-2")
        bo.locator("#private").filter(has_text="captain").wait_for()
        start = len(table.messages)
        bo.get_by_role("button", name="Steal from Ann").click()
        cmd = table.wait_for("gametable/t1/cmd", start=start).json()
        assert {k: cmd[k] for k in ("type", "seat", "move", "args")} == \
            {"type": "move", "seat": 2, "move": "steal", "args": {"target": 1}}
        shot("phone-coup-moves.png", bo)
        # Exchange (CP-2): pick exactly `count` cards to return.
        table.publish("gametable/t1/seat/2/private", dict(private, drawn=["duke", "contessa"], legal=[
            {"move": "exchange_return", "count": 2, "cards": ["duke", "captain", "duke", "contessa"]}]))
        send = bo.get_by_role("button", name="Exchange return (0/2)")
        assert send.is_disabled()
        chips = bo.locator("[data-action=pick-card]")
        chips.nth(2).click()
        chips.nth(3).click()
        start = len(table.messages)
        bo.get_by_role("button", name="Exchange return (2/2)").click()
        cmd = table.wait_for("gametable/t1/cmd", start=start).json()
        assert cmd["move"] == "exchange_return" and cmd["args"] == {"cards": ["duke", "contessa"]}
        shot("phone-coup-exchange.png", bo)
    finally:
        table.close()
        panel.stop()


def _answering(rec: Recorder):
    record = rec.client.on_message

    def on_message(client, userdata, msg):
        record(client, userdata, msg)
        if msg.topic == "gametable/t1/cmd":
            cid = json.loads(msg.payload)["id"]
            client.publish("gametable/t1/cmd/result", json.dumps({"id": cid, "ok": True}), qos=1)

    return on_message
