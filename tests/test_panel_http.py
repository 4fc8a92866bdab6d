"""The panel's HTTP gate against the real served panel, daemon and Mosquitto.

Wrong tokens, other seats, replayed requests, oversized bodies, cross-site requests and wrong
PINs each get a specific one-line error, and nothing is published on ``cmd`` or ``sim/flick``.
"""

from __future__ import annotations

import http.client
import json
import socket

import pytest

from gametable.testing.panel import NEW_GAME, PIN, Http, start_sim
from gametable.testing.recorder import Recorder
from gametable.testing.table import start_stack
from gametable_core.clock import FakeClock
from web_panel.app import lan_address

pytestmark = pytest.mark.mqtt


@pytest.fixture
def stack(table):
    """The daemon and the served panel, the panel on a FakeClock (``panel_clock``)."""
    return table(phone=False, panel=True, panel_kwargs={"clock": FakeClock()})


def published(wire: Recorder, start: int) -> list[str]:
    return [m.topic for m in wire.messages[start:] if m.topic.endswith("/cmd") or m.topic.endswith("/sim/flick")]


def host_phone(stack) -> Http:
    h = Http(stack.panel.port)
    assert h.post("/api/host/unlock", {"id": "unlock-host-1", "pin": PIN})[0] == 200
    return h


def started(stack) -> Http:
    host = host_phone(stack)
    status, body = host.post("/api/host/cmd", {**{k: v for k, v in NEW_GAME.items() if k != "type"},
                                                "type": "new_game", "id": "start-game-1"})
    assert (status, body) == (200, {"ok": True}), f"new_game answered {status}: {body}"
    stack.wait(lambda: stack.panel.link.private_view(3), what="private views")
    return host


def seat_phone(stack, seat: int) -> Http:
    phone = Http(stack.panel.port)
    status, body = phone.post("/api/seat/claim", {"id": f"claim-seat-{seat}", "seat": seat})
    assert (status, body) == (200, {"ok": True, "seat": seat})
    return phone


def test_seat_cookie_is_httponly_strict_and_unguessable(stack):
    phone = Http(stack.panel.port)
    conn = http.client.HTTPConnection("127.0.0.1", stack.panel.port)
    conn.request("POST", "/api/seat/claim", json.dumps({"id": "claim-raw-1", "seat": 4}),
                 {"Content-Type": "application/json", "X-CSRF-Token": phone.cookies["gt_csrf"],
                  "Cookie": f"gt_csrf={phone.cookies['gt_csrf']}"})
    resp = conn.getresponse()
    resp.read()
    header = resp.getheader("Set-Cookie")
    assert "HttpOnly" in header and "SameSite=Strict" in header
    token = header.split(";")[0].split("=", 1)[1]
    assert len(token) >= 40


def test_a_taken_seat_cannot_be_claimed_and_the_host_can_free_it(stack):
    seat_phone(stack, 2)
    other = Http(stack.panel.port)
    assert other.post("/api/seat/claim", {"id": "claim-again-2", "seat": 2}) == \
        (409, {"ok": False, "error": "seat 2 is taken by another phone (the host can free it)"})
    assert other.post("/api/seat/claim", {"id": "claim-seat-9", "seat": 9})[1]["error"] == \
        "'seat' must be a seat number from 1 to 6, got 9"
    host = host_phone(stack)
    assert host.post("/api/host/release", {"id": "release-seat-2", "seat": 2}) == (200, {"ok": True})
    assert other.post("/api/seat/claim", {"id": "claim-again-3", "seat": 2})[0] == 200


