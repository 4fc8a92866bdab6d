"""Hidden cards never leave the daemon except on the owner's private topic (docs/rules/coup.md CP-6, CP-7):
the panel must never send another seat's hand to a phone, over HTTP or over the live stream (SSE).

Real daemon + real Mosquitto + the served panel; three seat phones, a watcher and the host read
their own streams while a stacked Coup game goes through a challenge (CP-3.2), a lost influence
(CP-5.1) and an Ambassador exchange (CP-2, drawn cards are private), driven from the phones.
"""

from __future__ import annotations

import json

import pytest

from controller.daemon import games_payload
from gametable.testing.games import coup_game
from gametable.testing.panel import PIN, Http, SseStream
from gametable.testing.recorder import Recorder
from tests.helpers.coup_panel import keys_anywhere

pytestmark = [pytest.mark.mqtt]

SECRET_KEYS = {"hand", "drawn", "deck", "rng", "setup", "hands"}  # what only a seat's own view may hold


def _phone(stack, seat: int | None) -> Http:
    p = Http(stack.panel.port)
    if seat is not None:
        assert p.post("/api/seat/claim", {"id": f"claim-seat-{seat}", "seat": seat})[0] == 200
    return p


def _move(phone: Http, rid: str, move: str, **args) -> None:
    status, body = phone.post("/api/cmd", {"id": rid, "type": "move", "move": move, "args": args})
    assert (status, body) == (200, {"ok": True})


def test_cp_6_no_phone_ever_receives_another_seats_hand_over_http_or_sse(stack, broker):
    phones = {seat: _phone(stack, seat) for seat in (1, 2, 3)}
    watcher = _phone(stack, None)
    host = _phone(stack, None)
    assert host.post("/api/host/unlock", {"id": "unlock-host-1", "pin": PIN})[0] == 200
    streams = {seat: SseStream(stack.panel.port, p.cookies) for seat, p in phones.items()}
    streams["watcher"] = SseStream(stack.panel.port, watcher.cookies)
    streams["host"] = SseStream(stack.panel.port, host.cookies)
    # Asking for another seat's stream by query string changes nothing: the seat comes from the cookie.
    streams["sneaky"] = SseStream(stack.panel.port, phones[2].cookies, "/api/stream?seat=1")
    streams["forged"] = SseStream(stack.panel.port, {"gt_seat": "not-a-real-token"})
    try:
        rec = Recorder(broker.host, broker.port, "gametable/t1/cmd/result")
        try:
            assert rec.command("t1", coup_game(timeout_s=60))["ok"]
        finally:
            rec.close()
        streams[1].wait(lambda e, d: e == "private" and d and d.get("hand") == ["duke", "captain"], what="Ann's hand")
        # Ann taxes (Duke, true); Bo challenges and turns his Contessa face up (CP-3.2, CP-5.1).
        _move(phones[1], "ann-tax-0001", "tax")
        _move(phones[2], "bo-chal-0001", "challenge")
        _move(phones[2], "bo-lose-0001", "lose_influence", card="contessa")
        # Bo exchanges (CP-2): the two drawn cards go to Bo's phone only.
        streams[2].wait(lambda e, d: e == "state" and d and d["turn"] == {"seat": 2}, what="Bo's turn")
        _move(phones[2], "bo-exch-0001", "exchange")
        _move(phones[1], "ann-pass-0001", "pass")
        _move(phones[3], "cy-pass-0001", "pass")
        _, bo_view = streams[2].wait(lambda e, d: e == "private" and d and d.get("drawn"), what="Bo's drawn cards")
        keep = bo_view["hand"] + bo_view["drawn"]
        _move(phones[2], "bo-retu-0001", "exchange_return", cards=keep[:2])
        for s in streams.values():
            s.wait(lambda e, d: e == "state" and d and d["turn"] == {"seat": 3}, what="Cy's turn")
        # The HTTP side: nothing but the stream carries a view, and /api/info holds no card.
        for p in (*phones.values(), watcher, host):
            status, raw = p.get("/api/info")
            info = json.loads(raw)
            described = {g["game"]: g for g in games_payload()["games"]}  # as the daemon publishes them
            assert status == 200 and info.pop("games") == described  # static game descriptions only
            assert not keys_anywhere(info) & SECRET_KEYS
    finally:
        for s in streams.values():
            s.close()

    own = {seat: stack.daemon.seat_view(seat)["hand"] for seat in (1, 2, 3)}
    for name, s in streams.items():
        seat = name if isinstance(name, int) else (2 if name == "sneaky" else None)
        privates = [d for e, d in s.frames if e == "private"]
        # A stream's private frames are its own seat's view, always; others get none at all.
        assert all(d is None or d["seat"] == seat for d in privates), name
        if seat is None:
            assert privates == [], name
        else:
            assert privates[-1]["hand"] == own[seat]
        # Every other frame (state, log, history, me, taken, status) is public: no hidden card field;
        # games carries only the static descriptions the daemon publishes (a Coin War option is
        # named "deck").
        described = {g["game"]: g for g in games_payload()["games"]}
        for event, data in s.frames:
            if event == "games":
                assert data == described, name
            elif event != "private":
                assert not keys_anywhere(data) & SECRET_KEYS, (name, event)
    # Bo's drawn cards reached Bo's stream and no other.
    assert any(d and d.get("drawn") for e, d in streams[2].frames if e == "private")
    assert not any(d and d.get("drawn") for n, s in streams.items() if n not in (2, "sneaky")
                   for e, d in s.frames if e == "private")
    # The log says how many cards went back, never which (CP-6; daemon publishes its public form).
    lines = [line for e, d in streams["watcher"].frames if e == "log" for line in d["lines"]]
    assert "Bo returns 2 cards to the deck" in lines
