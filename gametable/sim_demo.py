"""`make demo` (``gametable sim --bots 1``) and the bots' own games of ``gametable sim``.

Why a module of its own: what the table plays when nobody drives it (the demo's slow bot game until
a phone takes a seat, ``--bots N``'s game, ``--headless`` runs) is policy on top of the
:class:`~gametable.sim_table.VirtualTable`, apart from the CLI wiring and the MQTT loop.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from controller.bot_runner import BotRunner
from controller.command_ids import new_id
from gametable import bot_game
from gametable.sim_table import VirtualTable


def play_headless(table: VirtualTable, runner: BotRunner, args: argparse.Namespace, seats: list[int],
                   seed: int) -> int:
    """``--headless``: play ``--games`` bot games to their end, printing each final state."""
    import json

    for game in range(max(1, args.games)):
        if not (game == 0 and in_progress(table)) and \
                not _start_bot_game(table, seats, args.game, bot_game.mode_for(args.game, args.mode), seed + game):
            return 1
        for _ in range(5000):
            if not runner.poll() + table.play_bots():
                break
        print(json.dumps(table.state(), sort_keys=True), flush=True)
    return 0


def first_game(table: VirtualTable, panel: Any, args: argparse.Namespace, bots: set[int], seed: int,
                demo_mode: bool) -> Demo | None:
    """What the table shows at start: the game in progress in the journal (a restart plays on), else
    the demo's bot game (``--bots 1``), or ``--bots N``'s game."""
    resumed = in_progress(table)
    if demo_mode:
        demo = Demo(panel.app.extensions["gametable"]["seats"].taken, seed, args.game, args.mode)
        if resumed:
            demo.resume(table)
        else:
            demo.start(table)
            print("demo: two bots play on the table view; join a seat on a phone to play against a bot", flush=True)
        return demo
    if resumed:
        print("sim: the game in progress goes on (from the journal)", flush=True)
    elif bots:
        _start_bot_game(table, sorted(bots), args.game, bot_game.mode_for(args.game, args.mode), seed)
    return None


def in_progress(table: VirtualTable) -> bool:
    """A game the journal left unfinished (a restart of `make demo` must not replace it)."""
    return (table.state() or {}).get("phase") == "playing"


class Demo:
    """`make demo` (``--bots 1``): a slow game of two bots on the table view until a phone holds a
    seat, then that seat against one bot (``--game``, in ``--mode`` if two can play it, else the
    game's first two-player mode). Driven by :func:`gametable.sim_serve.serve`'s loop."""

    SHOW_PAUSE_S = 1.5  # between two bot moves while nobody plays: slow enough to watch
    PLAY_PAUSE_S = 0.8  # the bot's moves against you: you see what it did

    def __init__(self, taken: Callable[[], list[int]], seed: int, game: str,
                 mode: str | None = None) -> None:
        self.taken, self.seed, self.game = taken, seed, game
        self.mode = bot_game.mode_for(game, mode, players=2)  # a mode two players can play
        self.games = 0
        self.playing = False  # True once a phone's seat plays against the bot

    def start(self, table: VirtualTable) -> None:
        """A bot game to watch (again when one ends, while nobody has joined)."""
        self.games += 1
        table.bot_pause_s = self.SHOW_PAUSE_S
        _start_bot_game(table, [1, 2], self.game, self.mode, self.seed + self.games)

    def resume(self, table: VirtualTable) -> None:
        """The journal's game goes on: a bot game is watched again, a phone's game is played on."""
        players = (table.state() or {}).get("players") or []
        people = [p.get("seat") for p in players if isinstance(p, dict) and p.get("seat") not in table.bots]
        self.playing = bool(people)
        table.bot_pause_s = self.PLAY_PAUSE_S if self.playing else self.SHOW_PAUSE_S
        bots = [p.get("seat") for p in players if isinstance(p, dict) and p.get("seat") in table.bots]
        seats = f"seat{'s' if len(people) > 1 else ''} {', '.join(str(s) for s in people)}"
        against = (" against a bot" if len(bots) == 1 else f" against {len(bots)} bots") if bots else ""
        who = f"{seats}{against}" if people else "two bots"  # what is really seated: no bot named when none plays
        print(f"demo: the game in progress goes on ({who}); a restart never replaces it", flush=True)

    def step(self, table: VirtualTable) -> None:
        if self.playing:
            return
        seats = sorted(self.taken())
        if not seats:
            if (table.state() or {}).get("phase") in ("over", "aborted"):
                self.start(table)
            return
        state = table.state() or {}
        played = {p.get("seat") for p in state.get("players") or [] if isinstance(p, dict)} - table.bots
        if state.get("phase") == "playing" and played & set(seats):
            # a phone's seat plays already (its guided first game, or the host's game): that game stays
            self.playing = True
            table.bot_pause_s = self.PLAY_PAUSE_S
            return
        you = seats[0]
        bot = next(s for s in range(1, 7) if s != you)
        players = [{"seat": you, "name": f"Seat {you}"}, {"seat": bot, "name": "Bot", "bot": True}]
        result = table.submit(bot_game.new_game(self.game, players, mode=self.mode, seed=None))
        if result.get("ok"):
            self.playing = True
            table.bot_pause_s = self.PLAY_PAUSE_S
            print(f"demo: seat {you} plays against a bot on seat {bot}", flush=True)


def _start_bot_game(table: VirtualTable, seats: list[int], game: str, mode: str | None, seed: int) -> bool:
    """A game of bots on ``seats``, as the game declares one (:mod:`gametable.bot_game`)."""
    players = [{"seat": s, "name": f"Bot {s}", "bot": True} for s in seats]
    r = table.submit({**bot_game.new_game(game, players, mode=mode, seed=seed), "id": new_id("sim-new-game")})
    if not r.get("ok"):
        print(f"sim error: new game rejected: {r.get('error')}")
        return False
    table.sync()
    return True