def test_phone_commands_for_the_wrong_seat_or_token_are_refused_and_nothing_published(stack, wire):
    started(stack)
    ann, bo = seat_phone(stack, 1), seat_phone(stack, 2)
    wire.publish("gametable/t1/sensors/table", {"coins": {"c1": [100, 500], "c2": [300, 100]}, "moving": False})
    stack.wait(lambda: stack.panel.link.table, what="the virtual table's positions")
    start = len(wire.messages)
    # Bo acting for Ann's seat.
    assert bo.post("/api/cmd", {"id": "bo-for-ann-1", "type": "end_turn", "seat": 1, "confirm": True}) == \
        (403, {"ok": False, "error": "this phone holds seat 2; it cannot act for seat 1"})
    # Bo ending Ann's turn.
    assert bo.post("/api/cmd", {"id": "bo-end-ann-1", "type": "end_turn", "confirm": True}) == \
        (409, {"ok": False, "error": "it is seat 1's turn, not seat 2's"})
    # A forged seat token.
    forged = Http(stack.panel.port)
    forged.cookies["gt_seat"] = "not-a-real-token-" + "x" * 30
    assert forged.post("/api/cmd", {"id": "forged-tok-1", "type": "end_turn", "confirm": True}) == \
        (403, {"ok": False, "error": "this phone holds no seat; join a seat first"})
    # A phone is never the host.
    assert ann.post("/api/host/cmd", {"id": "ann-undo-01", "type": "undo"}) == \
        (403, {"ok": False, "error": "this needs the host PIN (unlock the host screen first)"})
    # Unknown command types and CW-5.4's confirmation.
    assert ann.post("/api/cmd", {"id": "ann-abort-1", "type": "abort"})[1]["error"] == \
        "unknown command type 'abort'; a phone may send: answer, end_turn, move, placed, withdraw"
    assert ann.post("/api/cmd", {"id": "ann-noconf-1", "type": "end_turn"})[1]["error"] == \
        "ending the turn without a strike needs confirmation (send \"confirm\": true)"
    # Flicking out of turn / someone else's coin.
    assert bo.post("/api/flick", {"id": "bo-flick-01", "coin": "c2", "vx": 0, "vy": -500}) == \
        (409, {"ok": False, "error": "it is seat 1's turn, not seat 2's"})
    assert ann.post("/api/flick", {"id": "ann-flick-c2", "coin": "c2", "vx": 0, "vy": -500}) == \
        (403, {"ok": False, "error": "coin 'c2' is not yours to flick (you may flick: c1)"})
    assert ann.post("/api/flick", {"id": "ann-flick-fast", "coin": "c1", "vx": 0, "vy": -9000})[1]["error"] == \
        "a flick of 9000 mm/s is faster than the 4000 mm/s limit"
    assert published(wire, start) == []
    # The right phone, the right move: published once and applied.
    assert ann.post("/api/cmd", {"id": "ann-end-ok-1", "type": "end_turn", "confirm": True}) == (200, {"ok": True})
    assert published(wire, start) == ["gametable/t1/cmd"]
    assert stack.daemon.public_state()["turn"]["seat"] == 2


def test_a_replayed_request_is_refused_and_not_published_again(stack, wire):
    started(stack)
    ann = seat_phone(stack, 1)
    start = len(wire.messages)
    assert ann.post("/api/flick", {"id": "flick-no-sim", "coin": "c1", "vx": 0, "vy": -500}) == \
        (409, {"ok": False, "error": "this table has no virtual table to flick on (flick the real coin)"})
    sim = start_sim(stack)  # the real virtual table answers the flick once its coins are at rest
    try:
        stack.wait(lambda: stack.panel.link.table, what="the virtual table's positions")
        body = {"id": "ann-flick-0001", "coin": "c1", "vx": 10, "vy": -800}
        assert ann.post("/api/flick", body) == (200, {"ok": True, "id": "flick-ann-flick-0001"})
    finally:
        sim.stop()
    assert ann.post("/api/flick", body) == (409, {"ok": False, "error": "request ann-flick-0001 was already sent "
                                                  "once (a replayed request is never applied twice)"})
    flick = wire.wait_for("gametable/t1/sim/flick", start=start).json()
    assert flick == {"seat": 1, "coin": "c1", "vx": 10.0, "vy": -800.0, "id": "flick-ann-flick-0001"}
    assert published(wire, start) == ["gametable/t1/sim/flick"]  # once, and not the refused one


