"""A fresh battlefield from a ``new_game`` input (SG-1, SG-8.1, SG-8.2, SG-9.1), every field checked
before anything is built, so a bad ``new_game`` fails with one specific line."""

from __future__ import annotations

from typing import Any

from controller.games import rng
from controller.games.base import GameError, State
from controller.games.players import (
    check_mode_and_seed,
    check_players,
    check_seconds,
    check_setup,
    name_of,
    setup_per_seat,
    window_option,
)
from controller.games.sanguosha_map import maps
from controller.games.sanguosha_map.cards import (
    BOSS_BONUS,
    CASTLE,
    CLASS,
    DECKS,
    EQUIPMENT,
    GENERALS,
)

GAME = "sanguosha_map"
PLAYERS = (2, 6)
OPTION_DEFAULTS: dict[str, Any] = {"map": "default", "fights": "physical", "physical_dice": False,
                                   "start_gold": 0, "timeout_s": 10, "fight_timeout_s": 60}
SETUP_KEYS = ("generals", "positions", "hands", "equipment", "gold", "castle", "dice", "decks", "first")


def describe() -> dict[str, Any]:
    lo, hi = PLAYERS
    options = {
        "map": {"default": "default", "description": "the built-in map name or an inline map (SG-8.2)"},
        "fights": {"default": "physical", "choices": ["physical", "quick"],
                   "description": "duels and boss fights played with the physical deck and entered on "
                   "the phones, or settled by a seeded quick model (SG-8.13)"},
        "physical_dice": {"default": False, "description": "the roller enters a real die's value (SG-8.10)"},
        "start_gold": {"default": 0, "description": "gold each general starts with (SG-8.7)"},
        "timeout_s": window_option(10, "seconds a dodge or duel window stays open"),
        "fight_timeout_s": {"default": 60, "description": "seconds to confirm a fight result (SG-8.11)"},
    }
    return {
        "game": GAME,
        "title": "Sanguosha battlefield",
        "modes": [{"mode": "battle", "title": "Battlefield",
                   "summary": "Two sides move generals on a map, fight minions, castles and bosses (SG).",
                   "players": [n for n in range(lo, hi + 1) if n % 2 == 0], "teams": True,
                   "options": options,
                   # the guided first game (docs/phones.md): fights resolved on the phones, no board to set up
                   "guided": {"options": {"fights": "quick"}}}],
    }




