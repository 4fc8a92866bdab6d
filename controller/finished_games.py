"""Every finished game in the table's journal, and the venue's fetch of the ones it missed.

A venue learns a result from the table's bridged ``state``, but a bridge's queue is bounded
(Mosquitto drops the newest messages once it is full), so after a long outage the final states are
exactly what is lost. The table's journal is the truth: when a game ends, its final public state
goes into the journal's ``finished`` table (keyed by its ``new_game``'s seq), and the venue asks for
what ended after the last one it has (``gametable/T/sync`` in, ``gametable/T/results`` out;
docs/architecture.md, MQTT; hardware_docs/multi_table.md).

Pure bookkeeping over the journal: the daemon calls ``note`` under its input lock after every
accepted input (and once at start, for a crash between the input and this record), so a result is
in the journal before the state that shows it is published.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller.journal import Journal, JournalError

log = logging.getLogger("gametable.finished")
PAGE_GAMES = 20  # games per answer at most ...
PAGE_BYTES = 128 * 1024  # ... and this many bytes of them (the brokers refuse packets over 256 KiB)


class SyncRequestError(ValueError):
    """A sync request this table cannot answer; one line. ``ident``: its id, when that was valid."""

    def __init__(self, message: str, ident: Any = None) -> None:
        super().__init__(message)
        self.ident = ident


@dataclass
class _Opening:
    """The current game's ``new_game`` as the journal holds it."""

    input: dict[str, Any]
    seq: int
    ts: float
    recorded: bool


class FinishedGames:
    """``show``: a ``new_game`` input's public form (who plays what, the seats' venue tickets, never
    a seed or a stacked deck), asked only when a game is recorded."""

    def __init__(self, journal: Journal, show: Callable[[dict[str, Any]], dict[str, Any] | None]) -> None:
        self.journal = journal
        self.show = show
        self._opening: _Opening | None = None

    def note(self, opening: dict[str, Any] | None, public: dict[str, Any] | None) -> None:
        """Record the current game once it has a winner; forget it again if an undo took the win back.

        ``opening``: the current game's ``new_game`` input as journalled."""
        if opening is None or public is None:
            return
        try:
            current = self._current(opening)
            if current is None:
                return
            won = public.get("winner") is not None
            if won and not current.recorded:
                record = {"game_seq": current.seq, "ts": current.ts, "id": opening.get("id"),
                          "opening": self.show(opening), "state": public}
                self.journal.put_finished(current.seq, self.journal.last_seq, record)
                current.recorded = True
            elif not won and current.recorded:  # an undo took the winning input back
                self.journal.drop_finished(current.seq)
                current.recorded = False
        except JournalError as exc:  # the input itself is durable; a later start records the result
            log.error("%s (the venue may miss this game's result until the table restarts)", exc)

    def _current(self, opening: dict[str, Any]) -> _Opening | None:
        if self._opening is not None and self._opening.input is opening:
            return self._opening
        cmd_id = opening.get("id")
        found = self.journal.opening(None if cmd_id is None else str(cmd_id), opening)
        if found is None:
            return None
        seq, ts = found
        self._opening = _Opening(opening, seq, ts, self.journal.has_finished(seq))
        return self._opening

    def answer(self, payload: bytes, state: dict[str, Any] | None) -> dict[str, Any]:
        """The ``results`` answer to one ``sync`` request: the games that ended after its ``after``
        (a page; ``more`` when the venue should ask again from the last one's ``end``), the newest
        ``end`` held (below ``after``: the table's journal was replaced, ask from 0), the table's
        current public state (the bridge may have dropped the newest one) and the journal's seq now
        (``seq``: events up to it are a backlog the venue has covered)."""
        ident: Any = None
        try:
            request = parse_request(payload)
            ident = request["id"]
            rows, newest = self.journal.finished_after(request["after"], PAGE_GAMES)
        except SyncRequestError as exc:
            return {"id": exc.ident, "ok": False, "error": str(exc)}
        except JournalError as exc:
            return {"id": ident, "ok": False, "error": str(exc)}
        games: list[dict[str, Any]] = []
        size = 0
        for end, record in rows:
            size += len(json.dumps(record, separators=(",", ":")))
            if games and size > PAGE_BYTES:
                break
            games.append({**record, "end": end})
        more = len(games) < len(rows) or (bool(games) and games[-1]["end"] < newest)
        return {"id": ident, "ok": True, "games": games, "more": more, "newest": newest, "state": state,
                "seq": self.journal.last_seq}


def parse_request(payload: bytes) -> dict[str, Any]:
    """``{"id": <str|int>, "after": <int >= 0>}``; SyncRequestError names what is wrong."""
    try:
        request = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise SyncRequestError(f"a sync request must be JSON: {str(exc)[:120]}") from None
    if not isinstance(request, dict):
        raise SyncRequestError("a sync request must be a JSON object {\"id\", \"after\"}")
    ident = request.get("id")
    if isinstance(ident, bool) or not isinstance(ident, str | int) or len(str(ident)) > 200:
        raise SyncRequestError("a sync request needs an 'id' (text or a number, at most 200 characters)")
    after = request.get("after", 0)
    if isinstance(after, bool) or not isinstance(after, int) or after < 0:
        raise SyncRequestError(f"'after' must be a journal seq (a whole number >= 0), got {after!r}", ident)
    return {"id": ident, "after": after}