def test_oversized_bodies_and_cross_site_requests_are_refused(stack, wire):
    started(stack)
    ann = seat_phone(stack, 1)
    start = len(wire.messages)
    big = json.dumps({"id": "big-body-0001", "type": "end_turn", "pad": "x" * 20000}).encode()
    status, body = ann.post("/api/cmd", None, raw=big)
    assert status == 413 and body["error"] == f"request body of {len(big)} bytes is over the 8192 byte limit"
    status, body = ann.post("/api/cmd", {"id": "csrf-miss-01", "type": "end_turn"}, headers={"X-CSRF-Token": "nope"})
    assert (status, body["error"]) == (403, "missing or wrong X-CSRF-Token header (reload the page)")
    status, body = ann.post("/api/cmd", {"id": "evil-origin-1", "type": "end_turn"},
                            headers={"Origin": "http://evil.example"})
    assert (status, body["error"]) == (403, "cross-site request from http://evil.example refused")
    status, body = ann.post("/api/cmd", None, raw=b"{not json")
    assert (status, body["error"]) == (400, "the request body is not valid JSON")
    status, body = ann.post("/api/cmd", {"type": "end_turn"})
    assert status == 400 and "'id' must be a fresh request id" in body["error"]
    status, body = ann.post("/api/cmd", None, raw=b"[1,2]")
    assert (status, body["error"]) == (400, "the request body must be a JSON object, got list")
    assert published(wire, start) == []


def test_wrong_pins_are_rate_limited_by_the_clock(stack, wire):
    phone = Http(stack.panel.port)
    for i, left in enumerate((4, 3, 2, 1, 0)):
        status, body = phone.post("/api/host/unlock", {"id": f"pin-try-{i:04d}", "pin": "0000"})
        assert status == 403
        assert body["error"].startswith(f"wrong PIN ({left} tr")
    status, body = phone.post("/api/host/unlock", {"id": "pin-try-right", "pin": PIN})
    assert (status, body["error"]) == (429, "too many wrong PINs; try again in 60 s")
    assert "gt_host" not in phone.cookies
    stack.panel_clock.advance(61)
    assert phone.post("/api/host/unlock", {"id": "pin-try-after", "pin": PIN}) == (200, {"ok": True})
    assert "gt_host" in phone.cookies
    assert published(wire, 0) == []


def test_host_answers_any_question_and_undoes(stack):
    host = started(stack)
    stack.daemon.submit({"type": "shot", "seat": 1, "coin": "c1", "dead": None, "flown": [], "contacts": [],
                         "id": "sensor-shot-1"})
    stack.wait(lambda: (stack.panel.link.public_state() or {}).get("questions"), what="question")
    stack.wait(lambda: any(m.get("type") == "answer" for m in (stack.panel.link.private_view(1) or {}).get("legal") or []),
               what="seat 1 asked (the host answers on its behalf)")
    assert host.post("/api/host/cmd", {"id": "host-ans-bad1", "type": "answer", "question": "q1",
                                       "value": ["c9"]})[1]["error"] == \
        "'c9' is not an option of q1 (options: c1, c2, c3)"
    assert host.post("/api/host/cmd", {"id": "host-ans-ok-1", "type": "answer", "question": "q1",
                                       "value": []}) == (200, {"ok": True})
    assert stack.daemon.public_state()["questions"] == []
    assert host.post("/api/host/cmd", {"id": "host-undo-001", "type": "undo"}) == (200, {"ok": True})
    assert stack.daemon.public_state()["questions"][0]["id"] == "q1"
    # The daemon's own refusal comes back as the request's error.
    assert host.post("/api/host/cmd", {"id": "host-ans-stale", "type": "answer", "question": "q7",
                                       "value": []}) == \
        (409, {"ok": False, "error": "question q7 is not open; the open question is q1"})


