"""The venue host's operator routes on the board (gametable/venue/operator.py): JSON in, JSON out,
host only (the board's host check covers every /api/operator path), every refusal a 400 with the
reason and nothing changed.

- ``POST /api/operator/rename`` ``{"profile", "name"}`` → ``{"ok", "name"}``
- ``POST /api/operator/merge`` ``{"into", "other"}`` (a profile, or a guest's player id) → ``{"ok", "moved"}``
- ``POST /api/operator/delete`` ``{"profile"}`` → ``{"ok", "anonymous"}`` (results kept anonymous)
- ``POST /api/operator/void`` ``{"key", "reason"}`` → ``{"ok", "voided"}``
- ``GET /api/operator/log``: every change, oldest first, each with ``by`` (who made it)

The owner's key alone (gametable/venue/staff.py) hands out and revokes staff keys:

- ``GET /api/staff``: every staff key made (id, name, made, revoked), never a key
- ``POST /api/staff`` ``{"name"}`` → 201 ``{"id", "name", "key"}`` (the key is shown this once)
- ``POST /api/staff/<id>/revoke`` → ``{"ok", "id", "name"}``: the key stops working at once
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, Response, abort, g, jsonify, request

from gametable.venue.operator import Operator, OperatorError
from gametable.venue.profiles import ProfileError
from gametable.venue.staff import Staff, StaffError, StaffKey


def _field(data: dict[str, Any], name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value:
        abort(400, f"{name}: required")
    return value


def _actions(op: Operator) -> dict[str, Callable[[dict[str, Any]], dict[str, Any]]]:
    return {
        "rename": lambda d: {"name": op.rename(_field(d, "profile"), d.get("name"), by=g.host)},
        "merge": lambda d: {"moved": op.merge(_field(d, "into"), _field(d, "other"), by=g.host)},
        "delete": lambda d: {"anonymous": op.delete(_field(d, "profile"), by=g.host)},
        "void": lambda d: {"voided": op.void(_field(d, "key"), d.get("reason"), by=g.host)},
    }


def operator_routes(app: Flask, operator: Operator) -> None:
    actions = _actions(operator)

    @app.post("/api/operator/<action>")
    def change(action: str) -> Response:
        if action not in actions:
            abort(404, f"no operator action {action!r}; actions: {', '.join(actions)}")
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            abort(400, "send a JSON object")
        try:
            return jsonify({"ok": True, **actions[action](data)})
        except (OperatorError, ProfileError) as exc:
            abort(400, str(exc))

    @app.get("/api/operator/log")
    def log() -> Response:
        return jsonify([{"at": e.at, "action": e.action, "subject": e.subject, "detail": e.detail, "by": e.by}
                        for e in operator.log()])


def staff_routes(app: Flask, staff: Staff) -> None:
    """The owner's hand on the staff keys (the board's host check lets only the owner's key here)."""

    def view(k: StaffKey) -> dict[str, Any]:
        return {"id": k.id, "name": k.name, "made": k.created_at, "revoked": k.revoked_at}

    @app.get("/api/staff")
    def known() -> Response:
        return jsonify([view(k) for k in staff.known()])

    @app.post("/api/staff")
    def issue() -> tuple[Response, int]:
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            abort(400, "send a JSON object")
        try:
            made, key = staff.issue(data.get("name"))
        except StaffError as exc:
            abort(400, str(exc))
        return jsonify({"id": made.id, "name": made.name, "key": key}), 201

    @app.post("/api/staff/<sid>/revoke")
    def revoke(sid: str) -> Response:
        try:
            gone = staff.revoke(sid)
        except StaffError as exc:
            abort(400, str(exc))
        return jsonify({"ok": True, "id": gone.id, "name": gone.name})
