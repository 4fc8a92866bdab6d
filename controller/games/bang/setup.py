"""A fresh Bang! state from ``new_game`` (BG-1, BG-8.1-8.3, BG-8.14), every field checked first.

``options.setup`` stacks the game for tests: ``roles``, ``characters``, ``life``, ``hands``,
``in_play``, ``deck`` (top first: these cards lie on top, the unused rest is shuffled below them)
and ``first``. Unstacked hands are dealt from the shuffled rest, never from the stacked top.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from controller.games import rng
from controller.games.bang import cards as C
from controller.games.base import GameError, State
from controller.games.players import (
    check_mode_and_seed,
    check_players,
    check_seconds,
    check_setup,
    name_of,
    setup_per_seat,
)

PLAYERS = (4, 6)  # BG-8.1
DEFAULT_TIMEOUT_S = 15  # BG-7
OPTION_DEFAULTS: dict[str, Any] = {
    "timeout_s": DEFAULT_TIMEOUT_S,
    "auto_pass": "empty",
    "seed_deck": False,
    "jail_discard_down": False,
    "store_counterclockwise": False,
    "saloon_as_beer": False,
}
FLAGS = ("seed_deck", "jail_discard_down", "store_counterclockwise", "saloon_as_beer")
SETUP_KEYS = ("roles", "characters", "life", "hands", "in_play", "deck", "first")

_OPTION_TEXT = {
    "timeout_s": "seconds a response window stays open; no answer takes the hit (BG-7, BG-8.7)",
    "auto_pass": "'empty' skips a window only for an empty hand; 'no_answer' also when no legal answer "
                 "is held (faster, but reveals it) (BG-8.6)",
    "seed_deck": "the seed's deck: 3 Stagecoach and 3 Wells Fargo (BG-8.3)",
    "jail_discard_down": "a jailed player discards down to their life (the seed's way) (BG-8.10)",
    "store_counterclockwise": "General Store picks go counterclockwise (the seed's way) (BG-8.10)",
    "saloon_as_beer": "a Saloon may also be played as a Beer (the seed's way) (BG-8.10)",
}


def describe() -> dict[str, Any]:
    lo, hi = PLAYERS
    options = {k: {"default": v, "description": _OPTION_TEXT[k]} for k, v in OPTION_DEFAULTS.items()}
    return {
        "game": "bang",
        "title": "Bang!",
        "modes": [{
            "mode": "classic",
            "title": "Classic",
            "summary": "Hidden roles: the Sheriff and Deputies against the Outlaws and a Renegade (bang.md).",
            "players": list(range(lo, hi + 1)),
            "teams": False,
            "options": options,
        }],
        "characters": {k: {"life": v["life"], "ability": v["ability"]} for k, v in C.CHARACTERS.items()},
        "cards": {name: {"title": t, "blue": name in C.BLUE, "range": C.WEAPON_RANGE.get(name)}
                  for name, t in C.TITLES.items()},
    }




def _options(options: object) -> tuple[dict[str, Any], dict[str, Any]]:
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise GameError("options must be an object")
    unknown = sorted(set(options) - set(OPTION_DEFAULTS) - {"setup"})
    if unknown:
        raise GameError(f"unknown bang option {unknown[0]!r}; known: setup, {', '.join(OPTION_DEFAULTS)}")
    opts = {k: options.get(k, v) for k, v in OPTION_DEFAULTS.items()}
    check_seconds(opts["timeout_s"], "timeout_s")
    if opts["auto_pass"] not in ("empty", "no_answer"):
        raise GameError(f"auto_pass must be 'empty' or 'no_answer', got {opts['auto_pass']!r}")
    for flag in FLAGS:
        if not isinstance(opts[flag], bool):
            raise GameError(f"{flag} must be true or false, got {opts[flag]!r}")
    setup = check_setup(options.get("setup") or {}, SETUP_KEYS)
    return opts, setup


def _roles(state: State, setup: dict[str, Any], seats: list[int]) -> dict[int, str]:
    given = setup_per_seat(setup, "roles", seats)
    pool = Counter(C.role_pool(len(seats)))
    for seat, role in given.items():
        if role not in C.ROLES:
            raise GameError(f"setup.roles: seat {seat}: {role!r} is not one of {', '.join(C.ROLES)}")
    used = Counter(given.values())
    for role, n in used.items():
        if n > pool[role]:
            raise GameError(f"setup.roles: {n} {role}s; {len(seats)} players have {pool[role]} (BG-1)")
    rest = rng.shuffle(state, list((pool - used).elements()))
    roles = dict(given)
    for seat in seats:
        if seat not in roles:
            roles[seat] = rest.pop()
    return roles


def _characters(state: State, setup: dict[str, Any], seats: list[int]) -> dict[int, str]:
    given = setup_per_seat(setup, "characters", seats)
    for seat, ch in given.items():
        if ch not in C.CHARACTERS:
            raise GameError(f"setup.characters: seat {seat}: {ch!r} is not a character (like 'bart_cassidy')")
    if len(set(given.values())) != len(given):
        raise GameError("setup.characters: a character is given twice")
    rest = rng.shuffle(state, [c for c in C.CHARACTERS if c not in given.values()])
    return {s: given.get(s) or rest.pop() for s in seats}


def _card_lists(setup: dict[str, Any], what: str, seats: list[int], known: dict[str, Any]) -> dict[int, list[str]]:
    out = {}
    for seat, cards in setup_per_seat(setup, what, seats).items():
        if not isinstance(cards, list):
            raise GameError(f"setup.{what}: seat {seat} must be a list of card ids")
        out[seat] = [C.check_card(c, f"setup.{what} seat {seat}", known) for c in cards]
    return out


# one check per setup key, in the order BG-8.14 lists them: a reader matches them line by line
def new(options: dict[str, Any] | None, seed: int, *, players: Any, mode: str | None = None,  # noqa: C901
        order: list[int] | None = None) -> State:
    """A fresh game; the first player's turn starts at once (BG-8.14)."""
    from controller.games.bang.flow import start_game

    check_mode_and_seed("bang", mode, ("classic",), seed)
    if not isinstance(players, list):
        raise GameError("players must be a list of {seat, name}")
    lo, hi = PLAYERS
    if not lo <= len(players) <= hi:
        raise GameError(f"bang needs {lo}-{hi} players, got {len(players)} (BG-8.1)")
    people = sorted(({"seat": p["seat"], "name": name_of(p)} for p in check_players(players)),
                    key=lambda p: p["seat"])
    seats = [p["seat"] for p in people]
    if order is not None and list(order) != seats:
        raise GameError(f"bang plays around the table's ring {seats}; order {order!r} is not it (BG-8.2)")
    opts, setup = _options(options)
    state: State = {"rng": rng.seed_state(seed)}
    roles = _roles(state, setup, seats)
    chars = _characters(state, setup, seats)
    ids = C.DECK_IDS + ([c["id"] for c in C.SEED_EXTRA] if opts["seed_deck"] else [])
    known = {c: C.CARD[c] for c in ids}
    hands = _card_lists(setup, "hands", seats, known)
    in_play = _card_lists(setup, "in_play", seats, known)
    top = setup.get("deck") or []
    if not isinstance(top, list):
        raise GameError("setup.deck must be a list of card ids, top first")
    top = [C.check_card(c, "setup.deck", known) for c in top]
    used = [c for h in hands.values() for c in h] + [c for h in in_play.values() for c in h] + top
    twice = [c for c, n in Counter(used).items() if n > 1]
    if twice:
        raise GameError(f"setup uses card {twice[0]} twice")
    for seat, cards in in_play.items():
        names = [C.name(c) for c in cards]
        if len(set(names)) != len(names) or sum(n in C.WEAPON_RANGE for n in names) > 1:
            raise GameError(f"setup.in_play: seat {seat} has two identical blue cards or two weapons (BG-8.11)")
        if any(n not in C.BLUE for n in names):
            raise GameError(f"setup.in_play: seat {seat}: only blue cards lie in play")
        if "jail" in names and roles[seat] == "sheriff":
            raise GameError(f"setup.in_play: seat {seat} is the Sheriff; Jail never goes on the Sheriff (BG-8.11)")
    life_given = setup_per_seat(setup, "life", seats)
    table = []
    for p in people:
        s = p["seat"]
        max_life = C.CHARACTERS[chars[s]]["life"] + (roles[s] == "sheriff")
        life = life_given.get(s, max_life)
        if isinstance(life, bool) or not isinstance(life, int) or not 1 <= life <= max_life:
            raise GameError(f"setup.life: seat {s} must have 1-{max_life} life, got {life!r}")
        table.append({"seat": s, "name": p["name"], "role": roles[s], "character": chars[s], "life": life,
                      "max_life": max_life, "alive": True, "hand": hands.get(s), "in_play": in_play.get(s, [])})
    rest = rng.shuffle(state, [c for c in ids if c not in set(used)])
    for p in table:
        if p["hand"] is None:
            p["hand"], rest = rest[: p["life"]], rest[p["life"]:]
    sheriff = next(s for s in seats if roles[s] == "sheriff")
    first = setup.get("first", sheriff)
    if isinstance(first, bool) or first not in seats:
        raise GameError(f"setup.first must be a seat at this table ({seats}), got {first!r}")
    state.update({
        "game": "bang", "mode": "classic", "phase": "playing", "options": opts, "ring": seats,
        "players": table, "deck": top + rest, "discard": [], "turn": None, "stack": [], "window": None,
        "window_seq": 0, "winner": None, "log": [], "last": [{"kind": "new_game", "mode": "classic"}],
        "total": len(ids),
    })
    start_game(state, first)
    return state