def test_freeing_a_seat_ends_the_old_phones_private_stream(stack):
    host = started(stack)
    bo = seat_phone(stack, 2)
    conn = http.client.HTTPConnection("127.0.0.1", stack.panel.port, timeout=10)
    conn.request("GET", "/api/stream", headers={"Cookie": bo.cookie_header()})
    resp = conn.getresponse()
    stack.wait(lambda: len(stack.panel.link.hub) == 1, what="the stream")
    assert host.post("/api/host/release", {"id": "release-bo-01", "seat": 2}) == (200, {"ok": True})
    body = resp.read()  # returns only because the panel closed the stream (bounded by the timeout)
    assert body.count(b"event: private") == 1  # the snapshot's, nothing after the release
    assert len(stack.panel.link.hub) == 0
    status, out = bo.post("/api/cmd", {"id": "bo-after-free", "type": "end_turn", "confirm": True})
    assert (status, out["error"]) == (403, "this phone holds no seat; join a seat first")


def test_the_stream_resyncs_a_new_client_with_the_full_state(stack):
    started(stack)
    ann = seat_phone(stack, 1)
    conn = http.client.HTTPConnection("127.0.0.1", stack.panel.port, timeout=10)
    conn.request("GET", "/api/stream", headers={"Cookie": ann.cookie_header()})
    resp = conn.getresponse()
    assert resp.status == 200 and resp.getheader("Content-Type").startswith("text/event-stream")
    events: dict[str, object] = {}
    while "private" not in events:
        line = resp.fp.readline().decode()
        if line.startswith("event: "):
            name = line[7:].strip()
            data = resp.fp.readline().decode()
            events[name] = json.loads(data[6:])
    conn.close()
    assert events["me"] == {"seat": 1, "host": False, "taken": [1]}
    assert events["state"]["players"][0]["name"] == "Ann"
    assert events["private"]["seat"] == 1 and events["private"]["legal"]
    assert any("New game" in line for entry in events["history"] for line in entry["lines"])


def test_qr_code_is_a_local_svg_of_the_join_url(stack):
    phone = Http(stack.panel.port)
    status, body = phone.get("/qr.svg")
    assert status == 200 and body.lstrip().startswith(b"<svg")
    status, info = phone.get("/api/info")
    # Opened on the Pi itself (127.0.0.1), the QR code carries the Pi's LAN address for the phones,
    # and the join code a seat needs.
    lan = lan_address()
    url, _, code = json.loads(info)["join_url"].partition("?code=")
    assert url == f"http://{lan or '127.0.0.1'}:{stack.panel.port}/join" and len(code) == 16
    status, page = phone.get("/")
    assert b"/static/app.js" in page and b"http" not in page.split(b"<body>")[0].replace(b"http-equiv", b"")


def test_a_phone_that_goes_away_frees_its_stream_at_the_next_keepalive(broker, tmp_path):
    s = start_stack(broker, str(tmp_path / "j2.sqlite"), keepalive_s=0.2)
    try:
        conns = []
        for _ in range(3):
            conn = http.client.HTTPConnection("127.0.0.1", s.panel.port, timeout=10)
            conn.request("GET", "/api/stream")
            sock = conn.sock
            resp = conn.getresponse()
            assert resp.readline() == b"retry: 1500\n"
            conns.append((sock, resp))
        s.wait(lambda: len(s.panel.link.hub) == 3, what="three streams")
        line = b""
        while not line.startswith(b": keepalive"):  # an idle stream still gets a comment line
            line = conns[0][1].readline()
        for sock, resp in conns[:2]:  # the phone leaves without a word (Wi-Fi off)
            sock.shutdown(socket.SHUT_RDWR)
            sock.close()
            resp.close()
        s.wait(lambda: len(s.panel.link.hub) == 1, what="the closed streams to be dropped")
    finally:
        s.stop()


