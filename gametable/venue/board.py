"""The venue board (Flask, like the panel): every table live, the league, players' histories and
the export. Live updates are Server-Sent Events: a frame carries only the tables changed since the
last one, at most every ``FRAME_S``, so 200 tables at play rate stay a few frames a second."""

from __future__ import annotations

import csv
import hmac
import io
import json
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import segno
from flask import Flask, Response, abort, g, jsonify, redirect, request
from werkzeug.wrappers import Response as BaseResponse

from gametable.venue.board_operator import operator_routes, staff_routes
from gametable.venue.config import VenueConfig
from gametable.venue.ingest import Venue
from gametable.venue.operator import Operator
from gametable.venue.profiles import Profile, ProfileError, Profiles
from gametable.venue.ratings import league
from gametable.venue.scheduler import Scheduler
from gametable.venue.setup import TABLE_ID
from gametable.venue.staff import Staff
from gametable.venue.store import OWNER, player_id
from gametable.venue.tickets import Tickets
from gametable.venue.tournament import TournamentError
from gametable.venue.words import WORDS, language

STATIC = Path(__file__).resolve().parent / "static"
FRAME_S = 0.1  # coalesce changes into one frame per this many seconds
KEEPALIVE_S = 15.0
HOST_COOKIE = "venue_host"
PROFILE_COOKIE = "venue_profile"  # the player's profile key, on this phone (gametable/venue/profiles.py)
PROFILE_COOKIE_S = 2 * 365 * 24 * 3600
PUBLIC_APIS = ("/api/profiles", "/api/tables", "/api/league", "/api/tournaments")  # public data, no cookies


class Changes:
    """Wakes every stream when the venue changes (the service calls ``notify``)."""

    def __init__(self) -> None:
        self.cond = threading.Condition()

    def notify(self) -> None:
        with self.cond:
            self.cond.notify_all()

    def wait(self, venue: Venue, seen: int, timeout: float) -> None:
        """Until the venue's version moves past ``seen`` (or ``timeout``): no change is missed
        between a stream's last frame and its wait."""
        with self.cond:
            self.cond.wait_for(lambda: venue.version != seen, timeout)


def _frame(venue: Venue, config: VenueConfig, since: int) -> tuple[int, list[dict[str, Any]]]:
    version, tables = venue.changed_since(since)
    for t in tables:
        t["watch"] = config.spectator.get(t["table"])
    return version, tables


def create_board(venue: Venue, config: VenueConfig, changes: Changes, scheduler: Scheduler, host_key: str,
                 wake: Callable[[], None], profiles: Profiles, operator: Operator | None = None,
                 staff: Staff | None = None) -> Flask:
    """The board app; ``host_key``: the venue host's login; ``wake``: schedule matches now."""
    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    page = (STATIC / "board.html").read_text(encoding="utf-8")

    def html(tv: bool) -> Response:
        lang = language(request.args.get("lang"), request.headers.get("Accept-Language"))
        body = (page.replace("{{lang}}", lang).replace("{{layout}}", "tv" if tv else "board")
                .replace("{{words}}", json.dumps(WORDS[lang], ensure_ascii=False).replace("<", "\\u003c")))
        return Response(body, mimetype="text/html")

    app.add_url_rule("/", "board", lambda: html(False))
    app.add_url_rule("/tv", "tv", lambda: html(True))
    _live_routes(app, venue, config, changes)
    _league_routes(app, venue)
    _export_routes(app, venue)
    staff = staff or Staff(venue.store, time.time)
    _host_routes(app, host_key, staff)
    _tournament_routes(app, scheduler, wake)
    _profile_routes(app, profiles)
    _ticket_routes(app, profiles, venue.tickets, config)
    operator_routes(app, operator or Operator(venue.store, time.time))
    staff_routes(app, staff)
    for code in (400, 403, 404):
        app.register_error_handler(code, _error)

    @app.after_request
    def headers(resp: Response) -> Response:
        if request.method == "GET" and request.path in PUBLIC_APIS:
            resp.headers["Access-Control-Allow-Origin"] = "*"  # any table's lobby may read them
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("Content-Security-Policy", "default-src 'self'; img-src 'self' data:")
        return resp

    return app


