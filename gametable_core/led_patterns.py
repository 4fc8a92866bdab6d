"""What the seat LEDs show: a pure mapping from the table view to a plan, and the patterns.

The plan is plain JSON (also published retained on ``gametable/T/leds``)::

    {"seats": {"1": "solid", "2": "dim", "3": "pulse"}, "status": "ok"}

plus ``"fault": "<message>"`` or ``"waiting": "<what>"`` when the status says so. Keeping it pure
lets the panel, MQTT and any LED hardware (GPIO today, an addressable strip later) agree, and lets
tests check it without pins. Animation is a pure function of elapsed clock time too.

The input is a game's :class:`~controller.games.base.TableView` (phase, players, turn, who must
answer, winner), so the mapper knows no game. Seat patterns, by priority (a
question to a seat and a reaction window are both seats in ``answer``):

==========  =====================================================================
``chase``   a winner's seat (game over; each seat of a draw too)
``off``     an out seat (``alive`` false), every seat after an abort or a game with no winner
``pulse``   the seat must answer (listed in ``answer``: a question, a reaction window)
``blink``   the active seat on an extra turn (CW-3.4, CW-6.3): fast blink
``solid``   the active seat
``dim``     any other seat still in the game
``fault``   every seat while the daemon has a fault (slow blink; the status LED is red)
==========  =====================================================================
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

SEAT_PATTERNS = ("off", "dim", "solid", "blink", "pulse", "chase", "fault")
STATUS_MODES = ("ok", "waiting", "fault")
ANIMATED = frozenset({"blink", "pulse", "chase", "fault"})

DIM_LEVEL = 0.08
BLINK_PERIOD_S = 0.25  # fast blink, 4 Hz: "you play again"
PULSE_PERIOD_S = 1.2  # slow breathing: "answer on your phone"
CHASE_STEP_S = 0.15  # winners light one after another, then a dark step
FAULT_PERIOD_S = 1.0

STATUS_COLOURS: dict[str, tuple[float, float, float]] = {
    "ok": (0.0, 1.0, 0.0),  # green
    "waiting": (1.0, 0.5, 0.0),  # amber: waiting for a sensor / the striker base
    "fault": (1.0, 0.0, 0.0),  # red
}


class LedPlanError(ValueError):
    """A malformed public state or plan; the message is one line naming the field."""


def _seat(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise LedPlanError(f"led plan: {where} must be a seat number, got {value!r}")
    return value


def _seat_list(value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise LedPlanError(f"led plan: {where} must be a list of seats, got {value!r}")
    return [_seat(v, f"{where}[{i}]") for i, v in enumerate(value)]


def _optional_dict(state: Mapping[str, Any], key: str) -> dict[str, Any] | None:
    value = state.get(key)
    if value is not None and not isinstance(value, dict):
        raise LedPlanError(f"led plan: {key} must be an object or null, got {value!r}")
    return value


def _winners(winner: Any) -> list[int] | None:
    if winner is None:
        return None
    if isinstance(winner, dict):
        if set(winner) != {"draw"}:
            raise LedPlanError(f"led plan: winner must be null, a seat list or {{'draw': [...]}}, got {winner!r}")
        return _seat_list(winner["draw"], "winner.draw")
    return _seat_list(winner, "winner")


def _answering(view: Mapping[str, Any]) -> set[int]:
    """Seats that must answer (a question, a reaction window, …)."""
    return set(_seat_list(view.get("answer") or [], "answer"))


def led_plan(
    public_state: Mapping[str, Any] | None,
    *,
    fault: str | None = None,
    waiting: str | None = None,
    seats: Iterable[int] = (),
) -> dict[str, Any]:
    """Map a table view (any game's ``table_view``) to what each seat LED and the status LED show.

    ``seats`` adds seats that have an LED but no player (they show ``off``), so a fault lights
    every LED. ``fault`` wins over ``waiting``. A malformed state raises :class:`LedPlanError`.
    """
    if public_state is not None and not isinstance(public_state, Mapping):
        raise LedPlanError(f"led plan: public state must be an object or null, got {type(public_state).__name__}")
    for name, text in (("fault", fault), ("waiting", waiting)):
        if text is not None and (not isinstance(text, str) or not text.strip()):
            raise LedPlanError(f"led plan: {name} must be a non-empty message or None, got {text!r}")
    shown: dict[int, str] = {_seat(s, "seats[]"): "off" for s in seats}
    if public_state is not None:
        shown.update(_game_patterns(public_state))
    plan: dict[str, Any] = {"seats": {}, "status": "ok"}
    if fault is not None:
        plan["status"], plan["fault"] = "fault", fault
        shown = dict.fromkeys(shown, "fault")
    elif waiting is not None:
        plan["status"], plan["waiting"] = "waiting", waiting
    plan["seats"] = {str(s): shown[s] for s in sorted(shown)}
    return plan


def _game_patterns(state: Mapping[str, Any]) -> dict[int, str]:
    players = state.get("players", [])
    if not isinstance(players, list):
        raise LedPlanError(f"led plan: players must be a list, got {players!r}")
    alive: dict[int, bool] = {}
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            raise LedPlanError(f"led plan: players[{i}] must be an object, got {p!r}")
        alive[_seat(p.get("seat"), f"players[{i}].seat")] = p.get("alive", True) is not False
    turn = _optional_dict(state, "turn")
    active = _seat(turn.get("seat"), "turn.seat") if turn else None
    answering = _answering(state)
    winners = _winners(state.get("winner"))
    phase = state.get("phase")
    if phase is not None and not isinstance(phase, str):
        raise LedPlanError(f"led plan: phase must be a string, got {phase!r}")

    if winners is not None:  # CW-4 / CP-5.4: the game is decided
        return {s: "chase" if s in winners else "off" for s in alive | dict.fromkeys(winners, True)}
    if phase in ("over", "aborted"):
        return dict.fromkeys(alive, "off")
    out: dict[int, str] = {}
    for s, is_alive in alive.items():
        if s in answering:
            out[s] = "pulse"  # answering beats everything else: the game waits for it
        elif not is_alive:
            out[s] = "off"
        elif s == active:
            out[s] = "blink" if turn and turn.get("extra") is True else "solid"
        else:
            out[s] = "dim"
    return out


def check_plan(plan: Any) -> dict[str, Any]:
    """Validate a plan (e.g. one read back from MQTT) before it reaches any LED."""
    if not isinstance(plan, dict) or not isinstance(plan.get("seats"), dict):
        raise LedPlanError(f"led plan: expected {{'seats': {{...}}, 'status': ...}}, got {plan!r}")
    for seat, pattern in plan["seats"].items():
        if not isinstance(seat, str) or not seat.isdigit():
            raise LedPlanError(f"led plan: seat key must be a seat number string, got {seat!r}")
        if pattern not in SEAT_PATTERNS:
            raise LedPlanError(
                f"led plan: seat {seat}: unknown pattern {pattern!r} (expected one of: {', '.join(SEAT_PATTERNS)})"
            )
    if plan.get("status", "ok") not in STATUS_MODES:
        raise LedPlanError(
            f"led plan: unknown status {plan.get('status')!r} (expected one of: {', '.join(STATUS_MODES)})"
        )
    return plan


def seat_level(pattern: str, elapsed: float, chase_index: int = 0, chase_count: int = 1) -> float:
    """Brightness 0..1 of one seat LED ``elapsed`` seconds after its pattern began."""
    elapsed = max(0.0, elapsed)
    if pattern == "off":
        return 0.0
    if pattern == "dim":
        return DIM_LEVEL
    if pattern == "solid":
        return 1.0
    if pattern == "blink":
        return 1.0 if (elapsed % BLINK_PERIOD_S) < BLINK_PERIOD_S / 2 else 0.0
    if pattern == "fault":
        return 1.0 if (elapsed % FAULT_PERIOD_S) < FAULT_PERIOD_S / 2 else 0.0
    if pattern == "pulse":  # starts dim, brightest half a period later
        wave = 0.5 - 0.5 * math.cos(2 * math.pi * elapsed / PULSE_PERIOD_S)
        return DIM_LEVEL + (1.0 - DIM_LEVEL) * wave
    if pattern == "chase":  # steps: each winner in seat order, then one dark step
        step = int(elapsed / CHASE_STEP_S) % (chase_count + 1)
        return 1.0 if step == chase_index else 0.0
    raise LedPlanError(f"led plan: unknown pattern {pattern!r}")


def status_colour(plan: Mapping[str, Any] | None) -> tuple[float, float, float]:
    """The status RGB LED colour for a plan (off when there is no plan yet)."""
    if plan is None:
        return (0.0, 0.0, 0.0)
    return STATUS_COLOURS[plan.get("status", "ok")]