def test_phones_keep_their_seats_across_a_panel_restart(broker, tmp_path):
    """A power cut resumes the game from the journal; the phones' seat cookies still work."""
    journal = str(tmp_path / "j3.sqlite")
    s = start_stack(broker, journal)
    try:
        started(s)
        ann = seat_phone(s, 1)
    finally:
        s.stop()
    s = start_stack(broker, journal)
    try:
        ann.port = s.panel.port
        status, info = ann.get("/api/info")
        assert json.loads(info)["me"] == {"seat": 1, "host": False}
        assert json.loads(info)["taken"] == [1]
        s.wait(lambda: s.panel.link.private_view(1), what="the resumed private view")
        assert ann.post("/api/cmd", {"id": "after-restart", "type": "end_turn", "confirm": True}) == (200, {"ok": True})
        stored = (tmp_path / "j3.sqlite.panel-seats.json").read_text()
        assert ann.cookies["gt_seat"] not in stored
    finally:
        s.stop()


def test_cp_6_host_pauses_and_resumes_a_window_and_the_daemon_says_when_it_cannot(stack):
    """The panel reads no game key to pause: the daemon's answer (its deadlines) comes back."""
    from gametable.testing.games import coup_game

    host = host_phone(stack)
    body = {k: v for k, v in coup_game(timeout_s=30).items() if k != "id"}
    assert host.post("/api/host/cmd", {**body, "id": "start-coup-1"}) == (200, {"ok": True})
    assert host.post("/api/host/cmd", {"id": "pause-none-1", "type": "pause"}) == \
        (409, {"ok": False, "error": "no reaction window is open to pause"})
    assert stack.daemon.submit({"type": "move", "seat": 1, "move": "tax", "args": {}, "id": "ann-tax-1"})["ok"]
    assert host.post("/api/host/cmd", {"id": "pause-coup-1", "type": "pause"}) == (200, {"ok": True})
    assert host.post("/api/host/cmd", {"id": "pause-coup-2", "type": "pause"}) == \
        (409, {"ok": False, "error": "the window is already paused"})
    assert host.post("/api/host/cmd", {"id": "resume-coup1", "type": "resume"}) == (200, {"ok": True})
    assert host.post("/api/host/cmd", {"id": "resume-coup2", "type": "resume"}) == \
        (409, {"ok": False, "error": "the window is not paused"})
    phone = seat_phone(stack, 2)
    assert phone.post("/api/host/cmd", {"id": "pause-phone1", "type": "pause"})[0] == 403


def test_a_bad_player_list_gets_the_daemons_one_player_check_error(stack):
    """The panel bounds the lobby's shape; what is wrong with the players says the one check of
    every game (controller/games/players.py), for the host as for anyone."""
    host = host_phone(stack)
    base = {"type": "new_game", "game": "coinwar", "mode": "ffa"}
    status, body = host.post("/api/host/cmd", {**base, "id": "twice-seat-1",
                                               "players": [{"seat": 1, "name": "Ann"}, {"seat": 1, "name": "Bo"}]})
    assert (status, body["error"]) == (409, "seat 1 appears twice in players")
    status, body = host.post("/api/host/cmd", {**base, "id": "long-name-01",
                                               "players": [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "x" * 41}]})
    assert status == 409 and body["error"].startswith("seat 2: name must be 1-40 characters")
    status, body = host.post("/api/host/cmd", {**base, "id": "not-a-list-1", "players": "Ann"})
    assert (status, body["error"]) == (400, "'players' must be a list of 1 to 6 {seat, name}")
    assert stack.daemon.public_state() is None  # nothing started


def test_a_start_tapped_as_the_panel_connects_waits_for_the_games_list(broker, tmp_path):
    """Just after the panel (re)connects, the daemon's retained games list is a moment behind: a
    host's new_game waits for it (bounded) instead of saying the table has no games."""
    import threading

    from controller.daemon import Daemon
    from gametable.testing.panel import panel_config
    from web_panel.server import PanelServer

    config = panel_config(broker, str(tmp_path / "late.sqlite"))
    panel = PanelServer(config, port=0).start()
    daemon = None
    try:
        assert panel.link.connected.wait(10) and not panel.link.described_games()
        host = Http(panel.port)
        assert host.post("/api/host/unlock", {"id": "unlock-late", "pin": PIN})[0] == 200
        answer: list = []
        body = {**{k: v for k, v in NEW_GAME.items() if k != "type"}, "type": "new_game", "id": "start-late"}
        tap = threading.Thread(target=lambda: answer.append(host.post("/api/host/cmd", body)))
        tap.start()
        daemon = Daemon(config)  # the daemon (and its retained games) arrive while the tap waits
        daemon.start()
        tap.join(15)
        assert answer == [(200, {"ok": True})]
        assert daemon.public_state()["phase"] == "playing"
    finally:
        panel.stop()
        if daemon is not None:
            daemon.stop()


