"""The table: the current game, its inputs, undo, duplicate ids, and the journal.

This is the daemon's core without any I/O but the journal: a command goes in, a result comes
out, and when the command is accepted it is in the journal *before* ``submit`` returns, so the
caller may publish its effects knowing nothing can be lost.
"""

from __future__ import annotations

import hmac
import json
import logging
import os
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from controller.games import Game, GameError, get_game
from controller.games.base import TableView
from controller.journal import Journal, JournalError
from gametable_core.clock import Clock, SystemClock
from gametable_core.said import Said, listing, say

log = logging.getLogger("gametable.table")

CONTROL_TYPES = {"new_game", "undo", "abort", "seat_to_bot", "skip_seat"}
# A host's skip for a seat the game has waited on (docs/phones.md "A seat nobody plays") ends with
# one of these, and makes at most this many moves (a roll, say, then the end of the turn).
PASSING_MOVES = ("pass", "end_turn")
MAX_SKIP_STEPS = 4
# A host's control for one seat: its refusals (a wrong seat, no game being played), in each
# control's own words so the phones can say them in Chinese (docs/i18n.md).
_CONTROL_SEAT_ERRORS: dict[str, tuple[Any, Any]] = {
    "seat_to_bot": (
        lambda seats, got: say("seat_to_bot: 'seat' must be a seat of this game ({seats}), got {got}", seats=seats, got=got),
        lambda phase: say("seat_to_bot: the game is {phase}", phase=phase)),
    "skip_seat": (
        lambda seats, got: say("skip_seat: 'seat' must be a seat of this game ({seats}), got {got}", seats=seats, got=got),
        lambda phase: say("skip_seat: the game is {phase}", phase=phase)),
}
MAX_REMEMBERED_RESULTS = 4096
# No legal input comes near this (a `setup` stacking every card of a deck is < 2 KiB); a bigger one
# is a bug or an attack, and would otherwise sit in the journal and every event forever. (The
# daemon refuses MQTT payloads over its own, larger MAX_COMMAND_BYTES without parsing them.)
MAX_INPUT_BYTES = 16 * 1024
MAX_ERROR_CHARS = 240
MAX_COMMAND_DEPTH = 16  # the deepest legal command (a stacked setup) is 4 levels
# A snapshot (the effective inputs, see Table.snapshot) goes into the journal with every new_game
# and after this many inputs of one long game, so a start replays at most about this many.
SNAPSHOT_EVERY = 2000
SNAPSHOT_VERSION = 1


def nesting_depth(value: Any, limit: int) -> int:
    """How deeply lists/objects nest, counted without recursion (junk may be 100 000 deep)."""
    depth, level = 0, [value]
    while level and depth <= limit:
        nxt: list[Any] = []
        for v in level:
            if isinstance(v, dict):
                nxt.extend(v.values())
            elif isinstance(v, list | tuple):
                nxt.extend(v)
        if nxt:
            depth += 1
        level = nxt
    return depth