def _int(value: object, what: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise GameError(f"{what} must be a whole number from {lo} to {hi}, got {value!r}")
    return value


def _options(options: object) -> tuple[dict[str, Any], dict[str, Any]]:
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise GameError("options must be an object")
    unknown = sorted(set(options) - set(OPTION_DEFAULTS) - {"setup"})
    if unknown:
        raise GameError(f"unknown sanguosha_map option {unknown[0]!r}; known: setup, {', '.join(OPTION_DEFAULTS)}")
    opts = {**OPTION_DEFAULTS, **{k: v for k, v in options.items() if k != "setup"}}
    if opts["fights"] not in ("physical", "quick"):
        raise GameError(f"fights must be 'physical' or 'quick', got {opts['fights']!r}")
    if not isinstance(opts["physical_dice"], bool):
        raise GameError(f"physical_dice must be true or false, got {opts['physical_dice']!r}")
    _int(opts["start_gold"], "start_gold", 0, 1000)
    for k in ("timeout_s", "fight_timeout_s"):
        check_seconds(opts[k], k)
    setup = check_setup(options.get("setup") or {}, SETUP_KEYS)
    return opts, setup


def _people(players: object) -> list[dict[str, Any]]:
    checked = check_players(players)
    lo, hi = PLAYERS
    if not lo <= len(checked) <= hi:
        raise GameError(f"sanguosha_map needs {lo}-{hi} players, got {len(checked)}")
    out = []
    for p in checked:
        team = p.get("team")
        if team not in ("A", "B"):
            raise GameError(f"seat {p['seat']}: team must be 'A' (正方) or 'B' (反方), got {team!r}")
        out.append({"seat": p["seat"], "name": name_of(p), "team": team})
    a = sum(p["team"] == "A" for p in out)
    if a * 2 != len(out):
        raise GameError(f"the two sides must be equal (SG-8.1): {a} in A, {len(out) - a} in B")
    return out


def _decks(state: State, setup: dict[str, Any], held: dict[str, list[str]]) -> dict[str, list[str]]:
    given = setup.get("decks") or {}
    if not isinstance(given, dict):
        raise GameError("setup.decks must map a pile to its cards, top first")
    out: dict[str, list[str]] = {}
    for pile, cards in DECKS.items():
        if pile in given:
            top = given[pile]
            if not isinstance(top, list) or any(c not in cards for c in top):
                bad = next((c for c in top if c not in cards), top) if isinstance(top, list) else top
                raise GameError(f"setup.decks.{pile}: {bad!r} is not a card of the {pile} pile")
        else:
            top = []
        used = set(top) | set(held.get(pile, []))
        if len(used) != len(top) + len(held.get(pile, [])):
            raise GameError(f"setup: a card of the {pile} pile is given twice")
        rest = rng.shuffle(state, [c for c in cards if c not in used])
        out[pile] = list(top) + rest
    unknown = sorted(set(given) - set(DECKS))
    if unknown:
        raise GameError(f"setup.decks: unknown pile {unknown[0]!r}; piles: {', '.join(DECKS)}")
    return out


# one check per setup key, in the order SG-9.1 lists them: a reader matches them line by line
def new(options: dict[str, Any] | None, seed: int, *, players: Any, mode: str | None = None,  # noqa: C901
        order: list[int] | None = None) -> State:
    """A fresh battlefield; the first round's minion roll happens at once (SG-9.1)."""
    check_mode_and_seed("sanguosha_map", mode, ("battle",), seed)
    people = _people(players)
    seats = sorted(p["seat"] for p in people)
    if order is not None and (not isinstance(order, list) or sorted(order) != seats):
        raise GameError(f"order must list every seat once ({seats}), got {order!r}")
    opts, setup = _options(options)
    the_map = maps.load(opts["map"])
    the_map["_key"] = maps.key(the_map)
    opts["map"] = the_map["name"]
    geo = maps.geometry(the_map)
    state: State = {"rng": rng.seed_state(seed)}
    rotation = order or seats
    team = {p["seat"]: p["team"] for p in people}
    a_seats = [s for s in rotation if team[s] == "A"]
    b_seats = [s for s in rotation if team[s] == "B"]
    turn_order = [s for pair in zip(a_seats, b_seats, strict=True) for s in pair]  # SG-8.1

    generals = setup_per_seat(setup, "generals", seats)
    for s, g in generals.items():
        if g not in GENERALS:
            raise GameError(f"setup.generals: unknown general {g!r} for seat {s}")
    positions = {s: maps.parse_cell(v, f"setup.positions seat {s}", the_map["rows"])
                 for s, v in setup_per_seat(setup, "positions", seats).items()}
    for s, cell in positions.items():
        if not geo.walkable(cell):
            raise GameError(f"setup.positions: seat {s}'s cell {list(cell)} is not walkable")
    hands = setup_per_seat(setup, "hands", seats)
    for s, h in hands.items():
        if not isinstance(h, list) or any(c not in DECKS["action"] for c in h):
            raise GameError(f"setup.hands: seat {s} must hold action cards (strike-N, dodge-N), got {h!r}")
    equipment = setup_per_seat(setup, "equipment", seats)
    for s, e in equipment.items():
        if not isinstance(e, dict) or set(e) - {"weapon", "horse", "armour"}:
            raise GameError(f"setup.equipment: seat {s} must be {{weapon, horse, armour}}, got {e!r}")
        for slot, card in e.items():
            kind = EQUIPMENT.get(card, {}).get("kind", "")
            if card is not None and not kind.startswith(slot):
                raise GameError(f"setup.equipment: {card!r} is not a {slot} (seat {s})")
    gold = {s: _int(g, f"setup.gold seat {s}", 0, 10000) for s, g in setup_per_seat(setup, "gold", seats).items()}
    castle = setup.get("castle") or {}
    if not isinstance(castle, dict) or set(castle) - {"A", "B"}:
        raise GameError("setup.castle must be {\"A\": n, \"B\": n}")
    dice = setup.get("dice") or []
    if not isinstance(dice, list):
        raise GameError("setup.dice must be a list of die values 1-6")
    dice = [_int(d, "setup.dice", 1, 6) for d in dice]
    first = setup.get("first")
    if first is not None and first not in seats:
        raise GameError(f"setup.first must be a seat at this table ({seats}), got {first!r}")

    held: dict[str, list[str]] = {"action": [c for h in hands.values() for c in h],
                                  "weapon": [e["weapon"] for e in equipment.values() if e.get("weapon")],
                                  "horse": [e["horse"] for e in equipment.values() if e.get("horse")],
                                  "armour": [e["armour"] for e in equipment.values() if e.get("armour")]}
    decks = _decks(state, setup, held)
    fixed = set(generals.values())
    pool = {side: rng.shuffle(state, [g for g in GENERALS if g not in fixed]) for side in ("A", "B")}
    table = []
    for s in turn_order:
        side = team[s]
        if s in generals:
            offers = [generals[s]]
        else:
            offers, pool[side] = pool[side][:2], pool[side][2:]  # SG-1: 2 per player, each picks
        general = offers[0]
        cls = GENERALS[general]["card_health"]
        inner = [(r, c) for r, row in enumerate(the_map["rows"]) for c, ch in enumerate(row)
                 if ch == maps.INNER[side]]
        cell = positions.get(s) or inner[rng.randbelow(state, len(inner))]
        eq = equipment.get(s, {})
        table.append({
            "seat": s, "name": next(p["name"] for p in people if p["seat"] == s), "team": side,
            "general": general, "offers": offers, "class": cls, "health": CLASS[cls]["health"],
            "max_health": CLASS[cls]["health"], "gold": gold.get(s, opts["start_gold"]),
            "cell": list(cell), "knocked_out": False, "weapon": eq.get("weapon"), "horse": eq.get("horse"),
            "armour": eq.get("armour"), "action": list(hands.get(s, [])), "strategy": [], "started": False,
            "skips": 0,  # turns still to skip while knocked out (SG-4, SG-8.14)
        })
    sides = {}
    for side in ("A", "B"):
        boss = pool[side][0]
        hp = GENERALS[boss]["card_health"] + BOSS_BONUS
        spec = the_map["minions"][side]
        sides[side] = {
            "castle": _int(castle.get(side, CASTLE), f"setup.castle.{side}", 1, 1000),
            "boss": {"general": boss, "health": hp, "max_health": hp},
            "minions": [{"id": f"{side}{i + 1}", "cell": list(c), "alive": True, "waiting": False,
                         "arrived": False, "step": 0} for i, c in enumerate(spec["cells"])],
        }
    state.update({
        "game": GAME, "mode": "battle", "phase": "playing", "options": opts, "map": the_map,
        "dice": dice, "order": turn_order, "players": table, "sides": sides, "decks": decks,
        "discard": [], "bank": 0, "round": {"n": 0, "minion_roll": None},
        "turn": None, "fight": None, "window": None, "seq": 0, "winner": None, "log": [],
        "last": [{"kind": "new_game", "mode": "battle"}],
    })
    from controller.games.sanguosha_map.engine import start_round

    start_round(state, first=first)
    return state