def _frames(venue: Venue, config: VenueConfig, changes: Changes) -> Iterator[str]:
    """One stream: the whole board first, then the changed tables, then keepalives when idle."""
    since, last = 0, 0.0
    while True:
        version, rows = _frame(venue, config, since)
        if rows or since == 0:
            since = version
            yield f"data: {json.dumps({'version': version, 'tables': rows})}\n\n"
            last = time.monotonic()
            time.sleep(FRAME_S)  # gather the next changes into one frame
            continue
        changes.wait(venue, since, KEEPALIVE_S)
        if venue.version == since and time.monotonic() - last >= KEEPALIVE_S:
            yield ": keepalive\n\n"
            last = time.monotonic()


def _live_routes(app: Flask, venue: Venue, config: VenueConfig, changes: Changes) -> None:
    @app.get("/api/tables")
    def tables() -> Response:
        version, rows = _frame(venue, config, 0)
        return jsonify({"version": version, "tables": rows})

    @app.get("/api/stream")
    def stream() -> Response:
        return Response(_frames(venue, config, changes), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _league_routes(app: Flask, venue: Venue) -> None:
    @app.get("/api/league")
    def league_table() -> Response:
        """?game= one game's league; ?from=&to= a season (ISO dates, UTC, both days included)."""
        game = request.args.get("game") or None
        rows = venue.store.results(game=game, between=_season(request.args.get("from"), request.args.get("to")))
        return jsonify([{"player": s.player, "name": s.name, "rating": round(s.rating, 2), "mu": round(s.mu, 2),
                         "sigma": round(s.sigma, 2), "played": s.played, "won": s.won,
                         "provisional": s.provisional} for s in league(rows)])

    @app.get("/api/games")
    def game_names() -> Response:
        return jsonify(venue.store.game_names())

    @app.get("/api/players/<path:name>")
    def player(name: str) -> Response:
        who = player_id(name)
        rows = list(venue.store.results(player=who))
        if not rows:
            abort(404, f"no finished game of {name!r} at this venue")
        return jsonify({"player": who, "name": rows[-1].name, "played": len(rows),
                        "won": sum(r.rank == 1 for r in rows),
                        "games": [{"game": r.game, "mode": r.mode, "table": r.table_id, "key": r.key,
                                   "finished_at": r.finished_at, "rank": r.rank, "team": r.team}
                                  for r in reversed(rows)]})


def _day(text: str, name: str) -> float:
    try:
        return datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=UTC).timestamp()
    except ValueError:
        abort(400, f"{name}: a date as YYYY-MM-DD, got {text!r}")


def _season(start: str | None, end: str | None) -> tuple[float, float] | None:
    """The league's season from ?from= and ?to= (whole UTC days, both included); None: all time."""
    if not start and not end:
        return None
    lo = _day(start, "from") if start else float("-inf")
    hi = _day(end, "to") + 86400.0 if end else float("inf")
    if hi <= lo:
        abort(400, f"to ({end}) is before from ({start})")
    return lo, hi


def iso_utc(ts: float) -> str:
    """A stored time as spreadsheets read it: ISO 8601 in UTC, to the second."""
    return datetime.fromtimestamp(ts, tz=UTC).isoformat(timespec="seconds")


def _export_routes(app: Flask, venue: Venue) -> None:
    @app.get("/export/games.json")
    def export_json() -> Response:
        return Response(json.dumps(venue.store.export(), ensure_ascii=False, indent=1),
                        mimetype="application/json",
                        headers={"Content-Disposition": "attachment; filename=venue-games.json"})

    @app.get("/export/results.csv")
    def export_csv() -> Response:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["game_key", "table", "game", "mode", "finished_at", "player", "name", "seat", "team", "rank"])
        for r in venue.store.results():
            writer.writerow([r.key, r.table_id, r.game, r.mode or "", iso_utc(r.finished_at), r.player, r.name, r.seat,
                             r.team or "", r.rank])
        return Response(out.getvalue(), mimetype="text/csv",
                        headers={"Content-Disposition": "attachment; filename=venue-results.csv"})