def test_with_no_daemon_a_start_says_the_table_has_not_listed_its_games(broker, tmp_path):
    from gametable.testing.panel import panel_config
    from web_panel.server import PanelServer

    panel = PanelServer(panel_config(broker, str(tmp_path / "none.sqlite")), port=0).start()
    try:
        assert panel.link.connected.wait(10)
        host = Http(panel.port)
        assert host.post("/api/host/unlock", {"id": "unlock-none", "pin": PIN})[0] == 200
        body = {**{k: v for k, v in NEW_GAME.items() if k != "type"}, "type": "new_game", "id": "start-none"}
        assert host.post("/api/host/cmd", body) == \
            (409, {"ok": False, "error": "the table has not listed its games yet (is the daemon running?)"})
    finally:
        panel.stop()


def test_a_phones_venue_ticket_goes_into_its_seats_new_game_entry_once_and_a_bad_one_changes_nothing(stack, wire):
    """hardware_docs/multi_table.md "Players known at every table": the claim hands the ticket over."""
    phone = Http(stack.panel.port)
    assert phone.post("/api/seat/claim", {"id": "claim-ticket-0", "seat": 1, "venue_ticket": "p-123"}) == \
        (400, {"ok": False, "error": "'venue_ticket' must be the seat ticket from the venue board (vt1.…); "
                                     "fetch a new one there"})
    assert json.loads(phone.get("/api/info")[1])["taken"] == []
    ticket = "vt1.p-0123456789.1796169137.a2bdc871d87c51f6.a5c367f0973c4f899b7f2eaebbb94090"
    assert phone.post("/api/seat/claim", {"id": "claim-ticket-1", "seat": 1, "venue_ticket": ticket})[0] == 200
    host = host_phone(stack)
    start = len(wire.messages)
    bad = {**NEW_GAME, "id": "start-bad-ticket", "players": [{**NEW_GAME["players"][0], "venue_ticket": 7},
                                                             *NEW_GAME["players"][1:]]}
    assert host.post("/api/host/cmd", bad)[0] == 400
    assert published(wire, start) == []
    assert host.post("/api/host/cmd", {**NEW_GAME, "id": "start-ticket-1"}) == (200, {"ok": True})
    sent = wire.wait_for("gametable/t1/cmd", lambda m: m.json().get("id") == "host-start-ticket-1").json()
    assert [p.get("venue_ticket") for p in sent["players"]] == [ticket, None, None]
    assert host.post("/api/host/cmd", {**NEW_GAME, "id": "start-ticket-2"}) == (200, {"ok": True})
    again = wire.wait_for("gametable/t1/cmd", lambda m: m.json().get("id") == "host-start-ticket-2").json()
    assert all("venue_ticket" not in p for p in again["players"])  # good for one game: spent


def test_starting_an_offered_match_without_an_offer_or_the_pin_is_refused_and_nothing_published(stack, wire):
    start = len(wire.messages)
    phone = Http(stack.panel.port)
    assert phone.post("/api/host/offer", {"id": "offer-tap-1", "offer": "venue-1-1-ab"})[0] == 403
    host = host_phone(stack)
    assert host.post("/api/host/offer", {"id": "offer-tap-2", "offer": "venue-1-1-ab"}) == \
        (409, {"ok": False, "error": "the venue offers this table no match now"})
    assert published(wire, start) == []
