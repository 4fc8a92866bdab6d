"""Readable log lines shared by every game's ``words`` ("Ann's turn", "Game over: Bo wins").

A game's ``words(inp, effects, state)`` turns the effects of one input into sentences for the
table log (published on ``events`` as ``"words"``). Everything here reads only what is public:
``inp`` as :func:`public_input` shows it, the effects as ``events`` carries them, and the public
view after the input — so a sentence can never name a hidden card. Each game says its own
effects (``controller/games/<game>/words.py``); this module holds the lines all games share and
a generic line for any effect a game has no words for, so the log never drops an event silently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from gametable_core.effect_line import Who, effect_line, seat_names
from gametable_core.said import listing, say, term

# One game's sentence for one effect: a line, "" for no line, or None when the effect is not the
# game's own (then the shared words say it).
GameLine = Callable[[dict[str, Any], "Speaker"], str | None]


class Speaker:
    """Names seats and coins for one input's sentences, and keeps what earlier effects of the same
    input said (Coin War's shot tells the goal line who shot)."""

    def __init__(self, players: Iterable[Any], inp: dict[str, Any]) -> None:
        listed = list(players)
        self.names = seat_names(inp, listed, lambda n: say("Seat {n}", n=n))
        self.coin_owner: dict[str, int] = {}
        for p in listed:
            if isinstance(p, dict) and p.get("coin"):
                self.coin_owner[p["coin"]] = p["seat"]
        self.notes: dict[str, Any] = {}

    def who(self, seat: Any) -> str:
        if isinstance(seat, int) and not isinstance(seat, bool):
            return self.names.get(seat) or say("Seat {n}", n=seat)
        return str(seat)

    def coin(self, coin: Any) -> str:
        owner = self.coin_owner.get(coin)
        return say("{who}'s coin", who=self.who(owner)) if owner is not None else say("coin {coin}", coin=coin)


def narrate(inp: dict[str, Any] | None, effects: Any, state: dict[str, Any] | None,
            game_line: GameLine | None = None, titles: dict[str, str] | None = None) -> list[str]:
    """One short sentence per effect, in order: the game's own line first, then the shared ones
    (new game, turn, out, game over, aborted), then a generic line. ``titles`` names the game's
    modes ("ffa" -> "Free-for-all")."""
    inp = inp if isinstance(inp, dict) else {}
    players = (state or {}).get("players") if isinstance(state, dict) else None
    speak = Speaker(players if isinstance(players, list) else [], inp)
    lines: list[str] = []
    for eff in effects if isinstance(effects, list) else []:
        if not isinstance(eff, dict) or not isinstance(eff.get("kind"), str):
            continue
        line = game_line(eff, speak) if game_line else None
        if line is None:
            line = shared_line(eff, speak, inp, titles or {})
        if line:
            lines.append(line)
    if not lines and inp.get("type") == "undo":
        lines.append(say("Undo: the last input was taken back"))
    return lines


def shared_line(eff: dict[str, Any], speak: Speaker, inp: dict[str, Any], titles: dict[str, str]) -> str:
    """The effects every game may emit, else a generic line."""
    kind, seat, who = eff["kind"], eff.get("seat"), speak.who
    if kind == "new_game":
        mode = eff.get("mode") or inp.get("game") or ""
        title = titles.get(mode, mode)
        return say("New game: {mode}", mode=term(title)) if title else say("New game:")
    if kind == "turn":
        return say("{who}'s extra turn", who=who(seat)) if eff.get("extra") else say("{who}'s turn", who=who(seat))
    if kind == "out" and eff.get("cause") is None:
        return say("{who} is out of the game", who=who(seat))
    if kind == "game_over":
        return winner_line(eff.get("winner"), who)
    if kind == "aborted":
        return say("The game was aborted")
    if kind == "seat_to_bot":  # the host handed the seat of a phone that is gone to a bot (controller/table.py)
        return say("A bot plays for {who} from now on", who=who(seat))
    if kind == "skipped":  # the host passed for a seat the game waited on too long (controller/table.py)
        if eff.get("move") == "end_turn":
            return say("The host ended {who}'s turn (no phone held the seat)", who=who(seat))
        return say("The host passed for {who} (no phone held the seat)", who=who(seat))
    return generic(eff, who)


def winner_line(winner: Any, who: Who) -> str:
    if isinstance(winner, dict) and "draw" in winner:
        return say("Game over: a draw between {who}", who=listing(who(s) for s in winner["draw"]))
    if isinstance(winner, list) and len(winner) > 1:
        return say("Game over: {who} win", who=listing((who(s) for s in winner), " and "))
    if isinstance(winner, list) and winner:
        return say("Game over: {who} wins", who=who(winner[0]))
    return say("Game over")


def generic(eff: dict[str, Any], who: Who) -> str:
    """Any other effect: ``Ann: steal (target Bo)`` — readable enough for a game without words."""
    return effect_line(eff, who)


def mode_titles(description: dict[str, Any]) -> dict[str, str]:
    """Mode name -> title from a game's ``describe()``."""
    return {m["mode"]: m.get("title") or m["mode"] for m in description.get("modes", [])}