def _error(exc: Any) -> tuple[Response, int]:
    """Every refusal as JSON with a specific message (nothing changed)."""
    return jsonify({"ok": False, "error": getattr(exc, "description", str(exc))}), exc.code


def _holder(key: str, host_key: str, staff: Staff) -> str | None:
    """Who a host key belongs to: the owner, a staff member whose key is not revoked, or nobody."""
    if key and hmac.compare_digest(key.encode(), host_key.encode()):
        return OWNER
    return staff.who(key)


def _host_of(host_key: str, staff: Staff) -> str | None:
    """Who the request's host key (header or cookie) belongs to."""
    return _holder(request.headers.get("X-Venue-Host") or request.cookies.get(HOST_COOKIE) or "", host_key, staff)


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, "send a JSON object")
    return data


def _tournament_request(data: dict[str, Any]) -> tuple[str, str, str, str | None, list[str], list[str]]:
    """A new tournament's name, format, game, mode, players and tables, checked (400 names the field)."""
    players, tables, game, mode = data.get("players"), data.get("tables"), data.get("game"), data.get("mode")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        abort(400, "players: a list of names")
    if not isinstance(tables, list) or not all(isinstance(t, str) and TABLE_ID.fullmatch(t) for t in tables):
        abort(400, "tables: a list of table ids")
    if not isinstance(game, str) or not game:
        abort(400, "game: the game's name, as the tables publish it")
    return (str(data.get("name") or game), str(data.get("format")), game, mode if isinstance(mode, str) else None,
            [p.strip() for p in players], list(tables))


def _host_routes(app: Flask, host_key: str, staff: Staff) -> None:
    """The venue host's login: the owner's key (the one the service prints, kept in the database) or
    a staff key the owner made (gametable/venue/staff.py); every POST on tournaments and every
    operator path needs one, and ``g.host`` names who is asking, for the operator log."""

    @app.get("/api/host")
    def host_status() -> Response:
        who = _host_of(host_key, staff)
        return jsonify({"host": who is not None, "who": who, "owner": who == OWNER})

    @app.post("/api/host")
    def host_login() -> Response:
        key = str(_body().get("key", ""))
        if _holder(key, host_key, staff) is None:
            abort(403, "wrong venue host key")
        resp = jsonify({"ok": True})
        resp.set_cookie(HOST_COOKIE, key, httponly=True, samesite="Strict")
        return resp

    @app.post("/api/host/logout")
    def host_logout() -> Response:
        resp = jsonify({"ok": True})
        resp.delete_cookie(HOST_COOKIE, httponly=True, samesite="Strict")
        return resp

    @app.before_request
    def host_only() -> None:
        guarded = request.path.startswith(("/api/operator", "/api/staff")) or (
            request.method == "POST" and request.path.startswith("/api/tournaments"))
        if not guarded:
            return
        g.host = _host_of(host_key, staff)
        if g.host is None:
            abort(403, "only the venue host may do that (log in with the venue host key or a staff key)")
        if request.path.startswith("/api/staff") and g.host != OWNER:
            abort(403, "only the venue's own host key hands out and revokes staff keys")


def _tournament_routes(app: Flask, scheduler: Scheduler, wake: Callable[[], None]) -> None:
    """Everyone sees tournaments; only the venue host creates them, replays or awards a match."""

    @app.get("/api/tournaments")
    def list_tournaments() -> Response:
        return jsonify(scheduler.view())

    @app.post("/api/tournaments")
    def create() -> tuple[Response, int]:
        try:
            tid = scheduler.create(*_tournament_request(_body()))
        except TournamentError as exc:
            abort(400, str(exc))
        wake()
        return jsonify({"id": tid}), 201

    @app.post("/api/tournaments/<int:tid>/matches/<int:number>/<action>")
    def decide(tid: int, number: int, action: str) -> Response:
        try:
            if action == "replay":
                scheduler.replay(tid, number)
            elif action == "award":
                scheduler.award(tid, number, str(_body().get("winner")))
            elif action == "correct":
                scheduler.correct(tid, number, str(_body().get("winner")), by=g.host)
            else:
                abort(404, "replay, award or correct")
        except (TournamentError, StopIteration) as exc:
            abort(400, str(exc) or f"no tournament {tid}")
        wake()
        return jsonify({"ok": True})