def _is_unicode(text: str) -> bool:
    """False for a str holding a lone surrogate (JSON's "\\ud800"), which UTF-8 cannot encode."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def short_error(message: str) -> str:
    """One readable line: engines echo the bad value (``got 'xxxx…'``), which may be huge."""
    line = " ".join(message.split())
    if isinstance(message, Said) and line == message and len(line) <= MAX_ERROR_CHARS:
        return message  # keeps its message for phones of every language (docs/i18n.md)
    return line if len(line) <= MAX_ERROR_CHARS else line[: MAX_ERROR_CHARS - 1] + "…"


@dataclass
class Result:
    """What happened to one command; ``to_json`` is the ``cmd/result`` payload."""

    id: Any
    ok: bool
    error: str | None = None
    duplicate: bool = False
    input: dict[str, Any] | None = None
    seq: int | None = None
    effects: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "ok": self.ok}
        if self.error is not None:
            out["error"] = self.error
            if isinstance(self.error, Said):
                out["error_msg"] = self.error.msg  # an addition: "error" stays as it was
        if self.duplicate:
            out["duplicate"] = True
        return out


def check_command(cmd: Any) -> dict[str, Any]:
    """The envelope every command shares: a JSON object with a string ``type``."""
    if not isinstance(cmd, dict):
        raise GameError(f"a command must be a JSON object, got {type(cmd).__name__}")
    kind = cmd.get("type")
    if not isinstance(kind, str) or not kind:
        raise GameError("a command needs a 'type' (e.g. \"shot\", \"new_game\")")
    if len(kind) > 40:
        raise GameError(f"'type' must be a command name, got {kind[:37]!r}...")
    cid = cmd.get("id")
    if cid is not None and (isinstance(cid, bool) or not isinstance(cid, str | int) or len(str(cid)) > 128):
        shown = repr(cid) if len(repr(cid)) <= 40 else repr(cid)[:37] + "..."
        raise GameError(f"'id' must be a string or number of at most 128 characters, got {shown}")
    if nesting_depth(cmd, MAX_COMMAND_DEPTH) > MAX_COMMAND_DEPTH:
        raise GameError(f"a command must not nest lists or objects more than {MAX_COMMAND_DEPTH} deep")
    try:
        size = len(json.dumps(cmd, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
    except RecursionError:
        raise GameError("a command must not be nested this deeply") from None
    except (TypeError, ValueError) as exc:  # not JSON data (only possible from Python callers)
        raise GameError(f"a command must be plain JSON data: {exc}") from None
    if size > MAX_INPUT_BYTES:
        raise GameError(f"the command is {size} bytes; the limit is {MAX_INPUT_BYTES}")
    return cmd


def _current_games(inputs: list[dict[str, Any]]) -> int:
    """Where the inputs to keep at a new ``new_game`` begin: the last game's start, when there are
    two games (the new one makes it the game before; older ones go)."""
    starts = [i for i, inp in enumerate(inputs) if inp["type"] == "new_game"]
    return starts[-1] if len(starts) >= 2 else 0


class Table:
    """One table's games. Not thread-safe by itself: the daemon serialises calls."""

    def __init__(self, journal: Journal | None = None, clock: Clock | None = None) -> None:
        self.journal = journal
        self.clock = clock or SystemClock()
        self.game: Game | None = None
        self.state: dict[str, Any] | None = None
        self.inputs: list[dict[str, Any]] = []  # effective inputs (undo pops), all games
        self._bots_for: tuple[int, int] | None = None  # bot_seats()'s cache key
        self._bots: list[int] = []
        self._handed = False  # a seat_to_bot in the current game
        self._results: OrderedDict[str, Result] = OrderedDict()
        self._accepted_ids: set[str] = set()
        self.seq = 0
        self.applied = 0  # journal records the state reflects (what `load` returns)
        self._since_snapshot = 0  # inputs journalled since the last snapshot
        self.game_started_at: float | None = None  # wall time the current game's new_game was accepted
        self._secret: bytes | None = None  # for seeds (see _seed_for); read from the journal's side file once

    # --- loading -----------------------------------------------------------------------------
    def load(self) -> int:
        """Resume after a crash or power cut: from the journal's latest snapshot, then the records
        after it (never all history); returns how many inputs the state reflects."""
        if self.journal is None:
            return 0
        after = 0
        snapshot = self.journal.snapshot()
        if snapshot is not None and self._restore(snapshot[1]):
            after = self.seq = snapshot[0]
        count = 0
        for record in self.journal.records(after):
            try:
                self._apply(record.input, fast=True)
            except GameError as exc:  # an input that was legal when written; code changed since
                log.warning("journal record %d no longer applies (%s); skipped", record.seq, exc)
                self.state, self.game = self._rebuild(self.inputs)
                continue
            if record.input.get("type") == "new_game":
                self.game_started_at = record.ts
            self.seq = record.seq
            count += 1
        self.applied += count
        self._since_snapshot = count
        if count >= SNAPSHOT_EVERY:  # a journal from before snapshots, or a long game: the next start is quick
            self.journal.save_snapshot(self.seq, self.snapshot())
            self._since_snapshot = 0
        return self.applied

    def snapshot(self, inputs: list[dict[str, Any]] | None = None, started_at: float | None = None) -> dict[str, Any]:
        """What a start needs to go on without replaying history: the effective inputs (the current
        game and the one before it: undo may step back into it), as they are now or as ``inputs``."""
        return {"v": SNAPSHOT_VERSION, "inputs": self.inputs if inputs is None else inputs,
                "game_started_at": self.game_started_at if started_at is None else started_at,
                "applied": self.applied}

    def _restore(self, snap: dict[str, Any]) -> bool:
        """Take a snapshot's inputs and replay them (undo's own replay); False: replay the journal."""
        inputs = snap.get("inputs")
        if snap.get("v") != SNAPSHOT_VERSION or not isinstance(inputs, list) \
                or not all(isinstance(i, dict) and isinstance(i.get("type"), str) for i in inputs):
            log.warning("journal snapshot is not one this version reads; replaying the whole journal")
            return False
        try:
            self.state, self.game = self._rebuild(inputs)
        except GameError as exc:  # the rules changed since it was written
            log.warning("journal snapshot no longer applies (%s); replaying the whole journal", exc)
            self.state = self.game = None
            return False
        self.inputs = list(inputs)
        started = snap.get("game_started_at")
        self.game_started_at = float(started) if isinstance(started, int | float) else None
        applied = snap.get("applied")
        self.applied = applied if isinstance(applied, int) else 0
        return True

    # --- commands ----------------------------------------------------------------------------
    def submit(self, cmd: Any) -> Result:
        """Validate and apply one command; journal it if accepted. Never raises for bad input."""
        cid = cmd.get("id") if isinstance(cmd, dict) else None
        key = None if cid is None or isinstance(cid, bool) or not isinstance(cid, str | int) else str(cid)
        if key is not None and not _is_unicode(key):  # a lone surrogate: no journal or topic can hold it
            return Result(cid, False, short_error(
                f"'id' must be valid Unicode text; it contains a lone surrogate: {ascii(key)}"))
        if key is not None:
            if key in self._results:
                old = self._results[key]
                return Result(old.id, old.ok, old.error, duplicate=True, input=old.input, seq=old.seq)
            try:
                seen = key in self._accepted_ids or (self.journal is not None and self.journal.has_id(key))
            except JournalError as exc:
                log.error("%s", exc)
                return Result(cid, False, short_error(say(
                    "the table could not read its journal, so this input was not applied ({detail})", detail=str(exc))))
            if seen:
                return Result(cid, True, duplicate=True)
        try:
            check_command(cmd)
            inp = self._normalise(cmd)
            state, game = self._preview(inp)
        except GameError as exc:
            return self._remember(key, Result(cid, False, short_error(exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc))))
        except Exception as exc:  # a bug must not take the table down; report it precisely
            log.exception("engine failure on %s", short_error(repr(cmd)))
            return self._remember(key, Result(cid, False, short_error(f"internal error: {type(exc).__name__}: {exc}")))
        seq = self.seq + 1
        now = self.clock.wall()
        if self.journal is not None:
            try:
                seq = self.journal.append(inp, now, key, self._snapshot_with(inp, now))
            except JournalError as exc:  # disk full, card gone: refuse loudly, and let a retry work
                log.error("%s", exc)
                return Result(cid, False, short_error(say(
                    "the table could not record this input, so it was not applied ({detail}); try again",
                    detail=str(exc))))
        self.seq = seq
        self.applied += 1
        self._since_snapshot = 0 if inp["type"] == "new_game" or self._since_snapshot + 1 >= SNAPSHOT_EVERY \
            else self._since_snapshot + 1
        if inp["type"] == "new_game":
            self.game_started_at = now
        self._commit(inp, state, game)
        if key is not None and self.journal is None:  # with a journal, its index answers duplicates
            self._accepted_ids.add(key)
        effects = list(state.get("last", [])) if state else []
        # not _remember'ed: `_accepted_ids` answers its duplicates, so the bounded memory of
        # results holds only refusals (a long-running daemon grew ~1 KiB per input otherwise)
        return Result(cid, True, input=inp, seq=seq, effects=effects)

    def _snapshot_with(self, inp: dict[str, Any], now: float) -> dict[str, Any] | None:
        """The snapshot to journal with ``inp`` (the table as it will be after it), or None."""
        if inp["type"] != "new_game" and self._since_snapshot + 1 < SNAPSHOT_EVERY:
            return None
        if inp["type"] == "undo":
            after = self.inputs[:-1]
        else:
            after = self.inputs[_current_games(self.inputs) if inp["type"] == "new_game" else 0:] + [inp]
        snap = self.snapshot(after, now if inp["type"] == "new_game" else None)
        snap["applied"] = self.applied + 1
        return snap

    def _remember(self, key: str | None, result: Result) -> Result:
        if key is not None:
            self._results[key] = result
            while len(self._results) > MAX_REMEMBERED_RESULTS:
                self._results.popitem(last=False)
        return result

    def _normalise(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """Make the input replayable: a ``new_game`` without a seed gets one now, recorded."""
        inp = dict(cmd)
        if inp["type"] == "new_game" and inp.get("seed") is None:
            inp["seed"] = self._seed_for(inp.get("id"))
        return inp

    def _seed_for(self, cid: Any) -> int:
        """A seed nobody can predict, yet the same for the same command id: HMAC(table secret, id).

        If the journal drops a torn last record, the phone's retry (same id) is applied again; a
        fresh random seed would then deal different hidden cards than the ones players already saw.
        """
        if cid is None or isinstance(cid, bool) or not isinstance(cid, str | int):
            return int.from_bytes(os.urandom(4), "big")
        if self._secret is None:
            self._secret = self.journal.secret() if self.journal is not None else os.urandom(32)
        digest = hmac.digest(self._secret, b"new_game seed\0" + str(cid).encode("utf-8"), "sha256")
        return int.from_bytes(digest[:4], "big")

    # --- applying ----------------------------------------------------------------------------
    def _preview(self, inp: dict[str, Any]) -> tuple[dict[str, Any] | None, Game | None]:
        """The state after ``inp``, without changing the table; GameError if illegal."""
        kind = inp["type"]
        if kind == "new_game":
            game = get_game(inp.get("game"))
            state = game.new(
                inp.get("options") or {}, inp["seed"], players=inp.get("players"),
                mode=inp.get("mode"), order=inp.get("order"),
            )
            return state, game
        if kind == "undo":
            return self._undone()
        if self.state is None or self.game is None:
            raise GameError(say("no game in progress: start one with new_game before {command}", command=repr(kind)))
        if kind == "seat_to_bot":
            return self._seat_to_bot(inp), self.game
        if kind == "skip_seat":
            return self._skip_seat(inp), self.game
        if kind == "abort":
            if self.state.get("phase") != "playing":
                raise GameError(say("the game is already {phase}; nothing to abort", phase=str(self.state.get("phase"))))
            state = dict(self.state, phase="aborted", turn=None)
            state["last"] = [{"kind": "aborted"}]
            return state, self.game
        if self.state.get("phase") == "aborted":
            raise GameError(say("the game was aborted; start a new game"))
        return self.game.apply(self.state, inp), self.game

    def _seat_to_bot(self, inp: dict[str, Any]) -> dict[str, Any]:
        """The host hands a seat whose phone is gone to a bot (docs/phones.md "A seat nobody
        plays"): the game's state stays as it is; the table notes the seat as a bot seat from now on
        (:meth:`bot_seats`, replayed from the journal like any input)."""
        assert self.state is not None
        seat = self._control_seat(inp)
        if seat in self.bot_seats():
            raise GameError(say("seat_to_bot: a bot plays seat {seat} already", seat=seat))
        return dict(self.state, last=[{"kind": "seat_to_bot", "seat": seat}])

    def _skip_seat(self, inp: dict[str, Any]) -> dict[str, Any]:
        """The host passes for a seat the game has waited on too long (docs/phones.md "A seat
        nobody plays"). The game's ``describe()["skip"]`` lists, in order of preference, the moves
        that get a seat past its answer or turn without a choice only its player can make (e.g.
        ``pass``, ``end_turn``, ``keep``, ``roll``). They are made for the seat, each where
        ``legal()`` offers it with nothing to choose, until a ``pass`` or an ``end_turn`` has passed
        the seat by; where the rules leave no such way (a turn that must be an action, discards
        only the player may choose) nothing changes. Replayed like any input: legal() is pure."""
        assert self.state is not None and self.game is not None
        seat = self._control_seat(inp)
        order = list(self.game.describe().get("skip") or [])
        state, effects, last = self.state, list[dict[str, Any]](), None
        for _ in range(MAX_SKIP_STEPS):
            last = _first_free_move(self.game.legal(state, seat), order)
            if last is None:
                break
            state = self.game.apply(state, {"type": "move", "seat": seat, "move": last})
            effects += state.get("last") or []
            if last in PASSING_MOVES:
                break
        if last not in PASSING_MOVES or seat in _waited_seats(self.game.table_view(state)):
            raise GameError(say("skip_seat: seat {seat} has no answer to pass or turn to end now; a bot may play it, or end the game",
                                seat=seat))
        return dict(state, last=[{"kind": "skipped", "seat": seat, "move": last}, *effects])

    def _control_seat(self, inp: dict[str, Any]) -> int:
        """The ``seat`` of a host's control for one seat of the game being played; GameError else."""
        assert self.state is not None
        seat = inp.get("seat")
        bad_seat, not_playing = _CONTROL_SEAT_ERRORS[inp["type"]]
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in self.seats():
            raise GameError(bad_seat(listing(self.seats()), repr(seat)))
        if self.state.get("phase") != "playing":
            raise GameError(not_playing(str(self.state.get("phase"))))
        return seat

    def bot_seats(self) -> list[int]:
        """The seats bots play in the current game: its ``new_game``'s ``"bot": true`` players and
        every seat the host handed over since (``seat_to_bot``). Cached per input list."""
        key = (len(self.inputs), id(self.inputs[-1]) if self.inputs else 0)
        grown = self._bots_for is not None and key[0] == self._bots_for[0] + 1 and key[0] >= 2 \
            and id(self.inputs[-2]) == self._bots_for[1]
        if grown and self.inputs[-1]["type"] not in ("seat_to_bot", "new_game"):
            self._bots_for = key  # one more ordinary input: the same seats (no rescan on the hot path)
        elif self._bots_for != key:
            seats: set[int] = set()
            handed = False
            for inp in reversed(self.inputs):
                if inp["type"] == "seat_to_bot":
                    seats.add(inp["seat"])
                    handed = True
                elif inp["type"] == "new_game":
                    seats.update(p["seat"] for p in inp.get("players") or []
                                 if isinstance(p, dict) and p.get("bot") is True and isinstance(p.get("seat"), int))
                    break
            self._bots_for, self._bots, self._handed = key, sorted(seats), handed
        return self._bots

    def _undone(self) -> tuple[dict[str, Any] | None, Game | None]:
        """Undo = drop the last effective input and replay (docs/architecture.md)."""
        if not self.inputs:
            raise GameError(say("nothing to undo"))
        return self._rebuild(self.inputs[:-1])

    def _rebuild(self, inputs: list[dict[str, Any]]) -> tuple[dict[str, Any] | None, Game | None]:
        start = max((i for i, inp in enumerate(inputs) if inp["type"] == "new_game"), default=None)
        if start is None:
            return None, None
        game = get_game(inputs[start].get("game"))
        scratch = Table(None, self.clock)
        for inp in inputs[start:]:
            scratch._apply(inp, fast=True)
        return scratch.state, game

    def _commit(self, inp: dict[str, Any], state: dict[str, Any] | None, game: Game | None) -> None:
        if inp["type"] == "undo":
            self.inputs.pop()
        else:
            if inp["type"] == "new_game":
                self._forget_old_games()
            self.inputs.append(inp)
        self.state, self.game = state, game

    def _forget_old_games(self) -> None:
        """Keep the inputs of the current game and the one before it only.

        Undo may step back over a ``new_game`` into the previous game, but not further: a table
        that runs for weeks must not hold every input it ever saw in memory (the journal has them).
        """
        del self.inputs[: _current_games(self.inputs)]

    def _apply(self, inp: dict[str, Any], fast: bool = False) -> None:
        """Apply an already-accepted input (journal replay): in place where the game allows it."""
        kind = inp.get("type")
        if fast and kind not in CONTROL_TYPES and self.game is not None and self.state is not None \
                and self.state.get("phase") != "aborted":
            self.state = self.game.apply_in_place(self.state, inp)
            self.inputs.append(inp)
            return
        state, game = self._preview(inp)
        self._commit(inp, state, game)

    def running_since(self) -> dict[str, float]:
        """Deadline ids the current game has had since its ``new_game``, with the wall time it was
        accepted: after a restart these (a game clock) keep counting from the game's start,
        while any other deadline (a reaction window) starts again in full."""
        if self.state is None or self.game is None or self.game_started_at is None:
            return {}
        opening = self.opening()
        if opening is None:
            return {}
        try:
            first, _ = self._preview(opening)
        except GameError:
            return {}
        if first is None:
            return {}
        current = {d[0] for d in self.game.deadlines(self.state)}
        return {d[0]: self.game_started_at for d in self.game.deadlines(first) if d[0] in current}

    def opening(self) -> dict[str, Any] | None:
        """The current game's ``new_game`` input (None before the first game)."""
        return next((inp for inp in reversed(self.inputs) if inp["type"] == "new_game"), None)

    # --- views -------------------------------------------------------------------------------
    def public_view(self) -> dict[str, Any] | None:
        if self.state is None or self.game is None:
            return None
        view = self.game.view(self.state, None)
        self.bot_seats()  # refreshes the cache and ``_handed``
        if self._handed:
            view = {**view, "bots": self._bots}  # an addition, only once a seat was handed over
        return view

    def seat_view(self, seat: int) -> dict[str, Any] | None:
        if self.state is None or self.game is None:
            return None
        return self.game.view(self.state, seat)

    def seats(self) -> list[int]:
        """The seats of the current game (from its table view: the table knows no game's keys)."""
        if self.state is None or self.game is None:
            return []
        return [p["seat"] for p in self.game.table_view(self.state)["players"]]


def _first_free_move(legal: dict[str, Any], order: list[str]) -> str | None:
    """The first of ``order`` that ``legal`` offers with nothing to choose (its other fields are
    all false or empty, like ``{"move": "roll", "value": false}``)."""
    free = {m.get("move") for m in legal.get("moves") or []
            if isinstance(m, dict) and not any(v for k, v in m.items() if k != "move")}
    return next((m for m in order if m in free), None)


def _waited_seats(table_view: TableView) -> set[int]:
    """The seats a game waits on: whose turn it is, and who may answer."""
    turn = table_view["turn"]
    return ({turn["seat"]} if turn else set()) | set(table_view["answer"])
