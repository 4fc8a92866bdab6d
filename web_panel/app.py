"""The phone panel's Flask app: pages, the JSON API and the live stream.

Every POST passes the same gate before anything is published: body size (413), JSON, a CSRF
double-submit token plus an Origin check, a fresh request id (replays are refused), then the
seat token or host session, then :mod:`web_panel.commands`. Refusals are one-line JSON errors and
publish nothing.
"""

from __future__ import annotations

import base64
import hmac
import io
import json
import logging
import secrets
import socket
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import segno
from flask import Flask, Response, abort, g, jsonify, request, send_file, send_from_directory

from controller.venue_offer import OfferError, new_game_for
from gametable_core.clock import Clock, SystemClock
from gametable_core.config import Config
from gametable_core.json_depth import too_deep
from gametable_core.said import Said, say
from web_panel.bringup import bringup_command, camera_still_command
from web_panel.commands import (
    CommandError,
    flick,
    host_command,
    phone_inputs,
    request_id,
    seat_command,
    seats_moves,
    venue_ticket,
)
from web_panel.game_views import GameViews
from web_panel.host_login import HostLogin
from web_panel.hub import KEEPALIVE_S, Hub, sse_frame
from web_panel.i18n import COOKIE as LANG_COOKIE
from web_panel.i18n import ENGLISH, LANGUAGES, TableLanguage, catalogue, choose, render
from web_panel.learn import guided_game, may_replace
from web_panel.link import TableLink
from web_panel.security import (
    DEFAULT_PIN,
    LOCAL_ADDRESSES,
    SEATS,
    HostCheck,
    HostSessions,
    JoinCodes,
    ReplayGuard,
    SeatRegistry,
)
from web_panel.venue_seats import VenueSeats

log = logging.getLogger("gametable.panel")
STATIC = Path(__file__).parent / "static"
MAX_BODY = 8 * 1024
COOKIE_AGE = 24 * 3600
SEAT_COOKIE, HOST_COOKIE, CSRF_COOKIE, CSRF_HEADER = "gt_seat", "gt_host", "gt_csrf", "X-CSRF-Token"
RESULT_TIMEOUT_S = 5.0
FLICK_TIMEOUT_S = 20.0  # a flick is answered once its coins are at rest (played in real time)
MAX_JSON_DEPTH = 32  # the deepest legal body (a stacked setup in a new_game) is a few levels
GAMES_WAIT_S = 3.0  # a new_game just after the panel (re)connected waits this long for the games list


def link_for(config: Config, hub: Hub | None = None) -> TableLink:
    """The panel's MQTT connection from the config (its own user when ``[panel] mqtt_username``)."""
    m, p = config.mqtt, config.panel
    user = p.mqtt_username or m.username
    password = p.mqtt_password if p.mqtt_username else m.password
    return TableLink(config.table_id, m.host or "127.0.0.1", m.port, hub, username=user, password=password,
                     keepalive=m.keepalive)