def _with_profile_cookie(profile: Profile, key: str, status: int = 200) -> tuple[Response, int]:
    resp = jsonify({"id": profile.id, "name": profile.name})
    resp.set_cookie(PROFILE_COOKIE, key, max_age=PROFILE_COOKIE_S, httponly=True, samesite="Lax")
    return resp, status


def _profile_routes(app: Flask, profiles: Profiles) -> None:
    """A phone makes its profile once, shows it as a QR code to move it to another phone, and any
    lobby may list the known players (ids and names, never a key)."""

    @app.get("/api/profiles")
    def known_profiles() -> Response:
        return jsonify([{"id": p.id, "name": p.name} for p in profiles.known()])

    @app.post("/api/profiles")
    def create_profile() -> tuple[Response, int]:
        try:
            profile, key = profiles.create(_body().get("name"))
        except ProfileError as exc:
            abort(400, str(exc))
        return _with_profile_cookie(profile, key, 201)

    @app.post("/api/profiles/claim")
    def claim_profile() -> tuple[Response, int]:
        key = _body().get("key")
        try:
            profile = profiles.by_key(key)
        except ProfileError as exc:
            abort(403, str(exc))
        return _with_profile_cookie(profile, str(key))

    @app.get("/api/profiles/me")
    def my_profile() -> Response:
        try:
            profile = profiles.by_key(request.cookies.get(PROFILE_COOKIE))
        except ProfileError as exc:
            abort(404, str(exc))
        return jsonify({"id": profile.id, "name": profile.name})

    @app.get("/api/profiles/me/qr.svg")
    def my_profile_qr() -> Response:
        """The QR code that moves this phone's profile to another phone: the board's address with
        the key in the fragment (never sent to a server, never in a log)."""
        key = request.cookies.get(PROFILE_COOKIE) or ""
        try:
            profiles.by_key(key)
        except ProfileError as exc:
            abort(404, str(exc))
        out = io.BytesIO()
        segno.make(f"{request.host_url}#profile={key}", error="m").save(out, kind="svg", scale=6)
        return Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


def _ticket_routes(app: Flask, profiles: Profiles, tickets: Tickets, config: VenueConfig) -> None:
    """A seat ticket for one table (gametable/venue/tickets.py): the phone proves its profile at
    that table's lobby without the key ever leaving this origin."""

    def ticket_for() -> tuple[str, str]:
        try:
            profile = profiles.by_key(request.cookies.get(PROFILE_COOKIE))
        except ProfileError as exc:
            abort(404, str(exc))
        table = request.args.get("table", "")
        if table not in config.tables:
            abort(400, f"table: one of this venue's tables ({', '.join(config.tables)}), got {table[:40]!r}")
        return table, tickets.issue(profile.id, table)

    @app.get("/api/profiles/me/ticket")
    def my_ticket() -> Response:
        table, ticket = ticket_for()
        resp = jsonify({"table": table, "ticket": ticket})
        resp.headers["Cache-Control"] = "no-store"
        return resp

    @app.get("/profile/ticket")
    def ticket_to_table() -> BaseResponse:
        """Back to the table's panel with the ticket in the fragment (never sent to a server); only
        to a panel this venue's config names, so it is no open redirect."""
        table, ticket = ticket_for()
        panel = urlsplit(config.spectator.get(table, ""))
        if not panel.scheme or not panel.netloc:
            abort(404, f"table {table}: the venue config names no panel address ([board.spectator])")
        resp = redirect(f"{panel.scheme}://{panel.netloc}/#venue_ticket={ticket}", 303)
        resp.headers["Cache-Control"] = "no-store"
        resp.headers["Referrer-Policy"] = "no-referrer"
        return resp
