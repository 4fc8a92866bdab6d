"""Coup's effects in words for the table log ("Bo challenges Ann's Duke (K)") — docs/rules/coup.md CP-2..CP-5.

Only public facts: effects are what the daemon publishes on ``events`` (hidden cards never appear
in them), so a line can name a card only when the rules turn it face up or show it (CP-3.2, CP-5.1).
Effects without a line here (new game, turn, out, game over) get the shared words of
:mod:`controller.games.words`. Each line is said with :func:`~gametable_core.said.say`, so phones
show it in their language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.games.coup.cards import POKER_RANK
from controller.games.words import Speaker, Who
from gametable_core.said import N_, say, say_n

ROLES = {"duke": N_("Duke"), "assassin": N_("Assassin"), "ambassador": N_("Ambassador"), "captain": N_("Captain"),
         "contessa": N_("Contessa")}
MOVES = {"income": N_("{who} takes income"), "foreign_aid": N_("{who} takes foreign aid"), "tax": N_("{who} takes tax"),
         "assassinate": N_("{who} assassinates"), "steal": N_("{who} steals from"), "exchange": N_("{who} exchanges"),
         "coup": N_("{who} launches a coup")}
WINDOWS = {"challenge_action": N_("{who} may challenge"), "block": N_("{who} may block"),
           "challenge_block": N_("{who} may challenge the block")}


def card(name: Any) -> str:
    """``Captain (10)``: the role and its poker rank (CP-1)."""
    role = say(ROLES[str(name)]) if str(name) in ROLES else str(name).capitalize()
    return say("{role} ({rank})", role=role, rank=POKER_RANK.get(str(name), "?"))


def _declare(eff: dict[str, Any], who: Who) -> str:
    move = str(eff.get("move"))
    doing = say(MOVES[move], who=who(eff.get("seat"))) if move in MOVES else f"{who(eff.get('seat'))} {eff.get('move')}"
    target = f" {who(eff['target'])}" if eff.get("target") is not None else ""
    claim = say(", claiming {card}", card=card(eff["claim"])) if eff.get("claim") else ""
    paid = say(" (pays {coins})", coins=eff["paid"]) if eff.get("paid") else ""
    return say("{doing}{target}{claim}{paid}", doing=doing, target=target, claim=claim, paid=paid)


def _window(eff: dict[str, Any], who: Who) -> str:
    listed = eff.get("seats")
    seats = ", ".join(who(s) for s in listed) if isinstance(listed, list) and listed else say("others")
    window = str(eff.get("window"))
    return say(WINDOWS[window], who=seats) if window in WINDOWS else f"{seats} may {eff.get('window')}"


def _choose(eff: dict[str, Any], who: Who) -> str:
    if eff.get("choice") == "lose_influence":
        return say("{who} must turn a card face up", who=who(eff.get("seat")))
    return say("{who} chooses cards to return", who=who(eff.get("seat")))


def _coins(eff: dict[str, Any], who: Who) -> str:
    return say_n("{who} gets {n} coin", "{who} gets {n} coins", eff.get("coins"), who=who(eff.get("seat")))


# One sentence per Coup effect kind: (effect, who) -> line.
SAY: dict[str, Callable[[dict[str, Any], Who], str]] = {
    "declare": _declare,
    "window": _window,
    "choose": _choose,
    "coins": _coins,
    "pass": lambda e, who: say("{who} passes", who=who(e.get("seat"))),
    "timeout": lambda e, who: say("Time is up: nobody reacted"),
    "challenge": lambda e, who: say("{who} challenges {claimant}'s {card}", who=who(e.get("seat")),
                                    claimant=who(e.get("claimant")), card=card(e.get("claim"))),
    "show": lambda e, who: say("{who} shows {card} and draws a new card (CP-3.2)", who=who(e.get("seat")),
                               card=card(e.get("card"))),
    "bluff": lambda e, who: say("{who} had no {card}: the claim fails (CP-3.3)", who=who(e.get("seat")),
                                card=card(e.get("claim"))),
    "block": lambda e, who: say("{who} blocks, claiming {card}", who=who(e.get("seat")), card=card(e.get("claim"))),
    "blocked": lambda e, who: say("{who}'s block with {card} stands: the action is stopped", who=who(e.get("seat")),
                                  card=card(e.get("claim"))),
    "reveal": lambda e, who: say("{who} turns {card} face up", who=who(e.get("seat")), card=card(e.get("card"))),
    "lose_influence": lambda e, who: say("{who} loses an influence", who=who(e.get("seat"))),
    "steal": lambda e, who: say("{who} steals {coins} from {target}", who=who(e.get("seat")), coins=e.get("coins"),
                                target=who(e.get("target"))),
    "assassinate": lambda e, who: say("{who} assassinates one of {target}'s cards", who=who(e.get("seat")),
                                      target=who(e.get("target"))),
    "coup": lambda e, who: say("{who} pays {coins} for a coup against {target}", who=who(e.get("seat")),
                               coins=e.get("coins"), target=who(e.get("target"))),
    "refund": lambda e, who: say("{who} gets the {coins} coins back (CP-2.3)", who=who(e.get("seat")),
                                 coins=e.get("coins")),
    "exchange_draw": lambda e, who: say("{who} draws {count} cards to exchange", who=who(e.get("seat")),
                                        count=e.get("count")),
    "exchange_return": lambda e, who: say("{who} returns {count} cards to the deck", who=who(e.get("seat")),
                                          count=e.get("count")),
}


def line(eff: dict[str, Any], speak: Speaker) -> str | None:
    """One sentence for a Coup effect, or None when the kind is not Coup's own."""
    say_it = SAY.get(str(eff.get("kind")))
    return say_it(eff, speak.who) if say_it else None