def lan_address() -> str | None:
    """This machine's address on the LAN (the route to a public address; nothing is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("192.0.2.1", 9))  # TEST-NET-1: no packet leaves, it only picks the route
            address = sock.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def table_base_url(config: Config, host_url: str) -> str:
    """The panel's address as phones reach it: ``public_url``, else ``host_url`` with a loopback
    name replaced by the Pi's LAN address (the table's own screen shows it to phones)."""
    public_url = config.panel.public_url
    base = public_url or host_url
    host = urlsplit(base).hostname or ""
    if not public_url and (host == "localhost" or host.startswith("127.")):
        lan = lan_address()
        if lan:
            base = base.replace(host, lan, 1)
    return base.rstrip("/")


def host_link(config: Config, host_url: str, key: str) -> str:
    """The host link: the key rides in the fragment, so no request line or log has it."""
    return f"{table_base_url(config, host_url)}/host#key={key}"


def report_lockout(report: dict[str, Any]) -> None:
    """Said on the console (the service's journal) the moment PIN login locks."""
    message = (f"panel: host login by PIN LOCKED after {report['wrong_pins']} wrong PINs from "
               f"{report['addresses']} addresses; lift it on the table's screen or with `gametable host unlock`")
    log.warning(message)
    print(message, flush=True)


def lang_file(config: Config) -> Path:
    """Where the table's default language (set by the host) lives: next to the journal."""
    journal = Path(config.journal.path)
    return journal.with_name(journal.name + ".panel-lang")


def seats_file(config: Config) -> Path:
    """Where the seat-token hashes live: next to the journal, so they share its lifetime."""
    journal = Path(config.journal.path)
    return journal.with_name(journal.name + ".panel-seats.json")


def create_app(config: Config, mqtt: TableLink | None = None, *, clock: Clock | None = None,
               keepalive_s: float = KEEPALIVE_S, result_timeout_s: float = RESULT_TIMEOUT_S,
               pin: str | None = None, flick_timeout_s: float = FLICK_TIMEOUT_S,
               game_views: Mapping[str, Path | str] | None = None, host_key: str | None = None,
               absent_s: float | None = None) -> Flask:
    """The panel for one table. ``mqtt``: an already started :class:`TableLink` (else one is made);
    ``pin``: the host PIN (default ``[panel] pin``; ``web_panel.serve`` passes a generated one);
    ``host_key``: the host link's key (default: a random one for this run).

    ``game_views``: phone-view folders of games that do not live in ``controller/games/``
    (:mod:`web_panel.game_views`)."""
    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    link = mqtt
    if link is None:
        link = link_for(config)
        link.start()
    clock = clock or SystemClock()
    login = HostLogin(pin or config.panel.pin, clock, key=host_key, on_lockout=report_lockout)
    panel = _Panel(config, link, clock, login, GameViews(game_views),
                   keepalive_s=keepalive_s, result_timeout_s=result_timeout_s, flick_timeout_s=flick_timeout_s,
                   absent_s=float(absent_s if absent_s is not None else config.panel.absent_s))
    app.extensions["gametable"] = {"link": link, "seats": panel.seats, "hosts": panel.hosts, "login": panel.pins,
                                   "join_codes": panel.join_codes}
    app.before_request(panel.gate)
    app.register_error_handler(413, panel.too_big)
    app.after_request(panel.headers)
    page = panel.page
    for rule in ("/", "/join", "/seat", "/table", "/host", "/learn", "/rules", "/rules/<path:topic>"):
        app.add_url_rule(rule, "page", page, methods=["GET"])
    for rule, view in _GETS:
        app.add_url_rule(rule, view, getattr(panel, view), methods=["GET"])
    for rule, view in _POSTS:
        app.add_url_rule(rule, view, getattr(panel, view), methods=["POST"])
    return app


# The routes besides the phone's pages: (rule, name of the _Panel method that answers it).
_GETS = [
    ("/bringup", "bringup_page"), ("/api/bringup", "bringup_state"), ("/games/<game>/<name>", "game_view"),
    ("/api/host/camera.jpg", "camera_still"),
    ("/qr.svg", "qr"), ("/api/info", "info"), ("/api/stream", "stream"), ("/i18n/<lang>.json", "i18n_catalogue"),
]
_POSTS = [
    ("/api/host/bringup", "bringup_cmd"),
    ("/api/host/offer", "start_offer"), ("/api/seat/claim", "claim"), ("/api/seat/leave", "leave"), ("/api/host/unlock", "unlock"),
    ("/api/host/lock", "lock"), ("/api/host/lift", "lift"), ("/api/host/share", "share"), ("/api/host/release", "release"),
    ("/api/cmd", "cmd"), ("/api/host/cmd", "host_cmd"), ("/api/flick", "do_flick"),
    ("/api/host/lang", "set_table_lang"), ("/api/learn", "learn"),
]


def fail(status: int, message: str, **extra: Any) -> Response:
    """A refusal; a message made with ``say`` is said in the asking phone's language (docs/i18n.md)."""
    if isinstance(message, Said):
        message = render(message.msg, g.get("lang", ENGLISH))
    resp = jsonify({"ok": False, "error": message, **extra})
    resp.status_code = status
    return resp


def cookie(resp: Response, name: str, value: str | None) -> Response:
    if value is None:
        resp.delete_cookie(name, samesite="Strict", httponly=True)
    else:
        resp.set_cookie(name, value, max_age=COOKIE_AGE, httponly=True, samesite="Strict")
    return resp


def _post_refusal() -> Response | None:
    """The refusal of a POST whose headers fail the gate: size, cross-site, CSRF, not JSON."""
    length = request.content_length
    if length is None and request.headers.get("Transfer-Encoding"):
        return fail(411, "send a Content-Length (chunked bodies are not accepted)")
    if length is not None and length > MAX_BODY:
        return fail(413, f"request body of {length} bytes is over the {MAX_BODY} byte limit")
    origin = request.headers.get("Origin")
    if origin and urlsplit(origin).netloc != request.host:
        return fail(403, f"cross-site request from {origin} refused")
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        return fail(403, "cross-site request refused")
    token = request.cookies.get(CSRF_COOKIE)
    sent = request.headers.get(CSRF_HEADER, "")
    if not token or not hmac.compare_digest(token.encode(), sent.encode()):
        return fail(403, f"missing or wrong {CSRF_HEADER} header (reload the page)")
    if not request.is_json:
        return fail(415, "send JSON (Content-Type: application/json)")
    return None


def origin(url: str) -> str:
    """``scheme://host:port`` of an address: what a Content-Security-Policy names."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _valid_seat(seat: Any) -> bool:
    return not isinstance(seat, bool) and isinstance(seat, int) and seat in SEATS


class _Panel:
    """The state one panel's routes share, and the routes themselves (registered by create_app)."""

    def __init__(self, config: Config, link: TableLink, clock: Clock, pins: HostLogin, views: GameViews, *,
                 keepalive_s: float, result_timeout_s: float, flick_timeout_s: float, absent_s: float) -> None:
        self.config, self.link, self.clock, self.pins, self.views = config, link, clock, pins, views
        self.seats, self.hosts = SeatRegistry(seats_file(config)), HostSessions()
        self.join_codes = JoinCodes(clock)
        self.venue_seats = VenueSeats()
        self.replays = ReplayGuard()
        self.table_lang = TableLanguage(lang_file(config))
        self.host_names = HostCheck.for_config(config)
        self.keepalive_s, self.result_timeout_s, self.flick_timeout_s = keepalive_s, result_timeout_s, flick_timeout_s
        self.absent_s = absent_s  # a gone phone, or a seat waited on, is put to the host after this
        self.guided_seat: int | None = None  # the seat of the guided first game this panel started last

    # --- the gate ----------------------------------------------------------------------------
    def gate(self) -> Response | None:
        if not self.host_names.allowed(request.headers.get("Host")):
            # DNS rebinding: a page on another name must not reach the table.
            return fail(421, f"unknown host name {request.headers.get('Host')!r}: open the panel by the table's address")
        g.seat = self.seats.seat_of(request.cookies.get(SEAT_COOKIE))
        g.host = self.hosts.valid(request.cookies.get(HOST_COOKIE))
        g.lang = choose(request.cookies.get(LANG_COOKIE), self.table_lang.lang, request.headers.get("Accept-Language"))
        if request.method != "POST":
            return None
        return _post_refusal() or self._read_body()

    def _read_body(self) -> Response | None:
        """Parse a POST's JSON body into ``g.body``, refusing bad JSON and replayed request ids."""
        raw = request.get_data(cache=True) or b"null"
        if too_deep(raw, MAX_JSON_DEPTH):  # e.g. 3,000 nested arrays, refused unparsed
            return fail(400, "the request body is nested too deeply")
        try:
            body = json.loads(raw)
        except ValueError:
            return fail(400, "the request body is not valid JSON")
        except RecursionError:  # e.g. 3,000 nested arrays
            return fail(400, "the request body is nested too deeply")
        try:
            rid = request_id(body)
        except CommandError as exc:
            return fail(exc.status, exc.message)
        if not self.replays.first_use(rid):
            return fail(409, f"request {rid} was already sent once (a replayed request is never applied twice)")
        g.body = body
        return None

    def too_big(self, _: Exception) -> Response:
        return fail(413, f"request body is over the {MAX_BODY} byte limit")

    def headers(self, resp: Response) -> Response:
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("Referrer-Policy", "same-origin")
        resp.headers.setdefault("X-Frame-Options", "DENY")
        resp.headers.setdefault("Content-Security-Policy",
                                "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'"
                                + (f"; connect-src 'self' {origin(self.config.venue.url)}" if self.config.venue.url else ""))
        if not request.cookies.get(CSRF_COOKIE) and not request.path.startswith(("/static/", "/games/")):
            resp.set_cookie(CSRF_COOKIE, secrets.token_urlsafe(24), max_age=COOKIE_AGE, samesite="Strict")
        return resp

    def me(self) -> dict[str, Any]:
        return {"seat": g.seat, "host": g.host}

    def publish(self, cmd: dict[str, Any]) -> Response:
        result = self.link.command(cmd, timeout=self.result_timeout_s)
        if result is None:
            return fail(504, say("the table did not answer within {s} s (is the daemon running?)", s=f"{self.result_timeout_s:g}"))
        if not result.get("ok"):
            said = result.get("error_msg")  # the daemon's error as a message (docs/i18n.md)
            return fail(409, render(said, g.lang) if isinstance(said, dict) else str(result.get("error")))
        return jsonify({"ok": True})

    # --- pages -------------------------------------------------------------------------------
    def page(self, topic: str = "") -> Response:
        resp = send_from_directory(STATIC, "index.html")
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    def bringup_page(self) -> Response:
        """The host's bring-up page (beams, walk test, strikers, pairing): web_panel/bringup.py."""
        resp = send_from_directory(STATIC, "bringup.html")
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    def bringup_state(self) -> Response:
        if not g.host:
            return fail(403, "the bring-up page needs the host PIN")
        return jsonify({"ok": True, **self.link.bringup.snapshot()})

    def bringup_cmd(self) -> Response:
        if not g.host:
            return fail(403, "pairing strikers needs the host PIN (unlock first)")
        try:
            command = bringup_command(g.body)
        except CommandError as exc:
            return fail(exc.status, exc.message)
        return self.publish(command)

    def camera_still(self) -> Response:
        """The camera's still with its markers and coins outlined, to aim the camera: the only page
        that serves a camera image, and only to the unlocked host (CAM-6); never cached."""
        if not g.host:
            return fail(403, "the camera still needs the host PIN")
        result = self.link.command(camera_still_command(), timeout=self.result_timeout_s)
        if result is None:
            return fail(504, f"the table did not answer within {self.result_timeout_s:g} s (is the daemon running?)")
        if not result.get("ok") or not isinstance(result.get("jpeg"), str):
            return fail(409, str(result.get("error") or "no image"))
        try:
            jpeg = base64.b64decode(result["jpeg"], validate=True)
        except ValueError:
            return fail(502, "the table sent a broken image")
        resp = Response(jpeg, mimetype="image/jpeg")
        resp.headers["Cache-Control"] = "no-store"
        return resp

    def game_view(self, game: str, name: str) -> Response:
        """A game's phone view (JS/CSS from its own package), found by path, never imported."""
        path = self.views.find(game, name)
        if path is None:
            abort(404)
        resp = send_file(path, max_age=0)
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    def join_url(self) -> str:
        """The join link; with the join code for the table's own screen and the host only."""
        url = table_base_url(self.config, request.host_url) + "/join"  # (the Host passed the gate: ours)
        return url + "?code=" + self.join_codes.current() if self.at_table() or g.host else url

    @staticmethod
    def at_table() -> bool:
        """The request comes from the table's own screen (loopback), not a phone on the LAN."""
        return (request.remote_addr or "") in LOCAL_ADDRESSES

    def qr(self) -> Response:
        if request.args.get("of") == "host":  # the host link: the table's own screen only
            if not self.at_table():
                return fail(403, say("the host link's QR code is shown on the table's own screen only"))
            text, title = host_link(self.config, request.host_url, self.pins.key), "Scan to host this table"
        else:
            text, title = self.join_url(), "Scan to join the table"
        out = io.BytesIO()
        segno.make(text, error="m").save(out, kind="svg", scale=8, border=2, dark="#111", light="#fff",
                                         xmldecl=False, title=title)
        return Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-cache"})

    # --- reading -----------------------------------------------------------------------------
    def info(self) -> Response:
        link = self.link
        info = {"table": self.config.table_id, "games": link.described_games(), "me": self.me(),
                "taken": self.seats.taken(), "join_url": self.join_url(), "status": link.status,
                "pin_is_default": self.pins.pin == DEFAULT_PIN, "lang": self.table_lang.lang,
                "now": self.clock.wall(),  # phones correct their clock for window countdowns (CP-6)
                "absent_s": self.absent_s}  # the host is asked about a seat waited on this long (docs/phones.md)
        if self.at_table() or g.host:  # the table's screen (and the host) see a PIN lockout to lift
            info["host_login"] = self.pins.report()
        if self.config.venue.url:  # the lobby lists the venue's players (its public GET /api/profiles)
            info["venue"] = {"url": self.config.venue.url, "seats": self.venue_seats.profiles()}
        if self.at_table():
            info["host_link"] = host_link(self.config, request.host_url, self.pins.key)
        return jsonify(info)

    def stream(self) -> Response:
        link, seats = self.link, self.seats
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        attach = request.environ.get("gametable.sse")
        if attach is not None:
            # The panel's own server: its event loop writes the snapshot (taken at that moment, so
            # no frame falls between it and the live ones) and every later frame to this socket.
            seat, host = g.seat, g.host
            attach(seat, host, lambda: [sse_frame("me", {"seat": seat, "host": host, "taken": seats.taken()})]
                   + link.snapshot(seat, host))
            return Response(b"", mimetype="text/event-stream", headers=headers)
        sub = link.hub.add(g.seat, g.host)
        if sub is None:
            return fail(503, "too many open screens on this table; close one and retry")
        snapshot = [sse_frame("me", self.me() | {"taken": seats.taken()})] + link.snapshot(g.seat, g.host)
        return Response(link.hub.stream(sub, snapshot, self.keepalive_s), mimetype="text/event-stream",
                        headers=headers)

    def i18n_catalogue(self, lang: str) -> Response:
        """A language's catalogue for the phones' JavaScript (web_panel/i18n.py, docs/i18n.md)."""
        if lang not in LANGUAGES:
            abort(404)
        resp = jsonify({"lang": lang, "messages": catalogue(lang)})
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    def set_table_lang(self) -> Response:
        """The host sets the table's default language: phones without a choice of their own follow."""
        if not g.host:
            return fail(403, say("setting the table's language needs the host PIN"))
        try:
            lang = self.table_lang.set(g.body.get("lang"))
        except ValueError as exc:
            return fail(400, exc.args[0])
        self.link.hub.publish("lang", {"lang": lang})
        return jsonify({"ok": True, "lang": lang})

    # --- seats and host ----------------------------------------------------------------------
    def claim(self) -> Response:
        seats = self.seats
        seat = g.body.get("seat")
        if not _valid_seat(seat):
            return fail(400, say("'seat' must be a seat number from 1 to 6, got {got}", got=repr(seat)))
        if g.seat == seat:
            return jsonify({"ok": True, "seat": seat})
        if g.seat is not None:
            return fail(409, say("this phone already holds seat {seat}; leave it first", seat=g.seat))
        refusal = self._not_at_table(seat)
        if refusal:
            return refusal
        ticket = g.body.get("venue_ticket")
        if ticket is not None:
            try:
                venue_ticket(ticket)
            except CommandError as exc:
                return fail(exc.status, exc.message)
        address = request.remote_addr or "?"
        mine = seats.held_by(address)
        if mine and address not in LOCAL_ADDRESSES and not seats.is_open_for_shared(seat):
            # One seat per phone: a cleared cookie does not buy a second seat.
            return fail(409, say("this phone already holds seat {mine}; one seat per phone "
                                 "(the host can free it, or open seat {seat} for a shared phone)", mine=mine[0], seat=seat))
        token = seats.claim(seat, address)
        if token is None:
            return fail(409, say("seat {seat} is taken by another phone (the host can free it)", seat=seat))
        if ticket is None:
            self.venue_seats.drop(seat)
        else:
            self.venue_seats.hold(seat, ticket)
        self.link.hub.publish("taken", seats.taken())
        return cookie(jsonify({"ok": True, "seat": seat}), SEAT_COOKIE, token)

    def _not_at_table(self, seat: int) -> Response | None:
        """Only someone at the table may sit: the join code of the QR code shown on the
        table's screen, the table's own screen, the host, or a seat the host opened (its approval)."""
        if self.at_table() or g.host or self.seats.is_open_for_shared(seat):
            return None
        code = g.body.get("code")
        if code is None:
            return fail(403, say("taking a seat needs the QR code shown on the table's screen: scan it "
                                 "(or ask the host to open this seat for you)"))
        if not self.join_codes.valid(code):
            return fail(403, say("this join code is wrong or has expired: scan the QR code on the table's screen again"))
        return None

    def leave(self) -> Response:
        if g.seat is None:
            return fail(403, say("this phone holds no seat"))
        self.seats.release(g.seat)
        self.venue_seats.drop(g.seat)
        self.link.hub.close_seat(g.seat)
        self.link.hub.publish("taken", self.seats.taken())
        return cookie(jsonify({"ok": True}), SEAT_COOKIE, None)

    def unlock(self) -> Response:
        """``{pin}`` under the table's budget (web_panel/host_login.py), or ``{key}`` of the host link."""
        body = g.body
        if "key" in body:
            verdict = self.pins.check_key(body.get("key"))
        else:
            verdict = self.pins.check_pin(request.remote_addr or "?", body.get("pin"), local=self.at_table())
        if not verdict.ok:
            resp = fail(verdict.status, verdict.error or say("wrong PIN"))
            if verdict.retry_s:
                resp.headers["Retry-After"] = str(int(verdict.retry_s + 0.999))
            return resp
        return cookie(jsonify({"ok": True}), HOST_COOKIE, self.hosts.open())

    def lift(self) -> Response:
        """The table's own screen (or console, or the host) lifts a PIN lockout; what it was."""
        if not (self.at_table() or g.host):
            return fail(403, say("a PIN lockout is lifted on the table's own screen or its console only"))
        was = self.pins.lift()
        log.warning("panel: host login lockout lifted (%d wrong PINs from %d addresses)",
                    was["wrong_pins"], was["addresses"])
        return jsonify({"ok": True, "was": was, **({"host_link": host_link(self.config, request.host_url, self.pins.key)}
                                                     if self.at_table() else {})})

    def lock(self) -> Response:
        self.hosts.close(request.cookies.get(HOST_COOKIE))
        return cookie(jsonify({"ok": True}), HOST_COOKIE, None)

    def share(self) -> Response:
        if not g.host:
            return fail(403, "opening a seat for a shared phone needs the host PIN")
        seat = g.body.get("seat")
        if not _valid_seat(seat):
            return fail(400, f"'seat' must be a seat number from 1 to 6, got {seat!r}")
        if seat in self.seats.taken():
            return fail(409, f"seat {seat} is held by a phone; free it first")
        self.seats.open_for_shared(seat)
        return jsonify({"ok": True, "seat": seat})

    def release(self) -> Response:
        if not g.host:
            return fail(403, "freeing a seat needs the host PIN")
        seat = g.body.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not self.seats.release(seat):
            return fail(409, f"seat {seat!r} is not held by any phone")
        self.venue_seats.drop(seat)
        self.link.hub.close_seat(seat)  # the old phone's stream must not keep receiving this seat's view
        self.link.hub.publish("taken", self.seats.taken())
        return jsonify({"ok": True})

    # --- commands ----------------------------------------------------------------------------
    def cmd(self) -> Response:
        link = self.link
        if g.seat is None:
            return fail(403, say("this phone holds no seat; join a seat first"))
        try:
            public = link.public_state()
            described = link.described_games().get(str((public or {}).get("game")))
            command = seat_command(g.body, g.seat, public, link.private_view(g.seat),
                                   seats_moves(link.private_views()), phone_inputs(described))
        except CommandError as exc:
            return fail(exc.status, exc.message)
        return self.publish(command)

    def host_cmd(self) -> Response:
        link = self.link
        if not g.host:
            return fail(403, say("this needs the host PIN (unlock the host screen first)"))
        try:
            games = link.described_games(wait_s=GAMES_WAIT_S if g.body.get("type") == "new_game" else 0.0)
            command = self.venue_seats.into(host_command(g.body, link.public_state(), games,
                                                         seats_moves(link.private_views())))
        except CommandError as exc:
            return fail(exc.status, exc.message)
        resp = self.publish(command)
        if resp.status_code == 200:
            self.venue_seats.spend(command)
            if command["type"] == "new_game":
                self.guided_seat = None  # the host's game is no guided game a phone may replace
        return resp

    def learn(self) -> Response:
        """A guided first game (web_panel/learn.py) for this phone's seat: its seat against bots.
        It replaces only a game no other person plays (``may_replace``); the host may always."""
        link = self.link
        if g.seat is None:
            return fail(403, say("take a seat first: the guided game is played from your seat"))
        public = link.public_state()
        if not may_replace(public, g.seat, self.seats.taken(), host=g.host, virtual=link.table is not None,
                           guided_seat=self.guided_seat if public and public.get("game") else None):
            return fail(409, say("a game with other players is on the table; the host can end it first, "
                                 "or start your guided game after it"))
        try:
            command = guided_game(g.body, g.seat, link.described_games(wait_s=GAMES_WAIT_S), self.seats.taken())
        except CommandError as exc:
            return fail(exc.status, exc.message)
        resp = self.publish(command)
        if resp.status_code == 200:
            self.guided_seat = g.seat
        return resp

    def start_offer(self) -> Response:
        """The host's one tap on the venue's offered match: its ``new_game`` under the offer's own id
        (controller/venue_offer.py), so a second tap, or the auto-start, is answered as a duplicate."""
        if not g.host:
            return fail(403, say("this needs the host PIN (unlock the host screen first)"))
        offer = self.link.venue_offer()
        if offer is None:
            return fail(409, say("the venue offers this table no match now"))
        if g.body.get("offer") != offer.get("offer"):
            return fail(409, say("the venue's offer has changed; look at the new one first"))
        games = self.link.described_games(wait_s=GAMES_WAIT_S)
        if offer.get("game") not in games:
            return fail(409, say("this table has no game {game}", game=repr(offer.get("game"))))
        try:
            command = new_game_for(offer, games[offer["game"]])
        except OfferError as exc:
            return fail(409, str(exc))
        self.guided_seat = None  # (once started, the venue's match is no guided game either)
        return self.publish(command)

    def do_flick(self) -> Response:
        link = self.link
        if g.seat is None:
            return fail(403, "this phone holds no seat; join a seat first")
        if link.table is None:
            return fail(409, "this table has no virtual table to flick on (flick the real coin)")
        try:
            payload = flick(g.body, g.seat, link.public_state(), link.private_view(g.seat))
        except CommandError as exc:
            return fail(exc.status, exc.message)
        result = link.flick(payload, timeout=self.flick_timeout_s)
        if result is None:
            return fail(504, f"the virtual table did not answer within {self.flick_timeout_s:g} s "
                             "(is `gametable sim` running?)")
        if not result.get("ok"):
            return fail(409, str(result.get("error") or "the table refused the flick"))
        return jsonify({"ok": True, "id": payload["id"]})
